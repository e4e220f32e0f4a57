package wbt

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// seeded is a deterministic roller for whole-game tests.
type seeded struct {
	rng   *rand.Rand
	draws []string
}

func newSeeded(seed uint64) *seeded { return &seeded{rng: rand.New(rand.NewPCG(seed, 7))} }

func (s *seeded) Draw(_ string, sp spec.Spec, purpose string) []int {
	if purpose == "" || !strings.HasPrefix(purpose, "WbT ") {
		panic("draw without a WbT rule purpose: " + purpose)
	}
	s.draws = append(s.draws, purpose)
	out := make([]int, sp.Draws())
	for i := range out {
		switch sp.Kind {
		case spec.KindDice:
			out[i] = sp.Base + s.rng.IntN(sp.Faces)
		default:
			out[i] = s.rng.IntN(sp.Faces - i)
		}
	}
	return out
}

// playGame plays the demo between two bots; it returns the final state and
// every event.
func playGame(t testing.TB, seed uint64, options map[string]string) ([]byte, []adjudicator.Event, int) {
	t.Helper()
	state, err := Game.New("demo", options)
	if err != nil {
		t.Fatal(err)
	}
	bot := Game.(adjudicator.Bot)
	rep := Game.(adjudicator.Reporter)
	var all []adjudicator.Event
	steps := 0
	for ; steps < 2000; steps++ {
		sp, err := Game.Step(state)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Over {
			break
		}
		seat := sp.Owing[0]
		lines, err := bot.Bot(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		var ol []adjudicator.OrderLine
		for i, l := range lines {
			ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon, problems := Game.ParseOrders(state, seat, ol)
		if len(problems) > 0 {
			t.Fatalf("step %d (%s): bot orders %q refused: %+v", steps, sp.Phase, lines, problems)
		}
		r := newSeeded(seed + uint64(steps)*7919)
		next, events, err := Game.Adjudicate(state, map[string][]string{seat: canon}, r)
		if err != nil {
			t.Fatalf("step %d (%s): %v", steps, sp.Phase, err)
		}
		// determinism: the same inputs give the same bytes
		again, _, err := Game.Adjudicate(state, map[string][]string{seat: canon}, newSeeded(seed+uint64(steps)*7919))
		if err != nil || !bytes.Equal(next, again) {
			t.Fatalf("step %d (%s): adjudication is not deterministic", steps, sp.Phase)
		}
		for _, e := range events {
			if e.Rule == "" {
				t.Fatalf("step %d: event without a rule: %s", steps, e.Text)
			}
		}
		all = append(all, events...)
		if _, err := rep.Situation(next, seat); err != nil {
			t.Fatal(err)
		}
		state = next
	}
	return state, all, steps
}

func TestBotGameEnds(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		state, events, steps := playGame(t, seed, nil)
		g, err := decode(state)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Over {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, steps)
		}
		t.Logf("seed %d: %d steps, turn %d, MePPs %d, winner %s (%s), %d events", seed, steps, g.Turn, g.MePPs, g.Winner, g.Reason, len(events))
	}
}

// TestSetupNeutralNotCarriedOut: an order that reaches adjudication without
// the receipt's check (an order file stored by an older judge, say) still
// may not set NATO up in a neutral it did not bring in (3.2): with no
// neutrals declared, every neutral is closed.
func TestSetupNeutralNotCarriedOut(t *testing.T) {
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Romania (3404..4019) is neutral unless brought in.
	next, events, err := Game.Adjudicate(state, map[string][]string{seatNATO: {"place US-1AD 3410"}}, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(next)
	if err != nil {
		t.Fatal(err)
	}
	if h := g.byID["US-1AD"].Hex; h != "2302" {
		t.Errorf("WbT 3.2: US-1AD set up at %s, want its demo hex 2302", h)
	}
	found := false
	for _, e := range events {
		found = found || strings.Contains(e.Text, "US-1AD may not set up in 3410")
	}
	if !found {
		t.Errorf("WbT 3.2: no event refuses the placement: %v", events)
	}
}
