package perrote

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games of every scenario without a refusal.
func TestBriefings(t *testing.T) {
	for _, sc := range scenarioNames() {
		for seed := uint64(1); seed <= 3; seed++ {
			n := rulestest.Briefings(t, Game, sc, nil, seed, 100)
			if !n.Over {
				t.Fatalf("%s seed %d: the game did not end in %d steps", sc, seed, n.Steps)
			}
			t.Logf("%s seed %d: %d steps, %d lines sent of %d choices", sc, seed, n.Steps, n.Lines, n.Choices)
		}
	}
}

// brief is seat's brief in state.
func brief(t *testing.T, state []byte, seat string) adjudicator.Brief {
	t.Helper()
	return Game.(adjudicator.Briefer).Brief(state, seat)
}

// choiceOf is the first choice whose About starts with prefix.
func choiceOf(t *testing.T, b adjudicator.Brief, prefix string) adjudicator.Choice {
	t.Helper()
	for _, c := range b.Choices {
		if strings.HasPrefix(c.About, prefix) {
			return c
		}
	}
	t.Fatalf("no choice about %q in %+v", prefix, b.Choices)
	return adjudicator.Choice{}
}

// accepted reports whether the parser takes lines as one file.
func accepted(state []byte, seat string, lines ...string) (bool, []adjudicator.Problem) {
	ol := adjudicator.NumberLines(lines...)
	_, problems := Game.ParseOrders(state, seat, ol)
	return len(problems) == 0, problems
}

// TestBriefMoveAndFireCombine (Movement: troops move 1 hex and shoot,
// vehicles 2; Shooting): a unit offered a movement and a fire choice may
// send any line of the one with any line of the other, and with its
// casualty priority, through the turns of a bot-played battle.
func TestBriefMoveAndFireCombine(t *testing.T) {
	state, err := Game.New("breakthrough", nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for k := uint64(1); k <= 6; k++ {
		orders := map[string][]string{}
		for _, seat := range []string{"Russia", "USA"} {
			b := brief(t, state, seat)
			for i, c := range b.Choices {
				if !strings.HasSuffix(c.About, ": its movement (it may still fire)") {
					continue
				}
				fire := b.Choices[i+1]
				if !strings.HasSuffix(fire.About, ": its fire") {
					t.Fatalf("turn %d: %q is not followed by its fire choice but %q", k, c.About, fire.About)
				}
				var cas []string
				if i+2 < len(b.Choices) && strings.Contains(b.Choices[i+2].About, "who falls first") {
					cas = b.Choices[i+2].Lines[:1]
				}
				for _, m := range c.Lines {
					for _, f := range fire.Lines {
						if ok, p := accepted(state, seat, append([]string{m, f}, cas...)...); !ok {
							t.Errorf("turn %d: %s refused %q with %q: %v", k, seat, m, f, p)
						}
						pairs++
					}
				}
			}
			orders[seat], _ = Bot(state, seat)
		}
		state, _, err = Game.Adjudicate(state, orders, stepRoller("combine", k))
		if err != nil {
			t.Fatal(err)
		}
		if sp, _ := Game.Step(state); sp.Over {
			break
		}
	}
	if pairs < 100 {
		t.Errorf("only %d movement and fire pairs were tried", pairs)
	}
}

// TestBriefMovesAreTheParsers (Movement: troops move up to 2 hexes along a
// path of adjacent, passable hexes): the mortar team, with nothing in
// sight, is offered a move to every hex a path of the parser reaches, and
// no move the parser refuses.
func TestBriefMovesAreTheParsers(t *testing.T) {
	state, _ := Game.New("breakthrough", nil)
	s, _ := decode(state)
	f := newField(s)
	from, _ := f.parse("0210")
	want := map[string]bool{}
	for _, n1 := range f.g.Neighbours(from) {
		if ok, _ := accepted(state, "Russia", "move M "+f.format(n1)); ok {
			want[f.format(n1)] = true
		}
		for _, n2 := range f.g.Neighbours(n1) {
			if ok, _ := accepted(state, "Russia", "move M "+f.format(n1)+" "+f.format(n2)); ok {
				want[f.format(n2)] = true
			}
		}
	}
	got := map[string]bool{}
	for _, l := range choiceOf(t, brief(t, state, "Russia"), "M Mortar team").Lines {
		if ok, p := accepted(state, "Russia", l); !ok {
			t.Errorf("%q is offered but refused: %v", l, p)
		}
		if fs := strings.Fields(l); fs[0] == "move" {
			got[fs[len(fs)-1]] = true
		}
	}
	for h := range want {
		if !got[h] {
			t.Errorf("the mortar team may move to %s, but no line says so", h)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the brief moves the mortar team to %d hexes, the parser to %d", len(got), len(want))
	}
	if ok, _ := accepted(state, "Russia", "move M 0412"); ok || got["0412"] {
		t.Errorf("a move to a hex 2 away in one step is taken or offered")
	}
}

// TestBriefDisembark (Transport: passengers get out into their vehicle's
// hex or one next to it): R1 aboard BMP1 at 0406 is offered exactly the
// hexes the parser lets it out into (its vehicle's hex written as a plain
// disembark R1), and not 0606, two hexes away.
func TestBriefDisembark(t *testing.T) {
	state, _ := Game.New("breakthrough", nil)
	s, _ := decode(state)
	f := newField(s)
	var want []string
	for _, h := range f.g.All() {
		if ok, _ := accepted(state, "Russia", "disembark R1 "+f.format(h)); ok {
			want = append(want, "disembark R1 "+f.format(h))
		}
	}
	c := choiceOf(t, brief(t, state, "Russia"), "R1 ")
	var got []string
	for _, l := range c.Lines {
		if l == "disembark R1" {
			l = "disembark R1 0406"
		}
		got = append(got, l)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) || len(want) != 7 {
		t.Errorf("R1's lines %v; the parser takes %v and disembark R1", c.Lines, want)
	}
	if ok, _ := accepted(state, "Russia", "disembark R1 0606"); ok || slices.Contains(c.Lines, "disembark R1 0606") {
		t.Errorf("disembarking two hexes from the vehicle is taken or offered")
	}
}

// TestBriefWording: a unit's heading reads as the units table names it,
// with what happens without an order: BMP2, with S1 in sight, has its
// movement and its fire apart; BMP1, with nothing in sight, one heading.
func TestBriefWording(t *testing.T) {
	state, _ := Game.New("breakthrough", nil)
	b := brief(t, state, "Russia")
	for _, w := range []adjudicator.Choice{
		{About: "BMP2 BMP-3 1/1 at 0415 (facing ne, carrying 7): its movement (it may still fire)", Default: "it stays"},
		{About: "BMP2 BMP-3 1/1 at 0415 (facing ne, carrying 7): its fire", Default: "it does not fire"},
		{About: "BMP1 BMP-3 1/1 at 0406 (facing se, carrying 7)", Default: "it holds"},
		{About: "R1 Russian squad 7/7 aboard BMP1", Default: "it holds"},
		{About: "R1 Russian squad 7/7 aboard BMP1: who falls first (Casualties, kept until changed)", Default: "the men with the least valuable weapons fall first"},
	} {
		c := choiceOf(t, b, w.About)
		if c.About != w.About || c.Default != w.Default {
			t.Errorf("heading %q, default %q; want %q, %q", c.About, c.Default, w.About, w.Default)
		}
	}
	if !strings.HasPrefix(b.Asks, "Turn 1 of 10: give your units their orders") {
		t.Errorf("asks %q", b.Asks)
	}
}

// TestStanding (Casualties: the priority is kept until changed): once
// Russia orders R3's riflemen to fall first, every report shows it, and
// the brief no longer offers the same order.
func TestStanding(t *testing.T) {
	state, _ := Game.New("breakthrough", nil)
	so := Game.(adjudicator.StandingOrders)
	if got := so.Standing(state, "Russia"); len(got) != 0 {
		t.Errorf("standing orders before any: %v", got)
	}
	next, _, err := Game.Adjudicate(state, map[string][]string{"Russia": {"casualties R3 assault"}}, stepRoller("standing", 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := so.Standing(next, "Russia"); !slices.Equal(got, []string{"casualties R3 assault"}) {
		t.Errorf("standing orders %v", got)
	}
	if got := so.Standing(next, "USA"); len(got) != 0 {
		t.Errorf("USA's standing orders %v", got)
	}
	c := choiceOf(t, brief(t, next, "Russia"), "R3 ")
	for _, c := range brief(t, next, "Russia").Choices {
		if strings.HasPrefix(c.About, "R3 ") && strings.Contains(c.About, "who falls first") {
			if slices.Contains(c.Lines, "casualties R3 assault") || c.Default != "carriers of assault fall first, as ordered" {
				t.Errorf("R3's casualty choice %+v", c)
			}
			return
		}
	}
	t.Errorf("R3 has no casualty choice after %+v", c)
}
