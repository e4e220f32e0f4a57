package wbt

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games of the demo without a refusal.
func TestBriefings(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		n := rulestest.Briefings(t, Game, "demo", nil, seed, 400)
		if !n.Over {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, n.Steps)
		}
		t.Logf("seed %d: %d steps, %d lines sent of %d choices", seed, n.Steps, n.Lines, n.Choices)
	}
}
