package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file briefs a seat on its turn (issue 31): each unit's orders,
// written out and checked by the order parser itself, and the pre-filled
// order file made of them (docs/orders-perrote.md, "The pre-filled order
// file").

// briefMax is the most lines a choice offers.
const briefMax = 40

// Brief implements adjudicator.Briefer. Each unit that may act gets one or
// two choices: a unit with a target to fire at after a short move gets its
// movement (the moves that keep its fire: troops 1 hex, vehicles 2, faces,
// disembarking) and its fire (shoot at each enemy in sight and reach,
// mortar at enemy hexes in range, smoke launchers); any other unit gets one
// choice of single orders (full moves, charges, embarking, entering, or
// standing fire). Troops with weapons of two kinds also get their casualty
// priority. Every line is one the parser takes alone, and no two choices
// conflict (one movement and one fire order a unit; a shoot after a move
// only with weapons that fire on the move).
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	s, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if s.Over || !slices.Contains(s.seats(), seat) {
		return adjudicator.Brief{}
	}
	b := newBriefer(s, seat)
	out := adjudicator.Brief{Asks: fmt.Sprintf("Turn %d of %d: give your units their orders (Movement, Shooting, Hand to Hand): "+
		"one movement and one fire order a unit at most; a unit without orders holds. The turn order roll decides who acts first, "+
		"so what is in sight now is checked again when the unit acts.", s.Turn+1, s.Turns)}
	for _, u := range s.Units {
		if u.Side == seat && !u.Eliminated() {
			out.Choices = append(out.Choices, b.unit(u)...)
		}
	}
	if len(out.Choices) == 0 {
		// every unit is held (close combat, stunned): the seat still owes
		// a file, and hold is the one order left.
		for _, u := range s.Units {
			if u.Side == seat && !u.Eliminated() && b.legal("hold "+u.ID) {
				out.Choices = append(out.Choices, adjudicator.Choice{About: b.about(u), Lines: []string{"hold " + u.ID}, Default: "it holds"})
				break
			}
		}
	}
	return out
}

// briefer checks a brief's candidate lines with the order parser.
type briefer struct {
	p   *orderParser
	t   *turn
	occ map[board.ID]bool
}

func newBriefer(s *State, seat string) *briefer {
	p := &orderParser{s: s, f: newField(s), seat: seat, plans: map[string]*planned{}, teams: map[string]*unitState{}}
	t := p.turn()
	return &briefer{p: p, t: t, occ: t.occupied()}
}

// legal reports whether the parser takes text alone, as the only line of
// a file.
func (b *briefer) legal(text string) bool {
	b.p.plans = map[string]*planned{}
	o, err := b.p.line(text)
	if err == nil {
		err = b.p.across(&o)
	}
	return err == nil
}

// keep adds each candidate the parser takes to lines, up to briefMax.
func (b *briefer) keep(lines []string, cands ...string) []string {
	return adjudicator.Keep(lines, briefMax, func(l string) bool { return b.legal(l) }, cands...)
}

// about names a unit as the units table does: id, type, strength, where,
// states.
func (b *briefer) about(u *unitState) string {
	place := "at " + u.Hex
	switch {
	case u.Aboard != "":
		place = "aboard " + u.Aboard
	case u.Reserve:
		place = "off table"
	}
	s := fmt.Sprintf("%s %s %s %s", u.ID, u.Name, strength(u), place)
	if words := statusWords(b.p.s, b.p.f, u); len(words) > 0 {
		s += " (" + strings.Join(words, ", ") + ")"
	}
	return s
}

// unit is the choices of one unit.
func (b *briefer) unit(u *unitState) []adjudicator.Choice {
	var out []adjudicator.Choice
	about := b.about(u)
	fire, moveFire := b.fireLines(u)
	switch {
	case u.Reserve:
		out = append(out, adjudicator.Choice{About: about, Lines: b.enterLines(u), Default: "it stays off table"})
	case slices.ContainsFunc(moveFire, func(l string) bool { return !strings.HasPrefix(l, "smoke ") }):
		// a target to fire at after a short move; smoke alone does not
		// cost a vehicle its long moves
		mv := b.moveLines(u, true)
		if len(mv) > 0 {
			out = append(out, adjudicator.Choice{About: about + ": its movement (it may still fire)", Lines: mv, Default: "it stays"})
		}
		out = append(out, adjudicator.Choice{About: about + ": its fire", Lines: moveFire, Default: "it does not fire"})
	default:
		lines := b.moveLines(u, false)
		lines = append(lines, fire[:min(len(fire), max(briefMax-len(lines), 8))]...)
		out = append(out, adjudicator.Choice{About: about, Lines: lines, Default: "it holds"})
	}
	if c := b.casualtyChoice(u, about); len(c.Lines) > 0 {
		out = append(out, c)
	}
	return slices.DeleteFunc(out, func(c adjudicator.Choice) bool { return len(c.Lines) == 0 })
}

// fireLines are the unit's fire orders from where it stands: alone
// (standing fire, when it does not move), and, when it can fire after a
// move, the ones that stay legal after any of its short moves.
func (b *briefer) fireLines(u *unitState) (alone, afterMove []string) {
	if u.Reserve {
		return nil, nil
	}
	from, ok := b.p.where(u)
	if !ok {
		return nil, nil
	}
	onMove := slices.ContainsFunc(unspent(u), func(k string) bool { return firesAfterMove(u, k) })
	reach := b.p.reach(u, nil, 0)
	for _, e := range b.enemies(u, from, true) {
		if b.p.f.g.Distance(from, e.at) > reach {
			continue
		}
		alone = b.keep(alone, "stand "+u.ID+" at "+e.u.ID)
		if onMove {
			afterMove = b.keep(afterMove, "shoot "+u.ID+" at "+e.u.ID)
		}
	}
	if carries(u, "mortar") && u.Aboard == "" {
		w, _ := weaponByKey("mortar")
		r := 0
		each(u, func(a arm) {
			if a.Weapon == "mortar" && !a.Spent {
				r = max(r, rangeOf(a, w))
			}
		})
		_, short := maxMove(u)
		for _, e := range b.enemies(u, from, false) {
			d := b.p.f.g.Distance(from, e.at)
			line := "mortar " + u.ID + " at " + e.u.Hex
			if d <= r {
				alone = b.keep(alone, line)
			}
			if d+short <= r {
				afterMove = b.keep(afterMove, line)
			}
		}
	}
	if u.Kind == kindVehicle && u.Smoke {
		alone = b.keep(alone, "smoke "+u.ID)
		afterMove = b.keep(afterMove, "smoke "+u.ID)
	}
	if u.Aboard != "" && !onMove {
		// its vehicle may move: only weapons that fire on the move may
		// fire from it (acrossShoot)
		alone = nil
	}
	return alone, afterMove
}

type sighted struct {
	u  *unitState
	at board.ID
}

// enemies are the enemy units on the map, nearest to from first; with
// sight, only those seen from from (a mortar needs no sight).
func (b *briefer) enemies(u *unitState, from board.ID, sight bool) []sighted {
	var out []sighted
	for _, e := range b.p.s.Units {
		if e.Side == u.Side || e.Eliminated() || e.Hex == "" || e.Aboard != "" {
			continue
		}
		at, ok := b.p.f.parse(e.Hex)
		if !ok {
			continue
		}
		if see, _ := b.t.lineOfFire(from, at, b.occ); see || !sight {
			out = append(out, sighted{e, at})
		}
	}
	slices.SortStableFunc(out, func(x, y sighted) int {
		return b.p.f.g.Distance(from, x.at) - b.p.f.g.Distance(from, y.at)
	})
	return out
}

// moveLines are the unit's movement orders: with short, only those that
// keep its fire (troops 1 hex, vehicles 2, facing, disembarking); else its
// whole allowance, charges and embarking too.
func (b *briefer) moveLines(u *unitState, short bool) []string {
	var lines []string
	if u.Aboard != "" {
		lines = b.keep(lines, "disembark "+u.ID)
		if v := b.p.s.unit(u.Aboard); v != nil {
			if vh, ok := b.p.f.parse(v.Hex); ok {
				for _, h := range b.p.f.g.Neighbours(vh) {
					if b.t.blockedFor(u, h, false) == "" {
						lines = b.keep(lines, "disembark "+u.ID+" "+b.p.f.format(h))
					}
				}
			}
		}
		return lines
	}
	from, ok := b.p.where(u)
	if !ok {
		return nil
	}
	all, andShoot := maxMove(u)
	limit := all
	if short {
		limit = andShoot
	}
	if u.Kind == kindVehicle && u.Motive != "crippled" {
		for d := range 6 {
			if d != u.Facing {
				lines = b.keep(lines, "face "+u.ID+" "+dirName(b.p.f.g, d))
			}
		}
	}
	if !short && u.Kind == kindTroops {
		for _, e := range b.p.s.Units {
			if e.Side == u.Side || e.Kind != kindTroops || e.Eliminated() || e.Hex == "" {
				continue
			}
			if eh, ok := b.p.f.parse(e.Hex); ok {
				if p := b.path(u, from, eh, 2); p != "" {
					lines = b.keep(lines, "charge "+u.ID+" "+p)
				}
			}
		}
		for _, v := range b.p.s.Units {
			if v.Side == u.Side && v.Kind == kindVehicle && v.Capacity > 0 && !v.Eliminated() {
				lines = b.keep(lines, "embark "+u.ID+" "+v.ID)
			}
		}
	}
	// the paths, spread over the reach when there are more than room
	paths := b.reachable(u, from, limit)
	room := max(briefMax-len(lines), 1)
	stride := max(1, (len(paths)+room-1)/room)
	for i := 0; i < len(paths); i += stride {
		lines = b.keep(lines, "move "+u.ID+" "+paths[i])
	}
	return lines
}

// reachable are paths, one a hex, to the hexes the unit may end in within
// n steps, nearest first: passable hexes free of the enemy (and of other
// vehicles for a vehicle, with room for troops at the end).
func (b *briefer) reachable(u *unitState, from board.ID, n int) []string {
	type node struct {
		h    board.ID
		path []string
	}
	seen := map[board.ID]bool{from: true}
	front := []node{{h: from}}
	var out []string
	for step := 1; step <= n; step++ {
		var next []node
		for _, nd := range front {
			for _, h := range b.p.f.g.Neighbours(nd.h) {
				if seen[h] || b.t.blockedFor(u, h, true) != "" {
					continue
				}
				seen[h] = true
				p := append(slices.Clone(nd.path), b.p.f.format(h))
				next = append(next, node{h, p})
				if b.t.blockedFor(u, h, false) == "" {
					out = append(out, strings.Join(p, " "))
				}
			}
		}
		front = next
	}
	return out
}

// path is a path of at most n steps from from to to, passing only hexes
// the unit may pass (the last may hold the enemy when charging), or "".
func (b *briefer) path(u *unitState, from, to board.ID, n int) string {
	d := b.p.f.g.Distance(from, to)
	if d == 0 || d > n {
		return ""
	}
	if d == 1 {
		return b.p.f.format(to)
	}
	for _, h := range b.p.f.g.Neighbours(from) {
		if b.p.f.g.Adjacent(h, to) && b.t.blockedFor(u, h, true) == "" {
			return b.p.f.format(h) + " " + b.p.f.format(to)
		}
	}
	return ""
}

// enterLines are where a sneak attack unit may come on, spread over the
// map when there are many.
func (b *briefer) enterLines(u *unitState) []string {
	var hexes []board.ID
	for _, h := range b.p.f.g.All() {
		if (u.Sneak != "edge" || onEdge(b.p.f.g, h)) && b.t.blockedFor(u, h, false) == "" {
			hexes = append(hexes, h)
		}
	}
	stride := max(1, (len(hexes)+briefMax-1)/briefMax)
	var lines []string
	for i := 0; i < len(hexes); i += stride {
		lines = b.keep(lines, "enter "+u.ID+" "+b.p.f.format(hexes[i]))
	}
	return lines
}

// casualtyChoice is the standing casualty priority of troops with weapons
// of two kinds or more: which carriers fall first (Casualties).
func (b *briefer) casualtyChoice(u *unitState, about string) adjudicator.Choice {
	c := adjudicator.Choice{About: about + ": who falls first (Casualties, kept until changed)"}
	if u.Kind != kindTroops {
		return c
	}
	ws := weaponsOf(u)
	if len(ws) < 2 {
		return c
	}
	if len(u.Priority) > 0 {
		c.Default = "carriers of " + strings.Join(u.Priority, ", ") + " fall first, as ordered"
	} else {
		c.Default = "the men with the least valuable weapons fall first"
	}
	for _, w := range ws {
		if !slices.Equal(u.Priority, []string{w}) {
			c.Lines = b.keep(c.Lines, "casualties "+u.ID+" "+w)
		}
	}
	return c
}

// Standing implements adjudicator.StandingOrders: the casualty priorities
// in force for the seat's troops (Casualties: kept until changed), one
// casualties line a unit that has one; a unit without one loses the men
// with the least valuable weapons first, which no line writes.
func (rules) Standing(state []byte, seat string) []string {
	s, err := decode(state)
	if err != nil {
		return nil
	}
	var out []string
	for _, u := range s.Units {
		if u.Side == seat && !u.Eliminated() && u.Kind == kindTroops && len(u.Priority) > 0 {
			out = append(out, "casualties "+u.ID+" "+strings.Join(u.Priority, " "))
		}
	}
	return out
}
