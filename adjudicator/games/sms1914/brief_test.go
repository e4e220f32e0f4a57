package sms1914

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole demo games without a refusal (issue 31, the
// newcomer test).
func TestBriefings(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2} {
		n := rulestest.Briefings(t, Game, "demo", nil, seed, 5000)
		if !n.Over {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, n.Steps)
		}
		t.Logf("seed %d: %d steps, %d lines sent of %d choices", seed, n.Steps, n.Lines, n.Choices)
	}
}
