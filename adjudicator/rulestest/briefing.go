package rulestest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Newcomer is what Briefings measured of one whole game played from the
// briefs alone.
type Newcomer struct {
	Steps int  // steps adjudicated
	Over  bool // the game ended
	// Lines are the order lines sent in all; Choices the choices offered.
	Lines, Choices int
}

// Briefings plays a whole game of rules (scenario with options) as
// newcomers would: at every step, each seat that owes orders reads its
// brief as the pre-filled order file the judge mails
// (adjudicator.OrderForm, read back with FormChoices), keeps at random one
// line of each choice or none (at least one line in all; a line of a
// choice with Needs only when it kept one of them, which stand in earlier
// choices), and sends that;
// dice fall from seed. It fails t when a seat owing orders gets no brief
// or a brief without choices, a choice has no line, or ParseOrders finds a
// problem in a file so made: the Briefer contract. It stops after
// maxSteps steps.
func Briefings(t testing.TB, rules adjudicator.Rules, scenario string, options map[string]string, seed uint64, maxSteps int) Newcomer {
	t.Helper()
	br, ok := rules.(adjudicator.Briefer)
	if !ok {
		t.Fatalf("%s does not brief its seats (adjudicator.Briefer)", rules.ID())
	}
	state, err := rules.New(scenario, options)
	if err != nil {
		t.Fatal(err)
	}
	pick := rand.New(rand.NewPCG(seed, 31))
	roll := &seededRoller{rng: rand.New(rand.NewPCG(seed, 7))}
	var n Newcomer
	for ; n.Steps < maxSteps; n.Steps++ {
		sp, err := rules.Step(state)
		if err != nil {
			t.Fatalf("step %d: %v", n.Steps+1, err)
		}
		if sp.Over {
			n.Over = true
			return n
		}
		orders := map[string][]string{}
		for _, seat := range sp.Owing {
			brief := br.Brief(state, seat)
			form := adjudicator.OrderForm("newcomer", seat, uint64(n.Steps+1), sp.Phase, brief)
			_, choices := adjudicator.FormChoices(form)
			if len(choices) == 0 {
				t.Fatalf("step %d (%s): %s owes orders but its brief offers no choice:\n%s", n.Steps+1, sp.Phase, seat, form)
			}
			var lines, free []string
			for _, c := range choices {
				if len(c.Lines) == 0 {
					t.Fatalf("step %d (%s): %s's choice %q has no line:\n%s", n.Steps+1, sp.Phase, seat, c.About, form)
				}
				n.Choices++
				if len(c.Needs) > 0 && !slices.ContainsFunc(c.Needs, func(l string) bool { return slices.Contains(lines, l) }) {
					continue // what it needs was not kept
				}
				if len(c.Needs) == 0 {
					free = append(free, c.Lines...)
				}
				if pick.IntN(4) > 0 {
					lines = append(lines, c.Lines[pick.IntN(len(c.Lines))])
				}
			}
			if len(lines) == 0 {
				if len(free) == 0 {
					t.Fatalf("step %d (%s): every choice of %s's brief needs another line:\n%s", n.Steps+1, sp.Phase, seat, form)
				}
				lines = append(lines, free[pick.IntN(len(free))])
			}
			canon, problems := rules.ParseOrders(state, seat, adjudicator.NumberLines(lines...))
			if len(problems) > 0 {
				var b strings.Builder
				for _, p := range problems {
					fmt.Fprintf(&b, "\n  line %d %q: %s (hint: %s)", p.Line, lines[max(0, min(p.Line, len(lines))-1)], p.Text, p.Hint)
				}
				t.Fatalf("step %d (%s): %s's file made from its brief was refused:%s\nthe form:\n%s", n.Steps+1, sp.Phase, seat, b.String(), form)
			}
			n.Lines += len(lines)
			orders[seat] = canon
		}
		next, _, err := rules.Adjudicate(state, orders, roll)
		if err != nil {
			t.Fatalf("step %d (%s): adjudicate %v: %v", n.Steps+1, sp.Phase, orders, err)
		}
		state = next
	}
	return n
}

// seededRoller draws from a seeded generator, for whole-game tests.
type seededRoller struct{ rng *rand.Rand }

func (s *seededRoller) Draw(_ string, sp spec.Spec, _ string) []int {
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
