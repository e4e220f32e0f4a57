package sms1914

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// playDemo plays the demo scenario with the bot for both seats, every
// step's orders checked by ParseOrders and every draw through a real step
// roller; it calls each after a step with the state before and after it
// and the step's events and draws.
func playDemo(t testing.TB, each func(step int, before, after []byte, events []adjudicator.Event, draws []legacy.EntryRecord)) int {
	t.Helper()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	bot := Game.(adjudicator.Bot)
	log := legacy.NewLog(dice.Hash{}, dice.Hash{})
	for step := 1; step < 300; step++ {
		spec, err := Game.Step(state)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Over {
			return step - 1
		}
		orders := map[string][]string{}
		for _, s := range spec.Owing {
			lines, err := bot.Bot(state, s)
			if err != nil {
				t.Fatal(err)
			}
			var ol []adjudicator.OrderLine
			for i, l := range lines {
				ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
			}
			canon, probs := Game.ParseOrders(state, s, ol)
			for _, p := range probs {
				t.Errorf("step %d (%s), %s's bot order %q: %s (hint: %s)", step, spec.Phase, s, lines[p.Line-1], p.Text, p.Hint)
			}
			orders[s] = canon
		}
		h := sha256.Sum256([]byte(fmt.Sprint("demo", step)))
		r := legacy.NewStepRoller(log, uint64(step), h, h, h)
		next, events, err := Game.Adjudicate(state, orders, r)
		if err != nil {
			t.Fatalf("step %d (%s): %v", step, spec.Phase, err)
		}
		if each != nil {
			each(step, state, next, events, r.Records())
		}
		state = next
	}
	t.Fatal("the demo did not end in 300 steps")
	return 0
}

// TestDemoPlaysToTheEnd: the bots play the demo (GT 5-7) to the victory
// check through the 2nd Inter-Phase; every draw cites a 1914 rule.
func TestDemoPlaysToTheEnd(t *testing.T) {
	t.Parallel()
	var inter, over, combats bool
	steps := playDemo(t, func(step int, before, after []byte, events []adjudicator.Event, draws []legacy.EntryRecord) {
		for _, d := range draws {
			if !strings.HasPrefix(d.Entry.Purpose, "1914 SmS ") {
				t.Errorf("step %d: draw %q cites no rule", step, d.Entry.Purpose)
			}
		}
		for _, e := range events {
			switch {
			case strings.HasPrefix(e.Text, "Inter-Phase"):
				inter = true
			case strings.HasPrefix(e.Rule, "27") && strings.Contains(e.Text, "The game ends"):
				over = true
			case e.Rule == "9.9":
				combats = true
			}
			if e.Rule == "" {
				t.Errorf("step %d: event %q cites no rule", step, e.Text)
			}
		}
	})
	if !inter || !over || !combats {
		t.Errorf("after %d steps: inter-phase %v, victory check %v, combat %v", steps, inter, over, combats)
	}
}

// TestStandingTwinsDoNotGrow: 30,000 copies of one standing defend line
// once grew the state from 7.7 kB to 848 kB; each copy replaces its twin,
// so the state keeps one (docs/orders-sms1914.md, standing orders).
func TestStandingTwinsDoNotGrow(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	size := func(n int) int {
		var lines []adjudicator.OrderLine
		for i := 0; i < n; i++ {
			lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: "defend intense at 30.09 if attacker"})
		}
		canon, probs := Game.ParseOrders(state, seatSerb, lines)
		if len(probs) > 0 || len(canon) != n {
			t.Fatalf("%d lines: %d orders, problems %v", n, len(canon), probs)
		}
		if n > 1 && !strings.HasSuffix(canon[n-1], "# replaces: defend intense at 30.09 if attacker") {
			t.Errorf("the receipt does not say what the twin replaced: %q", canon[n-1])
		}
		h := sha256.Sum256([]byte("twins"))
		next, _, err := Game.Adjudicate(state, map[string][]string{seatSerb: canon}, legacy.NewStepRoller(legacy.NewLog(h, h), 1, h, h, h))
		if err != nil {
			t.Fatal(err)
		}
		g, err := decode(next)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.standing(seatSerb, "defend"); len(got) != 1 {
			t.Errorf("%d lines keep %d defend orders: %v", n, len(got), got)
		}
		return len(next)
	}
	if one, many := size(1), size(30000); many != one {
		t.Errorf("one line gives a state of %d bytes, 30,000 copies %d", one, many)
	}
}
