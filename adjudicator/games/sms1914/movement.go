package sms1914

// This file holds the movement phases (7): MP costs with terrain, hexside
// and contour costs, roadways, the Sava and Donau (7.1), EZOCs (7.1.6),
// Forced March (7.2), Prepared Attacks (7.3) and their pins, Repulse
// (7.4), tasks (7.5, 7.7, 7.8, 14.3), cavalry and corps train limits
// (7.9), depots on the railroad (15.6.3), squadrons (25.1) and the
// Montenegrin boxes (24.2); and what a move sets off among the enemy:
// cavalry reaction (8.2), fort abandonment (8.5.3), corps train retreat and
// depot displacement (15.6.2), artillery caught alone (8.8.1), demoralized
// retreat (6.4), activation (1.1), Kalinovik (25.4) and geographic VPs
// (27.3, 27.7).

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// phaseMove is one movement phase being run.
type phaseMove struct {
	side      side
	counter   bool
	allowance int
	spent     map[*unit]int
	fm        map[*unit]int
	start     map[*unit]board.ID
	started   map[*unit]bool // moved or acted this phase
	ferry     map[board.Pair]bool
	pins      map[board.ID]int // Forces that may not leave a hex (7.3.3)
	left      map[board.ID]int // Forces that left it
	trail     map[*unit][]board.ID
	pontoon   map[board.Pair]bool // pontoons whose benefit a Force used
	noRepulse map[*unit]bool      // a failed Repulse: no more movement (7.4.5)
	// lastStep is each unit's last hex entered this phase: where it came
	// from and what that hex cost (19.1.1: into two hexes at once)
	lastStep map[*unit]stepRecord
}

type stepRecord struct {
	from board.ID
	cost int
}

func (g *game) newPhaseMove(side side, counter bool) *phaseMove {
	m := &phaseMove{side: side, counter: counter, allowance: 9, spent: map[*unit]int{}, fm: map[*unit]int{},
		start: map[*unit]board.ID{}, started: map[*unit]bool{}, ferry: map[board.Pair]bool{}, pins: map[board.ID]int{},
		left: map[board.ID]int{}, trail: map[*unit][]board.ID{}, pontoon: map[board.Pair]bool{}, noRepulse: map[*unit]bool{}, lastStep: map[*unit]stepRecord{}}
	if counter {
		m.allowance = 5
	}
	for _, u := range g.units(side) {
		m.start[u] = u.pos
		u.Moved = false
	}
	if counter {
		// 7.3.3: each enemy Force with a PA at an adjacent hex pins one Force there
		for _, e := range g.units(side.Enemy()) {
			if e.PA == "" {
				continue
			}
			t := g.parse(e.PA)
			if g.grid.Adjacent(e.pos, t) && g.friendIn(t, side) {
				f := g.forceOf(e)
				if f.Lead() == e {
					m.pins[t]++
				}
			}
		}
	}
	return m
}

// fmLimit is the most Forced March MPs a Force may gain (7.2.1, 7.2.2a):
// 3 for infantry, 7 for cavalry (3 with an assigned infantry asset); none
// for artillery or supply units in it (7.2).
func fmLimit(units []*unit) int {
	limit := 3
	cav := false
	for _, u := range units {
		switch {
		case u.c.Kind == kArtillery, u.c.Supply(), u.c.Kind == kSquadron, u.c.Kind == kFort:
			return 0
		case u.c.Kind == kCavalry:
			cav = true
		}
	}
	if cav {
		limit = 7
		for _, u := range units {
			if u.c.InfantryType() {
				limit = 3
			}
		}
	}
	return limit
}

// stepInfo is the MP cost for units of side to move from a into b, or why
// they may not (7.1): the hex's TEC cost (a roadway's instead along one,
// 7.1.7), the hexside's (a bridge's or ferry's instead, 7.1.5), +1 a
// contour going up (7.1.3a), +1 for A-H into a Komitadji hex (23.1.1), and
// the EZOC costs (7.1.6, 7.1.6a). crossing is set for an unbridged Sava
// crossing (a River Crossing marker, 7.1.4b); useBridge names a pontoon or
// ferry whose one-Force benefit the move takes.
type stepInfo struct {
	cost      int
	crossing  bool
	pontoon   board.Pair
	ferry     board.Pair
	usesPont  bool
	usesFerry bool
}

func (g *game) stepCost(m *phaseMove, units []*unit, a, b board.ID, ignoreEZOC bool) (stepInfo, error) {
	var si stepInfo
	side := units[0].c.Side
	if !g.playable(b) {
		return si, fmt.Errorf("%s is not in the playing area", g.hex(b))
	}
	if !g.grid.Adjacent(a, b) {
		return si, fmt.Errorf("%s is not next to %s", g.hex(b), g.hex(a))
	}
	if g.terrain(b) == "impassable" {
		return si, fmt.Errorf("%s is an impassable mountain hex", g.hex(b))
	}
	if g.enemyIn(b, side) {
		return si, fmt.Errorf("enemy units hold %s (7.1.2)", g.hex(b))
	}
	if h := g.roadOnly(units, a, b); h != (board.ID{}) {
		return si, fmt.Errorf("cavalry and corps trains enter or leave %s (%s) only along a roadway (7.9)", g.hex(h), strings.ReplaceAll(g.terrain(h), "_", " "))
	}
	road := g.road(a, b)
	tec := g.sc.TEC
	if road {
		si.cost = tec.Roadway
	} else {
		si.cost = tec.EntryMP(g.terrain(b), g.GT)
	}
	p := board.MakePair(a, b)
	f := g.feature(a, b)
	switch {
	case f == sideImpass:
		return si, fmt.Errorf("%s/%s is an impassable mountain hexside", g.hex(a), g.hex(b))
	case isDonau(f):
		if side == sb {
			return si, fmt.Errorf("the Serbs never cross the Donau (7.1.4a)")
		}
		switch {
		case g.sc.bridge[p]:
			si.cost += tec.Bridge
		case g.pontoonAt(p) != nil && (m == nil || !m.pontoon[p]):
			si.cost += tec.Bridge
			si.pontoon, si.usesPont = p, true
		case g.ferry(a, b) && (m == nil || !m.ferry[p]):
			si.cost += tec.Ferry
			si.ferry, si.usesFerry = p, true
		default:
			return si, fmt.Errorf("the Donau at %s/%s is crossed only at a bridge, a ferry (one Force a phase) or a pontoon (7.1.4a, 7.1.5a)", g.hex(a), g.hex(b))
		}
	case isSava(f):
		switch {
		case g.sc.bridge[p]:
			si.cost += tec.Bridge
		case g.pontoonAt(p) != nil && (m == nil || !m.pontoon[p]):
			si.cost += tec.Bridge
			si.pontoon, si.usesPont = p, true
		default:
			if m != nil {
				for _, u := range units {
					if s := m.start[u]; s != a && s != b {
						return si, fmt.Errorf("%s did not begin the phase next to the Sava hexside %s/%s: without a bridge or pontoon it cannot cross (7.1.4b)", u.ID, g.hex(a), g.hex(b))
					}
				}
			}
			si.cost += tec.Hexside[f].MP
			si.crossing = true
		}
	case f != "":
		si.cost += tec.Hexside[f].MP
	}
	si.cost += g.contours(a, b)
	if side == ah && g.komitadjiAt(b) && !g.friendIn(b, sb) {
		si.cost++
	}
	if !ignoreEZOC {
		from, to := g.inEZOC(a, side), g.inEZOC(b, side)
		switch {
		case from && to:
			if g.formationIn(b, side) {
				si.cost += 4
			} else {
				si.cost += 6
			}
		case to:
			si.cost += 2
		case from:
			si.cost++
		}
	}
	return si, nil
}

func (g *game) formationIn(id board.ID, side side) bool {
	for _, u := range g.sideAt(id, side) {
		if u.c.Formation {
			return true
		}
	}
	return false
}

// activation is one Force's actions in a movement phase: a move (with
// alternatives), then a PA, a Repulse or a task, in order.
type activation struct {
	units []*unit
	lines []string
}

// movementPhase runs a side's Movement (counter false) or Counter Movement
// Phase with its order lines.
func (g *game) movementPhase(side side, counter bool, lines []string) {
	g.assign()
	m := g.newPhaseMove(side, counter)
	name := "Movement Phase"
	if counter {
		name = "Counter Movement Phase"
	}
	g.ev("4.2.5", "%s %s (%d MPs a unit).", side, name, m.allowance)
	if !counter {
		for _, l := range lines {
			if f := strings.Fields(l); f[0] == "split" {
				g.reverseCombo(side, f[1])
			}
		}
		// 24.2.2: a Montenegrin Formation off the map recovers a CE level for a whole Movement Phase stationary
		for _, u := range g.Units {
			if u.Box != "" && !u.Out && !u.Gone && u.c.Side == side {
				u.Stationary = true
			}
		}
	}
	g.carryTasks(m)
	g.carryReactions(m)
	// group the lines into activations
	var acts []*activation
	for _, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "move", "pa", "repulse", "recover", "ip", "marsch", "exit", "enter", "box", "twohex", "consolidate", "wheel":
		default:
			continue
		}
		units := g.forceUnits(f[1])
		if len(units) == 0 {
			continue
		}
		if n := len(acts); n > 0 && acts[n-1].units[0] == units[0] {
			acts[n-1].lines = append(acts[n-1].lines, l)
			continue
		}
		acts = append(acts, &activation{units: units, lines: []string{l}})
	}
	for _, a := range acts {
		g.activate(m, a)
	}
	g.endMovementPhase(m, lines)
}

// forceUnits reads "A+B+C" into units.
func (g *game) forceUnits(spec string) []*unit {
	var out []*unit
	for _, id := range strings.Split(spec, "+") {
		if u := g.unitByID(id); u != nil {
			out = append(out, u)
		}
	}
	return out
}

func (g *game) unitByID(id string) *unit {
	if u := g.byID[id]; u != nil {
		return u
	}
	for _, u := range g.Units {
		if strings.EqualFold(u.ID, id) {
			return u
		}
	}
	return nil
}

// carryTasks spends the MPs still owed to tasks begun last phase (7.8.2).
func (g *game) carryTasks(m *phaseMove) {
	for _, u := range g.units(m.side) {
		if u.Task == "" {
			continue
		}
		need := taskMP(u.Task) - u.TaskMP
		spend := min(need, m.allowance)
		m.spent[u] += spend
		u.TaskMP += spend
		if u.TaskMP >= taskMP(u.Task) {
			// a finished task leaves the unit free to spend its remaining MPs (7.2.2 example)
			g.finishTask(m, u)
		} else {
			m.started[u] = true
			g.evFor(m.side, "7.8.2", "%s spends %d MPs on its %s task (%d of %d).", u.ID, spend, taskName(u.Task), u.TaskMP, taskMP(u.Task))
		}
	}
}

func taskMP(task string) int {
	if task == "ip" {
		return 13
	}
	return 9
}

func taskName(task string) string {
	switch task {
	case "ip":
		return "IP construction"
	case "marsch":
		return "Marsch incorporation"
	}
	return "CE Recovery"
}

// carryReactions spends a cavalry unit's Reaction MPs first (8.2.4a): if
// they exceed what the phase gives with a Forced March, it stays put,
// makes the Forced March EC and carries the excess.
func (g *game) carryReactions(m *phaseMove) {
	for _, u := range g.units(m.side) {
		if u.React == 0 || u.c.Kind != kCavalry {
			continue
		}
		units := []*unit{u}
		limit := fmLimit(units)
		owed := u.React
		u.React = 0
		switch {
		case owed > m.allowance+limit:
			m.spent[u] = m.allowance + limit
			m.fm[u] = limit
			u.React = owed - m.allowance - limit
			m.started[u] = true
			g.evFor(m.side, "8.2.4a", "%s owes %d Reaction MPs: it stays put, spends %d with a Forced March and carries %d.", u.ID, owed, m.allowance+limit, u.React)
			g.forcedMarchEC(g.forceOf(u), limit)
		case owed > m.allowance:
			m.spent[u] = owed
			m.fm[u] = owed - m.allowance
			m.started[u] = true
			g.evFor(m.side, "8.2.4a", "%s spends its %d Reaction MPs first, %d of them by Forced March.", u.ID, owed, owed-m.allowance)
			g.forcedMarchEC(g.forceOf(u), owed-m.allowance)
		default:
			m.spent[u] = owed
			g.evFor(m.side, "8.2.4a", "%s spends its %d Reaction MPs first.", u.ID, owed)
		}
	}
}

// activate runs one Force's activation.
func (g *game) activate(m *phaseMove, a *activation) {
	units := a.units
	lead := units[0]
	if why := g.canActivate(m, units); why != "" {
		g.evFor(m.side, "7.1.2", "%s cannot act: %s.", strings.Join(unitIDs(units), "+"), why)
		return
	}
	hex := lead.pos
	// 7.3.3: a pinned Force may not leave its hex
	for _, u := range units {
		m.started[u] = true
	}
	var fmUsed int
	stopped, paPlaced := false, false
	for _, l := range a.lines {
		f := strings.Fields(l)
		if stopped && f[0] == "move" {
			continue
		}
		if paPlaced {
			g.evFor(m.side, "7.3", "%s placed a PA: it spends no more MPs this phase (%s is not carried out).", lead.ID, f[0])
			continue
		}
		switch f[0] {
		case "move":
			if m.noRepulse[lead] {
				g.evFor(m.side, "7.4.5", "%s moves no further after its failed Repulse.", lead.ID)
				stopped = true
				continue
			}
			n, stop := g.moveForce(m, units, l)
			fmUsed += n
			stopped = stop
		case "pa":
			paPlaced = g.placePA(m, units, f[2])
		case "repulse":
			g.repulseOrder(m, units, f)
		case "recover", "ip", "marsch":
			g.startTask(m, units, f)
		case "exit", "enter", "box":
			g.montenegrinMove(m, lead, f)
		case "twohex", "consolidate", "wheel":
			g.twoHexMove(m, lead, f)
		}
		if lead.Gone {
			return
		}
	}
	for _, u := range units {
		fmUsed = max(fmUsed, m.fm[u])
	}
	if fmUsed > 0 && lead.onMap() {
		g.forcedMarchEC(g.forceOf(lead), fmUsed)
	}
	g.planCheck(m, units, hex)
}

// canActivate says why a Force may not act ("" if it may).
func (g *game) canActivate(m *phaseMove, units []*unit) string {
	formations, assets := 0, 0
	for _, u := range units {
		switch {
		case !u.onMap() && u.Box == "" && u.Off == "":
			return u.ID + " is not on the map"
		case u.c.Side != m.side:
			return u.ID + " is not yours"
		case u.Inactive:
			return u.ID + " is Inactive (1.1)"
		case m.started[u] && u.Task == "":
			return u.ID + " already acted this phase (7.1.2: one Force moves at a time, and finishes before another)"
		case u.c.Kind == kFort && !u.Flipped:
			return "forts never move (8.5.1)"
		case u.Box == "" && u.pos != units[0].pos:
			return "the units are not stacked together"
		}
		if u.c.Formation {
			formations++
		} else {
			assets++
		}
	}
	if formations > 1 || assets > 2 && formations == 1 || assets > 2 {
		return "a Force is at most one Formation with two assets (1.1)"
	}
	if len(units) > 1 {
		for _, u := range units {
			if u.c.Supply() || u.c.Kind == kSquadron {
				return u.ID + " moves alone (15.6.3, 25.1)"
			}
		}
	}
	if m.counter && m.pins[units[0].pos] > 0 {
		forces := len(g.forcesAt(units[0].pos, m.side))
		if forces-m.left[units[0].pos] <= m.pins[units[0].pos] && units[0].c.Combat() {
			// it may still act in place (Repulse, IP, Marsch), not leave
			return ""
		}
	}
	return ""
}

// pinned reports whether the Force may not leave its hex (7.3.3).
func (g *game) pinned(m *phaseMove, units []*unit) bool {
	if !m.counter || m.pins[m.start[units[0]]] == 0 || units[0].pos != m.start[units[0]] {
		return false
	}
	h := units[0].pos
	forces := len(g.forcesAt(h, m.side))
	return forces-m.left[h] <= m.pins[h]
}

// moveForce moves a Force along a path with its alternatives ("move A+B H
// H H else H H"); it returns the Forced March MPs used and whether the
// Force stopped short.
func (g *game) moveForce(m *phaseMove, units []*unit, line string) (int, bool) {
	f := strings.Fields(line)
	lead := units[0]
	paths := [][]string{{}}
	fmCap := -1
	for _, t := range f[2:] {
		switch {
		case t == "else":
			paths = append(paths, nil)
		case t == "nofm":
			fmCap = 0
		case strings.HasPrefix(t, "fm="):
			fmCap, _ = strconv.Atoi(strings.TrimPrefix(t, "fm="))
		default:
			paths[len(paths)-1] = append(paths[len(paths)-1], t)
		}
	}
	if lead.c.Kind == kDepot {
		return 0, g.moveDepot(m, lead, paths[0])
	}
	if lead.c.Kind == kSquadron {
		return 0, g.moveSquadron(m, lead, paths[0])
	}
	if g.pinned(m, units) {
		g.evFor(m.side, "7.3.3", "%s is pinned by an enemy Prepared Attack: it may not leave %s.", strings.Join(unitIDs(units), "+"), lead.Hex)
		return 0, true
	}
	limit := fmLimit(units)
	if fmCap >= 0 {
		limit = min(limit, fmCap)
	}
	fmUsed := 0
	startHex := lead.pos
	stopped := false
	var entered []board.ID
	for pi, path := range paths {
		if pi > 0 {
			// an alternative runs only from the hex the Force stopped in
			if len(path) == 0 || path[0] != lead.Hex || !stopped {
				continue
			}
			path = path[1:]
			stopped = false
		}
		for _, hs := range path {
			to, err := g.grid.Parse(hs)
			if err != nil {
				stopped = true
				break
			}
			if to == lead.pos {
				continue
			}
			si, err := g.stepCost(m, units, lead.pos, to, false)
			if err != nil {
				g.evFor(m.side, "7.1", "%s stops in %s: %v.", strings.Join(unitIDs(units), "+"), lead.Hex, err)
				stopped = true
				break
			}
			// MPs: the unit with the most spent decides; Forced March MPs last
			spent := 0
			for _, u := range units {
				spent = max(spent, m.spent[u])
			}
			left := m.allowance - spent
			need := si.cost
			extra := max(0, need-max(left, 0))
			if extra > limit-fmUsed {
				g.evFor(m.side, "7.1.1", "%s stops in %s: %s costs %d MPs and it has %d left (with %d Forced March MPs).", strings.Join(unitIDs(units), "+"), lead.Hex, g.hex(to), need, max(left, 0), limit-fmUsed)
				stopped = true
				break
			}
			fmUsed += extra
			from := lead.pos
			for _, u := range units {
				m.lastStep[u] = stepRecord{from: from, cost: need}
				m.spent[u] = spent + need
				m.fm[u] = fmUsed
				u.Moved = true
				g.place(u, to)
				u.PA = ""
				if u.Task != "" {
					u.Task, u.TaskMP = "", 0
				}
			}
			if si.usesPont {
				m.pontoon[si.pontoon] = true
			}
			if si.usesFerry {
				m.ferry[si.ferry] = true
			}
			if si.crossing {
				g.riverCrossing(units)
			}
			if m.left != nil && from == startHex && len(entered) == 0 {
				m.left[startHex]++
			}
			entered = append(entered, to)
			if lead.frontFormation() {
				m.trail[lead] = append(m.trail[lead], to)
			}
			g.arrow(from, to, "move", m.side)
			g.afterStep(m, units, from, to)
			if lead.Gone || lead.pos != to {
				return fmUsed, true
			}
		}
		if !stopped {
			break
		}
	}
	if len(entered) > 0 {
		fmNote := ""
		if fmUsed > 0 {
			fmNote = fmt.Sprintf(", %d by Forced March", fmUsed)
		}
		spent := 0
		for _, u := range units {
			spent = max(spent, m.spent[u])
		}
		g.evFor(m.side, "7.1", "%s moves %s to %s (%d MPs spent%s).", strings.Join(unitIDs(units), "+"), g.hex(startHex), strings.Join(hexList2(g, entered), " "), spent, fmNote)
	}
	return fmUsed, stopped
}

func hexList2(g *game, ids []board.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = g.hex(id)
	}
	return out
}

func unitIDs(us []*unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// arrow records a move, attack or retreat for the map; via are the
// hexes a move went through after from, to last, when it went further
// than the next hex.
func (g *game) arrow(from, to board.ID, kind string, side side, via ...board.ID) {
	a := arrow{From: g.hex(from), To: g.hex(to), Kind: kind, Side: side}
	if len(via) > 1 && via[len(via)-1] == to {
		a.Path = append(a.Path, a.From)
		for _, h := range via {
			a.Path = append(a.Path, g.hex(h))
		}
	}
	g.Arrows = append(g.Arrows, a)
}

// riverCrossing places a River Crossing marker on the Force's largest unit
// (7.1.4b): a division's -3 Str/-2 AV, a brigade's -2/-1 (a regiment's
// -1/-1, docs/rulings.md).
func (g *game) riverCrossing(units []*unit) {
	var big *unit
	for _, u := range units {
		if u.c.Combat() && (big == nil || u.c.DEQuarters() > big.c.DEQuarters()) {
			big = u
		}
	}
	if big == nil {
		return
	}
	big.RiverX = 2
	g.ev("7.1.4b", "A Force crosses the Sava into %s without a bridge: a River Crossing marker.", big.Hex)
}

// riverCrossingPenalty is the marker's strength and AV reduction.
func riverCrossingPenalty(u *unit) (str, av int) {
	if u.RiverX == 0 {
		return 0, 0
	}
	switch u.c.Size {
	case "XX", "XXX":
		return 3, 2
	case "X":
		return 2, 1
	}
	return 1, 1
}

// afterStep is what a Force entering a hex sets off (6.4, 8.2, 8.5.3,
// 8.8.1, 15.6.2, 1.1, 21.2.2, 25.4, 27.3, 27.7, 7.8.3).
func (g *game) afterStep(m *phaseMove, movers []*unit, from, to board.ID) {
	side := movers[0].c.Side
	g.geoVP(movers, to)
	g.pontoonsOccupied(to, side)
	// Kalinovik threatened (25.4), before the fort check
	if side == sb && g.grid.Distance(to, g.parse("06.25")) <= 1 {
		g.kalinovik()
	}
	// enemy Inactive units activated, recovery markers removed (1.1, 7.8.3)
	for _, n := range g.nbrs(to) {
		for _, e := range g.sideAt(n, side.Enemy()) {
			if e.Inactive {
				e.Inactive = false
				g.evFor(e.c.Side, "1.1", "%s is activated: an enemy unit moved next to it.", e.ID)
			}
			if e.Task == "recover" {
				e.Task, e.TaskMP = "", 0
				g.evFor(e.c.Side, "7.8.3", "%s's CE Recovery MPs Expended marker is removed: an enemy unit came adjacent.", e.ID)
			}
		}
	}
	g.supplyUnitsInEZOC(side.Enemy())
	g.cavalryReaction(m, movers, from, to)
	g.supplyUnitsInEZOC(side.Enemy())
	g.zocEffects(side.Enemy())
	g.zocEffects(side)
}

// zocEffects applies to a side's units what an EZOC does the instant it
// is there: artillery alone is eliminated (8.8.1), a fort alone may be
// abandoned (8.5.3), a Demoralized Formation retreats (6.4).
func (g *game) zocEffects(side side) {
	for _, u := range g.units(side) {
		if !u.onMap() || !g.inEZOC(u.pos, side) {
			continue
		}
		switch {
		case u.c.Kind == kArtillery && !g.combatIn(u.pos, side):
			g.eliminate(u, "8.8.1", "artillery in an EZOC with no friendly Combat unit")
		case u.isFort() && !u.Checked && !g.combatIn(u.pos, side):
			g.abandonCheck(u)
		case u.c.Formation && u.CE.Demoralized():
			g.demoralizedRetreat(u)
		}
	}
}

// abandonCheck is a Fort's involuntary abandonment (8.5.3): the first
// instant an EZOC reaches it with no friendly Combat unit, 1d6 above its
// Abandonment Number abandons it: it flips to its infantry side and
// retreats three hexes. A-H "*" forts never abandon.
func (g *game) abandonCheck(u *unit) {
	u.Checked = true
	if u.c.Abandon < 0 {
		g.evFor(u.c.Side, "8.5.3", "%s is in an EZOC alone, but a * fort never abandons its post.", u.ID)
		return
	}
	d := dice.Roll(g.r, 1, 6, fmt.Sprintf("1914 SmS 8.5.3 fort abandonment check at %s", u.Hex))[0]
	if d <= u.c.Abandon {
		g.ev("8.5.3", "The fort in %s is in an EZOC alone for the first time: it rolls %d, not above its Abandonment Number %d: it stands.", g.placeName(u.pos), d, u.c.Abandon)
		return
	}
	g.ev("8.5.3", "The fort in %s is in an EZOC alone for the first time: it rolls %d, above its Abandonment Number %d: it is abandoned, flips to its infantry side and retreats 3 hexes.", g.placeName(u.pos), d, u.c.Abandon)
	u.Flipped = true
	g.retreatUnits([]*unit{u}, 3, u.pos, false, "8.5.3")
}

// supplyUnitsInEZOC: a Corps Train in an EZOC with no friendly Combat unit
// retreats three hexes, flipped to Extended, through no EZOC, or flies to
// its army's depot (15.6.2a); a Depot is displaced (15.6.2b).
func (g *game) supplyUnitsInEZOC(side side) {
	for _, u := range g.units(side) {
		if !u.c.Supply() || !g.inEZOC(u.pos, side) || g.combatIn(u.pos, side) {
			continue
		}
		if u.c.Kind == kDepot {
			g.displaceDepot(u, "an EZOC reached it with no friendly Combat unit (15.6.2b)")
			continue
		}
		from := u.pos
		path := g.safePath(u, 3)
		if len(path) == 3 {
			for _, h := range path {
				g.place(u, h)
			}
			u.Extended = true
			g.arrow(from, u.pos, "retreat", side, path...)
			g.evFor(side, "15.6.2a", "%s retreats from %s to %s and flips to Extended Mode.", u.ID, g.hex(from), u.Hex)
			g.ev("15.6.2a", "A supply unit retreats from %s.", g.hex(from))
			continue
		}
		for _, d := range g.units(side) {
			if d.c.Kind == kDepot && (side == sb || d.Army == u.Army) {
				g.place(u, d.pos)
				u.Extended = true
				g.evFor(side, "15.6.2a", "%s cannot retreat 3 hexes from %s: it flies to %s's depot in %s.", u.ID, g.hex(from), u.Army, d.Hex)
				g.ev("15.6.2a", "A supply unit leaves %s.", g.hex(from))
				break
			}
		}
	}
}

// safePath is a path of n hexes away from the enemy through no EZOC
// (friendly units negating), nil if there is none: for Corps Train
// retreats (15.6.2a) and Demoralized retreats (6.4).
func (g *game) safePath(u *unit, n int) []board.ID {
	side := u.c.Side
	var best []board.ID
	bestScore := -1
	var walk func(at board.ID, path []board.ID, seen map[board.ID]bool)
	walk = func(at board.ID, path []board.ID, seen map[board.ID]bool) {
		if len(path) == n {
			score := g.enemyDistance(at, side)*10 + g.grid.Distance(u.pos, at)
			if score > bestScore {
				best, bestScore = slices.Clone(path), score
			}
			return
		}
		for _, x := range g.nbrs(at) {
			if seen[x] || g.enemyIn(x, side) || g.terrain(x) == "impassable" {
				continue
			}
			f := g.feature(at, x)
			if f == sideImpass || isDonau(f) && !g.bridged(at, x) {
				continue
			}
			if isDonau(f) && side == sb {
				continue
			}
			if g.inEZOC(x, side) && !g.friendIn(x, side) {
				continue
			}
			seen[x] = true
			walk(x, append(path, x), seen)
			delete(seen, x)
		}
	}
	walk(u.pos, nil, map[board.ID]bool{u.pos: true})
	return best
}

// demoralizedRetreat: a Demoralized Formation in an EZOC (friendly units
// do not negate) retreats three hexes at once, through no EZOC (friendly
// units negate), and takes an SR; surrounded, it is eliminated; an A-H
// Formation need not go beyond 06.20 Vogosca (6.4).
func (g *game) demoralizedRetreat(u *unit) {
	f := g.forceOf(u)
	from := u.pos
	if u.c.Side == ah && from == g.parse("06.20") {
		return
	}
	path := g.safePath(u, 3)
	if u.c.Side == ah {
		if i := slices.Index(path, g.parse("06.20")); i >= 0 {
			path = path[:i+1]
		}
	}
	if len(path) == 0 {
		for _, x := range f.Units() {
			g.eliminate(x, "6.4", "a Demoralized Formation surrounded by EZOCs")
		}
		return
	}
	for _, x := range f.Units() {
		if x.isFort() {
			continue
		}
		g.place(x, path[len(path)-1])
		x.PA, x.Task, x.TaskMP = "", "", 0
	}
	g.arrow(from, u.pos, "retreat", u.c.Side, path...)
	g.ev("6.4", "A Demoralized Formation in an EZOC at %s retreats to %s and takes an SR.", g.hex(from), u.Hex)
	g.takeSR([]*force{f}, g.lossPrefs(u.c.Side), "6.4")
}

// kalinovik places the A-H 3 Gb in Kalinovik the first time a Serbian
// unit comes adjacent (25.4).
func (g *game) kalinovik() {
	if g.done("25.4") {
		return
	}
	g.Done = append(g.Done, "25.4")
	u := g.byID["3Gb"]
	k := g.parse("06.25")
	if u == nil || u.Gone || g.enemyIn(k, ah) {
		return
	}
	u.Out = false
	g.place(u, k)
	g.ev("25.4", "Kalinovik is threatened: the A-H 3 Gb is placed in 06.25.")
}

// geoVP awards the one-time geographic VPs (27.3, 27.7).
func (g *game) geoVP(movers []*unit, to board.ID) {
	side := movers[0].c.Side
	if side == ah {
		for _, o := range []struct {
			hex  string
			name string
			vp   int
		}{{"30.09", "Beograd", 10}, {"23.16", "Valjevo", 5}, {"21.27", "Nova Varos", 5}, {"34.20", "Kragujevac", 10}} {
			if g.hex(to) == o.hex && !g.done("27.3 "+o.hex) {
				g.Done = append(g.Done, "27.3 "+o.hex)
				g.addVP(ah, o.vp, "27.3", fmt.Sprintf("an A-H unit enters %s (%s)", o.name, o.hex))
			}
		}
		if g.hex(to) == "30.09" && g.French {
			g.French = false
			g.ev("25.1.4", "An A-H combat unit enters Beograd: the French Naval Artillery marker is removed from the game.")
		}
		return
	}
	if g.hex(to) == "16.22" && !g.done("27.7 16.22") {
		g.Done = append(g.Done, "27.7 16.22")
		g.addVP(sb, 5, "27.7", "a Serbian unit enters Visegrad (16.22)")
	}
	for _, o := range []struct {
		hex  string
		name string
		vp   int
	}{{"07.21", "Sarajevo", 15}, {"06.25", "Kalinovik", 10}} {
		if g.grid.Distance(to, g.parse(o.hex)) == 1 && !g.done("27.7 "+o.hex) {
			g.Done = append(g.Done, "27.7 "+o.hex)
			g.addVP(sb, o.vp, "27.7", fmt.Sprintf("a Serbian unit moves adjacent to %s (%s)", o.name, o.hex))
		}
	}
}

// addVP moves the VP marker for a side (27).
func (g *game) addVP(side side, n int, rule, why string) {
	if n == 0 {
		return
	}
	if side == ah {
		g.VP += n
	} else {
		g.VP -= n
	}
	sign := "+"
	if n < 0 {
		sign = ""
	}
	g.ev(rule, "%s %s%d VP: %s (VP marker %s).", side, sign, n, why, vpText(g.VP))
}

func vpText(vp int) string {
	switch {
	case vp > 0:
		return fmt.Sprintf("A-H +%d", vp)
	case vp < 0:
		return fmt.Sprintf("Serbia +%d", -vp)
	}
	return "0"
}

// pontoonsOccupied removes pontoons the instant an enemy unit occupies a
// hex beside their hexside (21.2.2).
func (g *game) pontoonsOccupied(to board.ID, mover side) {
	defer func() { g.ver++ }()
	var keep []pontoon
	for _, p := range g.Pontoons {
		pp, _ := g.grid.ParsePair(p.Sides)
		if p.Side != mover && (pp.A == to || pp.B == to) {
			g.ev("21.2.2", "The %s pontoon at %s is removed: an enemy unit occupies %s.", p.Side, p.Sides, g.hex(to))
			g.PontoonN[p.Side]++
			continue
		}
		keep = append(keep, p)
	}
	g.Pontoons = keep
}

// forcedMarchEC is the Forced March EC at the end of a Force's move
// (7.2.3): +1 a Forced March MP; failure reads the Forced March Results
// Table by the margin and the unit type (7.2.3a).
func (g *game) forcedMarchEC(f *force, fm int) {
	lead := f.Lead()
	if lead == nil || fm <= 0 {
		return
	}
	e := rollEC(g.r, f.CEL(), fm, fmt.Sprintf("7.2.3 Forced March check of a Force in %s (+%d)", lead.Hex, fm))
	if e.Passed {
		g.evFor(lead.c.Side, "7.2.3", "%s's Forced March EC: %d%+d = %d against CEL %d: passed.", f, e.Dice, fm, e.Total, f.CEL())
		return
	}
	kind := "infantry"
	if lead.c.Kind == kCavalry {
		kind = "cavalry"
	}
	res, _ := g.sc.FMRT.Lookup(e.FailedBy, kind)
	g.evFor(lead.c.Side, "7.2.3a", "%s's Forced March EC: %d%+d = %d against CEL %d: failed by %d: %s.", f, e.Dice, fm, e.Total, f.CEL(), e.FailedBy, res.Printed)
	if res.CELReductions > 0 {
		g.reduceCE(f, res.CELReductions, "7.2.3a", "a failed Forced March")
	}
	for i := 0; i < res.SRs; i++ {
		g.takeSR([]*force{f}, g.lossPrefs(lead.c.Side), "7.2.3a")
	}
	if res.RemovePA {
		for _, u := range f.Units() {
			if u.PA != "" {
				u.PA = ""
				g.ev("7.2.3a", "A Prepared Attack marker in %s is removed after a failed Forced March.", u.Hex)
			}
		}
	}
}

// placePA places a Prepared Attack marker (7.3): infantry-type units in
// the Movement Phase, at the cost of entering the hex (roadways
// disregarded), at least 4 MPs; no more MPs after it. It reports a marker placed.
func (g *game) placePA(m *phaseMove, units []*unit, target string) bool {
	t, err := g.grid.Parse(target)
	lead := units[0]
	fail := func(format string, args ...any) {
		g.evFor(m.side, "7.3", "%s places no PA: %s.", strings.Join(unitIDs(units), "+"), fmt.Sprintf(format, args...))
	}
	if err != nil || !g.grid.Adjacent(lead.pos, t) {
		fail("%s is not next to it", target)
		return false
	}
	if why := g.paBar(units, m.counter); why != "" {
		fail("%s", why)
		return false
	}
	// 7.3.2: not when terrain would bring the attack strength below 1
	if as := g.paStrength(units, t); as.Cmp(big.NewRat(1, 1)) < 0 {
		fail("after terrain its attack strength against %s would be %s, below 1 (7.3.2)", g.hex(t), decimal(as))
		return false
	}
	cost := g.paCost(units, t)
	spent := 0
	for _, u := range units {
		spent = max(spent, m.spent[u])
	}
	limit := fmLimit(units) - m.fm[lead]
	left := m.allowance - spent
	if cost > left+limit {
		fail("it costs %d MPs and %d are left", cost, max(left, 0))
		return false
	}
	// at most 2 1/4 DE in a hex bear PAs (7.3): those already marked, the
	// Force's own units counted once
	q := g.paQuarters(lead.pos, m.side, units)
	for _, u := range units {
		q += u.quarters()
	}
	if q > 9 {
		fail("more than 2 1/4 division-equivalents in %s would bear PA markers (7.3, 3.1.2)", lead.Hex)
		return false
	}
	extra := max(0, cost-max(left, 0))
	for _, u := range units {
		m.spent[u] = m.allowance + 100 // no more MPs this phase
		m.fm[u] += extra
		if u.c.Combat() || u.c.Kind == kArtillery {
			u.PA = g.hex(t)
		}
	}
	g.ev("7.3", "A Prepared Attack marker in %s points at %s.", lead.Hex, g.hex(t))
	g.evFor(m.side, "7.3", "%s places a PA at %s for %d MPs.", strings.Join(unitIDs(units), "+"), g.hex(t), cost)
	return true
}

// paStrength is the Force's attack strength against t after terrain, with
// Ammo (7.3.2: no PA when terrain would bring it below 1).
func (g *game) paStrength(units []*unit, t board.ID) *big.Rat {
	lead := units[0]
	f := &force{Hex: lead.pos}
	for _, u := range units {
		if u.c.Formation {
			f.Formation = u
		} else if !u.isFort() {
			f.Assets = append(f.Assets, u)
		}
	}
	b := &battle{g: g, side: lead.c.Side, target: t, attackers: []*force{f}, ammo: map[*force]bool{f: true}}
	b.strengths()
	return b.attack
}

// paCost is the MPs a PA from the Force's hex at t costs (7.3): entering t
// disregarding roadways (its terrain, hexside and contours, not the EZOC
// costs, ruling 9), at least 4.
func (g *game) paCost(units []*unit, t board.ID) int {
	lead := units[0]
	si, err := g.stepCost(nil, units, lead.pos, t, true)
	cost := si.cost
	if err != nil {
		// the hex's cost as if it could be entered: its terrain, hexside and contours
		cost = g.sc.TEC.EntryMP(g.terrain(t), g.GT) + g.contours(lead.pos, t)
		if f := g.feature(lead.pos, t); f != "" && f != sideImpass {
			cost += g.sc.TEC.Hexside[f].MP
		}
	}
	if g.road(lead.pos, t) {
		cost += g.sc.TEC.EntryMP(g.terrain(t), g.GT) - g.sc.TEC.Roadway
	}
	return max(cost, 4)
}

// paQuarters is the size, in quarter division-equivalents, of the side's
// units in a hex that bear PA markers, but those of except (7.3).
func (g *game) paQuarters(h board.ID, side side, except []*unit) int {
	q := 0
	for _, u := range g.sideAt(h, side) {
		if u.PA != "" && !slices.Contains(except, u) {
			q += u.quarters()
		}
	}
	return q
}

// paBar says why a Force may not place a PA ("" if it may).
func (g *game) paBar(units []*unit, counter bool) string {
	if counter {
		return "PAs are not placed in the Counter Movement Phase (7.3)"
	}
	for _, u := range units {
		if u.c.Formation && u.CE >= statusCI {
			return u.ID + " is CI or Demoralized (6.3, 6.4, 7.3.2)"
		}
		if u.Hex2 != "" {
			return u.ID + " is a Two-Hex unit (7.3.2, 19.1.4)"
		}
	}
	if !units[0].c.InfantryType() {
		return "only infantry-type units place PAs (7.3)"
	}
	return ""
}

// startTask spends MPs on a task (7.5, 7.7, 14.3): CE Recovery and Marsch
// 9 MPs, an IP 13, stationary; Forced March MPs never pay for a task;
// unfinished, an MPs Expended marker carries it (7.8).
func (g *game) startTask(m *phaseMove, units []*unit, f []string) {
	u := units[0]
	task := f[0]
	fail := func(rule, why string) {
		g.evFor(m.side, rule, "%s does not begin %s: %s.", u.ID, taskName(task), why)
	}
	if u.Task != "" && u.Task != task && !(u.Task == "recover" && task == "marsch" || u.Task == "marsch" && task == "recover") {
		fail("7.8.1", "it is busy with another task")
		return
	}
	switch task {
	case "recover":
		if why := g.recoveryBar(m, u); why != "" {
			fail("7.5.1", why)
			return
		}
	case "ip":
		if why := g.ipBar(u); why != "" {
			fail("14.3", why)
			return
		}
	case "marsch":
		if len(f) < 4 {
			return
		}
		ma := g.unitByID(f[3])
		if ma == nil || !ma.onMap() || !ma.c.Marsch || ma.pos != u.pos || u.SR == 0 {
			fail("7.7", "it needs an SR to remove and a Marsch unit stacked with it")
			return
		}
		u.Marsch = ma.ID
	}
	left := m.allowance - m.spent[u]
	if left <= 0 {
		fail("7.8", "no MPs left (Forced March MPs never pay for tasks, 7.2.2)")
		return
	}
	need := taskMP(task) - u.TaskMP
	if task == "recover" && g.adjacentEnemy(u.pos, m.side) && left < need {
		fail("7.5.1a", "next to the enemy a CE Recovery must be finished within the phase")
		return
	}
	spend := min(need, left)
	u.Task = task
	u.TaskMP += spend
	m.spent[u] += spend
	if u.TaskMP >= taskMP(task) {
		g.finishTask(m, u)
		return
	}
	g.evFor(m.side, "7.8", "%s spends %d MPs on %s (%d of %d): an MPs Expended marker carries it.", u.ID, spend, taskName(task), u.TaskMP, taskMP(task))
}

// recoveryBar says why a Formation may not begin CE Recovery (7.5.1,
// 7.5.2, 25.3).
func (g *game) recoveryBar(m *phaseMove, u *unit) string {
	if !u.c.Formation || u.CE == statusNone {
		return "only a reduced Formation recovers CE (7.5)"
	}
	if m.counter && m.pins[u.pos] > 0 {
		return "a Force pinned by an enemy PA may not recover CE (7.3.3)"
	}
	d := g.enemyDistance(u.pos, u.c.Side)
	sarajevo := u.c.Side == ah && slices.Contains([]string{"06.20", "06.21", "07.21"}, u.Hex)
	if u.CE.Demoralized() {
		need := 5
		if sarajevo {
			need = 2
		}
		if d < need {
			return fmt.Sprintf("a Demoralized Formation must be %d or more hexes from the enemy (7.5.2, 25.3); the nearest is %d", need, d)
		}
		return ""
	}
	if sarajevo {
		return ""
	}
	need := 3
	if u.c.Side == ah && g.GT <= 9 && g.inSerbia(u.pos) {
		need++ // A-H Poor Recovery (7.5.1)
	}
	if d >= need {
		return ""
	}
	if d == need-1 && g.screened(u) {
		return ""
	}
	if g.GT >= 19 && g.GT <= 30 && d == 1 {
		for _, ip := range g.IPs {
			if ip.Hex == u.Hex && ip.Side == u.c.Side && ip.Built < g.phaseNo {
				return ""
			}
		}
	}
	return fmt.Sprintf("the enemy is %d hexes away; recovery needs %d (7.5.1)", d, need)
}

// screened: every hex between the unit and the enemy units nearest it is
// High Mountain, impassable, or held by friendly units in IPs (7.5.1).
func (g *game) screened(u *unit) bool {
	side := u.c.Side
	d := g.enemyDistance(u.pos, side)
	for _, e := range g.units(side.Enemy()) {
		if e.c.Kind == kSquadron || g.grid.Distance(u.pos, e.pos) != d {
			continue
		}
		for _, line := range [][]board.ID{g.grid.Line(u.pos, e.pos), g.grid.LineOther(u.pos, e.pos)} {
			for _, h := range board.Between(line) {
				t := g.terrain(h)
				ipHeld := false
				for _, ip := range g.IPs {
					if ip.Hex == g.hex(h) && ip.Side == side && g.combatIn(h, side) {
						ipHeld = true
					}
				}
				if t != "high_mountain" && t != "impassable" && !ipHeld {
					return false
				}
			}
		}
	}
	return true
}

// ipBar says why a unit may not begin an IP (14.3).
func (g *game) ipBar(u *unit) string {
	switch {
	case !u.c.Formation || !u.c.InfantryType():
		return "only an infantry Formation builds IPs (14.3)"
	case u.CE.Demoralized():
		return "a Demoralized unit builds no IP (14.3.3)"
	case g.mountainous(u.pos):
		return "no IPs in Mountainous terrain (14.3)"
	case g.enemyDistance(u.pos, u.c.Side) > 4 && u.TaskMP == 0:
		return "it is more than four hexes from the enemy (14.3.2)"
	case g.IPRights[u.c.Side] <= 0 && u.TaskMP == 0:
		return "no IP rights are left this period (14.3.4)"
	}
	for _, ip := range g.IPs {
		if ip.Hex == u.Hex {
			return "the hex has an IP"
		}
	}
	return ""
}

// finishTask completes a task (7.5, 7.7, 14.3).
func (g *game) finishTask(m *phaseMove, u *unit) {
	task := u.Task
	u.Task, u.TaskMP = "", 0
	switch task {
	case "recover":
		u.CE--
		if u.CE < 0 {
			u.CE = 0
		}
		g.evFor(u.c.Side, "7.5", "%s recovers a CE level: CE status %s.", u.ID, statusWord(u.CE))
	case "ip":
		g.IPRights[u.c.Side]--
		g.IPs = append(g.IPs, ip{Hex: u.Hex, Side: u.c.Side, Built: g.phaseNo})
		g.ev("14.3", "%s builds a Level 1 IP in %s.", u.c.Side, u.Hex)
	case "marsch":
		ma := g.byID[u.Marsch]
		if ma == nil || !ma.onMap() || ma.pos != u.pos {
			g.evFor(u.c.Side, "7.7", "%s's Marsch incorporation fails: the Marsch unit is gone.", u.ID)
			return
		}
		n := min(u.SR, ma.c.MaxSR()-ma.SR+1)
		for i := 0; i < n; i++ {
			u.SR--
			g.reduce(ma, "7.7")
		}
		g.evFor(u.c.Side, "7.7", "%s incorporates %d Marsch REPL%s from %s.", u.ID, n, plural(n, "", "s"), ma.ID)
		u.Marsch = ""
	}
}

// endMovementPhase: stacking (3.1.1, 3.1.3), combinations (16.3, 16.4) and
// detachments (21.1) at the end of a friendly movement phase, IPs left
// empty (14.4), River Protection (8.7), and control (3.4).
func (g *game) endMovementPhase(m *phaseMove, lines []string) {
	side := m.side
	// 24.2.2: a Montenegrin Formation that stayed in its Off-Map Box the
	// whole Movement Phase (not a Counter Movement Phase) recovers a CE level
	if !m.counter {
		for _, u := range g.Units {
			if u.Box != "" && u.Stationary && !u.Out && !u.Gone && u.c.Side == side && u.c.Formation && u.CE > statusNone {
				u.CE--
				g.evFor(side, "24.2.2", "%s stays in the %s box all the Movement Phase and recovers a CE level: CE status %s.", u.ID, u.Box, statusWord(u.CE))
			}
		}
	}
	for _, l := range lines {
		f := strings.Fields(l)
		switch f[0] {
		case "combine":
			g.combine(side, f[1])
		case "integrate":
			g.integrate(side, f[1])
		}
	}
	var elim []string
	for _, l := range lines {
		if f := strings.Fields(l); f[0] == "eliminate" {
			elim = append(elim, f[1])
		}
	}
	g.checkStacking(side, elim)
	g.removeEmptyIPs()
	g.updateControl(m.trail)
}

// checkStacking eliminates the excess over 3 1/2 division-equivalents in a
// hex at the end of a movement phase, as the owner orders or else the
// smallest units first; not where enemy PA markers at the hex keep the
// owner from fixing it (3.1.1, 3.1.3).
func (g *game) checkStacking(side side, order []string) {
	for _, id := range g.sc.hexes {
		q := g.stackQuarters(id, side)
		if q <= 14 {
			continue
		}
		paBlocked := false
		for _, e := range g.units(side.Enemy()) {
			if e.PA == g.hex(id) {
				paBlocked = true
			}
		}
		if paBlocked {
			g.evFor(side, "3.1.3", "%s is over-stacked, but enemy PA markers keep it from being fixed: nothing is eliminated.", g.hex(id))
			continue
		}
		us := g.sideAt(id, side)
		slices.SortStableFunc(us, func(a, b *unit) int {
			ia, ib := slices.Index(order, a.ID), slices.Index(order, b.ID)
			if ia < 0 {
				ia = 999
			}
			if ib < 0 {
				ib = 999
			}
			if ia != ib {
				return ia - ib
			}
			return a.quarters() - b.quarters()
		})
		for _, u := range us {
			if q <= 14 {
				break
			}
			if u.quarters() == 0 {
				continue
			}
			q -= u.quarters()
			g.eliminate(u, "3.1.3", "over-stacking at the end of a movement phase")
		}
	}
}

// removeEmptyIPs removes IPs in hexes with no friendly Combat unit (14.4).
func (g *game) removeEmptyIPs() {
	var keep []ip
	for _, ip := range g.IPs {
		if g.combatIn(g.parse(ip.Hex), ip.Side) {
			keep = append(keep, ip)
			continue
		}
		g.ev("14.4", "The %s IP in %s is removed: no friendly Combat unit holds it.", ip.Side, ip.Hex)
	}
	g.IPs = keep
}

// ipAt reports a friendly IP in the hex.
func (g *game) ipAt(id board.ID, side side) bool {
	for _, ip := range g.IPs {
		if ip.Hex == g.hex(id) && ip.Side == side {
			return true
		}
	}
	return false
}

// roadOnly reports a step that 7.9 forbids the Force: cavalry or a Corps
// Train entering or leaving Foothills, Low or High Mountain terrain other
// than along a roadway. It names the mountainous hex ("" if allowed).
func (g *game) roadOnly(units []*unit, a, b board.ID) board.ID {
	if !slices.ContainsFunc(units, func(u *unit) bool { return u.c.Kind == kCavalry || u.c.Kind == kTrain }) || g.road(a, b) {
		return board.ID{}
	}
	for _, h := range []board.ID{b, a} {
		switch g.terrain(h) {
		case "foothills", "low_mountain", "high_mountain":
			return h
		}
	}
	return board.ID{}
}

// riverClosed says why no Force of side that began the phase in start can
// ever cross the river hexside a/b this phase ("" if one may): an
// unbridged Sava hexside not next to its start (7.1.4b), a Donau hexside
// with no bridge, ferry or pontoon for A-H (7.1.4a, 7.1.5a). Nothing that
// happens during a movement phase builds a bridge.
func (g *game) riverClosed(side side, start, a, b board.ID) string {
	f := g.feature(a, b)
	switch {
	case isSava(f):
		if g.bridged(a, b) || start == a || start == b {
			return ""
		}
		return "7.1.4b"
	case isDonau(f) && side == ah:
		if g.bridged(a, b) || g.ferry(a, b) {
			return ""
		}
		return "7.1.4a"
	}
	return ""
}

// crossings lists the hexsides of a river kind a side's Force may cross
// this phase without starting next to them: bridges, built pontoons and
// (on the Donau, for A-H) ferries.
func (g *game) crossings(donau bool) []string {
	var out []string
	for p := range g.sc.bridge {
		if isDonau(g.sc.side[p]) == donau {
			out = append(out, p.Format(board.Dotted))
		}
	}
	if donau {
		for p := range g.sc.ferry {
			out = append(out, p.Format(board.Dotted)+" (ferry)")
		}
	}
	for _, pt := range g.Pontoons {
		if pt.Built {
			if p, err := g.grid.ParsePair(pt.Sides); err == nil && isDonau(g.feature(p.A, p.B)) == donau {
				out = append(out, pt.Sides+" (pontoon)")
			}
		}
	}
	slices.Sort(out)
	return out
}

// leastCost is the fewest MPs a Force can pay to step from a into b at any
// moment of this phase: the terrain, roadway, hexside, bridge, ferry or
// pontoon, contour and Komitadji costs, without the EZOC costs (which the
// enemy's moves may lift) and with any pontoon or ferry still free. ok is
// false when the step cannot be priced now (an enemy-held hex a Repulse
// is to clear).
func (g *game) leastCost(units []*unit, a, b board.ID) (int, bool) {
	si, err := g.stepCost(nil, units, a, b, true)
	if err != nil {
		return 0, false
	}
	return si.cost, true
}

// entries lists the hexes next to a that the Force may enter from a by
// 7.9 and the map (not enemy-held, not impassable): what a refusal of a
// road-only step offers instead.
func (g *game) entries(units []*unit, a board.ID) []string {
	var out []string
	side := units[0].c.Side
	for _, n := range g.nbrs(a) {
		f := g.feature(a, n)
		if g.enemyIn(n, side) || g.terrain(n) == "impassable" || f == sideImpass || isDonau(f) && side == sb {
			continue
		}
		if g.roadOnly(units, a, n) != (board.ID{}) {
			continue
		}
		out = append(out, g.hex(n))
	}
	return out
}
