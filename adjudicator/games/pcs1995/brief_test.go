package pcs1995

import (
	"math/rand/v2"
	"slices"
	"strings"
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

// decisionStates plays demo games between newcomers (random lines of
// their briefs) and keeps the first state of each kind of decision step
// (6.2, 6.3.1, 6.5, 8.3, 8.4).
func decisionStates(t *testing.T) map[string][]byte {
	t.Helper()
	found := map[string][]byte{}
	br := Game.(adjudicator.Briefer)
	for seed := uint64(1); seed <= 6 && len(found) < 5; seed++ {
		state, err := Game.New("demo", nil)
		if err != nil {
			t.Fatal(err)
		}
		pick := rand.New(rand.NewPCG(seed, 5))
		r := newSeeded(seed)
		for steps := 0; steps < 3000 && len(found) < 5; steps++ {
			sp, _ := Game.Step(state)
			if sp.Over {
				break
			}
			if g, _ := decode(state); g.Phase == phaseDecision && found[g.Pending.Decide] == nil {
				found[g.Pending.Decide] = state
			}
			orders := map[string][]string{}
			for _, seat := range sp.Owing {
				var ol []adjudicator.OrderLine
				for _, c := range br.Brief(state, seat).Choices {
					if strings.Contains(c.About, "standing") && !strings.Contains(c.About, "absorb") {
						continue // leave the opponent's decisions to decision steps
					}
					if len(ol) == 0 || pick.IntN(3) > 0 {
						ol = append(ol, adjudicator.OrderLine{Line: len(ol) + 1, Text: c.Lines[pick.IntN(len(c.Lines))]})
					}
				}
				orders[seat], _ = Game.ParseOrders(state, seat, ol)
			}
			if state, _, err = Game.Adjudicate(state, orders, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return found
}

// accepted reports whether ParseOrders takes one line from seat.
func accepted(state []byte, seat, line string) bool {
	_, probs := Game.ParseOrders(state, seat, []adjudicator.OrderLine{{Line: 1, Text: line}})
	return len(probs) == 0
}

// TestBriefDecisionAnswers: a decision step's brief lists the answers to
// its question, each accepted by the parser, and none it refuses: how
// many patrol F intercept (6.2), the air committed in defence (6.5,
// 6.3.2), the interdiction of an SM (6.3.1), the order of the ways to
// absorb LP (8.3) and who advances after a PA (8.4).
func TestBriefDecisionAnswers(t *testing.T) {
	t.Parallel()
	states := decisionStates(t)
	for _, kind := range []string{"intercept", "defend", "interdict", "absorb", "advance"} {
		state := states[kind]
		if state == nil {
			t.Errorf("no %s decision in the game played", kind)
			continue
		}
		g, _ := decode(state)
		seat := g.Pending.Seat
		brief := Game.(adjudicator.Briefer).Brief(state, seat)
		if len(brief.Choices) != 1 {
			t.Fatalf("%s: want one choice, the answer; got %+v", kind, brief.Choices)
		}
		lines := brief.Choices[0].Lines
		t.Logf("%s: %s\n  %s", kind, brief.Asks, strings.Join(lines, "\n  "))
		for _, l := range lines {
			if !accepted(state, seat, l) {
				t.Errorf("%s: the brief lists %q, which the parser refuses", kind, l)
			}
		}
		side := sideOf(seat)
		switch kind {
		case "intercept": // none, 1 .. n-1, all of the n patrol F (6.2)
			n := len(aliveOf(g.airOf(side, boxPatrol)))
			if len(lines) != n+1 || lines[0] != "decide none" || lines[n] != "decide all" {
				t.Errorf("intercept with %d patrol F: want none, 1..%d, all; got %q", n, n-1, lines)
			}
			if accepted(state, seat, "decide 100") {
				t.Error("decide 100 is accepted")
			}
		case "defend", "interdict":
			if !slices.Contains(lines, map[string]string{"defend": "decide none", "interdict": "decide sm none"}[kind]) {
				t.Errorf("%s: committing nothing is not offered: %q", kind, lines)
			}
		case "absorb": // every order of the options the question names, then rout (8.3)
			_, opts, _ := strings.Cut(g.Pending.Question, "Options: ")
			k := strings.Count(opts, "(") - 1
			fact := 1
			for i := 2; i <= k; i++ {
				fact *= i
			}
			if len(lines) != fact+1 && !(k == 0 && len(lines) == 1) {
				t.Errorf("absorb with %d options before rout (%s): want %d orders and rout alone; got %d: %q", k, opts, fact, len(lines), lines)
			}
			for _, l := range lines {
				if !strings.HasSuffix(l, " rout") {
					t.Errorf("absorb: %q does not end in rout", l)
				}
			}
			if accepted(state, seat, "decide static static") {
				t.Error("an option named twice is accepted")
			}
		case "advance": // none, the lead, a supporter, the lead on into a hex the AACMA pays (8.4)
			if lines[0] != "decide none" || lines[1] != "decide lead" {
				t.Errorf("advance: want none and lead first; got %q", lines)
			}
			lead := strings.Fields(g.Pending.Work.Line)[1]
			far := "decide " + lead + ">0101>0102>0103>0104>0105"
			if accepted(state, seat, far) || slices.Contains(lines, far) {
				t.Errorf("advance: %q is accepted or listed", far)
			}
		}
	}
}

// TestBriefWording: a unit's heading names it as the units table does,
// with its position and state, and says what happens without an order;
// the pre-filled file's lines are the parser's canonical orders.
func TestBriefWording(t *testing.T) {
	t.Parallel()
	state := demoTurn(t)
	brief := Game.(adjudicator.Briefer).Brief(state, seatRS)
	form := adjudicator.OrderForm("club-1995-1", seatRS, 2, "turn 1", brief)
	for _, want := range []string{
		"## RU-27 mech (UQR [D], MA 8 mech) at 4015 (Vranje), fresh; without an order\n##   this file does not activate it. Keep one:\n# move RU-27 ",
		"## SR-MIG21 F air (Serbian, ER 2), in patrol; without an order it goes to its\n##   default box, patrol. Keep one:\n# air SR-MIG21 suppression\n\n",
		"## the end of your activations (7.0); without an order you are asked again\n##   when your queue runs out. Keep one:\n# pass\n",
	} {
		if !strings.Contains(form, want) {
			t.Errorf("the form lacks\n%s\n---- form:\n%s", want, form)
		}
	}
	if !strings.Contains(brief.Asks, "Turn 1 (NATO has the initiative)") {
		t.Errorf("Asks = %q", brief.Asks)
	}
}

// TestStandingOrdersShown: the standing orders in force are listed for the
// seat, the decisions without one as ask and stop as none; an order sent
// replaces its line, and the brief no longer offers the order in force.
func TestStandingOrdersShown(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	so := Game.(adjudicator.StandingOrders)
	want := "absorb ask|defend ask|intercept all ask|interdict ask|advancing ask|stop none"
	if got := strings.Join(so.Standing(state, seatNATO), "|"); got != want {
		t.Errorf("before any order: %s, want %s", got, want)
	}
	canon, probs := Game.ParseOrders(state, seatNATO, []adjudicator.OrderLine{{Line: 1, Text: "absorb rout"}, {Line: 2, Text: "intercept airstrike 2"}, {Line: 3, Text: "stop after attack on any"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	state, _, err = Game.Adjudicate(state, map[string][]string{seatNATO: canon}, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	want = "absorb rout|defend ask|intercept all ask|interdict ask|intercept airstrike 2|advancing ask|stop after attack on any"
	if got := strings.Join(so.Standing(state, seatNATO), "|"); got != want {
		t.Errorf("after absorb rout, intercept airstrike 2, stop on any: %s, want %s", got, want)
	}
	if got := strings.Join(so.Standing(state, seatRS), "|"); !strings.HasPrefix(got, "absorb ask|") {
		t.Errorf("RS's orders are NATO's: %s", got)
	}
	for _, c := range Game.(adjudicator.Briefer).Brief(state, seatNATO).Choices {
		if slices.Contains(c.Lines, "absorb rout") || slices.Contains(c.Lines, "stop after attack on any") {
			t.Errorf("the brief offers an order in force: %s %q", c.About, c.Lines)
		}
	}
}
