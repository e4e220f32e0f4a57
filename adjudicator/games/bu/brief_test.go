package bu

import (
	"math/rand/v2"
	"slices"
	"strings"

	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestBriefings: a newcomer that keeps lines of the pre-filled order file
// at random plays whole games of both scenarios without a refusal: its
// cards' moves, attacks, entrenchments, redeployments and replacements
// from the action round's brief, and any losses, retreat and advance
// decision its attacks bring (counted: few arise, the standing orders the
// newcomer keeps at random answering most).
func TestBriefings(t *testing.T) {
	t.Parallel()
	total := map[string]int{}
	for _, tc := range []struct {
		scenario string
		seed     uint64
	}{{"three", 1}, {"three", 2}, {"three", 3}, {"two", 3}, {"two", 4}, {"two", 5}} {
		c := &counting{briefRules: Game.(briefRules), made: map[string]int{}}
		n := rulestest.Briefings(t, c, tc.scenario, nil, tc.seed, 2000)
		if !n.Over {
			t.Fatalf("%s seed %d: the game did not end in %d steps", tc.scenario, tc.seed, n.Steps)
		}
		t.Logf("%s seed %d: %d steps, %d lines sent of %d choices; orders and decisions %v", tc.scenario, tc.seed, n.Steps, n.Lines, n.Choices, c.made)
		for k, v := range c.made {
			total[k] += v
		}
	}
	for _, k := range []string{"move", "attack", "entrench", "redeploy", "replace"} {
		if total[k] == 0 {
			t.Errorf("no %s in the newcomers' games: %v", k, total)
		}
	}
}

// briefRules are rules with a brief.
type briefRules interface {
	adjudicator.Rules
	adjudicator.Briefer
}

// counting counts the orders accepted, by verb, and the decision steps,
// by kind.
type counting struct {
	briefRules
	made map[string]int
}

func (c *counting) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	canon, problems := c.briefRules.ParseOrders(state, seat, lines)
	for _, l := range canon {
		c.made[strings.Fields(l)[0]]++
	}
	return canon, problems
}

func (c *counting) Step(state []byte) (adjudicator.StepSpec, error) {
	if g, err := decode(state); err == nil && g.Phase == phaseDecide && g.Pending != nil {
		c.made["decision "+g.Pending.Kind]++
	}
	return c.briefRules.Step(state)
}

// accepts reports whether the parser takes lines from seat with no
// problem.
func accepts(state []byte, seat string, lines ...string) bool {
	ol := adjudicator.NumberLines(lines...)
	_, problems := Game.ParseOrders(state, seat, ol)
	return len(problems) == 0
}

// decisionBriefs plays bot games whose seats ask for their losses,
// retreats and advances (standing orders ask), answering every decision
// from its brief; check sees each decision step's state, seat and brief.
func decisionBriefs(t *testing.T, check func(state []byte, g *game, seat string, b adjudicator.Brief)) map[string]int {
	t.Helper()
	kinds := map[string]int{}
	for _, tc := range []struct {
		scenario string
		seed     uint64
	}{{"three", 1}, {"three", 2}, {"three", 3}, {"three", 4}, {"two", 3}, {"two", 4}} {
		state, err := Game.New(tc.scenario, nil)
		if err != nil {
			t.Fatal(err)
		}
		pick := rand.New(rand.NewPCG(tc.seed, 5))
		for step := 0; step < 3000; step++ {
			sp, err := Game.Step(state)
			if err != nil {
				t.Fatal(err)
			}
			if sp.Over {
				break
			}
			g, err := decode(state)
			if err != nil {
				t.Fatal(err)
			}
			orders := map[string][]string{}
			for _, seat := range sp.Owing {
				var lines []string
				if g.Phase == phaseDecide {
					b := Game.(adjudicator.Briefer).Brief(state, seat)
					kinds[g.Pending.Kind]++
					if g.Pending.Kind == "retreat" && len(b.Choices) > 0 && strings.HasPrefix(b.Choices[0].About, "the retreat") {
						kinds["retreat, one choice"]++
					}
					check(state, g, seat, b)
					// one line of each choice or none, as a newcomer keeps
					for _, c := range b.Choices {
						if pick.IntN(3) > 0 {
							lines = append(lines, c.Lines[pick.IntN(len(c.Lines))])
						}
					}
					if len(lines) == 0 {
						lines = []string{b.Choices[0].Lines[0]}
					}
				} else {
					lines, err = Game.(adjudicator.Bot).Bot(state, seat)
					if err != nil {
						t.Fatal(err)
					}
					for i, l := range lines {
						if strings.HasPrefix(l, "attack ") {
							lines[i] = strings.NewReplacer(" losses auto", "", " advance all", "").Replace(l)
						}
						switch l {
						case "advancing all", "retreat move", "retreat ignore", "losses auto":
							lines[i] = strings.Fields(l)[0] + " ask"
						}
					}
				}
				canon, problems := Game.ParseOrders(state, seat, adjudicator.NumberLines(lines...))
				if len(problems) > 0 {
					t.Fatalf("%s step %d (%s): %s's orders %q refused: %+v", tc.scenario, step, sp.Phase, seat, lines, problems)
				}
				orders[seat] = canon
			}
			state, _, err = Game.Adjudicate(state, orders, newSeeded(t, tc.seed+uint64(step)*7919))
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return kinds
}

// TestDecisionBriefsListEveryLegalAnswer: in every decision step of bot
// games that ask for everything, the brief lists exactly the answers the
// parser accepts among every loss allocation of the units' steps
// (13.4.6.2), every retreat path of one or two adjacent spaces (13.4.8.2)
// and every unit's advance, with each extra space (13.4.9.1); and ignore
// exactly when the retreat may be ignored (13.4.8.1).
func TestDecisionBriefsListEveryLegalAnswer(t *testing.T) {
	t.Parallel()
	kinds := decisionBriefs(t, func(state []byte, g *game, seat string, b adjudicator.Brief) {
		listed := map[string]bool{}
		for _, c := range b.Choices {
			for _, l := range c.Lines {
				listed[l] = true
			}
		}
		bt := g.Round.Battle
		compare := func(line string) {
			t.Helper()
			if ok := accepts(state, seat, line); ok != listed[line] {
				t.Fatalf("%s, %s: %q accepted by the parser %v, listed by the brief %v; the brief:\n%+v", g.Pending.Label, seat, line, ok, listed[line], b)
			}
		}
		m := g.sc.Map
		ti, _ := m.Space(bt.Target)
		switch g.Pending.Kind {
		case "losses":
			ids := bt.lossUnits(g, seat)
			var walk func(i int, steps []string)
			walk = func(i int, steps []string) {
				if i == len(ids) {
					if len(steps) > 0 {
						compare("lose " + strings.Join(steps, " "))
					}
					return
				}
				n := 2
				if g.byID[ids[i]].Reduced {
					n = 1
				}
				for k := 0; k <= n; k++ {
					walk(i+1, append(slices.Clone(steps), slices.Repeat([]string{ids[i]}, k)...))
				}
			}
			walk(0, nil)
		case "retreat":
			compare("ignore")
			for _, id := range bt.Defenders {
				for _, n := range m.Graph.Neighbours(ti) {
					first := m.Spaces[n].ID
					compare("retreat " + id + " " + first)
					for _, n2 := range m.Graph.Neighbours(n) {
						compare("retreat " + id + " " + first + " " + m.Spaces[n2].ID)
					}
				}
			}
		case "advance":
			compare("advance all")
			compare("advance none")
			for _, id := range bt.Attackers {
				compare("advance " + id)
				for _, n := range m.Graph.Neighbours(ti) {
					compare("advance " + id + ">" + m.Spaces[n].ID)
				}
			}
		}
	})
	for _, k := range []string{"losses", "retreat", "advance"} {
		if kinds[k] == 0 {
			t.Errorf("no %s decision in the games: %v", k, kinds)
		}
	}
	t.Logf("decision steps: %v", kinds)
}

// retreatState is a Bosniak retreat decision of 1 space from Tuzla,
// attacked by VRS-1 from Kalesija: ARBIH-1 and ARBIH-2 retreat; extra
// Bosniak units are placed at Lukavac.
func retreatState(t *testing.T, mayIgnore bool, atLukavac ...string) []byte {
	t.Helper()
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range g.Units {
		if u.Box == onMap {
			u.Box, u.Space = pool, ""
		}
	}
	place := func(id, space string) {
		u := g.byID[id]
		u.Box, u.Space, u.Arrives = onMap, space, 0
	}
	place("ARBIH-1", "tuzla")
	place("ARBIH-2", "tuzla")
	place("VRS-1", "kalesija")
	for _, id := range atLukavac {
		place(id, "lukavac")
	}
	g.Phase, g.Active = phaseRound, seatSerb
	g.beginRound(seatSerb)
	b := &attack{Seat: seatSerb, Target: "tuzla", DefSide: bosniak, Attackers: []string{"VRS-1"}, Defenders: []string{"ARBIH-1", "ARBIH-2"},
		Retreat: 1, MayIgnore: mayIgnore, Stage: stageRetreat, AttSteps: 0, DefSteps: 2}
	g.Round.Battle = b
	g.ask(b, "retreat", []string{seatBosniak})
	out, err := g.encode()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRetreatBrief: a retreat of 1 space from Tuzla lists for each unit
// the friendly spaces next to it with room (13.4.8.2), not Kalesija where
// the attacker stands; the units' lines combine freely when the room
// allows; a space with room for one of them, or a retreat that may be
// ignored (13.4.8.1: ignore, or the units' lines, not both), puts every
// answer under one choice.
func TestRetreatBrief(t *testing.T) {
	br := Game.(adjudicator.Briefer)
	state := retreatState(t, false)
	b := br.Brief(state, seatBosniak)
	want := []adjudicator.Choice{
		{About: "ARBIH-1 ARBIH 3-6-2 at tuzla, retreating 1 space", Default: "the umpire retreats it toward supply",
			Lines: []string{"retreat ARBIH-1 gracanica", "retreat ARBIH-1 lukavac", "retreat ARBIH-1 srebrenik", "retreat ARBIH-1 zivinice"}},
		{About: "ARBIH-2 ARBIH 3-6-2 at tuzla, retreating 1 space", Default: "the umpire retreats it toward supply",
			Lines: []string{"retreat ARBIH-2 gracanica", "retreat ARBIH-2 lukavac", "retreat ARBIH-2 srebrenik", "retreat ARBIH-2 zivinice"}},
	}
	for i, c := range want {
		if i >= len(b.Choices) || b.Choices[i].About != c.About || b.Choices[i].Default != c.Default || !slices.Equal(sorted(b.Choices[i].Lines), c.Lines) {
			t.Fatalf("choice %d: got %+v, want %+v", i, b.Choices, c)
		}
	}
	for _, l1 := range b.Choices[0].Lines {
		for _, l2 := range b.Choices[1].Lines {
			if !accepts(state, seatBosniak, l1, l2) {
				t.Errorf("%q and %q, both listed, are refused together", l1, l2)
			}
		}
	}
	if accepts(state, seatBosniak, "retreat ARBIH-1 kalesija") || accepts(state, seatBosniak, "ignore") {
		t.Errorf("the parser takes a retreat into the attacker's space or an ignore where it is not allowed: the test's premise is wrong")
	}

	// Lukavac has room for one: every answer under one choice
	b = br.Brief(retreatState(t, false, "ARBIH-3", "ARBIH-4"), seatBosniak)
	if len(b.Choices) == 0 || !strings.HasPrefix(b.Choices[0].About, "the retreat from tuzla") || len(b.Choices[0].Lines) != 8 {
		t.Errorf("with room for one at lukavac, want one choice of 8 lines, got %+v", b.Choices)
	}
	// ignoring allowed: ignore first, with every path
	state = retreatState(t, true)
	b = br.Brief(state, seatBosniak)
	if len(b.Choices) == 0 || len(b.Choices[0].Lines) != 9 || b.Choices[0].Lines[0] != "ignore" || !accepts(state, seatBosniak, "ignore") {
		t.Errorf("with ignoring allowed, want ignore and the 8 paths in one choice, got %+v", b.Choices)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// started is the demo game at the start of turn turn with the Serb's hand.
func started(t testing.TB, turn int, hand ...string) []byte {
	t.Helper()
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	g.Phase, g.Turn = phaseStart, turn
	g.Hands[seatSerb] = hand
	out, err := g.encode()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBriefWording: the units and decisions are named as a player reads
// them, with what happens without an order: a reinforcement of turn 2
// (6.2), the card play with the umpire's Diplomatic Action (11.1).
func TestBriefWording(t *testing.T) {
	br := Game.(adjudicator.Briefer)
	state := started(t, 2, "S1", "S2", "S5")
	b := br.Brief(state, seatSerb)
	var reinf *adjudicator.Choice
	for i, c := range b.Choices {
		if strings.HasPrefix(c.About, "VRS-19 ") {
			reinf = &b.Choices[i]
		}
	}
	if reinf == nil || reinf.About != "VRS-19 VRS 4-6-4, a reinforcement of turn 2: place it (6.2)" ||
		reinf.Default != "it is lost if you send other orders, else the umpire places it" || !strings.HasPrefix(reinf.Lines[0], "reinforce VRS-19 ") {
		t.Fatalf("the reinforcement VRS-19 reads %+v; the brief: %+v", reinf, b)
	}
	if !strings.Contains(b.Asks, "Start of turn 2 (6.2, 6.3)") {
		t.Errorf("asks: %q", b.Asks)
	}

	g, _ := decode(state)
	g.Phase, g.Active = phaseRound, seatSerb
	state, _ = g.encode()
	b = br.Brief(state, seatSerb)
	play := b.Choices[0]
	if play.About != "the card you play, and how (7.4.1)" || play.Default != "the umpire plays S2 for a Diplomatic Action (11.1)" {
		t.Errorf("the play reads %q; without an order %q", play.About, play.Default)
	}
	// a combat card is played in a battle, never for its event (1.5.8)
	if !slices.Contains(play.Lines, "play S1 op") || slices.Contains(play.Lines, "play S1 event") || !slices.Contains(play.Lines, "play S5 event") {
		t.Errorf("the play lines: %v", play.Lines)
	}
	if accepts(state, seatSerb, "play S1 event") {
		t.Errorf("the parser takes a combat card's event: the test's premise is wrong")
	}
}

// TestStandingOrders: every report shows the standing orders in force,
// the defaults included; an order sent replaces its default, and the
// brief offers only the changes (a combat card already standing is not
// offered again; S1 helps only an attacker, 13.4.3).
func TestStandingOrders(t *testing.T) {
	so := Game.(adjudicator.StandingOrders)
	state := started(t, 1, "S1", "S2", "S3")
	want := []string{"losses ask", "retreat ask", "advancing ask", "combat none", "interrupt none", "strike auto", "supply auto"}
	if got := so.Standing(state, seatSerb); !slices.Equal(got, want) {
		t.Fatalf("defaults: got %q, want %q", got, want)
	}
	two, err := Game.New("two", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := so.Standing(two, seatBC); !slices.Contains(got, "ties auto") {
		t.Errorf("the Bosniak-Croat player's standing orders %q do not show ties auto (14.6.3)", got)
	}
	b := Game.(adjudicator.Briefer).Brief(state, seatSerb)
	var combat []string
	for _, c := range b.Choices {
		if strings.HasPrefix(c.About, "your standing combat card") {
			combat = c.Lines
		}
	}
	if !slices.Equal(combat, []string{"combat S2"}) {
		t.Errorf("combat lines offered with no standing combat card: %v, want [combat S2]", combat)
	}
	lines := []string{"losses auto", "retreat move srebrenik", "combat S2"}
	ol := adjudicator.NumberLines(lines...)
	canon, problems := Game.ParseOrders(state, seatSerb, ol)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	next, _, err := Game.Adjudicate(state, map[string][]string{seatSerb: canon}, newSeeded(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"losses auto", "retreat move srebrenik", "advancing ask", "combat S2", "interrupt none", "strike auto", "supply auto"}
	if got := so.Standing(next, seatSerb); !slices.Equal(got, want) {
		t.Fatalf("after the orders: got %q, want %q", got, want)
	}
	b = Game.(adjudicator.Briefer).Brief(next, seatSerb)
	for _, c := range b.Choices {
		if strings.HasPrefix(c.About, "your standing combat card") && !slices.Equal(c.Lines, []string{"combat none"}) {
			t.Errorf("combat lines with S2 standing: %v, want [combat none]", c.Lines)
		}
		if strings.HasPrefix(c.About, "your standing order for losses") && !slices.Equal(c.Lines, []string{"losses ask"}) {
			t.Errorf("losses lines with losses auto standing: %v, want [losses ask]", c.Lines)
		}
	}
}

// BenchmarkBrief briefs the Serb at the start of turn 2 (its
// reinforcements' spaces) and in its action round.
//
//	go test -run '^$' -bench Brief ./adjudicator/games/bu
func BenchmarkBrief(b *testing.B) {
	start := started(b, 2, "S1", "S2", "S4", "S5", "S7", "S8", "S10")
	g, _ := decode(start)
	g.Phase, g.Active = phaseRound, seatSerb
	round, _ := g.encode()
	br := Game.(adjudicator.Briefer)
	for b.Loop() {
		br.Brief(start, seatSerb)
		br.Brief(round, seatSerb)
	}
}

// TestRoundActionsNeedTheirPlay: the action round's brief offers, after
// the card play, an attack or entrenchment, a unit's move, a
// redeployment and a replacement, each needing exactly the play lines of
// its mode whose card gives the points (13.1.1, 9.1.1, 10.1.1); every line
// is accepted with one of its needs, and refused with a play of another
// mode (7.4.1) or with none.
func TestRoundActionsNeedTheirPlay(t *testing.T) {
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	g.Phase, g.Turn, g.Active = phaseRound, 1, seatSerb
	g.Hands[seatSerb] = []string{"S2", "S5", "S7"}
	g.byID["VRS-1"].Reduced = true // a replacement to offer
	state, _ = g.encode()
	b := Game.(adjudicator.Briefer).Brief(state, seatSerb)
	about := map[string]adjudicator.Choice{}
	for _, c := range b.Choices {
		for _, k := range []string{"an attack", "one unit's move", "one unit's Strategic", "one unit replaced"} {
			if strings.HasPrefix(c.About, k) {
				about[k] = c
			}
		}
	}
	for _, k := range []string{"an attack", "one unit's move", "one unit's Strategic", "one unit replaced"} {
		if _, ok := about[k]; !ok {
			t.Fatalf("no %q choice in the brief: %+v", k, b.Choices)
		}
	}
	play := b.Choices[0].Lines
	for _, c := range b.Choices[1:] {
		if len(c.Needs) == 0 {
			continue
		}
		mode := strings.Fields(c.Needs[0])[2]
		for _, l := range play {
			if f := strings.Fields(l); f[2] == mode && !slices.Contains(c.Needs, l) && !strings.HasPrefix(c.About, "one unit's move") {
				t.Errorf("%q: %s is not among the needs %v", c.About, l, c.Needs)
			}
		}
		var other string
		for _, l := range play {
			if strings.Fields(l)[2] != mode {
				other = l
			}
		}
		for _, l := range c.Lines {
			if !accepts(state, seatSerb, c.Needs[0], l) {
				t.Errorf("%q with %q refused", l, c.Needs[0])
			}
			if accepts(state, seatSerb, other, l) || accepts(state, seatSerb, l) {
				t.Errorf("%q accepted with %q or alone", l, other)
			}
		}
	}
	// the Operation's two choices together: any attack or entrenchment
	// with any move, after any card of 2 OPs
	first, move := about["an attack"], about["one unit's move"]
	for _, need := range move.Needs {
		for _, a := range first.Lines {
			for _, mv := range move.Lines {
				if !accepts(state, seatSerb, need, a, mv) {
					t.Fatalf("%q, %q, %q refused together", need, a, mv)
				}
			}
		}
	}
	if !slices.Contains(about["one unit replaced"].Lines, "replace VRS-1") {
		t.Errorf("the replacement choice %v does not offer VRS-1, reduced", about["one unit replaced"].Lines)
	}
}
