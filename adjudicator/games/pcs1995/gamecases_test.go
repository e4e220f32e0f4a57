package pcs1995

// The adjudication cases of testdata/game/*.case run on rulestest, the
// runner of every game (docs/rules-cases.md): each a situation on the test
// map, the orders of the seat owing, the dice forced (a chit draw is the
// chit's index among those in the cup, in id order, then its side: 1 front,
// 2 back), and what must follow. Every draw must name a 1995 rule.
//
// The prestate of every case is "state test-map.toml": the test map with
// test-counters.toml and test-chits.toml, no unit on the map but a fresh
// bystander of each side far away (N-X at 1002, R-X at 4102), turn 2, VP 7,
// NATO's initiative, every air unit in the spent box. Setup directives:
//
//	phase action SEAT               the Action Phase, SEAT to activate (asked for its queue)
//	phase turn                      the turn's first step (placement, air, queues) for both seats
//	phase setup                     the set-up
//	decision SEAT KIND              a decision step asking SEAT (intercept, defend, interdict, absorb, advance)
//	unit ID HEX [static]            a unit on the map
//	routed ID | arriving ID [anywhere] | pool ID
//	air ID BOX [damaged] [flown]    an air unit in a box
//	vp N | turn N | initiative SEAT | current SEAT | control HEX SEAT
//	standing SEAT KIND VALUE...     a standing order (absorb, defend, intercept:airstrike, ...)
//	queue SEAT LINE...              a queue line of SEAT
//	passed SEAT | deesc SEAT | cup ID... | drawn ID... | contributed NAT... | threevo | strict
//
// Checks:
//
//	want unit ID HEX [static|fresh] want status ID routed|removed|surrendered|arriving|pool
//	want vp N | turn N | initiative SEAT | winner SEAT | phase P | stage S
//	want air ID BOX [damaged]       want control HEX SEAT
//	want pending SEAT [KIND]        want nopending
//	want cup N | drawn N | passed SEAT | queue SEAT N

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// Together the cases walk every refusal the receipt can give (refusals.case
// holds those no rule's own file shows), each with a hint.
func TestGameCases(t *testing.T) {
	t.Parallel()
	refusals := &rulestest.Refusals{Dir: "."}
	defer func() {
		if !t.Failed() {
			refusals.Check(t)
		}
	}()
	rulestest.Run(t, rulestest.Config{
		Rules:    Game,
		Dir:      filepath.Join("testdata", "game"),
		Load:     loadTestMap,
		Fixtures: gameFixtures{},
		Refusals: refusals,
		CheckDraw: func(d resolve.Draw) error {
			if !strings.HasPrefix(d.Purpose, "1995 ") {
				return fmt.Errorf("a draw without a 1995 rule")
			}
			return nil
		},
	})
}

// loadTestMap makes the prestate of a map file: the test map with the
// counters and chits beside it, no unit on the map, turn 2 of the Action
// Phase, NATO to activate.
func loadTestMap(path string, _ []byte) ([]byte, error) {
	dir := filepath.Dir(path)
	state, err := Game.New("demo", map[string]string{"map": path, "counters": filepath.Join(dir, "test-counters.toml"), "chits": filepath.Join(dir, "test-chits.toml")})
	if err != nil {
		return nil, err
	}
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	for _, u := range g.Units {
		u.Hex, u.Status = "", pool
		if u.ID == "N-X" || u.ID == "R-X" {
			u.Hex, u.Status = g.hex(u.c.Hex), onMap
		}
	}
	for _, a := range g.Air {
		if a.Box != boxPool {
			a.Box = boxSpent
		}
	}
	g.Turn, g.Initiative = 2, NATO
	setPhase(g, []string{"action", seatNATO})
	return g.encode()
}

func setPhase(g *game, v []string) error {
	g.Pending = nil
	switch v[0] {
	case "action":
		if len(v) != 2 {
			return fmt.Errorf("want phase action SEAT")
		}
		g.Phase, g.Stage, g.Current = phaseQueue, stageAction, faction(v[1])
		g.Pending = &pending{Kind: phaseQueue, Seat: v[1], Question: "test", Default: "pass"}
	case "turn":
		g.Phase, g.Stage = phaseTurn, stagePlacement
	case "setup":
		g.Phase, g.Stage = phaseSetup, ""
	default:
		return fmt.Errorf("phase %q: want action SEAT, turn or setup", v[0])
	}
	return nil
}

// gameFixtures are 1995's setup directives and checks.
type gameFixtures struct{}

func (gameFixtures) Setup(state []byte, directive string, v []string) ([]byte, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	num := func(n *int) error {
		if len(v) != 1 {
			return fmt.Errorf("want one number")
		}
		*n, err = strconv.Atoi(v[0])
		return err
	}
	unit := func() (*Unit, error) {
		if len(v) == 0 || g.byID[v[0]] == nil {
			return nil, fmt.Errorf("no unit %v", v)
		}
		return g.byID[v[0]], nil
	}
	switch directive {
	case "phase":
		err = setPhase(g, v)
	case "decision":
		if len(v) != 2 {
			return nil, fmt.Errorf("want decision SEAT KIND")
		}
		g.Phase = phaseDecision
		g.Pending = &pending{Kind: phaseDecision, Seat: v[0], Decide: v[1], Key: v[1], Question: "test", Hint: "answer the test", Default: "none"}
	case "unit":
		var u *Unit
		if u, err = unit(); err == nil {
			if len(v) < 2 {
				return nil, fmt.Errorf("want unit ID HEX [static]")
			}
			u.Status, u.Hex, u.Static = onMap, v[1], slices.Contains(v[2:], "static")
		}
	case "routed", "arriving", "pool":
		var u *Unit
		if u, err = unit(); err == nil {
			u.Hex, u.Status = "", map[string]string{"routed": routed, "arriving": arriving, "pool": pool}[directive]
			u.Anywhere = slices.Contains(v[1:], "anywhere")
		}
	case "air":
		if len(v) < 2 || g.airBy[v[0]] == nil {
			return nil, fmt.Errorf("want air ID BOX [damaged] [flown]")
		}
		a := g.airBy[v[0]]
		a.Box, a.Damaged, a.Flown = v[1], slices.Contains(v[2:], "damaged"), slices.Contains(v[2:], "flown")
	case "vp":
		err = num(&g.VP)
	case "turn":
		err = num(&g.Turn)
	case "initiative":
		g.Initiative = faction(v[0])
	case "current":
		g.Current = faction(v[0])
	case "control":
		g.Control[v[0]] = faction(v[1])
	case "standing":
		if len(v) < 3 {
			return nil, fmt.Errorf("want standing SEAT KIND VALUE")
		}
		if g.Standing[v[0]] == nil {
			g.Standing[v[0]] = map[string]string{}
		}
		g.Standing[v[0]][v[1]] = strings.Join(v[2:], " ")
	case "queue", "script", "mission":
		if len(v) < 2 {
			return nil, fmt.Errorf("want %s SEAT LINE", directive)
		}
		m := map[string]map[string][]string{"queue": g.Queue, "script": g.Script, "mission": g.Missions}[directive]
		m[v[0]] = append(m[v[0]], strings.Join(v[1:], " "))
	case "passed":
		g.Passed[v[0]] = true
	case "deesc":
		g.Deesc[v[0]] = true
	case "cup":
		g.Cup = v
	case "drawn":
		g.Drawn = v
	case "contributed":
		g.Contributed = v
	case "threevo":
		g.ThreeVO = true
	case "strict":
		g.Strict = true
	default:
		return nil, rulestest.ErrUnknown
	}
	if err != nil {
		return nil, err
	}
	if err := g.bind(); err != nil {
		return nil, err
	}
	return g.encode()
}

func (gameFixtures) Check(state []byte, name, want string) error {
	g, err := decode(state)
	if err != nil {
		return err
	}
	w := strings.Fields(want)
	if len(w) == 0 && name != "nopending" {
		return fmt.Errorf("want %s needs an argument", name)
	}
	num := func() int {
		n, err := strconv.Atoi(w[0])
		if err != nil {
			return -1 << 31
		}
		return n
	}
	unit := func() (*Unit, error) {
		u := g.byID[w[0]]
		if u == nil {
			return nil, fmt.Errorf("no unit %s", w[0])
		}
		return u, nil
	}
	switch name {
	case "unit":
		u, err := unit()
		if err != nil {
			return err
		}
		if len(w) < 2 {
			return fmt.Errorf("want unit ID HEX [static|fresh]")
		}
		if !u.onMap() || u.Hex != w[1] {
			return fmt.Errorf("%s is at %q (%s), want %s", w[0], u.Hex, statusName(u), w[1])
		}
		for _, o := range w[2:] {
			if (o == "static") != u.Static {
				return fmt.Errorf("%s is static=%v, want %s", w[0], u.Static, o)
			}
		}
	case "status":
		u, err := unit()
		if err != nil {
			return err
		}
		got := u.Status
		if got == onMap {
			got = "onmap"
		}
		if len(w) < 2 || got != w[1] {
			return fmt.Errorf("%s is %q", w[0], got)
		}
	case "vp":
		if g.VP != num() {
			return fmt.Errorf("VP %d", g.VP)
		}
	case "turn":
		if g.Turn != num() {
			return fmt.Errorf("turn %d", g.Turn)
		}
	case "initiative":
		if string(g.Initiative) != w[0] {
			return fmt.Errorf("initiative %s", g.Initiative)
		}
	case "winner":
		if g.Winner != w[0] {
			return fmt.Errorf("winner %q (%s)", g.Winner, g.Reason)
		}
	case "phase":
		if g.Phase != w[0] {
			return fmt.Errorf("phase %s", g.Phase)
		}
	case "stage":
		if g.Stage != w[0] {
			return fmt.Errorf("stage %s", g.Stage)
		}
	case "air":
		a := g.airBy[w[0]]
		if a == nil || len(w) < 2 {
			return fmt.Errorf("want air ID BOX [damaged]")
		}
		if a.Box != w[1] {
			return fmt.Errorf("%s is in the %q box", w[0], a.Box)
		}
		if slices.Contains(w[2:], "damaged") != a.Damaged {
			return fmt.Errorf("%s damaged=%v", w[0], a.Damaged)
		}
	case "control":
		if len(w) < 2 || string(g.Control[w[0]]) != w[1] {
			return fmt.Errorf("%s is controlled by %q", w[0], g.Control[w[0]])
		}
	case "pending":
		if g.Pending == nil || g.Pending.Seat != w[0] || len(w) > 1 && g.Pending.Kind != w[1] && g.Pending.Decide != w[1] {
			return fmt.Errorf("pending %+v", g.Pending)
		}
	case "nopending":
		if g.Pending != nil {
			return fmt.Errorf("pending %+v", g.Pending)
		}
	case "cup":
		if len(g.Cup) != num() {
			return fmt.Errorf("%d chits in the cup", len(g.Cup))
		}
	case "drawn":
		if len(g.Drawn) != num() {
			return fmt.Errorf("%d chits drawn", len(g.Drawn))
		}
	case "passed":
		if !g.Passed[w[0]] {
			return fmt.Errorf("%s has not passed", w[0])
		}
	case "queue":
		if len(w) < 2 || len(g.Queue[w[0]]) != atoi(w[1]) {
			return fmt.Errorf("%s's queue is %q", w[0], g.Queue[w[0]])
		}
	default:
		return rulestest.ErrUnknown
	}
	return nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestRefusalsDocumented: every refusal a player can meet is explained in
// docs/troubleshooting.md.
func TestRefusalsDocumented(t *testing.T) {
	t.Parallel()
	rulestest.Documented(t, filepath.Join("..", "..", "..", "docs", "troubleshooting.md"), ".")
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-pcs1995.md, are tried in: the demo's set-up, and
// its turn 1 with the German 12th arrived, as NATO.
var grammarStates = func() map[string]rulestest.PhaseState {
	turn := "scenario demo\nphase turn\nturn 1\narriving DE-12P"
	return map[string]rulestest.PhaseState{
		"set-up":             {Seat: "NATO", Prestate: "scenario demo"},
		"turn start":         {Seat: "NATO", Prestate: turn},
		"bomb":               {Seat: "NATO", Prestate: turn, Lead: []string{"air US-A10 bombing", "air US-F16 patrol"}},
		"airstrike":          {Seat: "NATO", Prestate: turn, Lead: []string{"air US-A10 airstrike", "air US-F16 patrol"}},
		"activations":        {Seat: "NATO", Prestate: turn},
		"standing":           {Seat: "NATO", Prestate: turn},
		"decision":           {Seat: "NATO", Prestate: turn + "\ndecision NATO absorb"},
		"decision absorb":    {Seat: "NATO", Prestate: turn + "\ndecision NATO absorb"},
		"decision defend":    {Seat: "NATO", Prestate: turn + "\ndecision NATO defend"},
		"decision intercept": {Seat: "NATO", Prestate: turn + "\ndecision NATO intercept"},
		"decision interdict": {Seat: "NATO", Prestate: turn + "\ndecision NATO interdict"},
		"decision advance":   {Seat: "NATO", Prestate: turn + "\ndecision NATO advance"},
	}
}()

func grammarConfig() rulestest.Config {
	return rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Load: loadTestMap, Fixtures: gameFixtures{}}
}

// TestVerbExamples: every example `help pcs1995` mails is accepted by the
// game's parser in a step of its phase.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, grammarConfig(), grammarStates)
}

// TestOrdersDocumented: docs/orders-pcs1995.md names every verb of the
// table, and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "orders-pcs1995.md"), grammarStates)
}
