package bu

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games of both scenarios without a refusal.
func TestBriefings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		scenario string
		seed     uint64
	}{{"three", 1}, {"three", 2}, {"two", 3}, {"two", 4}} {
		n := rulestest.Briefings(t, Game, tc.scenario, nil, tc.seed, 2000)
		if !n.Over {
			t.Fatalf("%s seed %d: the game did not end in %d steps", tc.scenario, tc.seed, n.Steps)
		}
		t.Logf("%s seed %d: %d steps, %d lines sent of %d choices", tc.scenario, tc.seed, n.Steps, n.Lines, n.Choices)
	}
}
