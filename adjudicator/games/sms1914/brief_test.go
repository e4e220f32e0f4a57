package sms1914

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole demo games without a refusal (issue 31, the
// newcomer test).
func TestBriefings(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		n := rulestest.Briefings(t, Game, "demo", nil, seed, 5000)
		if !n.Over {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, n.Steps)
		}
		t.Logf("seed %d: %d steps, %d lines sent of %d choices", seed, n.Steps, n.Lines, n.Choices)
	}
}

// parses reports whether ParseOrders takes one line from seat.
func parses(state []byte, seat, line string) bool {
	_, probs := Game.ParseOrders(state, seat, []adjudicator.OrderLine{{Line: 1, Text: line}})
	return len(probs) == 0
}

// TestBriefDefenderAnswers: in a defender's step (the bots' Serbs keep
// defend ask) the brief has a choice for each attacked hex, whose answers
// (Intense or not 9.8, Ammo 9.4, Shells 23.2) the parser accepts; an
// answer for a hex not attacked is refused and not offered.
func TestBriefDefenderAnswers(t *testing.T) {
	t.Parallel()
	var state []byte
	playDemo(t, func(_ int, _, after []byte, _ []adjudicator.Event, _ []legacy.EntryRecord) {
		if g, _ := decode(after); state == nil && g != nil && (g.Phase == phaseDefend || g.Phase == phaseCounterDefend) {
			state = after
		}
	})
	if state == nil {
		t.Fatal("the demo has no defender's step")
	}
	g, _ := decode(state)
	seat := g.owing()[0]
	brief := Game.(adjudicator.Briefer).Brief(state, seat)
	var hexes []string
	for _, a := range g.Attacks {
		if !slices.Contains(hexes, a.Target) {
			hexes = append(hexes, a.Target)
		}
	}
	answered := map[string]bool{}
	for _, c := range brief.Choices {
		if !strings.HasPrefix(c.About, "the attack on ") {
			continue
		}
		t.Logf("%s: %q", c.About, c.Lines)
		for _, l := range c.Lines {
			if !parses(state, seat, l) {
				t.Errorf("%q is offered and refused", l)
			}
			answered[strings.Fields(l)[1]] = true
		}
		if seat == seatSerb && !slices.Contains(c.Lines, "answer "+strings.Fields(c.Lines[0])[1]+" intense shells yes") {
			t.Errorf("the Serbs are not offered their Shells: %q", c.Lines)
		}
	}
	for _, h := range hexes {
		if !answered[h] {
			t.Errorf("no answer offered for the attacked hex %s", h)
		}
	}
	if len(answered) != len(hexes) {
		t.Errorf("answers offered for %v, attacks on %v", answered, hexes)
	}
	if parses(state, seat, "answer 01.01 not") {
		t.Error("an answer for a hex not attacked is accepted")
	}
}

// TestBriefWording: a Force's heading names its lead as the units table
// does, with its position, and says that without an order it stays; the
// standing orders in force are not offered.
func TestBriefWording(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := Game.Step(state)
	brief := Game.(adjudicator.Briefer).Brief(state, spec.Owing[0])
	form := adjudicator.OrderForm("club-1914-1", spec.Owing[0], 1, spec.Phase, brief)
	if !strings.Contains(brief.Asks, "move your Forces (7.1)") {
		t.Errorf("Asks = %q", brief.Asks)
	}
	moves := 0
	for _, c := range brief.Choices {
		if strings.HasPrefix(c.Lines[0], "move ") || strings.HasPrefix(c.Lines[0], "recover ") {
			moves++
			if c.Default != "it stays" || !strings.Contains(c.About, " at ") {
				t.Errorf("a Force's heading reads %q; without an order %q", c.About, c.Default)
			}
		}
		if slices.Contains(c.Lines, "ammo yes") || slices.Contains(c.Lines, "defend not") || slices.Contains(c.Lines, "retire none") {
			t.Errorf("a default in force is offered: %q", c.Lines)
		}
	}
	want := "## Cav-Div XX cavalry 4-5 PR3 AV1 at 22.11, CE full (CEL 10), corps 2nd;\n##   without an order it stays. Keep one:\n# move Cav-Div 23.12\n"
	if moves == 0 || !strings.Contains(form, want) {
		t.Errorf("the form lacks\n%s\n---- form:\n%s", want, form)
	}
}

// TestStandingOrdersShown: the standing orders in force, with the defaults
// of the kinds not given (retire none, defend auto, defend not, ammo yes,
// repulse yes; the Serbs' shells needed); an order sent replaces its
// default.
func TestStandingOrdersShown(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	so := Game.(adjudicator.StandingOrders)
	if got := strings.Join(so.Standing(state, seatAH), "|"); got != "retire none|defend auto|defend not|ammo yes|repulse yes" {
		t.Errorf("A-H before any order: %s", got)
	}
	if got := strings.Join(so.Standing(state, seatSerb), "|"); got != "retire none|defend auto|defend not|ammo yes|shells needed|repulse yes" {
		t.Errorf("the Serbs before any order: %s", got)
	}
	spec, _ := Game.Step(state)
	seat := spec.Owing[0]
	canon, probs := Game.ParseOrders(state, seat, []adjudicator.OrderLine{{Line: 1, Text: "ammo no"}, {Line: 2, Text: "retire all"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	st := map[string][]string{seat: canon}
	g, _ := decode(state)
	g.keepStanding(seat, st[seat])
	next, err := g.encode()
	if err != nil {
		t.Fatal(err)
	}
	got := so.Standing(next, seat)
	if !slices.Contains(got, "ammo no") || slices.Contains(got, "ammo yes") || !slices.Contains(got, "retire all") {
		t.Errorf("after ammo no, retire all: %q", got)
	}
}

// BenchmarkBrief briefs the phasing seat on the demo's first step: every
// Force's moves and the standing orders, checked by the parser.
func BenchmarkBrief(b *testing.B) {
	state, err := Game.New("demo", nil)
	if err != nil {
		b.Fatal(err)
	}
	spec, _ := Game.Step(state)
	br := Game.(adjudicator.Briefer)
	for b.Loop() {
		br.Brief(state, spec.Owing[0])
	}
}
