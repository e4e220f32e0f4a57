package sms1914

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// Game is 1914 Serbien muß sterbien as a hosted game: per player turn a
// step for the phasing player's preliminary choices, attachment, supply
// and movement, one for the other's counter movement, one for each attack
// declaration, follow-up steps for the defender's answers only for a seat
// that asked for them, and an Inter-Phase step for both after every third
// game turn (4.0-4.3). docs/orders-sms1914.md lists the orders.
var Game adjudicator.Rules = rules{}

type rules struct{}

func (rules) ID() string    { return "sms1914" }
func (rules) Title() string { return "1914 Serbien muß sterbien" }

// Scenarios lists the scenarios: the demo, whose map, counters, scenario
// and tables a game master may replace with files.
func Scenarios() []string { return []string{"demo"} }

func (rules) Seats(scenario string) ([]string, error) {
	if scenario != "demo" && scenario != "" {
		return nil, fmt.Errorf("sms1914: no scenario %q: the scenario is demo (load a Play Book scenario, the map, the counters and the tables with the options scenario, map, counters and tables)", scenario)
	}
	return []string{seatSerb, seatAH}, nil
}

// FileOptions implements adjudicator.FileOptions: each names a file or
// holds its text.
func (rules) FileOptions() []string { return []string{"map", "counters", "scenario", "tables"} }

// New is the state at the first game turn's Serbian Player Turn, its
// Preliminary Phase done.
func (r rules) New(scenario string, options map[string]string) ([]byte, error) {
	if _, err := r.Seats(scenario); err != nil {
		return nil, err
	}
	for k := range options {
		if !slices.Contains([]string{"map", "counters", "scenario", "tables"}, k) {
			return nil, fmt.Errorf("sms1914: no option %q (options: map, counters, scenario, tables)", k)
		}
	}
	data, err := readData(options["map"], options["counters"], options["scenario"], options["tables"])
	if err != nil {
		return nil, err
	}
	sc, err := data.Load()
	if err != nil {
		return nil, err
	}
	return newState(data, sc)
}

func newState(data data, sc *scenario) ([]byte, error) {
	su := sc.Setup
	s := &State{Data: data, GT: su.FirstTurn, Last: su.LastTurn, Phasing: sb, Phase: phaseTurn, Inter: su.InterPhases,
		VP: su.VP, Shells: su.Shells, REPL: map[string]int{}, KomitadjiN: su.Komitadji, PontoonN: su.Pontoons,
		Attach: map[string]string{}}
	s.IPRights = [2]int{su.IPRights, su.IPRights}
	for k, v := range su.REPL {
		s.REPL[k] = v
	}
	for _, a := range sc.Armies {
		if a.Side != ah {
			continue
		}
		as := &armyState{ID: a.ID, Marker: sc.Map.Grid.Format(su.Markers[a.ID])}
		for _, p := range su.Plans {
			if p.Army == a.ID {
				as.Plan, as.Mandated = "active", p.Mandated
			}
		}
		s.Armies = append(s.Armies, as)
	}
	for _, b := range su.Boundaries {
		s.Boundaries = append(s.Boundaries, b.Format(board.Dotted))
	}
	set := map[string]unitSetup{}
	for _, u := range su.Units {
		set[u.ID] = u
	}
	for _, c := range sc.Counters {
		u := &unit{ID: c.ID, Out: true}
		if st, ok := set[c.ID]; ok {
			u.Out = false
			u.Hex, u.Hex2, u.SR, u.CE, u.Inactive, u.Extended, u.Box, u.Off = st.Hex, st.Hex2, st.SR, st.CE, st.Inactive, st.Extended, st.Box, st.Off
			if st.Attach != "" {
				s.Attach[c.ID] = st.Attach
			}
		}
		if c.Formation && s.Attach[c.ID] == "" && c.Corps != "" {
			s.Attach[c.ID] = c.Corps
		}
		if c.Formation && s.Attach[c.ID] == "" && c.Side == ah {
			s.Attach[c.ID] = "independent"
		}
		s.Units = append(s.Units, u)
	}
	g := &game{State: s, sc: sc, grid: sc.Map.Grid, byID: map[string]*unit{}, ctl: map[board.ID]bool{}, ver: 1}
	for _, u := range s.Units {
		u.c = sc.Counter(u.ID)
		if u.Hex != "" {
			u.pos = g.parse(u.Hex)
		}
		if u.Hex2 != "" {
			u.p2 = g.parse(u.Hex2)
		}
		g.byID[u.ID] = u
	}
	// control: each side holds its own country, then the scenario's changes (3.4)
	for _, id := range sc.hexes {
		g.ctl[id] = g.homeSide(id) == ah
	}
	for _, id := range su.ControlAH {
		g.ctl[id] = true
	}
	for _, id := range su.ControlSerb {
		g.ctl[id] = false
	}
	if _, err := g.aoas(s.Boundaries, g.markers()); err != nil {
		fe := &datafile.FileError{File: data.ScenarioName, Err: err.Error()}
		if ae, ok := err.(*areaError); ok {
			fe.Field, fe.Line = "army.marker", su.markerLines[ae.Army]
			if ae.Boundaries {
				fe.Field, fe.Line = "boundaries", su.boundaryLines
			}
		}
		return nil, fmt.Errorf("sms1914: scenario: %w", data.blame(fe))
	}
	g.attachArmies()
	for _, u := range g.units(sb) {
		u.Army = "Serbia"
	}
	g.Standing = map[string][]string{}
	g.events = nil
	g.preliminary()
	return g.encode()
}

// phaseLabel names the step open in reports and subjects.
func (g *game) phaseLabel() string {
	p, np := g.Phasing, g.Phasing.Enemy()
	switch g.Phase {
	case phaseTurn:
		return fmt.Sprintf("GT %d, %s Player Turn: preliminary, attachment, supply and movement", g.GT, p)
	case phaseCounter:
		return fmt.Sprintf("GT %d, %s Player Turn: %s counter movement", g.GT, p, np)
	case phaseAttack:
		return fmt.Sprintf("GT %d, %s Player Turn: %s attack declarations", g.GT, p, p)
	case phaseDefend:
		return fmt.Sprintf("GT %d, %s Player Turn: %s defender's answers", g.GT, p, np)
	case phaseCounterAttack:
		return fmt.Sprintf("GT %d, %s Player Turn: %s counter attack declarations", g.GT, p, np)
	case phaseCounterDefend:
		return fmt.Sprintf("GT %d, %s Player Turn: %s defender's answers", g.GT, p, p)
	case phaseInterPhase:
		return fmt.Sprintf("Inter-Phase %d after GT %d", g.Inter+1, g.GT)
	}
	return "game over"
}

// owing are the seats the step waits for.
func (g *game) owing() []string {
	switch g.Phase {
	case phaseTurn, phaseAttack, phaseCounterDefend:
		return []string{g.Phasing.Seat()}
	case phaseCounter, phaseCounterAttack, phaseDefend:
		return []string{g.Phasing.Enemy().Seat()}
	case phaseInterPhase:
		return []string{seatSerb, seatAH}
	}
	return nil
}

var noOrders = map[string]string{
	phaseTurn:          "no attachment changes, the umpire's supply choices, no movement",
	phaseCounter:       "no counter movement",
	phaseAttack:        "no attacks but those Prepared Attacks make mandatory (7.3.1)",
	phaseDefend:        "your standing defence orders (defend ..., withhold, ammo, shells)",
	phaseCounterAttack: "no counter attacks but those Prepared Attacks make mandatory",
	phaseCounterDefend: "your standing defence orders",
	phaseInterPhase:    "REPLs placed by the umpire (16.6)",
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if g.Over {
		return adjudicator.StepSpec{Over: true, Phase: phaseOver}, nil
	}
	spec := adjudicator.StepSpec{Phase: g.phaseLabel(), Owing: g.owing(), NoOrders: map[string]string{}}
	for _, s := range spec.Owing {
		spec.NoOrders[s] = noOrders[g.Phase]
	}
	return spec, nil
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	g, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	if g.Over {
		return nil, nil, fmt.Errorf("sms1914: the game is over")
	}
	g.r = r
	g.Arrows = nil
	g.Revealed = nil
	g.phaseNo = g.GT*100 + int(g.Phasing)*10
	seatLines := map[string][]string{}
	for _, s := range g.owing() {
		var lines []string
		for _, l := range orders[s] {
			if l = kit.StripComment(l); l != "" {
				lines = append(lines, l)
			}
		}
		seatLines[s] = g.keepStanding(s, lines)
	}
	p := g.Phasing
	switch g.Phase {
	case phaseTurn:
		lines := seatLines[p.Seat()]
		if p == sb {
			g.frenchGuns()
		}
		g.attachmentPhase(p, lines)
		var ext, noext []string
		for _, l := range lines {
			f := strings.Fields(l)
			switch f[0] {
			case "extend":
				ext = append(ext, f[1])
			case "noextend":
				noext = append(noext, f[1])
			}
		}
		g.supplyPhase(p, ext, noext)
		g.movementPhase(p, false, lines)
		g.Phase = phaseCounter
	case phaseCounter:
		g.movementPhase(p.Enemy(), true, seatLines[p.Enemy().Seat()])
		g.toAttack()
	case phaseAttack:
		g.declare(p, seatLines[p.Seat()])
		if len(g.Attacks) > 0 && g.asks(p.Enemy()) {
			g.Phase = phaseDefend
			break
		}
		g.combatPhase(p)
		g.toCounterAttack()
	case phaseDefend:
		g.answers(seatLines[p.Enemy().Seat()])
		g.combatPhase(p)
		g.toCounterAttack()
	case phaseCounterAttack:
		g.declare(p.Enemy(), seatLines[p.Enemy().Seat()])
		if len(g.Attacks) > 0 && g.asks(p) {
			g.Phase = phaseCounterDefend
			break
		}
		g.combatPhase(p.Enemy())
		g.finishing()
	case phaseCounterDefend:
		g.answers(seatLines[p.Seat()])
		g.combatPhase(p.Enemy())
		g.finishing()
	case phaseInterPhase:
		g.interPhase(seatLines)
		g.afterInterPhase()
	default:
		return nil, nil, fmt.Errorf("sms1914: state: unknown phase %q", g.Phase)
	}
	next, err := g.encode()
	return next, g.events, err
}

// asks reports whether the side's standing orders ask for a follow-up step
// to answer attacks ("defend ask").
func (g *game) asks(side side) bool {
	for _, l := range g.standing(side.Seat(), "defend") {
		if l == "ask" {
			return true
		}
	}
	return false
}

// toAttack opens the phasing player's attack declarations, or runs an
// empty Attack Phase when no attack is possible.
func (g *game) toAttack() {
	p := g.Phasing
	if g.canAttack(p) {
		g.Phase = phaseAttack
		return
	}
	g.ev("9.1", "%s has no attack to make: the Attack Phase passes.", p)
	g.Attacks = nil
	g.combatPhase(p)
	g.toCounterAttack()
}

// toCounterAttack opens the non-phasing player's counter attack
// declarations, or runs an empty phase.
func (g *game) toCounterAttack() {
	np := g.Phasing.Enemy()
	if g.canAttack(np) {
		g.Phase = phaseCounterAttack
		return
	}
	g.ev("4.2.8", "%s has no counter attack to make: the Counter Attack Phase passes.", np)
	g.Attacks = nil
	g.combatPhase(np)
	g.finishing()
}

// canAttack reports whether the side has a unit able to attack an
// adjacent enemy hex (9.2, 9.2.3).
func (g *game) canAttack(side side) bool {
	for _, u := range g.units(side) {
		if !u.combat() && u.c.Kind != kArtillery {
			continue
		}
		for _, h := range u.hexes() {
			for _, n := range g.nbrs(h) {
				if g.enemyIn(n, side) && g.attackBar(u, n) == "" {
					return true
				}
			}
		}
	}
	return false
}

// keepStanding stores the standing orders among a seat's lines (they
// apply in later steps too) and returns all the lines.
func (g *game) keepStanding(seat string, lines []string) []string {
	for _, l := range lines {
		// the receipt refused what storeStanding refuses; a state written
		// otherwise keeps its orders as they were
		_, _ = storeStanding(g.Standing, seat, l)
	}
	return lines
}

// maxDefendLines is the most standing "defend intense|not" lines a seat
// keeps; a newer line of the same scope (its at and if) replaces the older
// one, so only lines of different scopes count toward it.
const maxDefendLines = 32

// standingKinds are the verbs of the standing orders.
var standingKinds = []string{"react", "retire", "defend", "withhold", "ammo", "shells", "losses", "retreat", "repulse", "pontoon",
	"komitadji", "sirmien", "abandon", "displace", "repl", "montenegro", "marsch-depot", "french"}

// standingScope is what a standing order is about: a newer order of the
// same kind and scope replaces the older. react, retire, displace and
// abandon are per unit or army; defend intense|not per "at" and "if"
// (the hexes sorted); every other kind holds one order.
func standingScope(kind string, f []string) string {
	switch kind {
	case "react", "retire", "displace", "abandon":
		if len(f) > 0 {
			return f[0]
		}
	case "defend":
		if len(f) > 0 && (f[0] == "intense" || f[0] == "not") {
			return strings.Join(f[1:], " ")
		}
		return "ask"
	}
	return ""
}

// storeStanding stores one canonical line in store if it is a standing
// order of seat: a newer order replaces its twin (the same kind and scope,
// standingScope), "none", "clear" and "defend auto" drop orders. It returns
// the orders replaced, and an error for a defend line beyond
// MaxDefendLines (nothing is stored then). Other lines are left alone.
func storeStanding(store map[string][]string, seat, line string) ([]string, error) {
	f := strings.Fields(kit.StripComment(line))
	if len(f) == 0 || !slices.Contains(standingKinds, f[0]) {
		return nil, nil
	}
	kind := f[0]
	if kind == "repulse" && len(f) != 2 {
		return nil, nil // a Repulse during movement, not the standing order
	}
	key := seat + ":" + kind
	rest := strings.Join(f[1:], " ")
	old := store[key]
	var replaced []string
	switch {
	case kind == "defend" && (rest == "clear" || rest == "auto"):
		// clear forgets the intensity lines, auto the follow-up step
		var keep []string
		for _, x := range old {
			if (x == "ask") == (rest == "clear") {
				keep = append(keep, x)
			} else {
				replaced = append(replaced, "defend "+x)
			}
		}
		store[key] = keep
	case rest == "none" && kind != "react" && kind != "displace" && kind != "abandon":
		for _, x := range old {
			replaced = append(replaced, kind+" "+x)
		}
		delete(store, key)
	case kind == "react" || kind == "retire" || kind == "displace" || kind == "abandon" || kind == "defend":
		scope := standingScope(kind, f[1:])
		var keep []string
		done := false
		for _, x := range old {
			if standingScope(kind, strings.Fields(x)) != scope {
				keep = append(keep, x)
				continue
			}
			replaced = append(replaced, kind+" "+x)
			if !done {
				keep = append(keep, rest) // in the older one's place
				done = true
			}
		}
		if !done {
			if kind == "defend" && rest != "ask" {
				n := 0
				for _, x := range old {
					if x != "ask" {
						n++
					}
				}
				if n >= maxDefendLines {
					return nil, fmt.Errorf("%d standing defend lines kept already", n)
				}
			}
			keep = append(keep, rest)
		}
		store[key] = keep
	default:
		for _, x := range old {
			replaced = append(replaced, kind+" "+x)
		}
		store[key] = []string{rest}
	}
	if len(store[key]) == 0 {
		delete(store, key)
	}
	return replaced, nil
}

// preliminary is the phasing player's Preliminary Phase and the Joint
// Preliminary Phase (4.2.1, 4.2.1a): the GT's events, reinforcements,
// withdrawals and substitutions, plans achieved or abandoned, activations.
func (g *game) preliminary() {
	p := g.Phasing
	if p == sb {
		g.ev("4.1", "Game Turn %d begins.", g.GT)
		g.gtEvents()
	}
	g.ev("4.2.1", "%s Player Turn: Preliminary Phase.", p)
	for _, e := range g.sc.Setup.Events {
		u := g.byID[e.Unit]
		if e.Turn != g.GT || u == nil || u.c.Side != p {
			continue
		}
		switch e.Kind {
		case "arrive":
			h := g.parse(e.Hex)
			if g.enemyIn(h, p) {
				g.ev("16.1", "%s cannot arrive in %s: enemy units hold it.", u.ID, e.Hex)
				continue
			}
			u.Out, u.Gone = false, false
			g.place(u, h)
			if e.Attach != "" {
				g.Attach[u.ID] = e.Attach
			}
			u.Army = "Serbia"
			if p == ah {
				if area, err := g.aoas(g.Boundaries, g.markers()); err == nil {
					u.Army = area[h]
				}
			}
			g.ev("16.1", "Reinforcement: %s arrives in %s.", g.unitName(u, p.Enemy()), e.Hex)
		case "withdraw":
			if !u.onMap() {
				continue
			}
			where := u.Hex
			u.Out = true
			g.place(u, board.ID{})
			g.ev("16.5", "Withdrawal: %s leaves %s.", g.unitName(u, p.Enemy()), where)
		case "substitute":
			old := g.byID[e.For]
			if old == nil || !old.onMap() && !old.Gone {
				continue
			}
			h := old.pos
			if e.Hex != "" {
				h = g.parse(e.Hex)
			}
			u.Out, u.Gone = false, false
			if old.Gone {
				// 16.2.2: the Formation loses as many steps as the destroyed asset had
				u.SR = min(old.c.MaxSR()+1, u.c.MaxSR())
				g.place(u, h)
			} else {
				u.SR = min(old.SR, u.c.MaxSR())
				if old.c.Formation && u.c.Formation {
					u.CE = old.CE
				}
				old.Out = true
				g.place(old, board.ID{})
				g.place(u, h)
			}
			if e.Attach != "" {
				g.Attach[u.ID] = e.Attach
			}
			u.Army = old.Army
			g.ev("16.2", "Substitution: %s replaces %s in %s.", g.unitName(u, p.Enemy()), g.unitName(old, p.Enemy()), g.hex(h))
		}
	}
	// Joint Preliminary Phase (4.2.1a)
	for _, a := range g.Armies {
		if a.Plan == "achieved" && !a.Lifted {
			a.Lifted = true
			g.ev("26.1", "%s's Strategic Plan was achieved: its units are no longer bound.", a.ID)
		}
	}
	for _, l := range g.standing(seatAH, "abandon") {
		g.abandonPlan(strings.TrimSpace(l))
	}
	if !g.done(fmt.Sprintf("activate %d", g.GT)) {
		g.Done = append(g.Done, fmt.Sprintf("activate %d", g.GT))
		for _, e := range g.sc.Setup.Events {
			if e.Turn == g.GT && e.Kind == "activate" {
				if u := g.byID[e.Unit]; u != nil && u.Inactive {
					u.Inactive = false
					g.evFor(u.c.Side, "4.2.1a", "%s is activated.", u.ID)
				}
			}
		}
	}
	g.Attacks = nil
}

// unitName names a unit as the other side may see it: its id only if it
// is the top of its stack (fog of war, 3.1.6).
func (g *game) unitName(u *unit, viewer side) string {
	if u.c.Side == viewer || g.visibleTo(u, viewer) {
		return u.ID
	}
	return "a unit"
}

// gtEvents are the game turn's special events (4.2.1): 4 Shells a GT
// after Allied Assistance (23.2.2), squadrons back from refit (25.1.2),
// the Sava's low water (25.1.3), the end of A-H Poor Recovery (7.5.1).
func (g *game) gtEvents() {
	if g.Allied {
		g.Shells += 4
		g.ev("23.2.2", "Allied Assistance: 4 Shells arrive (%d).", g.Shells)
	}
	for _, u := range g.Units {
		if u.c.Kind != kSquadron || u.Refit == 0 || u.Refit > g.GT || u.Gone {
			continue
		}
		u.Refit = 0
		u.Off = ""
		for _, b := range u.c.Bases {
			if !strings.Contains(b, ".") {
				continue
			}
			if g.French && b == "29.09" {
				continue // 25.1.4: not Semlin once the French guns are in place
			}
			h := g.parse(b)
			if !g.enemyIn(h, ah) {
				g.place(u, h)
				break
			}
		}
		if !u.onMap() {
			u.Off = u.c.Bases[len(u.c.Bases)-1]
		}
		if !g.done("25.1.2 REPL") && u.SR > 0 {
			g.Done = append(g.Done, "25.1.2 REPL")
			u.SR = 0
			g.ev("25.1.2", "A squadron returns from refit and takes the game's one Naval Squadron REPL: back at full strength.")
		} else {
			g.ev("25.1.2", "A squadron returns from refit, on its reduced side, at its base %s.", u.Hex+u.Off)
		}
	}
	if g.GT == 7 {
		g.ev("25.1.3", "The Sava's water is low from GT 7 to 18: no squadron sails it between 17.08+17.09 and 29.09+30.09.")
		for _, u := range g.units(ah) {
			if u.c.Kind != kSquadron || g.squadronHex(u.pos) {
				continue
			}
			target := "29.09"
			if slices.Contains(u.c.Bases, "11.08") {
				target = "17.08"
			}
			h := g.parse(target)
			if g.enemyIn(h, ah) {
				h = g.parse(u.c.Bases[0])
			}
			g.place(u, h)
			g.ev("25.1.3", "A squadron is displaced by the low water to %s.", g.hex(h))
		}
	}
	if g.GT == 10 {
		g.ev("7.5.1", "A-H Poor Recovery ends (it ran for GTs 0-9).")
	}
	if g.GT == 19 {
		g.ev("25.1.2", "The Russian Naval Mission arrives: squadrons risk a mine on entering enemy-held river hexes.")
		g.ev("3.5.3", "October: regular Bottomland costs 3 MPs from now on.")
	}
}

// abandonPlan is the A-H player abandoning an army's Strategic Plan in the
// Joint Preliminary Phase (26.3): not on GT 0 or 1, only after its
// Mandated Attacks, for the 27.1 VP penalty.
func (g *game) abandonPlan(army string) {
	a := g.army(army)
	if a == nil || a.Plan != "active" {
		return
	}
	need := map[string]int{"FIFTH": 5, "SIXTH": 4}[a.ID]
	switch {
	case g.GT <= 1:
		g.ev("26.3", "%s's Strategic Plan cannot be abandoned on GT 0 or 1.", a.ID)
		return
	case a.Mandated < need:
		g.ev("26.3.1", "%s's Strategic Plan cannot be abandoned yet: %d of its %d Mandated Attacks are made.", a.ID, a.Mandated, need)
		return
	}
	best := 99
	prim := g.parse(planPrimary[a.ID])
	for _, u := range g.units(ah) {
		if u.Army == a.ID && u.c.InfantryType() {
			best = min(best, g.grid.Distance(u.pos, prim))
		}
	}
	vp := 0
	switch {
	case best >= 5:
		vp = -15
	case best >= 3:
		vp = -10
	case best == 2:
		vp = -6
	default:
		vp = -3
	}
	a.Plan, a.Lifted = "abandoned", true
	g.addVP(ah, vp, "27.1", fmt.Sprintf("%s abandons its Strategic Plan, its closest infantry %d hex%s from %s", a.ID, best, plural(best, "", "es"), planPrimary[a.ID]))
	var keep []string
	for _, l := range g.Standing[seatAH+":abandon"] {
		if l != army {
			keep = append(keep, l)
		}
	}
	g.Standing[seatAH+":abandon"] = keep
}

// attachmentPhase: A-H boundaries and army markers, corps and Formation
// attachments; Serbian Formations to their corps (5.1, 5.2).
func (g *game) attachmentPhase(side side, lines []string) {
	if side == ah {
		var bounds []string
		newBounds := false
		for _, l := range lines {
			f := strings.Fields(l)
			switch f[0] {
			case "boundary":
				if f[1] == "keep" {
					continue
				}
				newBounds = true
				bounds = append(bounds, f[1:]...)
			case "army":
				if a := g.army(f[1]); a != nil {
					a.Marker = f[2]
				}
			}
		}
		if newBounds {
			area, err := g.aoas(bounds, g.markers())
			if err == nil {
				n := g.trainsIn(area)
				for _, a := range g.sc.Armies {
					if a.Side == ah && n[a.ID] > a.CorpsBoxes {
						err = fmt.Errorf("%s's area would hold %d Corps Trains but its display has %d corps boxes (5.1.3)", a.ID, n[a.ID], a.CorpsBoxes)
						break
					}
				}
			}
			if err != nil {
				g.ev("5.1.1", "The new boundaries are not used: %v.", err)
			} else {
				g.Boundaries = bounds
				g.ev("5.1.1", "A-H sets its army boundaries: %s.", strings.Join(bounds, " "))
			}
		}
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] != "attach" {
			continue
		}
		u := g.unitByID(f[1])
		if u == nil || u.c.Side != side || !u.c.Formation {
			continue
		}
		if err := g.sc.checkAttach(u.c, f[2]); err != nil {
			g.evFor(side, "5.2", "%s is not attached to %s: %v.", u.ID, f[2], err)
			continue
		}
		// 5.2, 5.2.3: a corps takes no more Formations than its Attachment Limit
		if co := g.sc.CorpsOf(f[2]); co != nil {
			q := u.c.DEQuarters()
			for _, o := range g.units(side) {
				if o != u && o.c.Formation && g.Attach[o.ID] == co.ID {
					q += o.c.DEQuarters()
				}
			}
			if q > co.Limit {
				g.evFor(side, "5.2.3", "%s is not attached to %s: the corps would hold %s division-equivalents, over its Attachment Limit of %s.", u.ID, co.ID, formatDE(ratQ(q)), formatDE(ratQ(co.Limit)))
				continue
			}
		}
		g.Attach[u.ID] = f[2]
	}
	if side == ah {
		g.attachArmies()
		area, err := g.aoas(g.Boundaries, g.markers())
		if err == nil {
			n := g.trainsIn(area)
			for _, a := range g.sc.Armies {
				if a.Side == ah && n[a.ID] > a.CorpsBoxes {
					g.ev("5.1.3", "%s's area holds %d Corps Trains but its display has %d corps boxes: redraw the boundaries.", a.ID, n[a.ID], a.CorpsBoxes)
				}
			}
		}
	}
	// corps limits (5.2, 5.2.3)
	load := map[string]int{}
	for _, u := range g.units(side) {
		if u.c.Formation {
			if c := g.Attach[u.ID]; c != "" && c != "independent" {
				load[c] += u.c.DEQuarters()
			}
		}
	}
	for _, co := range g.sc.Corps {
		if co.Side == side && load[co.ID] > co.Limit {
			g.evFor(side, "5.2.3", "Corps %s holds %s division-equivalents, over its limit of %s.", co.ID, formatDE(ratQ(load[co.ID])), formatDE(ratQ(co.Limit)))
		}
	}
	g.ev("4.2.2", "%s Attachment Phase.", side)
}

// declare records the attacks declared, adding those Prepared Attacks
// make mandatory (7.3.1, 9.1 step 1-2).
func (g *game) declare(side side, lines []string) {
	g.Attacks = nil
	// step 1: PAs at empty hexes are removed
	for _, u := range g.units(side) {
		if u.PA != "" && !g.enemyIn(g.parse(u.PA), side) {
			g.ev("9.1", "A PA marker in %s points at an empty hex (%s): it is removed.", u.Hex, u.PA)
			u.PA = ""
		}
	}
	taken := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] != "attack" {
			continue
		}
		a := parseAttack(side, f)
		if taken[a.Target] {
			g.evFor(side, "9.2", "%s is attacked once a phase: the second attack order on it is void.", a.Target)
			continue
		}
		taken[a.Target] = true
		g.Attacks = append(g.Attacks, a)
	}
	// 7.3.1: units with a PA at an enemy-occupied hex must attack it
	for _, u := range g.units(side) {
		if u.PA == "" {
			continue
		}
		var found *attack
		for _, a := range g.Attacks {
			if a.Target == u.PA {
				found = a
			}
		}
		if found == nil {
			found = &attack{Seat: side.Seat(), Target: u.PA, Line: "attack " + u.PA + " (Prepared Attack)", Advance: []string{"none"}}
			g.Attacks = append(g.Attacks, found)
			taken[u.PA] = true
			g.ev("7.3.1", "A Prepared Attack must be made on %s.", u.PA)
		}
		if !slices.Contains(found.Units, u.ID) {
			found.Units = append(found.Units, u.ID)
			for _, o := range g.forceOf(u).Units() {
				if o.PA == u.PA && !slices.Contains(found.Units, o.ID) {
					found.Units = append(found.Units, o.ID)
				}
			}
		}
	}
	for _, a := range g.Attacks {
		g.ev("9.1", "%s declares an attack on %s.", side, a.Target)
	}
}

// parseAttack reads a canonical attack order.
func parseAttack(side side, f []string) *attack {
	a := &attack{Seat: side.Seat(), Target: f[1], Line: strings.Join(f, " "), Advance: []string{"none"}}
	for i := 2; i < len(f); i++ {
		switch f[i] {
		case "with":
			if i+1 < len(f) {
				a.Units = strings.Split(f[i+1], "+")
				i++
			}
		case "intense":
			a.Intense = "yes"
			if i+2 < len(f) && f[i+1] == "if" {
				a.Intense = f[i+2]
				i += 2
			}
		case "mandated":
			a.Mandated = true
		case "noammo":
			a.NoAmmo = true
		case "noshells":
			a.NoShells = true
		case "twohex":
			a.TwoHex = true
		case "advance":
			if i+1 < len(f) {
				a.Advance = strings.Split(f[i+1], "+")
				i++
			}
		}
	}
	return a
}

// answers records the defender's follow-up answers.
func (g *game) answers(lines []string) {
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] != "answer" {
			continue
		}
		ans := &answer{Intense: "no"}
		for i := 2; i < len(f); i++ {
			switch f[i] {
			case "intense":
				ans.Intense = "yes"
			case "not":
				ans.Intense = "no"
			case "withhold":
				if i+1 < len(f) {
					ans.Withhold = strings.Split(f[i+1], "+")
					i++
				}
			case "noammo":
				ans.NoAmmo = true
			case "shells":
				if i+1 < len(f) {
					ans.Shells = f[i+1]
					i++
				}
			}
		}
		for _, a := range g.Attacks {
			if a.Target == f[1] {
				a.Answer = ans
			}
		}
	}
}

// finishing is the Finishing Phase (4.2.9): cavalry retirement, the River
// Step, the Komitadji Step and the Victory Points; then the next Player
// Turn or the Inter-Phase.
func (g *game) finishing() {
	p := g.Phasing
	g.ev("4.2.9", "%s Player Turn: Finishing Phase.", p)
	for _, s := range []side{p, p.Enemy()} {
		var orders []string
		for _, l := range g.standing(s.Seat(), "retire") {
			orders = append(orders, "retire "+l)
		}
		g.cavalryRetirement(s, orders)
	}
	g.riverStep()
	if p == sb {
		g.komitadjiStep()
	}
	g.endOfPlayerTurnVP()
	g.removeEmptyIPs()
	for _, u := range g.Units {
		u.Attacked, u.Retreated, u.Moved = false, false, false
	}
	if g.Over {
		return
	}
	if p == sb {
		g.Phasing = ah
		g.Phase = phaseTurn
		g.preliminary()
		return
	}
	// the game turn ends
	if g.GT%3 == 0 && g.GT > 0 {
		g.Phase = phaseInterPhase
		return
	}
	g.nextGT()
}

// nextGT starts the next game turn, or ends the game after the last.
func (g *game) nextGT() {
	if g.GT >= g.Last {
		g.victory()
		return
	}
	g.GT++
	g.Phasing = sb
	g.Phase = phaseTurn
	g.preliminary()
}

// frenchGuns places the French Naval Artillery marker in Beograd at the
// start of a Serbian Player Turn the Serbs ordered it, from GT 32, while
// Beograd is not A-H held (25.1.4).
func (g *game) frenchGuns() {
	if g.French || g.GT < 32 || len(g.standing(seatSerb, "french")) == 0 {
		return
	}
	b := g.parse("30.09")
	if g.friendIn(b, ah) {
		return
	}
	g.French = true
	delete(g.Standing, seatSerb+":french")
	g.ev("25.1.4", "The French Naval Artillery marker is placed in Beograd (30.09): the A-H squadrons no longer use Semlin nor enter 29.09, 29.10, 30.08 or 31.09.")
}

func (g *game) afterInterPhase() {
	g.nextGT()
}

// riverStep places or flips pontoons (21.2.1) and flips or removes River
// Crossing markers (7.1.4b).
func (g *game) riverStep() {
	g.ver++ // bridges change
	for i := range g.Pontoons {
		p := &g.Pontoons[i]
		if p.Built {
			continue
		}
		pp, _ := g.grid.ParsePair(p.Sides)
		if g.controls(pp.A, p.Side) && g.controls(pp.B, p.Side) {
			p.Built = true
			g.ev("21.2.1", "The %s pontoon bridge at %s is built.", p.Side, p.Sides)
		}
	}
	for _, side := range []side{ah, sb} {
		for _, l := range g.standing(side.Seat(), "pontoon") {
			if l == "none" {
				continue
			}
			pp, err := g.grid.ParsePair(l)
			if err != nil || g.PontoonN[side] <= 0 {
				continue
			}
			f := g.feature(pp.A, pp.B)
			exists := slices.ContainsFunc(g.Pontoons, func(p pontoon) bool { return p.Sides == l })
			okKind := isSava(f) || f == sideDonauIsle
			if exists || !okKind || !g.controls(pp.A, side) || !g.controls(pp.B, side) {
				continue
			}
			need := 1
			if f == sideDonauIsle {
				need = 2 // 21.2.3
			}
			if g.PontoonN[side] < need {
				continue
			}
			g.PontoonN[side] -= need
			g.Pontoons = append(g.Pontoons, pontoon{Side: side, Sides: l})
			g.ev("21.2.1", "%s begins a pontoon bridge at %s.", side, l)
			delete(g.Standing, side.Seat()+":pontoon")
		}
	}
	for _, u := range g.Units {
		switch u.RiverX {
		case 1:
			u.RiverX = 0
		case 2:
			u.RiverX = 1
		}
	}
}

// komitadjiStep picks up the Komitadji markers and places them again
// (23.1): at most one a hex, five or more hexes apart, south of the
// Sava/Donau, within three hexes of a Serbian combat unit; the standing
// order's hexes, else where they were if still allowed.
func (g *game) komitadjiStep() {
	want := g.Komitadji
	if l := g.standing(seatSerb, "komitadji"); len(l) > 0 {
		want = strings.Fields(l[0])
	}
	var placed []string
	for _, h := range want {
		if len(placed) >= g.KomitadjiN {
			break
		}
		id, err := g.grid.Parse(h)
		if err != nil || !g.komitadjiOK(id, placed) {
			continue
		}
		placed = append(placed, h)
	}
	g.Komitadji = placed
	g.ver++ // supply paths change
	if len(placed) > 0 {
		g.ev("23.1", "Komitadji markers are placed in %s.", strings.Join(placed, ", "))
	}
}

// komitadjiOK checks a Komitadji hex (23.1).
func (g *game) komitadjiOK(id board.ID, placed []string) bool {
	if !g.playable(id) || !g.southOfRivers(id) || g.enemyIn(id, sb) && false {
		return false
	}
	near := false
	for _, u := range g.units(sb) {
		if u.c.Combat() && g.grid.Distance(u.pos, id) <= 3 {
			near = true
		}
	}
	if !near {
		return false
	}
	for _, p := range placed {
		if g.grid.Distance(g.parse(p), id) < 5 {
			return false
		}
	}
	return true
}

// endOfPlayerTurnVP is the VP adjustment of the Finishing Phase (27.4,
// 27.5, 27.6) and the capture of primary objectives (26.1.1).
func (g *game) endOfPlayerTurnVP() {
	p := g.Phasing
	sabac := g.parse("21.10")
	if g.controls(sabac, p) {
		g.addVP(p, 1, "27.4", "it controls Sabac (21.10) at the end of its Player Turn")
	}
	if p == sb {
		fs := g.byID["FsAR.6"]
		if fs == nil || !fs.onMap() || g.grid.Distance(fs.pos, g.parse("30.09")) != 1 {
			g.addVP(sb, 1, "27.5", "FsAR.6 is not adjacent to Beograd at the end of the Serbian Player Turn")
		}
		if len(g.standing(seatSerb, "sirmien")) > 0 && !g.done("27.6") {
			n := 0
			for _, h := range []string{"23.08", "25.09", "28.09"} {
				if g.controls(g.parse(h), sb) {
					n++
				}
			}
			g.Done = append(g.Done, "27.6")
			delete(g.Standing, seatSerb+":sirmien")
			g.addVP(sb, 5*n, "27.6", fmt.Sprintf("the Serbian claim for Sirmien: %d of 23.08, 25.09, 28.09 controlled", n))
			if n == 0 {
				g.ev("27.6", "The Serbian Sirmien claim is made with no location controlled: no VPs, and it is spent.")
			}
		}
	}
	if p == ah {
		for _, a := range g.Armies {
			if a.Plan != "active" {
				continue
			}
			prim := g.parse(planPrimary[a.ID])
			captured := false
			for _, u := range g.sideAt(prim, ah) {
				if u.c.Kind == kInfantry && (u.c.Size == "XX" || u.c.Size == "X") {
					captured = true
				}
			}
			if captured && g.controls(prim, ah) {
				a.Plan, a.Achieved = "achieved", g.GT
				g.ev("26.1.1", "%s captures its primary objective %s: its Strategic Plan is achieved.", a.ID, g.placeName(prim))
			}
		}
	}
}

// chart is the Inter-Phase chart: A-H REPLs, Serbian REPLs, IP rights for
// the 1st to 12th Inter-Phase (4.3, 16.6, 14.3.4).
var chart = [][3]int{
	{5, 5, 0}, {4, 4, 2}, {4, 3, 2}, {4, 2, 3}, {3, 2, 3}, {3, 2, 4}, {3, 1, 4}, {3, 1, 4}, {2, 1, 4}, {2, 1, 4}, {0, 2, 4}, {0, 2, 4},
}

// interPhase is the Inter-Phase (4.3): the Replacement Segment (16.6,
// 16.6.3, 24.1, 23.2.2) and the Administrative Segment (14.3.4, 27.2).
func (g *game) interPhase(seatLines map[string][]string) {
	g.Inter++
	k := g.Inter
	row := chart[min(k, len(chart))-1]
	g.ev("4.3", "Inter-Phase %d.", k)
	g.REPL["AH"] += row[0]
	g.REPL["Serbia"] += row[1]
	g.ev("16.6", "REPLs received: A-H %d, Serbia %d (stored: A-H %d, Serbia %d).", row[0], row[1], g.REPL["AH"], g.REPL["Serbia"])
	for _, side := range []side{sb, ah} {
		g.incorporate(side, "AH")
		g.incorporate(side, "Serbia")
	}
	g.marschReturns()
	// 24.1: Montenegrin REPLs from the 2nd Inter-Phase
	if roll, _, n, rolled := montenegrinREPLs(g.r, k); rolled {
		g.ev("24.1", "Montenegrin REPLs: the roll %s gives %d.", roll, n)
		g.montenegrinREPLs(n)
	}
	// 23.2.2: Allied Assistance when the Serbs have no Shells
	if g.Shells == 0 && !g.Allied {
		roll, _, ok := alliedAssistance(g.r, g.AlliedNo, true)
		if ok {
			g.Allied = true
			g.ev("23.2.2", "Allied Assistance: the roll %s: the Allies send shells, 4 a GT from now on.", roll)
		} else {
			g.AlliedNo++
			g.ev("23.2.2", "Allied Assistance: the roll %s: no help this time (+%d next Inter-Phase).", roll, g.AlliedNo)
		}
	}
	// Administrative Segment
	g.IPRights = [2]int{row[2], row[2]}
	g.ev("14.3.4", "IP rights for the next three GTs: %d for each side.", row[2])
	if k >= 2 {
		g.furthestAdvance()
	}
}

// incorporate places a nation's REPLs (16.6.2): one a unit, on infantry
// units with SRs, all that can be placed; the owner's repl order first,
// then the most reduced; A-H cavalry never (8.1).
func (g *game) incorporate(side side, nation string) {
	if (side == ah) != (nation == "AH") {
		return
	}
	prio := g.standing(side.Seat(), "repl")
	var order []string
	for _, l := range prio {
		order = append(order, strings.Fields(l)...)
	}
	var cands []*unit
	for _, u := range g.units(side) {
		if u.c.Nation == nation && u.c.InfantryType() && u.SR > 0 && u.c.Kind != kMarsch {
			cands = append(cands, u)
		}
	}
	slices.SortStableFunc(cands, func(a, b *unit) int {
		ia, ib := slices.IndexFunc(order, func(s string) bool { return strings.EqualFold(s, a.ID) }), slices.IndexFunc(order, func(s string) bool { return strings.EqualFold(s, b.ID) })
		if ia < 0 {
			ia = 999
		}
		if ib < 0 {
			ib = 999
		}
		if ia != ib {
			return ia - ib
		}
		if a.SR != b.SR {
			return b.SR - a.SR
		}
		return b.c.DEQuarters() - a.c.DEQuarters()
	})
	var done []string
	for _, u := range cands {
		if g.REPL[nation] <= 0 {
			break
		}
		u.SR--
		g.REPL[nation]--
		done = append(done, u.ID)
	}
	if len(done) > 0 {
		g.evFor(side, "16.6.2", "REPLs incorporated: %s (%d stored).", strings.Join(done, ", "), g.REPL[nation])
		g.ev("16.6.2", "%s incorporates %d REPL%s.", side, len(done), plural(len(done), "", "s"))
	}
}

// marschReturns brings eliminated A-H Marsch units back with the REPLs
// left (16.6.3): 2 REPLs return one at full strength, 1 on its reduced
// side; on the depot the A-H player names, else the first.
func (g *game) marschReturns() {
	depotID := ""
	if l := g.standing(seatAH, "marsch-depot"); len(l) > 0 {
		depotID = l[0]
	}
	var depot *unit
	for _, u := range g.units(ah) {
		if u.c.Kind == kDepot && (depot == nil || strings.EqualFold(u.ID, depotID)) {
			depot = u
		}
	}
	for _, u := range g.Units {
		if !u.Gone || !u.c.Marsch || g.REPL["AH"] <= 0 || depot == nil {
			continue
		}
		cost := min(2, g.REPL["AH"], u.c.MaxSR()+1)
		g.REPL["AH"] -= cost
		u.Gone, u.Out = false, false
		u.SR = u.c.MaxSR() + 1 - cost
		g.place(u, depot.pos)
		u.Army = depot.Army
		g.ev("16.6.3", "An eliminated A-H Marsch unit returns on a depot in %s for %d REPL%s.", depot.Hex, cost, plural(cost, "", "s"))
	}
}

// montenegrinREPLs removes the Pljevlja unit's SRs first, then creates
// Montenegrin assets in 16.29, 22.29 or 30.29, one REPL each (24.1).
func (g *game) montenegrinREPLs(n int) {
	pl := g.byID["Pljevlja"]
	for n > 0 && pl != nil && !pl.Gone && pl.SR > 0 {
		pl.SR--
		n--
		g.evFor(sb, "24.1", "A Montenegrin REPL removes an SR from the Pljevlja unit.")
	}
	hexes := []string{"22.29", "16.29", "30.29"}
	if l := g.standing(seatSerb, "montenegro"); len(l) > 0 {
		hexes = append([]string{l[0]}, hexes...)
	}
	for n > 0 {
		var spare *unit
		for _, u := range g.Units {
			if u.c.Nation == "Montenegro" && u.Out && !u.Gone && !u.c.Formation && u.ID != "Pljevlja" {
				spare = u
				break
			}
		}
		if spare == nil {
			break
		}
		placed := false
		for _, h := range hexes {
			id := g.parse(h)
			if !g.enemyIn(id, sb) {
				spare.Out = false
				spare.Army = "Serbia"
				g.place(spare, id)
				// the A-H player sees a counter put on the map, not
				// which: only the top unit of a stack is his to see
				// (3.1.5, 3.1.6)
				g.evFor(sb, "24.1", "A Montenegrin asset unit, %s, is created in %s.", spare.ID, h)
				g.evCount(ah, "24.1", h, func(n int) string {
					if n == 1 {
						return fmt.Sprintf("A Montenegrin asset unit is created in %s.", h)
					}
					return fmt.Sprintf("%d Montenegrin asset units are created in %s.", n, h)
				})
				placed = true
				break
			}
		}
		if !placed {
			break
		}
		n--
	}
}

// furthestAdvance awards the A-H furthest advance (27.2): the column less
// 20 of the best hex an A-H Infantry Formation holds east of column 20,
// south of the Sava/Donau and north of row 23.
func (g *game) furthestAdvance() {
	best, where := 0, ""
	for _, u := range g.units(ah) {
		if !u.c.Formation || !u.c.InfantryType() {
			continue
		}
		for _, h := range u.hexes() {
			if h.Col > 20 && h.Row < 23 && g.southOfRivers(h) && g.area(h) != "Bosnia" {
				if v := h.Col - 20; v > best {
					best, where = v, g.hex(h)
				}
			}
		}
	}
	if best == 0 {
		g.ev("27.2", "A-H furthest advance: no A-H Infantry Formation east of column 20 in Serbia: 0 VP.")
		return
	}
	g.addVP(ah, best, "27.2", fmt.Sprintf("furthest advance to %s", where))
}

// victory ends the game after the last game turn with the scenario's
// conditions (27).
func (g *game) victory() {
	su := g.sc.Setup
	switch {
	case g.VP >= su.VictoryAH:
		g.end(seatAH, fmt.Sprintf("GT %d was the last; the VP marker stands at %s, A-H wins with %+d or more", g.GT, vpText(g.VP), su.VictoryAH))
	case g.VP <= su.VictorySerb:
		g.end(seatSerb, fmt.Sprintf("GT %d was the last; the VP marker stands at %s, Serbia wins at %+d or less", g.GT, vpText(g.VP), su.VictorySerb))
	default:
		g.end("", fmt.Sprintf("GT %d was the last; the VP marker stands at %s: a draw (A-H needs %+d, Serbia %+d)", g.GT, vpText(g.VP), su.VictoryAH, su.VictorySerb))
	}
}

func ratQ(q int) *big.Rat { return big.NewRat(int64(q), 4) }
