package wbt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// Game is War by Television: Kosovo 1999 as a hosted game: one step per
// phase of each player turn (5.2), with a follow-up step for the defender's
// loss decision when its standing orders do not give it (11.9).
var Game adjudicator.Rules = rules{}

type rules struct{}

func (rules) ID() string    { return "wbt" }
func (rules) Title() string { return "War by Television: Kosovo 1999" }

// Scenarios lists the scenarios: the demo, whose map, counters and CRT a
// game master may replace with files (options map, counters, crt).
func Scenarios() []string { return []string{"demo"} }

func (rules) Seats(scenario string) ([]string, error) {
	if scenario != "demo" && scenario != "" {
		return nil, fmt.Errorf("wbt: no scenario %q: the scenario is demo (load the published map, counters and CRT with the options map, counters and crt)", scenario)
	}
	return []string{seatNATO, seatSerb}, nil
}

// FileOptions implements adjudicator.FileOptions: map, counters and crt
// name a file or hold its text (a game created by mail gives the text).
func (rules) FileOptions() []string { return []string{"map", "counters", "crt"} }

// New is the state before NATO's set-up. Options: map, counters and crt
// name a game master's data files (docs/scenario-wbt.md); aaa_range is the
// 1st AAA's range (10, see docs/rulings.md); reduced82 = yes starts the US
// 82nd reduced (1.4).
func (r rules) New(scenario string, options map[string]string) ([]byte, error) {
	if _, err := r.Seats(scenario); err != nil {
		return nil, err
	}
	for k := range options {
		if !slices.Contains([]string{"map", "counters", "crt", "aaa_range", "reduced82"}, k) {
			return nil, fmt.Errorf("wbt: no option %q (options: map, counters, crt, aaa_range, reduced82)", k)
		}
	}
	data, err := readData(options["map"], options["counters"], options["crt"])
	if err != nil {
		return nil, err
	}
	s := &State{Data: data, AAARange: 10, Turn: 1, Length: gameTurns, Phase: phaseSetupNATO, ReconMarker: firstReconstitutionCheck, MePPs: 50}
	if v, ok := options["aaa_range"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 20 {
			return nil, fmt.Errorf("wbt: option aaa_range %q: want a whole number from 1 to 20", v)
		}
		s.AAARange = n
	}
	switch options["reduced82"] {
	case "", "no":
	case "yes":
		s.Reduced82 = true
	default:
		return nil, fmt.Errorf("wbt: option reduced82 %q: want yes or no", options["reduced82"])
	}
	sc, err := data.Load()
	if err != nil {
		return nil, err
	}
	for _, c := range sc.Counters {
		u := &unit{ID: c.ID, Steps: c.MaxSteps(), Out: c.Needs != ""}
		if s.Reduced82 && c.VariantSteps > 0 {
			u.Steps = c.VariantSteps
		}
		if c.Hex != (board.ID{}) {
			u.Hex = sc.Map.Grid.Format(c.Hex)
		}
		s.Units = append(s.Units, u)
	}
	for _, p := range sc.Intact {
		s.Intact = append(s.Intact, p.String())
	}
	g, err := decode(mustJSON(s))
	if err != nil {
		return nil, err
	}
	return g.encode()
}

// phaseLabels name the phases in reports.
var phaseLabels = map[string]string{
	phaseSetupNATO:  "NATO set-up",
	phaseSetupSerb:  "Serbian set-up",
	phaseWeather:    "NATO weather and reconstitution phase",
	phaseNATOMove:   "NATO movement phase",
	phaseNATOCombat: "NATO combat phase",
	phaseSerbCombat: "Serbian combat phase",
	phaseSerbMove:   "Serbian movement phase",
}

func (g *game) label() string {
	switch g.Phase {
	case phaseLosses:
		return fmt.Sprintf("turn %d: %s loss decision at %s", g.Turn, g.Pending.Seat, g.Pending.Hex)
	case phaseAdvance:
		return fmt.Sprintf("turn %d: %s advance decision at %s", g.Turn, g.Pending.Seat, g.Pending.Hex)
	case phaseSetupNATO, phaseSetupSerb:
		return phaseLabels[g.Phase]
	case phaseSerbCombat:
		if g.MaxEffort {
			return fmt.Sprintf("turn %d: Serbian combat phase (maximum effort, after movement)", g.Turn)
		}
		if g.Turn > 1 && !g.MaxEffortUsed {
			return fmt.Sprintf("turn %d: Serbian combat phase (or maximum-effort movement)", g.Turn)
		}
	}
	return fmt.Sprintf("turn %d: %s", g.Turn, phaseLabels[g.Phase])
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if g.Over {
		return adjudicator.StepSpec{Over: true, Phase: phaseOver}, nil
	}
	seat, no := g.owing()
	return adjudicator.StepSpec{Phase: g.label(), Owing: []string{seat}, NoOrders: map[string]string{seat: no}}, nil
}

// owing is the seat whose orders the step waits for and what none means.
func (g *game) owing() (string, string) {
	switch g.Phase {
	case phaseSetupNATO:
		return seatNATO, "no neutrals, no UK 3rd Division, the demo set-up"
	case phaseSetupSerb:
		return seatSerb, "the demo set-up"
	case phaseWeather:
		return seatNATO, "movement/combat sequence, no discretionary reconstitution"
	case phaseNATOMove, phaseNATOCombat:
		return seatNATO, "pass"
	case phaseSerbCombat, phaseSerbMove:
		return seatSerb, "pass"
	case phaseLosses:
		return g.Pending.Seat, "the umpire's loss allocation (listed units first, by id)"
	case phaseAdvance:
		return g.Pending.Seat, "no advance (11.23)"
	}
	return seatNATO, "pass"
}

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	// a refusal of the whole file names its first line with an order
	at := 1
	if len(lines) > 0 {
		at = lines[0].Line
	}
	for _, l := range lines {
		if kit.StripComment(l.Text) != "" {
			at = l.Line
			break
		}
	}
	g, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Line: at, Text: err.Error(), Hint: "the judge cannot read this game's state: tell the game master"}}
	}
	if g.Over {
		return nil, []adjudicator.Problem{{Line: at, Text: "the game is over", Hint: "no orders are due: the last report says who won"}}
	}
	if s, _ := g.owing(); s != seat {
		return nil, []adjudicator.Problem{{Line: at, Text: fmt.Sprintf("no orders are due from %s in this step (%s): %s's are", seat, g.label(), s),
			Hint: "send your orders in a step that asks for them: the report's Next line says which"}}
	}
	sandbox, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Line: at, Text: err.Error(), Hint: "the judge cannot read this game's state: tell the game master"}}
	}
	return g.parseLines(seat, lines, sandbox)
}

func mustJSON(s *State) []byte {
	g := &game{State: s}
	b, err := g.encode()
	if err != nil {
		panic(err)
	}
	return b
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	g, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	if g.Over {
		return nil, nil, fmt.Errorf("wbt: the game is over")
	}
	g.r = r
	g.Arrows = nil
	seat, _ := g.owing()
	var lines []string
	for _, l := range orders[seat] {
		if l = kit.StripComment(l); l != "" {
			lines = append(lines, l)
		}
	}
	lines = g.standing(seat, lines)
	switch g.Phase {
	case phaseSetupNATO:
		g.setupNATO(lines)
	case phaseSetupSerb:
		g.setupSerb(lines)
	case phaseWeather:
		g.weatherPhase(lines)
	case phaseNATOMove:
		g.movementPhase(nato, lines)
		g.endPhase()
	case phaseSerbMove:
		g.movementPhase(serb, lines)
		g.endPhase()
	case phaseNATOCombat:
		g.AttackedHexes = nil
		if !g.runAttacks(nato, lines) {
			g.endPhase()
		}
	case phaseSerbCombat:
		if slices.Contains(lines, "maximum-effort") && !g.MaxEffort && !g.MaxEffortUsed && g.Turn > 1 {
			g.MaxEffort, g.MaxEffortUsed = true, true
			g.ev("5.6", "The Serbs declare their maximum effort turn: movement first, then combat.")
			g.movementPhase(serb, lines)
			g.Plan = slices.Insert(removeString(g.Plan, phaseSerbMove), 0, phaseSerbCombat)
			g.endPhase()
			break
		}
		g.AttackedHexes = nil
		if !g.runAttacks(serb, lines) {
			g.endPhase()
		}
	case phaseLosses, phaseAdvance:
		g.resumeBattle(lines)
	default:
		return nil, nil, fmt.Errorf("wbt: state: unknown phase %q", g.Phase)
	}
	next, err := g.encode()
	return next, g.events, err
}

// standing stores a seat's standing orders and places aerial supply
// (8.10, at any time); it returns the other lines.
func (g *game) standing(seat string, lines []string) []string {
	var rest []string
	for _, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "losses":
			if f[1] == "none" {
				delete(g.Standing, seat+":losses")
			} else {
				g.Standing[seat+":losses"] = f[1:]
			}
		case "advancing":
			g.Standing[seat+":advance"] = f[1:]
		case "support":
			if f[1] == "none" {
				delete(g.Standing, seat+":support")
			} else {
				g.Standing[seat+":support"] = f[1:]
			}
		case "airsupply":
			switch {
			case f[1] == "defend" && f[2] == "none":
				delete(g.Standing, seat+":airdefend")
			case f[1] == "defend":
				g.Standing[seat+":airdefend"] = f[2:]
			case g.Phase != phaseWeather:
				g.airSupply(f[1])
			default:
				rest = append(rest, l)
			}
		default:
			rest = append(rest, l)
		}
	}
	return rest
}

// airSupply places the aerial supply marker (8.10): once per good-weather
// game turn.
func (g *game) airSupply(hex string) {
	switch {
	case g.Bad:
		g.ev("8.10", "No aerial supply in bad weather: %s gets none.", hex)
	case g.AirTurn == g.Turn:
		g.ev("8.10", "Aerial supply was already placed this game turn.")
	default:
		g.AirHex, g.AirTurn = hex, g.Turn
		g.ev("8.10", "NATO places aerial supply on %s for the rest of game turn %d.", hex, g.Turn)
	}
}

// airDefend carries out NATO's standing order "airsupply defend" (8.10:
// "at any time during the game turn sequence"): as a Serbian attack on d
// is declared, before its battle begins (8.4), the marker is placed on d
// when it is still unused this good-weather game turn, d is one of the
// order's hexes (or it says any), and a NATO defender there is out of
// supply.
func (g *game) airDefend(d board.ID, defenders []*unit) {
	st := g.Standing[seatNATO+":airdefend"]
	if len(st) == 0 || g.Bad || g.AirTurn == g.Turn {
		return
	}
	if st[0] != "any" && !slices.Contains(st, g.hex(d)) {
		return
	}
	n := g.net()
	for _, u := range defenders {
		if u.c.Side == nato && !g.supply(u, n).OK {
			g.AirHex, g.AirTurn = g.hex(d), g.Turn
			g.ev("8.10", "As the Serbian attack on %s is declared, NATO's standing order places aerial supply there for the rest of game turn %d: %s is supplied.", g.placeName(d), g.Turn, u.ID)
			return
		}
	}
}

// runAttacks resolves attack orders in the order given (11.4); it returns
// true when a battle waits for a loss or advance decision.
func (g *game) runAttacks(side side, lines []string) bool {
	var attacks []string
	for _, l := range lines {
		if strings.HasPrefix(l, "attack ") {
			attacks = append(attacks, l)
		}
	}
	for i, l := range attacks {
		if g.attack(side, l, attacks[i+1:]) {
			g.waitFor()
			return true
		}
		if g.Over {
			return true
		}
	}
	return false
}

// waitFor opens the follow-up step of the pending decision.
func (g *game) waitFor() {
	g.Phase = phaseLosses
	if g.Pending.Kind == "advance" {
		g.Phase = phaseAdvance
	}
}

// resumeBattle applies the defender's loss decision, or the attacker's
// advance decision, and goes on with the combat phase.
func (g *game) resumeBattle(lines []string) {
	p := g.Pending
	g.Pending, g.Phase = nil, p.Phase
	side := nato
	if p.Phase == phaseSerbCombat {
		side = serb
	}
	d, _ := g.grid.Parse(p.Hex)
	if p.Kind == "advance" {
		advance := []string{"none"}
		for _, l := range lines {
			if f := strings.Fields(l); f[0] == "advance" && len(f) > 1 {
				advance = f[1:]
			}
		}
		if advance[0] == "none" {
			g.ev("11.23", "%s does not advance into %s.", sideSeat(side), g.placeName(d))
		}
		g.advanceInto(side, d, g.liveUnits(p.Attacker), advance)
		g.goOn(side, p.Rest)
		return
	}
	var defenders []*unit
	for _, id := range p.Defender {
		defenders = append(defenders, g.byID[id])
	}
	var choice []string
	for _, l := range lines {
		if f := strings.Fields(l); f[0] == "lose" {
			choice = f[1:]
		}
	}
	if !g.takeChosen(defenders, p.Steps, choice) {
		g.takeLosses(defenders, p.Steps, nil, false, "defender")
	}
	if g.finishBattle(side, d, g.liveUnits(p.Attacker), p.Advance, p.Rest) {
		g.waitFor()
		return
	}
	g.goOn(side, p.Rest)
}

// goOn resolves the attacks left after a follow-up step, then ends the
// phase.
func (g *game) goOn(side side, rest []string) {
	if g.Over {
		return
	}
	if !g.runAttacks(side, rest) {
		g.endPhase()
	}
}

// liveUnits are the listed units still on the map.
func (g *game) liveUnits(list []string) []*unit {
	var out []*unit
	for _, id := range list {
		if u := g.byID[id]; u != nil && u.alive() {
			out = append(out, u)
		}
	}
	return out
}

// takeChosen removes the steps the defender named, one unit a step, if
// the choice keeps the rules (11.20: artillery last); false otherwise.
func (g *game) takeChosen(units []*unit, steps int, choice []string) bool {
	if len(choice) != steps {
		if len(choice) > 0 {
			g.ev("11.9", "The loss decision names %d steps, not %d: the umpire allocates.", len(choice), steps)
		}
		return false
	}
	left := map[string]int{}
	for _, u := range units {
		if u.alive() {
			left[u.ID] = u.Steps
		}
	}
	for _, id := range choice {
		u := g.byID[id]
		if left[id] == 0 {
			g.ev("11.9", "The loss decision takes more steps from %s than it has: the umpire allocates.", id)
			return false
		}
		if u.c.Artillery {
			for _, o := range units {
				if !o.c.Artillery && left[o.ID] > 0 {
					g.ev("11.20", "Artillery may not lose steps while %s is left: the umpire allocates.", o.ID)
					return false
				}
			}
		}
		left[id]--
	}
	g.takeLosses(units, steps, choice, false, "defender")
	return true
}

// endPhase closes a phase: the stacking check (6.4) and the next phase.
func (g *game) endPhase() {
	if g.Over {
		return
	}
	g.checkStacking()
	g.nextPhase()
}

// nextPhase moves to the next phase of the turn, or ends the turn with the
// victory check phase (5.2).
func (g *game) nextPhase() {
	if g.Over {
		return
	}
	if len(g.Plan) == 0 {
		g.victoryPhase()
		return
	}
	g.Phase, g.Plan = g.Plan[0], g.Plan[1:]
	if g.Phase == phaseSerbCombat && !g.MaxEffort { // the Serbian player turn begins
		for _, u := range g.Units {
			if u.c.Side == serb {
				u.Moved, u.Attacked, u.Fixed, u.Work = false, false, false, ""
			}
		}
	}
}

// victoryPhase is phase III (4.7, 4.9, 5.5): the victory check unless this
// was a reconstitution turn, then the MePPs deduction, then the next turn.
func (g *game) victoryPhase() {
	n := g.net()
	var held []string
	for _, c := range g.sc.Cities {
		if g.natoControls(c) && g.traceFrom(c, false, n).Overland() {
			held = append(held, g.hex(c))
		}
	}
	recon := g.Recon != ""
	win, roll := victoryCheck(len(held), recon, g.r)
	switch {
	case recon:
		g.ev("5.5", "No victory check at the end of a reconstitution turn.")
	case len(held) >= 9:
		g.ev("4.9", "NATO holds all nine rump-Yugoslav cities in overland supply: automatic victory.")
	case len(held) < 4:
		g.ev("4.9", "NATO holds %d rump-Yugoslav cit%s in overland supply (%s): no victory check (4 are needed).", len(held), map[bool]string{true: "y", false: "ies"}[len(held) == 1], fmtList(held))
	default:
		hi, _, _ := victoryRollNeeded(len(held))
		g.ev("4.9", "NATO holds %d rump-Yugoslav cities in overland supply (%s): the victory check needs %d or less and rolls %d.", len(held), fmtList(held), hi, roll)
	}
	if win {
		g.end(seatNATO, "the Milosevic regime collapses (4.9)")
		return
	}
	g.loseMePPs(g.Turn, "4.7", fmt.Sprintf("game turn %d ends", g.Turn))
	if g.Over {
		return
	}
	if g.Turn >= g.Length {
		g.end(seatSerb, fmt.Sprintf("game turn %d was the last (4.10, 13.0)", g.Turn))
		return
	}
	g.Turn++
	g.Phase, g.Plan = phaseWeather, nil
}

// weatherPhase is phase I.A (5.3, 5.4, 9.2-9.4, 12.8): the weather, the
// reconstitution check, and NATO's sequence.
func (g *game) weatherPhase(lines []string) {
	for _, u := range g.Units {
		u.Moved, u.Attacked, u.Fixed, u.Work, u.Remount = false, false, false, "", false
	}
	g.SupportUsed, g.MaxEffort, g.AttackedHexes, g.Recon, g.BadRange = false, false, nil, "", 0
	prev := g.Bad
	g.PrevBad = prev
	bad, roll := weather(g.Turn, prev, g.r)
	g.Bad = bad
	w := map[bool]string{false: "good", true: "bad"}[bad]
	if roll == 0 {
		g.ev("5.3", "Game turn %d: the weather is good (turns 1 and 2 always are).", g.Turn)
	} else {
		g.ev("5.3", "Game turn %d: the weather roll is %d (bad on %d or more): the weather is %s.", g.Turn, roll, badWeatherFrom(prev), w)
	}
	// conditional orders: "X if good|bad" applies only in that weather
	var mine []string
	for _, l := range lines {
		if base, cond, ok := strings.Cut(l, " if "); ok {
			if cond != w {
				continue
			}
			l = base
		}
		mine = append(mine, l)
	}
	if g.ReconMarker == g.Turn {
		disc := slices.Contains(mine, "reconstitute")
		out, roll, next := checkReconstitution(g.Turn, disc, g.r)
		g.ReconMarker = next
		switch out {
		case Discretionary:
			g.ev("9.4", "NATO calls a discretionary reconstitution: units may move one hex and keep their zones of control in supply, but may not attack; the marker moves to turn %d.", next)
		case mandatory:
			g.ev("9.2", "The reconstitution roll is %d: game turn %d is a mandatory reconstitution turn (no NATO movement, attacks or zones of control, 9.3); the marker moves to turn %d.", roll, g.Turn, next)
		default:
			g.ev("9.2", "The reconstitution roll is %d: no reconstitution; the marker moves to turn %d.", roll, next)
		}
		if out != noReconstitution {
			g.Recon = out.String()
		}
	}
	if g.Bad && slices.ContainsFunc(g.Units, func(u *unit) bool { return u.alive() && u.c.AAA }) {
		g.BadRange = dice.Roll(g.r, 1, 6, fmt.Sprintf("WbT 12.8 1st AAA range in bad weather, game turn %d", g.Turn))[0]
		g.ev("12.8", "Bad weather: the 1st AAA's range this turn is %d and its attack and support strength is halved.", g.BadRange)
	}
	g.Sequence = "move-combat"
	for _, l := range mine {
		if f := strings.Fields(l); f[0] == "sequence" {
			g.Sequence = f[1]
		}
		if f := strings.Fields(l); f[0] == "airsupply" {
			g.airSupply(f[1])
		}
	}
	var plan []string
	switch {
	case g.mandatory():
	case g.discretionary():
		plan = []string{phaseNATOMove}
	case g.Sequence == "combat-move":
		plan = []string{phaseNATOCombat, phaseNATOMove}
		g.ev("5.4", "NATO uses the combat/movement sequence: every NATO attack this turn shifts one column right.")
	default:
		plan = []string{phaseNATOMove, phaseNATOCombat}
		g.ev("5.4", "NATO uses the movement/combat sequence: Czech, Hungarian and Polish units attack with 1 this turn.")
	}
	g.Plan = append(plan, phaseSerbCombat, phaseSerbMove)
	g.nextPhase()
}

// setupArea says why a unit may not set up in a hex, "" if it may (3.2,
// 3.3); neutrals nil accepts every neutral (checked again at the set-up).
func (g *game) setupArea(c *counter, id board.ID, neutrals []string) string {
	a := g.area(id)
	switch {
	case g.terrain(id) == "marsh":
		return "marsh is unplayable (10.14)"
	case c.Side == serb && !slices.Contains(yugoslavia, a):
		return "Serbian units set up in rump-Yugoslavia (3.3)"
	case c.Side == serb:
		return ""
	case len(c.Setup) > 0 && !slices.Contains(c.Setup, a):
		return "it sets up only in " + strings.Join(c.Setup, " or ") + " (3.2)"
	case slices.Contains(alwaysIn, a):
		return ""
	case slices.Contains(neutralsAll, a) && (neutrals == nil || slices.Contains(neutrals, a)):
		return ""
	}
	return "NATO sets up in Albania, Bosnia, Hungary, Macedonia and the neutrals it brings in (3.2)"
}

// placeUnits carries out the set-up's place orders (3.1-3.3): the units
// placed are lifted off their demo set-up hexes first, so that two units
// may swap hexes, then put down in the order given, each where its side
// may set up and stacking allows (6.2, 6.3); a unit that may not stays at
// its demo hex.
func (g *game) placeUnits(side side, lines []string) {
	type placement struct {
		u    *unit
		at   board.ID
		hex  string
		from board.ID
	}
	var ps []placement
	seen := map[string]bool{}
	neutrals := append([]string{}, g.Neutrals...) // nil would accept every neutral
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] != "place" {
			continue
		}
		u := g.byID[f[1]]
		id, err := g.grid.Parse(f[2])
		if err != nil || u == nil || u.Out || u.Steps <= 0 {
			g.ev("3.1", "%s cannot be placed: it is not in play.", f[1])
			continue
		}
		if seen[u.ID] {
			g.ev("3.1", "%s was placed already: the first place order stands.", u.ID)
			continue
		}
		if why := g.setupArea(u.c, id, neutrals); why != "" {
			g.ev("3.2", "%s may not set up in %s: %s; it stays at %s.", u.ID, f[2], why, u.Hex)
			continue
		}
		seen[u.ID] = true
		ps = append(ps, placement{u: u, at: id, hex: f[2], from: u.pos})
	}
	for _, p := range ps {
		p.u.Hex = "" // lifted
	}
	for _, p := range ps {
		if !g.fits(side, []*unit{p.u}, p.at) {
			g.place(p.u, p.from)
			g.ev("6.1", "%s may not set up in %s: stacking (6.2, 6.3); it stays at %s.", p.u.ID, p.hex, p.u.Hex)
			continue
		}
		g.place(p.u, p.at)
	}
	var where []string
	for _, u := range g.Units {
		if u.c.Side == side && u.alive() {
			where = append(where, u.ID+" "+u.Hex)
		}
	}
	g.ev("3.1", "%s sets up: %s.", side, strings.Join(where, ", "))
}

// setupNATO is NATO's set-up (3.1, 3.2, 4.2, 4.8).
func (g *game) setupNATO(lines []string) {
	for _, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "neutrals":
			if f[1] != "none" {
				g.Neutrals = f[1:]
			}
		case "uk3":
			g.UK3 = f[1] == "yes"
		}
	}
	if len(g.Neutrals) > 0 {
		g.ev("3.2", "NATO brings %s into play.", strings.Join(g.Neutrals, ", "))
	} else {
		g.ev("3.2", "NATO brings no neutral into play.")
	}
	for _, n := range g.Neutrals {
		g.meppsCheck("4.2", n+" brought into play")
	}
	if g.UK3 {
		g.ev("4.8", "NATO brings in the UK 3rd Division.")
		g.meppsCheck("4.8", "the UK 3rd Division brought in")
	}
	for _, u := range g.Units {
		switch u.c.Needs {
		case "croatia":
			u.Out = !slices.Contains(g.Neutrals, "Croatia")
		case "uk3":
			u.Out = !g.UK3
		}
	}
	g.placeUnits(nato, lines)
	g.checkStacking()
	g.Phase = phaseSetupSerb
}

// setupSerb is the Serbian set-up (3.3); then game turn 1 begins.
func (g *game) setupSerb(lines []string) {
	g.placeUnits(serb, lines)
	g.checkStacking()
	g.Phase = phaseWeather
}

// Ending implements adjudicator.Ending.
func (rules) Ending(state []byte) (winner, why string, over bool) {
	g, err := decode(state)
	if err != nil || !g.Over {
		return "", "", false
	}
	return g.Winner, fmt.Sprintf("%s wins: %s.", g.Winner, g.Reason), true
}

// DefaultOrders says in plain words what no usable orders from seat mean
// at the deadline of a movement or combat phase; other steps leave it to
// their NoOrders.
func (rules) DefaultOrders(state []byte, seat string) string {
	g, err := decode(state)
	if err != nil {
		return ""
	}
	switch g.Phase {
	case phaseNATOMove, phaseSerbMove:
		return seat + " moves no unit this phase"
	case phaseNATOCombat, phaseSerbCombat:
		return seat + " makes no attack this phase"
	}
	return ""
}
