package wbt

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games of the demo without a refusal.
func TestBriefings(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		n := rulestest.Briefings(t, Game, "demo", nil, seed, 400)
		if !n.Over {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, n.Steps)
		}
		t.Logf("seed %d: %d steps, %d lines sent of %d choices", seed, n.Steps, n.Lines, n.Choices)
	}
}

// forced answers every draw with the next of its values, as a case's dice
// line does.
type forced struct{ vals []int }

func (f *forced) Draw(_ string, sp spec.Spec, _ string) []int {
	out := make([]int, sp.Draws())
	for i := range out {
		out[i], f.vals = f.vals[0], f.vals[1:]
	}
	return out
}

// situation is the small test map with setup directives applied, one a
// line ("unit S-1 0306", "phase nato-combat"), then orders adjudicated
// with dice.
func situation(t *testing.T, directives []string, seat string, orders []string, dice ...int) []byte {
	t.Helper()
	state, err := loadTestMap(filepath.Join("testdata", "game", "small-map.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range directives {
		f := strings.Fields(d)
		if state, err = (gameFixtures{}).Setup(state, f[0], f[1:]); err != nil {
			t.Fatal(d, err)
		}
	}
	if orders == nil {
		return state
	}
	canon := parse(t, state, seat, orders...)
	state, _, err = Game.Adjudicate(state, map[string][]string{seat: canon}, &forced{dice})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// parse is the parser's canonical orders for lines; it fails t on a
// problem.
func parse(t *testing.T, state []byte, seat string, lines ...string) []string {
	t.Helper()
	ok, canon, problems := accepts(state, seat, lines...)
	if !ok {
		t.Fatalf("%v refused: %v", lines, problems)
	}
	return canon
}

// accepts reports whether the parser takes lines as one file.
func accepts(state []byte, seat string, lines ...string) (bool, []string, []adjudicator.Problem) {
	ol := adjudicator.NumberLines(lines...)
	canon, problems := Game.ParseOrders(state, seat, ol)
	return len(problems) == 0, canon, problems
}

func brief(state []byte, seat string) adjudicator.Brief {
	return Game.(adjudicator.Briefer).Brief(state, seat)
}

// TestBriefLossDecision (11.9, 11.20: artillery loses steps only once
// every other defender is gone): the Serbs losing one step at 0306 with
// S-1, S-2 and S-ART are offered exactly the answers the parser takes:
// lose S-1, lose S-2, never lose S-ART.
func TestBriefLossDecision(t *testing.T) {
	state := situation(t, []string{"phase nato-combat", "unit US-1AD 0305", "unit S-1 0306", "unit S-2 0306", "unit S-ART 0306"},
		"NATO", []string{"attack 0306 with US-1AD"}, 5)
	if sp, _ := Game.Step(state); !strings.Contains(sp.Phase, "Serb loss decision at 0306") {
		t.Fatalf("the step is %q", sp.Phase)
	}
	b := brief(state, "Serb")
	c := b.Choices[0]
	var want []string
	for _, id := range []string{"S-1", "S-2", "S-ART", "US-1AD"} {
		if ok, _, _ := accepts(state, "Serb", "lose "+id); ok {
			want = append(want, "lose "+id)
		}
	}
	if !slices.Equal(c.Lines, want) || !slices.Equal(want, []string{"lose S-1", "lose S-2"}) {
		t.Errorf("the loss decision offers %v; the parser takes %v", c.Lines, want)
	}
	if c.About != "the 1 step your defenders at 0306 lose (S-1 S-2 S-ART)" || c.Default != "the umpire allocates them (your losses order's units first, then by id)" {
		t.Errorf("heading %q, default %q", c.About, c.Default)
	}
	if !strings.HasPrefix(b.Asks, "Battle at 0306: your defenders lose 1 step;") {
		t.Errorf("asks %q", b.Asks)
	}
}

// TestBriefAdvanceDecision (11.23): S-1 and S-2 cleared 0305; the Serbs
// are offered advance all and each one of them, every answer the parser
// takes but none (the default), and nothing it refuses.
func TestBriefAdvanceDecision(t *testing.T) {
	state := situation(t, []string{"phase serb-combat", "unit UK-1 0305 steps=1", "unit S-1 0306", "unit S-2 0306", "unit S-3 0407"},
		"Serb", []string{"attack 0305 with S-1 S-2"}, 6, 3)
	if sp, _ := Game.Step(state); !strings.Contains(sp.Phase, "Serb advance decision at 0305") {
		t.Fatalf("the step is %q", sp.Phase)
	}
	c := brief(state, "Serb").Choices[0]
	if want := []string{"advance all", "advance S-1", "advance S-2"}; !slices.Equal(c.Lines, want) {
		t.Errorf("the advance decision offers %v, want %v", c.Lines, want)
	}
	for _, l := range []string{"advance S-3", "advance UK-1"} {
		if ok, _, _ := accepts(state, "Serb", l); ok {
			t.Errorf("the parser takes %q", l)
		}
	}
	if c.Default != "no unit advances" {
		t.Errorf("default %q", c.Default)
	}
}

// TestBriefAttacksCombine (11.3: a unit attacks once, a hex is attacked
// once): US-1AD next to two Serbian hexes is given to one attack only, and
// any line of one attack goes with any line of the other.
func TestBriefAttacksCombine(t *testing.T) {
	state := situation(t, []string{"phase nato-combat", "unit US-1AD 0305", "unit UK-1 0404", "unit S-1 0306", "unit S-2 0405"}, "", nil)
	b := brief(state, "NATO")
	var attacks []adjudicator.Choice
	for _, c := range b.Choices {
		if strings.HasPrefix(c.About, "the attack on ") {
			attacks = append(attacks, c)
		}
	}
	if len(attacks) != 2 {
		t.Fatalf("attacks %+v", b.Choices)
	}
	in := 0
	for _, c := range attacks {
		for _, l := range c.Lines {
			if strings.Contains(l, "US-1AD") {
				in++
				break
			}
		}
	}
	if in != 1 {
		t.Errorf("US-1AD is in %d attacks' lines: %+v", in, attacks)
	}
	for _, x := range attacks[0].Lines {
		for _, y := range attacks[1].Lines {
			if ok, _, p := accepts(state, "NATO", x, y); !ok {
				t.Errorf("%q with %q refused: %v", x, y, p)
			}
		}
	}
}

// TestBriefWording: a unit's heading reads as the units table names it,
// with what happens without an order, and the step says what it asks.
func TestBriefWording(t *testing.T) {
	state := situation(t, []string{"phase nato-move", "unit US-1AD 0305", "unit S-1 0308"}, "", nil)
	b := brief(state, "NATO")
	if !strings.HasPrefix(b.Asks, "Turn 3: NATO movement phase: move your units (10.1-10.21)") {
		t.Errorf("asks %q", b.Asks)
	}
	var c adjudicator.Choice
	for _, x := range b.Choices {
		if strings.HasPrefix(x.About, "US-1AD ") {
			c = x
		}
	}
	if c.About != "US-1AD armor (mech) at 0305: 8, 4 of 4 steps" || c.Default != "it stays" {
		t.Errorf("heading %q, default %q", c.About, c.Default)
	}
	moves := 0
	for _, l := range c.Lines {
		switch {
		case strings.HasPrefix(l, "move US-1AD 0"):
			moves++
		case l != "repair US-1AD 0304/0305" && l != "dismount US-1AD":
			t.Errorf("line %q", l)
		}
	}
	if moves < 6 {
		t.Errorf("US-1AD has %d moves: %v", moves, c.Lines)
	}
	if b := brief(state, "Serb"); len(b.Choices) != 0 || !strings.Contains(b.Asks, "No orders are due from Serb") {
		t.Errorf("the Serbs, who owe nothing, are briefed %+v", b)
	}
}

// TestBriefMovesCombine (10.2, 6.2, 6.4: one NATO unit a hex at any
// instant): through the demo's first turn, files with a line of every
// choice of the seat are accepted whole.
func TestBriefMovesCombine(t *testing.T) {
	state, _ := Game.New("demo", nil)
	pick := rand.New(rand.NewPCG(5, 5))
	roll := newSeeded(5)
	files := 0
	for k := 0; k < 8; k++ {
		sp, _ := Game.Step(state)
		seat := sp.Owing[0]
		b := brief(state, seat)
		for range 10 {
			var lines []string
			for _, c := range b.Choices {
				lines = append(lines, c.Lines[pick.IntN(len(c.Lines))])
			}
			if ok, _, p := accepts(state, seat, lines...); !ok {
				t.Fatalf("step %q: %v refused: %v", sp.Phase, lines, p)
			}
			files++
		}
		orders, _ := rules{}.Bot(state, seat)
		next, _, err := Game.Adjudicate(state, map[string][]string{seat: parse(t, state, seat, orders...)}, roll)
		if err != nil {
			t.Fatal(err)
		}
		state = next
	}
	if files != 80 {
		t.Errorf("%d files tried", files)
	}
}

// TestStanding (11.9, 11.23, 12.7, 8.10): the standing orders in force,
// defaults included, and after orders change them; the brief offers only
// changes.
func TestStanding(t *testing.T) {
	state, _ := Game.New("demo", nil)
	so := Game.(adjudicator.StandingOrders)
	if got, want := so.Standing(state, "NATO"), []string{"losses none", "advancing ask", "support none", "airsupply defend none"}; !slices.Equal(got, want) {
		t.Errorf("NATO's standing orders at the start %v, want %v", got, want)
	}
	if got, want := so.Standing(state, "Serb"), []string{"losses none", "advancing ask"}; !slices.Equal(got, want) {
		t.Errorf("the Serbs' standing orders at the start %v, want %v", got, want)
	}
	lines := []string{"losses US-1AD", "advancing none", "support any", "airsupply defend 2832"}
	next, _, err := Game.Adjudicate(state, map[string][]string{"NATO": parse(t, state, "NATO", lines...)}, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	next, _, err = Game.Adjudicate(next, map[string][]string{}, newSeeded(1)) // the Serbian set-up
	if err != nil {
		t.Fatal(err)
	}
	if got := so.Standing(next, "NATO"); !slices.Equal(got, lines) {
		t.Errorf("NATO's standing orders %v, want %v", got, lines)
	}
	for _, c := range brief(next, "NATO").Choices {
		if strings.HasPrefix(c.About, "standing: whether your attacks") {
			if slices.Contains(c.Lines, "advancing none") || c.Default != "advancing none stays in force" {
				t.Errorf("the advancing choice %+v", c)
			}
			return
		}
	}
	t.Errorf("no advancing choice")
}
