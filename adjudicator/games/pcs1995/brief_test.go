package pcs1995

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games, in the default and the strict mode, without
// a refusal (issue 31, the newcomer test).
func TestBriefings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		options map[string]string
		seeds   []uint64
	}{{"default", nil, []uint64{1, 2}}, {"strict", map[string]string{"strict": "yes"}, []uint64{3}}} {
		for _, seed := range c.seeds {
			n := rulestest.Briefings(t, Game, "demo", c.options, seed, 5000)
			if !n.Over {
				t.Fatalf("%s seed %d: the game did not end in %d steps", c.name, seed, n.Steps)
			}
			t.Logf("%s seed %d: %d steps, %d lines sent of %d choices", c.name, seed, n.Steps, n.Lines, n.Choices)
		}
	}
}

// demoTurn is the demo's turn-1 step, after the default set-up.
func demoTurn(t testing.TB) []byte {
	t.Helper()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	state, _, err = Game.Adjudicate(state, nil, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// BenchmarkBrief briefs NATO on the demo's turn 1: placements, air boxes,
// every unit's activations, checked by the parser.
func BenchmarkBrief(b *testing.B) {
	state := demoTurn(b)
	br := Game.(interface {
		Brief([]byte, string) adjudicator.Brief
	})
	for b.Loop() {
		br.Brief(state, seatNATO)
	}
}
