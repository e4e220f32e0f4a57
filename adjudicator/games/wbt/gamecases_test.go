package wbt

// The adjudication cases of testdata/game/*.case run on rulestest, the
// runner of every game (docs/rules-cases.md): each a situation on
// the small test map, the orders of the seat owing, the dice forced, and
// what must follow. WbT's own directives and checks are gameFixtures.
//
// The prestate of every case is "state small-map.toml": the small test map
// with small-counters.toml, no unit on the map, turn 3, NATO's movement
// phase, the reconstitution marker at 4. Setup directives:
//
//	phase PHASE                     setup-nato, weather, nato-move, nato-combat, serb-combat, serb-move
//	                                (the phases after it in the turn follow)
//	unit ID HEX [steps=N] [dismounted] [moved] [attacked] [fixed]
//	turn N | length N | weather good|bad | prevbad | sequence S | recon R | mepps N | marker N
//	control HEX | intact HEX/HEX | down HEX/HEX | air HEX | badrange N
//	standing KEY IDS... | maxeffortused | neutrals C... | plan PHASE...
//
// Checks:
//
//	want unit ID HEX [steps=N] [dismounted] [mounted]
//	want gone ID                    eliminated
//	want mepps N | turn N | length N | phase P | winner SEAT | marker N | recon R | weather W
//	want control HEX | nocontrol HEX | intact HEX/HEX | down HEX/HEX
//	want pending SEAT               a follow-up decision (loss, advance) waits for SEAT
//	want nopending                  no follow-up decision waits
//
// Every die drawn must cite a WbT rule.

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

// TestRefusalsDocumented: every refusal a player can meet is explained in
// docs/troubleshooting.md.
func TestRefusalsDocumented(t *testing.T) {
	rulestest.Documented(t, filepath.Join("..", "..", "..", "docs", "troubleshooting.md"), ".")
}

// TestGameCases runs the game's cases. Together they walk every refusal
// the receipt can give (refusals.case holds those no rule's own file
// shows), each with a hint.
func TestGameCases(t *testing.T) {
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
			if !strings.HasPrefix(d.Purpose, "WbT ") {
				return fmt.Errorf("a draw without a rule")
			}
			return nil
		},
	})
}

// loadTestMap makes the prestate of a map file: the map with the counters
// beside it (small-counters.toml), no unit on the map, turn 3, NATO's
// movement phase.
func loadTestMap(path string, _ []byte) ([]byte, error) {
	state, err := Game.New("demo", map[string]string{"map": path, "counters": filepath.Join(filepath.Dir(path), "small-counters.toml")})
	if err != nil {
		return nil, err
	}
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	g.Phase, g.Turn, g.Plan = phaseNATOMove, 3, defaultPlan(phaseNATOMove)
	g.ReconMarker = 4
	for _, u := range g.Units {
		u.Out, u.Hex = true, ""
	}
	return g.encode()
}

// defaultPlan is the rest of a turn from phase.
func defaultPlan(phase string) []string {
	switch phase {
	case phaseNATOMove:
		return []string{phaseNATOCombat, phaseSerbCombat, phaseSerbMove}
	case phaseNATOCombat:
		return []string{phaseSerbCombat, phaseSerbMove}
	case phaseSerbCombat:
		return []string{phaseSerbMove}
	}
	return nil
}

// gameFixtures are WbT's setup directives and checks.
type gameFixtures struct{}

func (gameFixtures) Setup(state []byte, directive string, v []string) ([]byte, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	arg := func() (string, error) {
		if len(v) != 1 {
			return "", fmt.Errorf("want one argument, have %q", v)
		}
		return v[0], nil
	}
	num := func(n *int) error {
		a, err := arg()
		if err != nil {
			return err
		}
		*n, err = strconv.Atoi(a)
		return err
	}
	str := func(s *string) error {
		a, err := arg()
		*s = a
		return err
	}
	switch directive {
	case "phase":
		err = str(&g.Phase)
		g.Plan = defaultPlan(g.Phase)
	case "unit":
		err = placeUnit(g, v)
	case "turn":
		err = num(&g.Turn)
	case "length":
		err = num(&g.Length)
	case "weather":
		var w string
		err = str(&w)
		g.Bad = w == "bad"
	case "prevbad":
		g.PrevBad = true
	case "sequence":
		err = str(&g.Sequence)
	case "recon":
		err = str(&g.Recon)
	case "mepps":
		err = num(&g.MePPs)
	case "marker":
		err = num(&g.ReconMarker)
	case "control":
		var h string
		err = str(&h)
		g.Control = append(g.Control, h)
	case "intact":
		var h string
		err = str(&h)
		g.Intact = append(g.Intact, h)
	case "down":
		var h string
		err = str(&h)
		g.Intact = removeString(g.Intact, h)
	case "air":
		err = str(&g.AirHex)
		g.AirTurn = g.Turn
	case "badrange":
		err = num(&g.BadRange)
	case "standing":
		if len(v) == 0 {
			return nil, fmt.Errorf("want standing KEY IDS...")
		}
		g.Standing[v[0]] = v[1:]
	case "maxeffortused":
		g.MaxEffortUsed = true
	case "neutrals":
		g.Neutrals = v
	case "plan":
		g.Plan = v
	default:
		return nil, rulestest.ErrUnknown
	}
	if err != nil {
		return nil, err
	}
	return g.encode()
}

// placeUnit puts a unit on the map: ID HEX [steps=N] [dismounted] [moved]
// [attacked] [fixed].
func placeUnit(g *game, f []string) error {
	if len(f) < 2 {
		return fmt.Errorf("want unit ID HEX [options]")
	}
	u := g.byID[f[0]]
	if u == nil {
		return fmt.Errorf("no unit %s", f[0])
	}
	u.Out = false
	u.Hex = f[1]
	u.Steps = u.c.MaxSteps()
	for _, o := range f[2:] {
		k, val, _ := strings.Cut(o, "=")
		switch k {
		case "steps":
			n, err := strconv.Atoi(val)
			if err != nil {
				return fmt.Errorf("unit option %q", o)
			}
			u.Steps = n
		case "dismounted":
			u.Dismounted = true
		case "moved":
			u.Moved = true
		case "attacked":
			u.Attacked = true
		case "fixed":
			u.Fixed = true
		default:
			return fmt.Errorf("unit option %q", o)
		}
	}
	return nil
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
	unit := func() (*unit, error) {
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
			return fmt.Errorf("want unit ID HEX [options]")
		}
		if u.Hex != w[1] {
			return fmt.Errorf("%s is at %q, want %s", w[0], u.Hex, w[1])
		}
		for _, o := range w[2:] {
			k, v, _ := strings.Cut(o, "=")
			switch k {
			case "steps":
				if n, _ := strconv.Atoi(v); u.Steps != n {
					return fmt.Errorf("%s has %d steps, want %d", w[0], u.Steps, n)
				}
			case "dismounted":
				if !u.Dismounted {
					return fmt.Errorf("%s is not dismounted", w[0])
				}
			case "mounted":
				if u.Dismounted {
					return fmt.Errorf("%s is dismounted", w[0])
				}
			default:
				return fmt.Errorf("unit option %q", o)
			}
		}
	case "gone":
		u, err := unit()
		if err != nil {
			return err
		}
		if u.alive() {
			return fmt.Errorf("%s is still on the map at %s", w[0], u.Hex)
		}
	case "mepps":
		if g.MePPs != num() {
			return fmt.Errorf("MePPs %d", g.MePPs)
		}
	case "turn":
		if g.Turn != num() {
			return fmt.Errorf("game turn %d", g.Turn)
		}
	case "length":
		if g.Length != num() {
			return fmt.Errorf("length %d", g.Length)
		}
	case "marker":
		if g.ReconMarker != num() {
			return fmt.Errorf("reconstitution marker %d", g.ReconMarker)
		}
	case "recon":
		if g.Recon != strings.TrimPrefix(w[0], "none") {
			return fmt.Errorf("reconstitution %q", g.Recon)
		}
	case "weather":
		if (w[0] == "bad") != g.Bad {
			return fmt.Errorf("weather bad=%v", g.Bad)
		}
	case "phase":
		if g.Phase != w[0] {
			return fmt.Errorf("phase %s", g.Phase)
		}
	case "winner":
		if g.Winner != w[0] {
			return fmt.Errorf("winner %q", g.Winner)
		}
	case "control":
		if !slices.Contains(g.Control, w[0]) {
			return fmt.Errorf("NATO does not control %s", w[0])
		}
	case "nocontrol":
		if slices.Contains(g.Control, w[0]) {
			return fmt.Errorf("NATO controls %s", w[0])
		}
	case "intact":
		if !slices.Contains(g.Intact, w[0]) {
			return fmt.Errorf("bridge %s is down", w[0])
		}
	case "down":
		if slices.Contains(g.Intact, w[0]) {
			return fmt.Errorf("bridge %s is intact", w[0])
		}
	case "pending":
		if g.Pending == nil || g.Pending.Seat != w[0] {
			return fmt.Errorf("no decision pending for %s", w[0])
		}
	case "nopending":
		if g.Pending != nil {
			return fmt.Errorf("a decision is pending for %s", g.Pending.Seat)
		}
	default:
		return rulestest.ErrUnknown
	}
	return nil
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-wbt.md, are tried in: the demo scenario at turn 3
// in each phase, with a NATO and a Serbian force face to face at 1608 and
// 1708, the 1st AAA in range, a Serbian attack on 2731 and a bridge to blow.
var grammarStates = func() map[string]rulestest.PhaseState {
	front := "scenario demo\nturn 3\nunit US-1AD 1608\nunit UK-1AD 1808\nunit US-1AAA 1714\nunit US-MEF 2731\nunit S-ART1 2000\nunit US-1ID 1909\nunit UK-3ID 2402\nunit S-63P 1708\nunit S-TFD 1709\nunit S-36M 1709\nunit S-72SP 1709\nunit S-125M 2832\nunit S-ART2 2832\n"
	pending := `set pending = {"seat":"%s","kind":"%s","phase":"nato-combat","hex":"1708","steps":1,"battle":"attack 1708 with US-1AD","rest":[],"advance":null,"attackers":["US-1AD"],"defenders":["S-63P"]}`
	return map[string]rulestest.PhaseState{
		"NATO set-up":      {Seat: "NATO", Prestate: "scenario demo"},
		"Serbian set-up":   {Seat: "Serb", Prestate: "scenario demo\nphase setup-serb"},
		"weather":          {Seat: "NATO", Prestate: front + "phase weather\nrecon 3"},
		"NATO movement":    {Seat: "NATO", Prestate: front + "phase nato-move"},
		"NATO combat":      {Seat: "NATO", Prestate: front + "phase nato-combat"},
		"Serbian combat":   {Seat: "Serb", Prestate: front + "phase serb-combat"},
		"Serbian movement": {Seat: "Serb", Prestate: front + "phase serb-move"},
		"standing":         {Seat: "NATO", Prestate: front + "phase nato-move"},
		"loss decision":    {Seat: "Serb", Prestate: front + "phase nato-combat\nset phase = \"losses\"\n" + fmt.Sprintf(pending, "Serb", "")},
		"advance decision": {Seat: "NATO", Prestate: front + "phase nato-combat\nunit S-63P 2832\nset phase = \"advance\"\n" + fmt.Sprintf(pending, "NATO", "advance")},
		"maximum-effort":   {Seat: "Serb", Prestate: front + "phase serb-combat"},
		"remount":          {Seat: "NATO", Prestate: front + "unit UK-3ID 2402 dismounted\nphase nato-move"},
	}
}()

func grammarConfig() rulestest.Config {
	return rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Load: loadTestMap, Fixtures: gameFixtures{}}
}

// TestVerbExamples: every example `help wbt` mails is accepted by the
// game's parser in a step of its phase.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, grammarConfig(), grammarStates)
}

// TestOrdersDocumented: docs/orders-wbt.md names every verb of the table,
// and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "orders-wbt.md"), grammarStates)
}

// TestOrderFileExample: the order file docs/order-file.md shows (and the
// judge's 'help' mails) is War by Television's grammar, and parses.
func TestOrderFileExample(t *testing.T) {
	rulestest.DocumentedOrdersParse(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "order-file.md"), grammarStates)
}
