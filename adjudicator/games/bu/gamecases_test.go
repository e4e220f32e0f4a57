package bu

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestGameCases runs the adjudication cases of testdata/game (the lines of
// docs/rules-cases.md, with this game's own below).
//
// Setup lines:
//
//	empty                      every unit off the map (to the pool)
//	unit ID SPACE [reduced] [low|oos]   a unit on the map
//	eliminated ID | reserve ID | removed ID   a unit in a box
//	control SPACE SIDE         a space's controller
//	region REGION SIDE|none    a region's marker
//	turn N                     the turn
//	round SEAT                 SEAT's action round is open (the turn's rounds from 0)
//	phase start|setup          the start of the turn, or the set-up, is open
//	hand SEAT CARD ...         SEAT's hand (the cards leave the decks)
//	sw SIDE N | fa SIDE N      a track (the Intervention Level follows FA)
//	trench SPACE progress|complete   an entrenchment marker
//	un SPACE                   a UN Safe Area
//	standing SEAT ORDER ...    a standing order, as the seat writes it
//	lastmode SEAT MODE         the mode of SEAT's last round (10.1.4)
//	lasting SEAT CARD          a lasting card in play
//
// Checks:
//
//	want unit ID SPACE [reduced|full] [low|oos|supplied]
//	want gone ID               eliminated or out of the game
//	want removed ID            out of the game
//	want box ID BOX            pool, eliminated, reserve, removed
//	want control SPACE SIDE
//	want region REGION SIDE|none
//	want sw SIDE N | want fa SIDE N | want level SIDE N
//	want hand SEAT CARD ...    exactly these cards
//	want discard SEAT CARD     the card is on SEAT's discard pile
//	want pending SEAT | want nopending
//	want phase P | want active SEAT | want turn N
//	want trench SPACE progress|complete|none
//	want un SPACE | want noun SPACE
//	want winner SEAT
//	want points N              OPs, SR or RP points left in the round
//	want track NAME VALUE      a track of the public report (SW Serb 34)
func TestGameCases(t *testing.T) {
	t.Parallel()
	refusals := &rulestest.Refusals{Dir: "."}
	rulestest.Run(t, rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Fixtures: fixtures{}, CheckDraw: citesRule, Refusals: refusals})
	if !t.Failed() {
		refusals.Check(t) // skipped when -run picks single cases
	}
}

// citesRule checks that a draw's purpose names a B&U rule.
func citesRule(d resolve.Draw) error {
	if !strings.HasPrefix(d.Purpose, "B&U ") || !strings.ContainsAny(d.Purpose[4:5], "0123456789") {
		return fmt.Errorf("the purpose cites no B&U rule")
	}
	return nil
}

type fixtures struct{}

func (fixtures) Setup(state []byte, directive string, args []string) ([]byte, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	need := func(n int, usage string) error {
		if len(args) < n {
			return fmt.Errorf("want %s", usage)
		}
		return nil
	}
	unit := func(id string) (*unit, error) {
		u := g.byID[unitID(id)]
		if u == nil {
			return nil, fmt.Errorf("no unit %s", id)
		}
		return u, nil
	}
	side := func(s string) (Side, error) {
		sd, ok := parseSide(s)
		if !ok {
			return "", fmt.Errorf("%q is not a side", s)
		}
		return sd, nil
	}
	switch directive {
	case "empty":
		for _, u := range g.Units {
			if u.Box == onMap {
				u.Box, u.Space, u.Supply, u.Reduced = pool, "", "", false
			}
		}
	case "unit":
		if err := need(2, "unit ID SPACE [reduced] [low|oos]"); err != nil {
			return nil, err
		}
		u, err := unit(args[0])
		if err != nil {
			return nil, err
		}
		if g.space(slug(args[1])) == nil {
			return nil, fmt.Errorf("no space %s", args[1])
		}
		u.Box, u.Space, u.Reduced, u.Supply, u.Arrives = onMap, slug(args[1]), false, "", 0
		for _, a := range args[2:] {
			switch a {
			case "reduced":
				u.Reduced = true
			case "low":
				u.Supply = lowSupply
			case "oos":
				u.Supply = oos
			default:
				return nil, fmt.Errorf("unit: %q is not reduced, low or oos", a)
			}
		}
	case "eliminated", "reserve", "removed", "pool":
		if err := need(1, directive+" ID"); err != nil {
			return nil, err
		}
		for _, id := range args {
			u, err := unit(id)
			if err != nil {
				return nil, err
			}
			u.Box, u.Space, u.Supply = directive, "", ""
			if directive == "pool" {
				u.Box = pool
			}
		}
	case "control":
		if err := need(2, "control SPACE SIDE"); err != nil {
			return nil, err
		}
		s, err := side(args[1])
		if err != nil {
			return nil, err
		}
		for _, sp := range args[:1] {
			if g.space(slug(sp)) == nil || g.space(slug(sp)).Foreign() {
				return nil, fmt.Errorf("no domestic space %s", sp)
			}
			g.Control[slug(sp)] = s
		}
	case "region":
		if err := need(2, "region REGION SIDE|none"); err != nil {
			return nil, err
		}
		if g.sc.Map.RegionByID(slug(args[0])) == nil {
			return nil, fmt.Errorf("no region %s", args[0])
		}
		if args[1] == "none" {
			delete(g.Regions, slug(args[0]))
			break
		}
		s, err := side(args[1])
		if err != nil {
			return nil, err
		}
		g.Regions[slug(args[0])] = s
	case "turn":
		if err := need(1, "turn N"); err != nil {
			return nil, err
		}
		g.Turn, _ = strconv.Atoi(args[0])
	case "round":
		if err := need(1, "round SEAT"); err != nil {
			return nil, err
		}
		if !slices.Contains(g.Seats, args[0]) {
			return nil, fmt.Errorf("no seat %s", args[0])
		}
		g.Phase, g.Active, g.Rounds = phaseRound, args[0], 0
	case "phase":
		if err := need(1, "phase start|setup"); err != nil {
			return nil, err
		}
		g.Phase, g.Active = args[0], ""
	case "hand":
		if err := need(1, "hand SEAT CARD ..."); err != nil {
			return nil, err
		}
		seat := args[0]
		if !slices.Contains(g.Seats, seat) {
			return nil, fmt.Errorf("no seat %s", seat)
		}
		g.Hands[seat] = nil
		for _, c := range args[1:] {
			id := cardID(c)
			if g.sc.Deck.Card(id) == nil {
				return nil, fmt.Errorf("no card %s", id)
			}
			for _, d := range g.Decks {
				d.Draw = slices.DeleteFunc(d.Draw, func(x string) bool { return x == id })
				d.Late = slices.DeleteFunc(d.Late, func(x string) bool { return x == id })
			}
			g.Hands[seat] = append(g.Hands[seat], id)
		}
	case "sw", "fa":
		if err := need(2, directive+" SIDE N"); err != nil {
			return nil, err
		}
		s, err := side(args[0])
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return nil, err
		}
		if directive == "sw" {
			g.Sides[s].SW = n
		} else {
			g.Sides[s].FA = n
			g.Sides[s].Level = g.level(s)
		}
	case "trench":
		if err := need(2, "trench SPACE progress|complete"); err != nil {
			return nil, err
		}
		v := "complete"
		if args[1] == "progress" {
			v = "progress:0"
		}
		g.Trench[slug(args[0])] = v
	case "un":
		if err := need(1, "un SPACE"); err != nil {
			return nil, err
		}
		g.UN = append(g.UN, slug(args[0]))
	case "standing":
		if err := need(2, "standing SEAT ORDER ..."); err != nil {
			return nil, err
		}
		seat := args[0]
		p := g.newParser(seat, nil)
		f := args[1:]
		o, err := p.standing(strings.ToLower(f[0]), f)
		if err != nil {
			return nil, err
		}
		g.dry = false
		g.storeStanding(seat, []*order{o})
	case "lastmode":
		if err := need(2, "lastmode SEAT MODE"); err != nil {
			return nil, err
		}
		g.LastMode[args[0]] = args[1]
	case "lasting":
		if err := need(2, "lasting SEAT CARD"); err != nil {
			return nil, err
		}
		c := g.sc.Deck.Card(cardID(args[1]))
		if c == nil || c.Lasting == "" {
			return nil, fmt.Errorf("%s is not a lasting card", args[1])
		}
		for _, d := range g.Decks {
			d.Draw = slices.DeleteFunc(d.Draw, func(x string) bool { return x == c.ID })
			d.Late = slices.DeleteFunc(d.Late, func(x string) bool { return x == c.ID })
		}
		g.Lasting = append(g.Lasting, lasting{Card: c.ID, Seat: args[0], Side: c.Deck, Until: c.Lasting, Turn: g.Turn})
	default:
		return nil, rulestest.ErrUnknown
	}
	return g.encode()
}

func (fixtures) Check(state []byte, name, want string) error {
	g, err := decode(state)
	if err != nil {
		return err
	}
	f := strings.Fields(want)
	need := func(n int) error {
		if len(f) < n {
			return fmt.Errorf("want %s needs %d words", name, n)
		}
		return nil
	}
	unit := func() (*unit, error) {
		if err := need(1); err != nil {
			return nil, err
		}
		u := g.byID[unitID(f[0])]
		if u == nil {
			return nil, fmt.Errorf("no unit %s", f[0])
		}
		return u, nil
	}
	switch name {
	case "unit":
		u, err := unit()
		if err != nil {
			return err
		}
		if err := need(2); err != nil {
			return err
		}
		if u.Box != onMap || u.Space != slug(f[1]) {
			return fmt.Errorf("%s is %s", u.ID, where(g, u))
		}
		for _, a := range f[2:] {
			switch {
			case a == "reduced" && !u.Reduced, a == "full" && u.Reduced:
				return fmt.Errorf("%s is %s", u.ID, map[bool]string{true: "reduced", false: "full"}[u.Reduced])
			case a == "low" && u.Supply != lowSupply, a == "oos" && u.Supply != oos, a == "supplied" && u.Supply != "":
				return fmt.Errorf("%s has supply marker %q", u.ID, u.Supply)
			}
		}
	case "gone":
		u, err := unit()
		if err != nil {
			return err
		}
		if u.Box != eliminated && u.Box != removed {
			return fmt.Errorf("%s is %s", u.ID, where(g, u))
		}
	case "removed":
		u, err := unit()
		if err != nil {
			return err
		}
		if u.Box != removed {
			return fmt.Errorf("%s is %s", u.ID, where(g, u))
		}
	case "box":
		u, err := unit()
		if err != nil {
			return err
		}
		if err := need(2); err != nil {
			return err
		}
		if u.Box != f[1] {
			return fmt.Errorf("%s is %s", u.ID, where(g, u))
		}
	case "control":
		if err := need(2); err != nil {
			return err
		}
		if got := g.Control[slug(f[0])]; !strings.EqualFold(string(got), f[1]) {
			return fmt.Errorf("%s is controlled by %s", f[0], got)
		}
	case "region":
		if err := need(2); err != nil {
			return err
		}
		got := string(g.Regions[slug(f[0])])
		if got == "" {
			got = "none"
		}
		if !strings.EqualFold(got, f[1]) {
			return fmt.Errorf("region %s is %s's", f[0], got)
		}
	case "sw", "fa", "level":
		if err := need(2); err != nil {
			return err
		}
		s, ok := parseSide(f[0])
		if !ok {
			return fmt.Errorf("%q is not a side", f[0])
		}
		got := map[string]int{"sw": g.Sides[s].SW, "fa": g.Sides[s].FA, "level": g.level(s)}[name]
		if strconv.Itoa(got) != f[1] {
			return fmt.Errorf("%s %s is %d", s, name, got)
		}
	case "hand":
		if err := need(1); err != nil {
			return err
		}
		got := slices.Clone(g.Hands[f[0]])
		exp := []string{}
		for _, c := range f[1:] {
			exp = append(exp, cardID(c))
		}
		slices.Sort(got)
		slices.Sort(exp)
		if !slices.Equal(got, exp) {
			return fmt.Errorf("%s holds %v", f[0], got)
		}
	case "discard":
		if err := need(2); err != nil {
			return err
		}
		if d := g.Decks[f[0]]; d == nil || !slices.Contains(d.Discard, cardID(f[1])) {
			return fmt.Errorf("%s's discard pile: %v", f[0], g.Decks[f[0]])
		}
	case "pending":
		if g.Pending == nil || !slices.Contains(g.Pending.Seats, want) {
			return fmt.Errorf("pending: %+v", g.Pending)
		}
	case "nopending":
		if g.Pending != nil {
			return fmt.Errorf("pending: %+v", g.Pending)
		}
	case "phase":
		if g.Phase != want {
			return fmt.Errorf("phase %s", g.Phase)
		}
	case "active":
		if g.Active != want {
			return fmt.Errorf("active %q", g.Active)
		}
	case "turn":
		if strconv.Itoa(g.Turn) != want {
			return fmt.Errorf("turn %d", g.Turn)
		}
	case "trench":
		if err := need(2); err != nil {
			return err
		}
		got := g.Trench[slug(f[0])]
		switch {
		case got == "":
			got = "none"
		case strings.HasPrefix(got, "progress"):
			got = "progress"
		}
		if got != f[1] {
			return fmt.Errorf("trench at %s: %s", f[0], got)
		}
	case "un", "noun":
		if g.isUN(slug(want)) != (name == "un") {
			return fmt.Errorf("UN Safe Areas: %v", g.UN)
		}
	case "winner":
		if !slices.Contains(g.Winners, want) {
			return fmt.Errorf("winners %v (%s)", g.Winners, g.Reason)
		}
	case "track":
		// want track NAME... VALUE: a track of the Spectator's report
		if err := need(2); err != nil {
			return err
		}
		sit, err := Game.(adjudicator.Reporter).Situation(state, adjudicator.Spectator)
		if err != nil {
			return err
		}
		name, value := strings.Join(f[:len(f)-1], " "), f[len(f)-1]
		for _, tr := range sit.Tracks {
			if tr.Name == name {
				got := tr.Text
				if got == "" {
					got = strconv.Itoa(tr.Value)
				}
				if got != value {
					return fmt.Errorf("track %s is %s", name, got)
				}
				return nil
			}
		}
		return fmt.Errorf("no track %s", name)
	case "points":
		if g.Round == nil || strconv.Itoa(g.Round.Points) != want {
			return fmt.Errorf("round %+v", g.Round)
		}
	default:
		return rulestest.ErrUnknown
	}
	return nil
}

func where(g *game, u *unit) string {
	if u.Box == onMap {
		s := "at " + u.Space
		if u.Reduced {
			s += " (reduced)"
		}
		return s
	}
	return boxName(u.Box)
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-bu.md, are tried in: the three-player demo on
// turn 3 emptied and set as each phase needs (as the rulebook's examples
// in testdata/game/examples.case are), and, for the lines a card's mode
// or event brings, that card played first.
var grammarStates = func() map[string]rulestest.PhaseState {
	front := "scenario three\nempty\nturn 3\nunit VRS-E1 bijeljina\nunit VRS-E2 priboj\nunit VRS-1 priboj\nunit VRS-12 priboj\nunit VRS-13 priboj\nunit VRS-2 zvornik reduced\nunit SDG-1 loznica\nunit SDG-2 loznica\nunit ARBIH-1 brcko\nunit ARBIH-2 brcko\nunit ARBIH-5 derventa\nunit HVO-4 tomislavgrad\nhand Bosniak B1\nhand Croat C16\n"
	serbRound := front + "round Serb\nhand Serb S13 S18 S2\n"
	bosniakRP := "scenario three\nempty\nturn 3\nround Bosniak\neliminated ARBIH-1 ARBIH-2\nunit ARBIH-3 tuzla reduced\nhand Bosniak B28\nhand Croat C16"
	return map[string]rulestest.PhaseState{
		"standing":             {Seat: "Bosniak", Prestate: "scenario three\nempty\nturn 3\nphase start\nunit ARBIH-1 brcko\nunit ARBIH-2 brcko\nunit VRS-E1 bijeljina\nunit VRS-1 priboj\nhand Bosniak B1 B15 B31"},
		"standing (2 players)": {Seat: "BC", Prestate: "scenario two\nturn 3\nphase start"},
		"set-up (2 players)":   {Seat: "BC", Prestate: "scenario two"},
		"start of turn":        {Seat: "Serb", Prestate: "scenario three\nempty\nturn 3\nphase start\nunit VRS-1 prijedor\nunit SDG-2 bijeljina reduced\nunit SDG-3 bijeljina reduced\neliminated SDG-1"},
		"deploy":               {Seat: "Serb", Prestate: "scenario three\nempty\nturn 3\nphase start\nreserve SDG-3"},
		"action round":         {Seat: "Serb", Prestate: serbRound, Lead: []string{"play S13 op"}},
		"play":                 {Seat: "Serb", Prestate: serbRound},
		"redeploy":             {Seat: "Serb", Prestate: serbRound, Lead: []string{"play S13 sr"}},
		"recreate":             {Seat: "Bosniak", Prestate: bosniakRP, Lead: []string{"play B28 rp"}},
		"replace":              {Seat: "Bosniak", Prestate: bosniakRP, Lead: []string{"play B28 rp"}},
		"target":               {Seat: "Bosniak", Prestate: "scenario three\nempty\nturn 3\nround Bosniak\nunit VRS-E1 priboj\nunit VRS-1 bijeljina\nhand Bosniak B26\nhand Croat C16", Lead: []string{"play B26 event"}},
		"place":                {Seat: "Croat", Prestate: "scenario three\nempty\nturn 1\nround Croat\nhand Croat C1\nhand Serb S5", Lead: []string{"play C1 event"}},
		"event deploy":         {Seat: "Serb", Prestate: "scenario three\nempty\nturn 1\nround Serb\nhand Serb S6\nhand Croat C4", Lead: []string{"play S6 event"}},
		"take":                 {Seat: "Croat", Prestate: "scenario three\nempty\nturn 1\nround Croat\nhand Croat C7\nhand Serb S5", Lead: []string{"play C7 event"}},
		"safe":                 {Seat: "Bosniak", Prestate: "scenario three cards=testdata/game/cards-gm.toml\nempty\nturn 2\nround Bosniak\ncontrol srebrenica bosniak\ncontrol tuzla bosniak\nhand Bosniak B11", Lead: []string{"play B11 event"}},
		"advance":              {Seat: "Serb", Prestate: "scenario three\nempty\nturn 3\nround Serb\nunit VRS-E1 priboj\nunit ARBIH-1 brcko reduced\nhand Serb S13\nhand Croat C16\norders Serb\n  play S13 op\n  attack brcko from priboj\ndice 9 0\nthen"},
		"ignore":               {Seat: "Bosniak", Prestate: "scenario three\nempty\nturn 3\nround Serb\ntrench brcko complete\ncontrol orasje serb\ncontrol gradacac serb\nunit VRS-E1 bijeljina\nunit VRS-E2 bijeljina\nunit VRS-E3 priboj\nunit ARBIH-1 brcko\nunit ARBIH-2 brcko\nstanding Bosniak losses auto\nhand Serb S13\nhand Croat C16\norders Serb\n  play S13 op\n  attack brcko from bijeljina priboj advance none\ndice 6 0\nthen"},
		"decision":             {Seat: "Serb", Prestate: "scenario three\nempty\nturn 3\nround Bosniak\nunit ARBIH-E1 brcko\nunit ARBIH-1 brcko\nunit VRS-1 priboj\nunit VRS-2 priboj reduced\nhand Bosniak B28\nhand Croat C16\norders Bosniak\n  play B28 op\n  attack priboj from brcko losses auto\ndice 4 0\nthen"},
	}
}()

func grammarConfig() rulestest.Config {
	return rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Fixtures: fixtures{}, CheckDraw: citesRule}
}

// TestVerbExamples: every example `help bu` mails is accepted by the
// game's parser in a step of its phase.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, grammarConfig(), grammarStates)
}

// TestOrdersDocumented: docs/orders-bu.md names every verb of the table,
// and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "orders-bu.md"), grammarStates)
}
