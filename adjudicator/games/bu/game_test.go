package bu

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// seeded is a roller for tests: pseudo-random faces from a seed; it checks
// that every draw cites a B&U rule and that hidden draws use a deck stream.
type seeded struct {
	rng     *rand.Rand
	draws   []string
	streams []string
	reveals []string
	t       testing.TB
}

func newSeeded(t testing.TB, seed uint64) *seeded {
	return &seeded{rng: rand.New(rand.NewPCG(seed, 7)), t: t}
}

func (s *seeded) Draw(stream string, sp spec.Spec, purpose string) []int {
	if !strings.HasPrefix(purpose, "B&U ") {
		s.t.Fatalf("draw without a B&U rule in its purpose: %q", purpose)
	}
	if stream != dice.Open && !strings.HasPrefix(stream, "deck-") {
		s.t.Fatalf("hidden draw on stream %q", stream)
	}
	s.draws = append(s.draws, purpose)
	s.streams = append(s.streams, stream)
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

func (s *seeded) Reveal(stream string) { s.reveals = append(s.reveals, stream) }

// playGame plays a scenario between bots; it returns the final state, every
// event and the steps played.
func playGame(t testing.TB, scenario string, seed uint64, options map[string]string) ([]byte, []adjudicator.Event, int) {
	t.Helper()
	state, err := Game.New(scenario, options)
	if err != nil {
		t.Fatal(err)
	}
	bot := Game.(adjudicator.Bot)
	rep := Game.(adjudicator.Reporter)
	var all []adjudicator.Event
	steps := 0
	for ; steps < 3000; steps++ {
		sp, err := Game.Step(state)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Over {
			break
		}
		orders := map[string][]string{}
		for _, seat := range sp.Owing {
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
				t.Fatalf("step %d (%s): %s's bot orders %q refused: %+v", steps, sp.Phase, seat, lines, problems)
			}
			orders[seat] = canon
		}
		next, events, err := Game.Adjudicate(state, orders, newSeeded(t, seed+uint64(steps)*7919))
		if err != nil {
			t.Fatalf("step %d (%s): %v", steps, sp.Phase, err)
		}
		again, _, err := Game.Adjudicate(state, orders, newSeeded(t, seed+uint64(steps)*7919))
		if err != nil || !bytes.Equal(next, again) {
			t.Fatalf("step %d (%s): adjudication is not deterministic", steps, sp.Phase)
		}
		for _, e := range events {
			if e.Rule == "" {
				t.Fatalf("step %d: event without a rule: %s", steps, e.Text)
			}
		}
		all = append(all, events...)
		for _, seat := range append(slices.Clone(sp.Owing), "", adjudicator.Spectator) {
			if _, err := rep.Situation(next, seat); err != nil {
				t.Fatal(err)
			}
		}
		checkInvariants(t, next, steps)
		state = next
	}
	return state, all, steps
}

// checkInvariants checks what must hold after every step: stacking, units
// only in friendly spaces, every card in exactly one place.
func checkInvariants(t testing.TB, state []byte, step int) {
	t.Helper()
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, u := range g.Units {
		if u.Box != onMap {
			continue
		}
		count[u.Space]++
		sp := g.space(u.Space)
		if sp.Foreign() {
			if !usesDesignation(u.Side(), sp.Designation) {
				t.Fatalf("step %d: %s in the foreign space %s", step, u.ID, sp.ID)
			}
			continue
		}
		if !g.friendly(u.Side(), g.Control[u.Space]) {
			t.Fatalf("step %d: %s (%s) in %s, controlled by %s", step, u.ID, u.Side(), u.Space, g.Control[u.Space])
		}
	}
	for sp, n := range count {
		if n > stackLimit && g.Round == nil {
			t.Fatalf("step %d: %d units at %s", step, n, sp)
		}
	}
	seen := map[string]string{}
	note := func(id, where string) {
		if prev, ok := seen[id]; ok {
			t.Fatalf("step %d: card %s is in %s and %s", step, id, prev, where)
		}
		seen[id] = where
	}
	for seat, d := range g.Decks {
		for _, c := range d.Draw {
			note(c, seat+" draw")
		}
		for _, c := range d.Late {
			note(c, seat+" late")
		}
		for _, c := range d.Discard {
			note(c, seat+" discard")
		}
		for _, c := range d.Out {
			note(c, seat+" out")
		}
		for _, c := range g.Hands[seat] {
			note(c, seat+" hand")
		}
	}
	for _, l := range g.Lasting {
		note(l.Card, "lasting")
	}
	if g.Round != nil {
		for _, c := range g.Round.Cards {
			note(c.Card, "round")
		}
		if g.Round.Card != "" {
			if _, ok := seen[g.Round.Card]; !ok {
				seen[g.Round.Card] = "played"
			}
		}
	}
	want := 96
	if len(g.Seats) == 2 {
		want = 96
	}
	if len(seen) != want {
		t.Fatalf("step %d: %d cards accounted for, want %d", step, len(seen), want)
	}
}

func TestBotGamesEnd(t *testing.T) {
	t.Parallel()
	decisions := 0
	defer func() {
		if decisions == 0 {
			t.Errorf("no decision step in the three-player games (the Bosniak bot asks for its losses, the Croat for its retreats)")
		}
	}()
	for _, tc := range []struct {
		scenario string
		seed     uint64
	}{{"three", 1}, {"three", 2}, {"two", 3}, {"two", 4}} {
		state, events, steps := playGame(t, tc.scenario, tc.seed, nil)
		g, err := decode(state)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Over {
			t.Fatalf("%s seed %d: the game did not end in %d steps", tc.scenario, tc.seed, steps)
		}
		waits := 0
		for _, e := range events {
			if strings.Contains(e.Text, "The round waits for") {
				waits++
			}
		}
		if tc.scenario == "three" {
			decisions += waits
		}
		t.Logf("%s seed %d: %d steps (%d decision steps), turn %d, winners %v (%s), %d events", tc.scenario, tc.seed, steps, waits, g.Turn, g.Winners, g.Reason, len(events))
	}
}
