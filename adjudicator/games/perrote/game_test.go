package perrote

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// stepRoller is a deterministic roller for turn k of a test game.
func stepRoller(seed string, k uint64) *legacy.StepRoller {
	h := func(s string) dice.Hash { return dice.Hash(sha256.Sum256([]byte(s))) }
	log := legacy.NewLog(h(seed+"open0"), h(seed+"sealed0"))
	return legacy.NewStepRoller(log, k, h(fmt.Sprint(seed, k)), h(fmt.Sprint(seed, "open", k)), h(fmt.Sprint(seed, "sealed", k)))
}

// playBots plays a scenario with the bot on every seat until it ends.
func playBots(t testing.TB, scenario, seed string) ([]byte, [][]adjudicator.Event) {
	t.Helper()
	state, err := Game.New(scenario, nil)
	if err != nil {
		t.Fatal(err)
	}
	var all [][]adjudicator.Event
	for k := uint64(1); k < 100; k++ {
		spec, err := Game.Step(state)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Over {
			return state, all
		}
		orders := map[string][]string{}
		for _, seat := range spec.Owing {
			lines, err := Bot(state, seat)
			if err != nil {
				t.Fatal(err)
			}
			var in []adjudicator.OrderLine
			for i, l := range lines {
				in = append(in, adjudicator.OrderLine{Line: i + 1, Text: l})
			}
			canon, problems := Game.ParseOrders(state, seat, in)
			if len(problems) > 0 {
				t.Fatalf("turn %d: the bot's orders for %s have problems: %v\n%s", k, seat, problems, strings.Join(lines, "\n"))
			}
			orders[seat] = canon
		}
		next, events, err := Game.Adjudicate(state, orders, stepRoller(seed, k))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, events)
		state = next
	}
	t.Fatal("the game did not end")
	return nil, nil
}

// TestDemoBots plays the demo with bots on both seats: it ends within its
// six turns, and the first three turns see shooting, a vehicle hit and
// movement.
func TestDemoBots(t *testing.T) {
	state, turns := playBots(t, "demo", "demo-1")
	if len(turns) > 6 {
		t.Errorf("the demo took %d turns", len(turns))
	}
	var first3 strings.Builder
	for i, evs := range turns {
		for _, e := range evs {
			if i < 3 {
				fmt.Fprintf(&first3, "%s: %s\n", e.Rule, e.Text)
			}
			if testing.Verbose() {
				t.Logf("turn %d [%s] %s", i+1, e.Rule, e.Text)
			}
		}
	}
	text := first3.String()
	for _, want := range []string{" moves ", " fires ", " is hit: damage roll"} {
		if !strings.Contains(text, want) {
			t.Errorf("the first three turns have no %q", want)
		}
	}
	s, _ := decode(state)
	if !s.Over || s.Result == "" {
		t.Errorf("the game is not over: %+v", s.Result)
	}
}

// TestAdjudicateDeterministic: the same state, orders and dice give the
// same bytes.
func TestAdjudicateDeterministic(t *testing.T) {
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := uint64(1); k <= 3; k++ {
		orders := map[string][]string{}
		for _, seat := range []string{"Russia", "USA"} {
			orders[seat], _ = Bot(state, seat)
		}
		a, ea, err1 := Game.Adjudicate(state, orders, stepRoller("det", k))
		b, eb, err2 := Game.Adjudicate(state, orders, stepRoller("det", k))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(a, b) || fmt.Sprint(ea) != fmt.Sprint(eb) {
			t.Fatalf("turn %d: two adjudications differ", k)
		}
		state = a
	}
}
