package wbt

// This file reads order lines (docs/orders-wbt.md): each phase's orders
// and the standing orders every step accepts, checked at receipt against
// the state, in canonical form with a forecast comment for moves.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// verbs is WbT's order table: every order the parser accepts is of one of
// its verbs (parseLines checks each canonical order against it), and
// `help wbt` mails it. The phases are the steps' own, shortened.
var verbs = adjudicator.Verbs{
	{Name: "neutrals", Form: "neutrals COUNTRY...|none", Phases: []string{"NATO set-up"}, Rules: "3.2, 4.2", Example: "neutrals croatia romania",
		Summary: "the neutrals NATO brings in (croatia, romania, bulgaria); each costs a halved die of MePPs"},
	{Name: "uk3", Form: "uk3 yes|no", Phases: []string{"NATO set-up"}, Rules: "4.8", Example: "uk3 yes",
		Summary: "the UK 3rd Division, for a MePPs-loss check"},
	{Name: "place", Form: "place UNIT HEX", Phases: []string{"NATO set-up", "Serbian set-up"}, Rules: "3.1, 3.2, 3.3, 6.2, 6.3", Example: "place US-1AD 2302",
		Summary: "set a unit up in another hex than the demo set-up's (the set-up areas and stacking are checked)"},
	{Name: "sequence", Form: "sequence move-combat|combat-move [if good|bad]", Phases: []string{"weather"}, Rules: "5.4", Example: "sequence combat-move if good",
		Summary: "NATO's order of movement and combat this turn: combat first shifts NATO attacks 1 right"},
	{Name: "reconstitute", Form: "reconstitute [if good|bad]", Phases: []string{"weather"}, Rules: "9.2, 9.4", Example: "reconstitute",
		Summary: "a discretionary reconstitution, only when the marker is on this turn"},
	{Name: "airsupply", Form: "airsupply HEX | airsupply defend HEX...|any|none", Phases: []string{"weather", "NATO movement", "NATO combat", "standing"}, Rules: "8.10", Example: "airsupply 2832",
		Summary: "aerial supply at a hex, once per good-weather game turn; airsupply defend: kept for Serbian attacks on those hexes"},
	{Name: "demolish", Form: "demolish [UNIT] HEX/HEX", Phases: []string{"NATO movement", "Serbian movement"}, Rules: "10.19", Example: "demolish 1900/2000",
		Summary: "blow a bridge: NATO's demolitions are automatic; a Serbian unit next to the bridge rolls, and may not move or attack"},
	{Name: "repair", Form: "repair UNIT HEX/HEX", Phases: []string{"NATO movement"}, Rules: "10.18", Example: "repair US-1ID 1909/2010",
		Summary: "NATO, good weather: repair a bridge; the unit may not move or attack this turn"},
	{Name: "dismount", Form: "dismount UNIT", Phases: []string{"NATO movement"}, Rules: "10.21", Example: "dismount UK-3ID",
		Summary: "halve the unit's steps, 4 MP non-mechanized"},
	{Name: "remount", Form: "remount UNIT", Phases: []string{"NATO movement"}, Rules: "10.21", Example: "remount UK-3ID",
		Summary: "double a dismounted unit's steps again at the end of the phase"},
	{Name: "move", Form: "move UNIT[+UNIT...] HEX... [else HEX HEX...] [together|leave UNIT...]", Phases: []string{"NATO movement", "Serbian movement"}, Rules: "10.2-10.6, 10.15, 12.3", Example: "move US-1AD 1508",
		Summary: "every hex entered, each next to the one before; else: an alternative path from a hex on the order; a Serbian stack that began together with + (together: stop as one; leave: only those may be left behind)"},
	{Name: "attack", Form: "attack HEX with UNIT... [advance all|none|UNIT...] [losses UNIT...]", Phases: []string{"NATO combat", "Serbian combat"}, Rules: "11.4, 11.20, 11.23, 11.24, 12.6", Example: "attack 1708 with US-1AD",
		Summary: "attack the hex with the units; advance: who enters the cleared hex; losses: the order the attackers lose steps in; battles are fought in the order given"},
	{Name: "maximum-effort", Form: "maximum-effort", Phases: []string{"Serbian combat"}, Rules: "5.6", Example: "maximum-effort",
		Summary: "once a game from turn 2: the Serbian movement comes first this turn; send the movement orders after it, the combat phase follows as the next step"},
	{Name: "losses", Form: "losses UNIT...|none", Phases: []string{"standing"}, Rules: "11.9", Example: "losses US-1AD",
		Summary: "standing: how your defenders lose steps in the enemy's attacks; none cancels (the defender then decides in a follow-up step)"},
	{Name: "advancing", Form: "advancing all|none|ask", Phases: []string{"standing"}, Rules: "11.23", Example: "advancing none",
		Summary: "standing: whether your attacks that do not say advance (ask, the default, asks in a follow-up step)"},
	{Name: "support", Form: "support HEX...|any|none", Phases: []string{"standing"}, Rules: "12.7", Example: "support any",
		Summary: "NATO, standing: commit the 1st AAA's defensive support to the first attack within range, or only to attacks on these hexes"},
	{Name: "pass", Form: "pass", Phases: []string{"standing"}, Rules: "5.2", Example: "pass",
		Summary: "do nothing (the same as no orders)"},
	{Name: "lose", Form: "lose UNIT...", Phases: []string{"loss decision"}, Rules: "11.9, 11.20, 11.24", Example: "lose S-63P",
		Summary: "the defender's loss decision: one unit per step to lose, artillery only once every other defender's steps are named"},
	{Name: "advance", Form: "advance all|none|UNIT...", Phases: []string{"advance decision"}, Rules: "11.23", Example: "advance all",
		Summary: "the attacker's advance decision: the surviving attackers that enter the cleared hex"},
}

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

// phaseHints says which orders a phase takes.
var phaseHints = map[string]string{
	phaseSetupNATO:  "set-up orders: neutrals none|croatia romania bulgaria, uk3 yes|no, place UNIT HEX",
	phaseSetupSerb:  "set-up orders: place UNIT HEX, losses UNIT...",
	phaseWeather:    "orders: sequence move-combat|combat-move [if good|bad], reconstitute [if good|bad], airsupply HEX, airsupply defend HEX...|any|none",
	phaseNATOMove:   "orders: demolish HEX/HEX, repair UNIT HEX/HEX, dismount UNIT, remount UNIT, move UNIT HEX HEX... [else HEX HEX...]",
	phaseNATOCombat: "orders: attack HEX with UNIT... [advance all|none|UNIT...] [losses UNIT...]",
	phaseSerbCombat: "orders: attack HEX with UNIT... [advance ...] [losses ...], or maximum-effort then movement orders",
	phaseSerbMove:   "orders: demolish UNIT HEX/HEX, move UNIT[+UNIT...] HEX HEX... [else HEX HEX...] [together|leave UNIT...]",
	phaseLosses:     "orders: lose UNIT UNIT... (one unit a step)",
	phaseAdvance:    "orders: advance all|none|UNIT... (11.23)",
}

// parseLines reads a seat's lines for the open step and checks them;
// sandbox, when set, is a copy of the game the orders are tried on in
// turn for forecasts. A first pass reads what the file as a whole decides
// (the neutrals and the UK 3rd brought in, set-up stacking, the units that
// work on bridges or dismount); the second checks each line against it.
func (g *game) parseLines(seat string, lines []adjudicator.OrderLine, sandbox *game) ([]string, []adjudicator.Problem) {
	fc := g.readFile(seat, lines)
	var out []string
	var problems []adjudicator.Problem
	moved := map[string]int{}
	for n, text := range kit.Lines(lines) {
		fc.line = n
		canon, err := g.parseLine(seat, text, fc)
		if err == nil {
			err = verbs.Check(canon)
		}
		if err == nil {
			err = g.across(seat, canon, fc)
		}
		if err != nil {
			hint := "the orders of this step are: " + phaseHints[g.Phase]
			if oe, ok := err.(*adjudicator.Refusal); ok {
				hint = oe.Hint
			}
			problems = append(problems, adjudicator.Problem{Line: n, Text: err.Error(), Hint: hint})
			continue
		}
		if f := strings.Fields(kit.StripComment(canon)); len(f) > 1 && f[0] == "move" {
			if why := sameUnitMoved(moved, f[1], n); why != "" {
				problems = append(problems, adjudicator.Problem{Line: n, Text: why, Hint: "give one move order a unit, with an alternative path after else if it may be stopped partway"})
				continue
			}
			// the forecast, on the sandbox the accepted moves before it
			// were tried on (10.2: in the order given)
			if sandbox != nil {
				var fore forecast
				var why error
				if sandbox, fore, why = g.tryMove(sandbox, canon, fc); why != nil {
					for _, id := range strings.Split(f[1], "+") {
						delete(moved, id)
					}
					problems = append(problems, adjudicator.Problem{Line: n, Text: why.Error(), Hint: why.(*adjudicator.Refusal).Hint})
					continue
				}
				canon += " # " + fore.text
			}
			for _, id := range strings.Split(f[1], "+") {
				fc.movers[id] = true
			}
		}
		if canon != "" {
			out = append(out, canon)
		}
	}
	return out, problems
}

// sameUnitMoved says why a move order names a unit an earlier move order
// of the same orders named ("" if none does): a unit moves once a phase,
// and "a player may only change the position of an already moved unit or
// stack if his opponent agrees" (10.2). It records the order's units.
func sameUnitMoved(moved map[string]int, units string, line int) string {
	for _, id := range strings.Split(units, "+") {
		if n, ok := moved[id]; ok {
			return fmt.Sprintf("%s already has a move order, on line %d: a unit moves once a phase (10.2)", id, n)
		}
	}
	for _, id := range strings.Split(units, "+") {
		moved[id] = line
	}
	return ""
}

func (g *game) unitOf(seat, id string) (*unit, error) {
	u := g.byID[strings.ToUpper(id)]
	if u == nil || u.Out {
		return nil, adjudicator.Refuse(adjudicator.UnitHint(id, g.unitIDs(seatSide(seat))), "there is no unit %s in play", strings.ToUpper(id))
	}
	if sideSeat(u.c.Side) != seat {
		return nil, adjudicator.Refuse("give orders to your own units; "+adjudicator.UnitHint(id, g.unitIDs(seatSide(seat))), "%s is not yours: it is %s's", u.ID, sideSeat(u.c.Side))
	}
	return u, nil
}

func (g *game) unitIDs(side side) []string {
	var out []string
	for _, u := range g.Units {
		if u.c.Side == side && u.alive() {
			out = append(out, u.ID)
		}
	}
	return out
}

func (g *game) parseHex(s string) (board.ID, error) {
	id, err := g.grid.Parse(s)
	if err != nil {
		return id, adjudicator.Refuse("hexes are four digits, such as 1708", "%q is not a hex of the map", s)
	}
	return id, nil
}

func (g *game) parseBridge(side side, s string) (board.Pair, error) {
	p, err := g.grid.ParsePair(s)
	if err != nil || !g.sc.Bridges[p] {
		return p, adjudicator.Refuse(g.bridgeHint(side), "%q is not a bridge (a road or highway crossing a river, 10.18)", s)
	}
	return p, nil
}

// parseLine reads one line; "" means a line that gives nothing (pass).
func (g *game) parseLine(seat, text string, fc *fileContext) (string, error) {
	f := strings.Fields(text)
	verb := strings.ToLower(f[0])
	args := f[1:]
	hint := phaseHints[g.Phase]
	// standing orders and aerial supply, in any step of the seat
	switch verb {
	case "pass":
		return "", nil
	case "losses":
		if len(args) == 1 && strings.EqualFold(args[0], "none") {
			return "losses none", nil
		}
		if len(args) == 0 {
			return "", adjudicator.Refuse("list your units in the order they should lose steps", "losses needs units")
		}
		var us []string
		for _, a := range args {
			u, err := g.unitOf(seat, a)
			if err != nil {
				return "", err
			}
			us = append(us, u.ID)
		}
		return "losses " + strings.Join(us, " "), nil
	case "advancing":
		if len(args) != 1 || !slices.Contains([]string{"all", "none", "ask"}, strings.ToLower(args[0])) {
			return "", adjudicator.Refuse("advancing all, advancing none or advancing ask", "advancing takes all, none or ask (11.23)")
		}
		return "advancing " + strings.ToLower(args[0]), nil
	case "support":
		if seat != seatNATO {
			return "", adjudicator.Refuse(hint, "only NATO gives the 1st AAA's defensive support (12.7)")
		}
		if len(args) == 1 && (strings.EqualFold(args[0], "any") || strings.EqualFold(args[0], "none")) {
			return "support " + strings.ToLower(args[0]), nil
		}
		if len(args) == 0 {
			return "", adjudicator.Refuse("support HEX..., support any or support none", "support needs hexes, any or none")
		}
		var hs []string
		for _, a := range args {
			id, err := g.parseHex(a)
			if err != nil {
				return "", err
			}
			hs = append(hs, g.hex(id))
		}
		return "support " + strings.Join(hs, " "), nil
	case "airsupply":
		if seat != seatNATO {
			return "", adjudicator.Refuse(hint, "only NATO has aerial supply (8.10)")
		}
		if len(args) > 0 && strings.EqualFold(args[0], "defend") {
			return g.parseAirDefend(args[1:])
		}
		if len(args) != 1 {
			return "", adjudicator.Refuse("airsupply HEX, or airsupply defend HEX...|any|none", "airsupply needs one hex")
		}
		id, err := g.parseHex(args[0])
		if err != nil {
			return "", err
		}
		if g.AirTurn == g.Turn && g.Turn > 0 {
			return "", adjudicator.Refuse("aerial supply is once a good-weather game turn: the marker stays at "+g.AirHex+" until the turn ends; try again next game turn", "aerial supply was already placed this game turn, at %s (8.10)", g.AirHex)
		}
		if g.Bad && g.Phase != phaseWeather {
			return "", adjudicator.Refuse("aerial supply comes back with good weather; airsupply defend HEX.. waits for it", "no aerial supply in bad weather (5.3, 8.10)")
		}
		return "airsupply " + g.hex(id), nil
	}
	switch g.Phase {
	case phaseSetupNATO, phaseSetupSerb:
		return g.parseSetup(seat, verb, args, hint)
	case phaseWeather:
		return g.parseWeather(verb, args, hint)
	case phaseLosses:
		if verb != "lose" || len(args) == 0 {
			return "", adjudicator.Refuse(hint, "%q is not a loss decision", text)
		}
		return g.parseLose(seat, args)
	case phaseAdvance:
		return g.parseAdvance(seat, verb, args, hint)
	case phaseNATOMove:
		return g.parseMovement(seat, verb, args, hint, fc)
	case phaseSerbMove:
		return g.parseMovement(seat, verb, args, hint, fc)
	case phaseNATOCombat:
		return g.parseAttack(seat, verb, args, hint)
	case phaseSerbCombat:
		if verb == "maximum-effort" {
			switch {
			case g.Turn == 1:
				return "", adjudicator.Refuse("declare it at the start of a Serbian player turn from game turn 2 on, once a game; this turn send attacks", "no maximum effort on game turn 1 (5.6)")
			case g.MaxEffortUsed:
				return "", adjudicator.Refuse("once a game: send this turn's attacks (combat, then movement)", "the maximum effort turn has been used (5.6)")
			case g.MaxEffort:
				return "", adjudicator.Refuse("send the turn's attacks: the movement came first this turn", "this is already the maximum effort turn (5.6)")
			}
			return "maximum-effort", nil
		}
		if fc.maxEffort {
			return g.parseMovement(seat, verb, args, hint, fc)
		}
		return g.parseAttack(seat, verb, args, hint)
	}
	return "", adjudicator.Refuse("send orders when a step asks for them (the report's Next line says which)", "no orders are due in this step")
}

func (g *game) parseSetup(seat, verb string, args []string, hint string) (string, error) {
	switch {
	case verb == "neutrals" && seat == seatNATO:
		if len(args) == 1 && strings.EqualFold(args[0], "none") {
			return "neutrals none", nil
		}
		var ns []string
		for _, a := range args {
			i := slices.IndexFunc(neutralsAll, func(n string) bool { return strings.EqualFold(n, a) })
			if i < 0 {
				return "", adjudicator.Refuse("neutrals none, or any of croatia romania bulgaria", "%q is not one of the neutrals NATO may bring in (3.2)", a)
			}
			if !slices.Contains(ns, neutralsAll[i]) {
				ns = append(ns, neutralsAll[i])
			}
		}
		if len(ns) == 0 {
			return "", adjudicator.Refuse("neutrals none, or any of croatia romania bulgaria", "neutrals needs countries or none")
		}
		return "neutrals " + strings.Join(ns, " "), nil
	case verb == "uk3" && seat == seatNATO:
		if len(args) == 1 && (strings.EqualFold(args[0], "yes") || strings.EqualFold(args[0], "no")) {
			return "uk3 " + strings.ToLower(args[0]), nil
		}
		return "", adjudicator.Refuse("uk3 yes or uk3 no", "uk3 takes yes or no (4.8)")
	case verb == "place":
		if len(args) != 2 {
			return "", adjudicator.Refuse("place UNIT HEX", "place needs a unit and a hex")
		}
		c := g.sc.Counter(strings.ToUpper(args[0]))
		if c == nil || sideSeat(c.Side) != seat {
			return "", adjudicator.Refuse("place one of your own units", "there is no unit %s of yours", strings.ToUpper(args[0]))
		}
		id, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		if why := g.setupArea(c, id, nil); why != "" {
			return "", adjudicator.Refuse(g.setupHint(c, neutralsAll), "%s may not set up in %s: %s", c.ID, g.hex(id), why)
		}
		return "place " + c.ID + " " + g.hex(id), nil
	}
	return "", adjudicator.Refuse(verbHint(verb, hint), "%q is not a set-up order", verb)
}

func (g *game) parseWeather(verb string, args []string, hint string) (string, error) {
	cond := ""
	if len(args) >= 2 && strings.EqualFold(args[len(args)-2], "if") {
		cond = strings.ToLower(args[len(args)-1])
		if cond != "good" && cond != "bad" {
			return "", adjudicator.Refuse("if good or if bad", "the condition is the weather: good or bad")
		}
		args = args[:len(args)-2]
	}
	suffix := ""
	if cond != "" {
		suffix = " if " + cond
	}
	switch verb {
	case "sequence":
		if len(args) != 1 {
			return "", adjudicator.Refuse("sequence move-combat or sequence combat-move", "sequence needs move-combat or combat-move")
		}
		switch strings.ToLower(args[0]) {
		case "move-combat", "movement-combat", "move/combat":
			return "sequence move-combat" + suffix, nil
		case "combat-move", "combat-movement", "combat/move":
			return "sequence combat-move" + suffix, nil
		}
		return "", adjudicator.Refuse("sequence move-combat or sequence combat-move", "%q is not a sequence (5.4)", args[0])
	case "reconstitute":
		if g.ReconMarker != g.Turn {
			return "", adjudicator.Refuse(fmt.Sprintf("a discretionary reconstitution is called on the turn of the check: game turn %d", g.ReconMarker), "no reconstitution check is due this game turn: the marker is on turn %d (9.2, 9.4)", g.ReconMarker)
		}
		return "reconstitute" + suffix, nil
	}
	return "", adjudicator.Refuse(verbHint(verb, hint), "%q is not an order of the weather and reconstitution phase", verb)
}

// forecastRoller answers every draw with the lowest face: a forecast shows
// the best river crossings and says a die is due.
type forecastRoller struct{ draws []string }

func (f *forecastRoller) Draw(_ string, sp spec.Spec, purpose string) []int {
	f.draws = append(f.draws, purpose)
	out := make([]int, sp.Draws())
	for i := range out {
		out[i] = sp.Base
		if sp.Kind != spec.KindDice {
			out[i] = 0
		}
	}
	return out
}

func (g *game) parseMovement(seat, verb string, args []string, hint string, fc *fileContext) (string, error) {
	side := seatSide(seat)
	switch verb {
	case "demolish":
		if side == nato {
			if len(args) != 1 {
				return "", adjudicator.Refuse("demolish HEX/HEX", "NATO demolitions name the bridge only (10.19)")
			}
			p, err := g.parseBridge(side, args[0])
			if err != nil {
				return "", err
			}
			return "demolish " + p.String(), nil
		}
		if len(args) != 2 {
			return "", adjudicator.Refuse("demolish UNIT HEX/HEX", "Serbian demolitions name the unit and the bridge (10.19)")
		}
		u, err := g.unitOf(seat, args[0])
		if err != nil {
			return "", err
		}
		p, err := g.parseBridge(side, args[1])
		if err != nil {
			return "", err
		}
		if u.pos != p.A && u.pos != p.B {
			return "", adjudicator.Refuse(g.nearHint(u, p, "demolish", fc), "%s is not next to the bridge %s (10.19)", u.ID, p)
		}
		return "demolish " + u.ID + " " + p.String(), nil
	case "repair", "dismount", "remount":
		if side != nato {
			return "", adjudicator.Refuse(hint, "only NATO may %s (10.18, 10.21)", verb)
		}
		if len(args) < 1 {
			return "", adjudicator.Refuse(hint, "%s needs a unit", verb)
		}
		u, err := g.unitOf(seat, args[0])
		if err != nil {
			return "", err
		}
		if verb == "repair" {
			if len(args) != 2 {
				return "", adjudicator.Refuse("repair UNIT HEX/HEX", "repair needs a unit and a bridge")
			}
			p, err := g.parseBridge(side, args[1])
			if err != nil {
				return "", err
			}
			if u.pos != p.A && u.pos != p.B {
				return "", adjudicator.Refuse(g.nearHint(u, p, "repair", fc), "%s is not next to the bridge %s (10.18)", u.ID, p)
			}
			return "repair " + u.ID + " " + p.String(), nil
		}
		if len(args) != 1 {
			return "", adjudicator.Refuse(verb+" UNIT", "%s takes one unit", verb)
		}
		if why := g.mountable(u, verb == "dismount"); why != "" {
			return "", adjudicator.Refuse(mountHint, "%s may not %s: %s", u.ID, verb, why)
		}
		return verb + " " + u.ID, nil
	case "move":
		return g.parseMove(seat, args, fc)
	}
	return "", adjudicator.Refuse(verbHint(verb, hint), "%q is not a movement phase order", verb)
}

// parseMove reads a move order (10.1-10.6, 12.3): the unit or Serbian
// stack, its path, its else paths, and for a stack "together" or "leave
// UNIT..." (10.5, 10.6), last.
func (g *game) parseMove(seat string, args []string, fc *fileContext) (string, error) {
	side := seatSide(seat)
	if len(args) < 2 {
		return "", adjudicator.Refuse("move UNIT HEX HEX... (each hex next to the one before)", "move needs a unit and a path")
	}
	var units []*unit
	for _, id := range strings.Split(args[0], "+") {
		u, err := g.unitOf(seat, id)
		if err != nil {
			return "", err
		}
		if side == nato && len(units) > 0 {
			return "", adjudicator.Refuse("move NATO units one at a time", "only Serbian stacks move together (10.4)")
		}
		if len(units) > 0 && u.pos != units[0].pos {
			return "", adjudicator.Refuse("a stack moves from one hex", "%s is not in %s with %s (10.4)", u.ID, units[0].Hex, units[0].ID)
		}
		if !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	words := args[1:]
	o := moveOrder{units: units}
	if i := slices.IndexFunc(words, func(w string) bool { return strings.EqualFold(w, "together") || strings.EqualFold(w, "leave") }); i >= 0 {
		leave, err := g.parseLeave(seat, units, words[i:])
		if err != nil {
			return "", err
		}
		o.leave, words = leave, words[:i]
	}
	var groups [][]string
	groups = append(groups, nil)
	for _, a := range words {
		if strings.EqualFold(a, "else") {
			groups = append(groups, nil)
			continue
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], a)
	}
	if len(groups) > 1 && units[0].c.AAA {
		return "", adjudicator.Refuse("move US-1AAA HEX... (one flight)", "the 1st AAA rebases in one flight: no else path (12.3)")
	}
	cur := units[0].pos
	for i, a := range groups[0] {
		id, err := g.parseHex(a)
		if err != nil {
			return "", err
		}
		if i == 0 && id == cur {
			continue // the path may start with the unit's own hex
		}
		if !g.grid.Adjacent(cur, id) && !(units[0].c.AAA && i == len(groups[0])-1 && len(o.path) == 0) {
			return "", adjudicator.Refuse("list every hex entered, each next to the one before", "%s is not next to %s (10.2)", g.hex(id), g.hex(cur))
		}
		o.path = append(o.path, id)
		cur = id
	}
	if len(o.path) == 0 {
		return "", adjudicator.Refuse("move UNIT HEX HEX...", "the path enters no hex")
	}
	// else paths: each starts at a hex already on the order (the
	// branch hex), then every hex entered from there
	onOrder := append([]board.ID{units[0].pos}, o.path...)
	for _, grp := range groups[1:] {
		elseHint := "move UNIT HEX... else BRANCH HEX...: the else path starts at a hex of the path before it"
		if len(grp) < 2 {
			return "", adjudicator.Refuse(elseHint, "an else path needs its branch hex and at least one hex entered from it")
		}
		var alt []board.ID
		for i, a := range grp {
			id, err := g.parseHex(a)
			if err != nil {
				return "", err
			}
			if i == 0 && !slices.Contains(onOrder, id) {
				return "", adjudicator.Refuse(elseHint, "the else path starts at %s, which is not on the order's path", g.hex(id))
			}
			if i > 0 && !g.grid.Adjacent(alt[i-1], id) {
				return "", adjudicator.Refuse("list every hex entered, each next to the one before", "%s is not next to %s (10.2)", g.hex(id), g.hex(alt[i-1]))
			}
			alt = append(alt, id)
		}
		onOrder = append(onOrder, alt[1:]...)
		o.alts = append(o.alts, alt)
	}
	if err := g.neverCarried(o, fc); err != nil {
		return "", err
	}
	return o.String(g), nil
}

// parseLeave reads a stack's last clause (10.5, 10.6): "together" (no unit
// is left behind: an empty list) or "leave UNIT..." (only these may be; nil
// when it names every unit, as an order without the clause).
func (g *game) parseLeave(seat string, units []*unit, clause []string) ([]string, error) {
	stackHint := "for a Serbian stack: move S-1+S-2 HEX... together (the stack stops as one), or leave UNIT... (only these may be left behind when they cannot follow, 10.6)"
	if len(units) < 2 {
		return nil, adjudicator.Refuse(stackHint+"; a unit moving alone needs neither", "%s moves alone: %s is for a stack (10.6)", units[0].ID, strings.ToLower(clause[0]))
	}
	if strings.EqualFold(clause[0], "together") {
		if len(clause) > 1 {
			return nil, adjudicator.Refuse("together comes last: move "+unitNames(units)+" HEX... [else HEX...] together", "%q may not follow together", clause[1])
		}
		return []string{}, nil
	}
	if len(clause) == 1 {
		return nil, adjudicator.Refuse("leave names the units of the stack it may go on without: the stack's units are "+strings.Join(unitIDList(units), " "), "leave needs units of the stack")
	}
	named := map[string]bool{}
	for _, a := range clause[1:] {
		if strings.EqualFold(a, "else") || strings.EqualFold(a, "together") || strings.EqualFold(a, "leave") {
			return nil, adjudicator.Refuse("leave comes last: move "+unitNames(units)+" HEX... [else HEX...] leave UNIT...", "%q may not follow leave", a)
		}
		u, err := g.unitOf(seat, a)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(units, u) {
			return nil, adjudicator.Refuse("the stack's units are "+strings.Join(unitIDList(units), " "), "%s is not in the stack %s", u.ID, unitNames(units))
		}
		named[u.ID] = true
	}
	if len(named) == len(units) {
		return nil, nil // any unit may be left: the order without a clause
	}
	var leave []string
	for _, u := range units {
		if named[u.ID] {
			leave = append(leave, u.ID)
		}
	}
	return leave, nil
}

func unitIDList(us []*unit) []string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return ids
}

// String is the order's canonical text.
func (o moveOrder) String(g *game) string {
	canon := "move " + unitNames(o.units)
	for _, id := range o.path {
		canon += " " + g.hex(id)
	}
	for _, alt := range o.alts {
		canon += " else"
		for _, id := range alt {
			canon += " " + g.hex(id)
		}
	}
	switch {
	case o.leave == nil:
	case len(o.leave) == 0:
		canon += " together"
	default:
		canon += " leave " + strings.Join(o.leave, " ")
	}
	return canon
}

// readMove reads a canonical move order back for the movement phase.
func (g *game) readMove(line string) moveOrder {
	f := strings.Fields(kit.StripComment(line))
	var o moveOrder
	for _, id := range strings.Split(f[1], "+") {
		o.units = append(o.units, g.byID[id])
	}
	paths := [][]board.ID{nil}
words:
	for i, w := range f[2:] {
		switch w {
		case "else":
			paths = append(paths, nil)
		case "together":
			o.leave = []string{}
		case "leave":
			o.leave = slices.Clone(f[2+i+1:])
			break words
		default:
			id, _ := g.grid.Parse(w)
			paths[len(paths)-1] = append(paths[len(paths)-1], id)
		}
	}
	o.path, o.alts = paths[0], paths[1:]
	return o
}

// forecast is how a move order ends on the receipt's sandbox, with every
// river roll a 1.
type forecast struct {
	text  string     // the receipt's comment
	res   moveResult // where it ends
	draws int        // the dice it drew
	stops []string   // the events that stopped or cut it
}

// tryMove forecasts a move order on the sandbox. When the sandbox is
// exact (every earlier move of the file drew no die, and the file changes
// no bridge or supply) and the order has no unit it may leave behind, a
// move that does not finish its path even with every roll a 1 can never be
// carried out as written (the earlier orders are in its way): it is
// refused, and the sandbox is given back as it was.
func (g *game) tryMove(sandbox *game, canon string, fc *fileContext) (*game, forecast, error) {
	o := g.readMove(canon)
	check := fc.exact && !slices.ContainsFunc(o.units, o.mayLeave)
	var snap []byte
	if check {
		var err error
		if snap, err = sandbox.encode(); err != nil {
			check = false
		}
	}
	fore := sandbox.forecastMove(o)
	if check && !fore.res.completed {
		why := strings.Join(fore.stops, "; ")
		if back, err := decode(snap); err == nil {
			sandbox = back
		}
		return sandbox, fore, adjudicator.Refuse(fmt.Sprintf("with the moves before it and every river roll a 1, it ends at %s: end the path there, or move what is in its way first", sandbox.hex(fore.res.end)),
			"the move of %s cannot be carried out as written after the moves before it: %s", unitNames(o.units), why)
	}
	if fore.draws > 0 {
		fc.exact = false
	}
	return sandbox, fore, nil
}

// forecastMove tries a move on the sandbox and says how it ends.
func (g *game) forecastMove(order moveOrder) forecast {
	o := order
	o.units = nil
	for _, u := range order.units {
		o.units = append(o.units, g.byID[u.ID])
	}
	us := o.units
	fr := &forecastRoller{}
	g.r = fr
	before := len(g.events)
	res := g.move(o)
	var stop []string
	for _, e := range g.events[before:] {
		if strings.Contains(e.Text, "stops") || strings.Contains(e.Text, "may not") || strings.Contains(e.Text, "cannot") || strings.Contains(e.Text, "stalled") || strings.Contains(e.Text, "dropped") || strings.Contains(e.Text, "left behind") {
			stop = append(stop, strings.TrimSuffix(e.Text, "."))
		}
	}
	var s string
	if len(us) == 1 {
		s = fmt.Sprintf("%s: %s of %s MP to %s", unitNames(us), fmtMP(res.used[us[0].ID]), fmtMP(res.mf[us[0].ID]), g.hex(res.end))
	} else {
		s = fmt.Sprintf("%s: to %s, %s", unitNames(us), g.hex(res.end), res.spent(us))
		if len(res.left) > 0 {
			s += " (left behind: " + strings.Join(res.left, ", ") + ")"
		}
	}
	if n := len(fr.draws); n > 0 {
		s += fmt.Sprintf(" with %d river roll%s counted as 1", n, plural(n))
	}
	if us[0].c.Side == nato {
		next := false
		for _, nb := range g.grid.Neighbours(res.end) {
			for _, e := range g.unitsAt(nb) {
				if e.c.Side == serb {
					next = true
				}
			}
		}
		s += fmt.Sprintf(", next to Serbs? %s, in supply: %s", yesNo(next), yesNo(g.supplied(us[0]).OK))
	} else {
		s += fmt.Sprintf(", in NATO ZOC? %s", yesNo(g.zoc()[res.end]))
	}
	if len(stop) > 0 {
		s += "; " + strings.Join(stop, "; ")
	}
	return forecast{text: s, res: res, draws: len(fr.draws), stops: stop}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (g *game) parseAttack(seat, verb string, args []string, hint string) (string, error) {
	if verb != "attack" {
		return "", adjudicator.Refuse(verbHint(verb, hint), "%q is not a combat phase order", verb)
	}
	if len(args) < 3 || !strings.EqualFold(args[1], "with") {
		return "", adjudicator.Refuse("attack HEX with UNIT UNIT... [advance all|none|UNIT...] [losses UNIT...]", "an attack names the defender's hex and the attacking units")
	}
	d, err := g.parseHex(args[0])
	if err != nil {
		return "", err
	}
	o := attackOrder{hex: g.hex(d)}
	cur := &o.units
	for _, a := range args[2:] {
		switch strings.ToLower(a) {
		case "advance":
			cur = &o.advance
			continue
		case "losses":
			cur = &o.losses
			continue
		case "all", "none":
			if cur == &o.advance {
				o.advance = append(o.advance, strings.ToLower(a))
				continue
			}
		}
		u, err := g.unitOf(seat, a)
		if err != nil {
			return "", err
		}
		if cur == &o.units {
			if why := g.mayAttackFrom(u, seatSide(seat), d); why != "" {
				hint := g.attackHint(seatSide(seat), d)
				if u.Fixed {
					// 10.18, 10.19, 10.21: "may not move or attack that player turn"
					what, rule := u.fixedWhat()
					hint = fmt.Sprintf("%s %s this player turn, so it may not attack until the next (%s); %s", u.ID, what, rule, hint)
				}
				return "", adjudicator.Refuse(hint, "%s cannot attack %s: %s", u.ID, g.hex(d), why)
			}
		}
		if !slices.Contains(*cur, u.ID) {
			*cur = append(*cur, u.ID)
		}
	}
	if len(o.units) == 0 {
		return "", adjudicator.Refuse("attack HEX with UNIT...", "the attack names no attacking unit")
	}
	if len(o.advance) > 1 && (slices.Contains(o.advance, "all") || slices.Contains(o.advance, "none")) {
		return "", adjudicator.Refuse("advance all, advance none, or advance UNIT...", "advance takes all, none or units")
	}
	enemy := false
	for _, u := range g.unitsAt(d) {
		if u.c.Side != seatSide(seat) {
			enemy = true
		}
	}
	if !enemy {
		return "", adjudicator.Refuse("attack a hex with enemy units", "there are no enemy units at %s", g.hex(d))
	}
	if g.terrain(d) == "marsh" {
		return "", adjudicator.Refuse("attack another hex: marsh is unplayable (10.14)", "no unit may attack into marsh (11.16)")
	}
	return o.String(), nil
}

// parseAirDefend reads the standing order for aerial supply in the
// Serbian player turn (8.10): airsupply defend HEX...|any|none.
func (g *game) parseAirDefend(args []string) (string, error) {
	hint := "airsupply defend HEX..., airsupply defend any or airsupply defend none"
	if len(args) == 1 && (strings.EqualFold(args[0], "any") || strings.EqualFold(args[0], "none")) {
		return "airsupply defend " + strings.ToLower(args[0]), nil
	}
	if len(args) == 0 {
		return "", adjudicator.Refuse(hint, "airsupply defend needs hexes, any or none")
	}
	var hs []string
	for _, a := range args {
		id, err := g.parseHex(a)
		if err != nil {
			return "", err
		}
		if !slices.Contains(hs, g.hex(id)) {
			hs = append(hs, g.hex(id))
		}
	}
	return "airsupply defend " + strings.Join(hs, " "), nil
}

// parseLose reads the defender's loss decision (11.9): one unit a step,
// only the battle's defenders, no unit losing more steps than it has, and
// artillery only once every other unit's steps are gone (11.20).
func (g *game) parseLose(seat string, args []string) (string, error) {
	p := g.Pending
	left := map[string]int{}
	nonArt := 0
	for _, id := range p.Defender {
		if u := g.byID[id]; u.alive() {
			left[id] = u.Steps
			if !u.c.Artillery {
				nonArt += u.Steps
			}
		}
	}
	var us []string
	for _, a := range args {
		u, err := g.unitOf(seat, a)
		if err != nil {
			return "", err
		}
		if !slices.Contains(p.Defender, u.ID) {
			return "", adjudicator.Refuse("the defending units are "+strings.Join(p.Defender, " "), "%s is not in the battle at %s", u.ID, p.Hex)
		}
		if left[u.ID] == 0 {
			return "", adjudicator.Refuse(fmt.Sprintf("%s has %d step%s", u.ID, u.Steps, plural(u.Steps)), "%s is named for more steps than it has (11.9)", u.ID)
		}
		if u.c.Artillery && nonArt > 0 {
			return "", adjudicator.Refuse("name the other units' steps first", "%s is artillery: it loses steps only once every other unit in the battle is gone (11.20)", u.ID)
		}
		left[u.ID]--
		if !u.c.Artillery {
			nonArt--
		}
		us = append(us, u.ID)
	}
	if len(us) != p.Steps {
		return "", adjudicator.Refuse(fmt.Sprintf("name one unit for each of the %d steps", p.Steps), "%d steps named, %d to lose", len(us), p.Steps)
	}
	return "lose " + strings.Join(us, " "), nil
}

// parseAdvance reads the attacker's advance decision (11.23): all, none,
// or some of the units that may advance.
func (g *game) parseAdvance(seat, verb string, args []string, hint string) (string, error) {
	p := g.Pending
	if verb != "advance" || len(args) == 0 {
		return "", adjudicator.Refuse(hint, "%q is not an advance decision", strings.Join(append([]string{verb}, args...), " "))
	}
	if len(args) == 1 && (strings.EqualFold(args[0], "all") || strings.EqualFold(args[0], "none")) {
		return "advance " + strings.ToLower(args[0]), nil
	}
	var us []string
	for _, a := range args {
		u, err := g.unitOf(seat, a)
		if err != nil {
			return "", err
		}
		if !slices.Contains(p.Attacker, u.ID) {
			return "", adjudicator.Refuse("the units that may advance are "+strings.Join(p.Attacker, " "), "%s may not advance into %s (11.23)", u.ID, p.Hex)
		}
		if !slices.Contains(us, u.ID) {
			us = append(us, u.ID)
		}
	}
	return "advance " + strings.Join(us, " "), nil
}

// mountHint says who may dismount or remount (10.21).
const mountHint = "at the start of a movement phase, US, UK, Croatian, French and German mechanized units in overland supply, not next to Serbian units, that have not moved or attacked, dismount; a dismounted unit remounts the same way (10.21)"

// attackHint lists the units that may attack hex d now (11.1), or says
// there are none.
func (g *game) attackHint(side side, d board.ID) string {
	var ok []string
	for _, u := range g.Units {
		if u.c.Side == side && u.alive() && g.mayAttackFrom(u, side, d) == "" {
			ok = append(ok, u.ID)
		}
	}
	if len(ok) == 0 {
		return "none of your units may attack " + g.hex(d) + " now: attackers are next to it (the 1st AAA within its range), have not attacked, and mechanized units reach mountains only along a road"
	}
	return "the units that may attack " + g.hex(d) + " are " + strings.Join(ok, " ")
}

// verbHint is hint, the step's orders, after the nearest verbs of the
// table when verb is none of them (did you mean).
func verbHint(verb, hint string) string {
	if verbs.Has(verb) {
		return hint
	}
	return verbs.Hint(verb, hint)
}
