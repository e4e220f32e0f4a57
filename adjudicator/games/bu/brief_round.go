package bu

// The action round's brief: the card to play and how (7.4.1), and after it
// what the card may do, each choice needing the play lines that make its
// lines legal (adjudicator.Choice.Needs).

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// play is a play line the brief offers, with its mode and the points the
// card gives in it (cardPoints).
type play struct {
	line, mode string
	points     int
}

// briefRound: the card to play and how (7.4.1); then, for an Operation,
// one attack or entrenchment and one unit's move (13.0); for a Strategic
// Redeployment one unit's redeployment (9.1); for a Replacement one
// replacement or recreation (10.1). Each action choice needs the play
// lines whose card gives enough points for it together with the choices
// before it, so that any line of each, kept with one of its Needs, is
// accepted.
func (g *game) briefRound(state []byte, seat string) adjudicator.Brief {
	b := adjudicator.Brief{Asks: fmt.Sprintf("Your action round (7.0): play one card of your hand, for an Operation (op: move, attack, entrench, 13.0), Strategic Redeployment (sr: redeploy, 9.1), Replacement (rp: replace, recreate, 10.1), a Diplomatic Action (dp, 11.1) or its event (12.0). Then, under the headings that need your play line, what the card does; more lines of the mode may be written by hand ('help bu'). Turn %d, round %d.", g.Turn, g.Rounds+1)}
	p := &parser{g: g, seat: seat}
	c := adjudicator.Choice{About: "the card you play, and how (7.4.1)"}
	if d := g.defaultPlay(seat); d != nil {
		c.Default = "the umpire plays " + d.Card + " for a Diplomatic Action (11.1)"
	}
	var plays []play
	for _, id := range g.Hands[seat] {
		for _, mode := range []string{"op", "sr", "rp", "dp", "event"} {
			f := []string{"play", id, mode}
			if _, err := p.parsePlay(0, f); err != nil {
				continue
			}
			if seat == seatBC && (mode == "dp" || mode == "event") {
				for _, side := range []string{"bosniak", "croat"} {
					c.Lines = append(c.Lines, "play "+id+" "+mode+" for "+side)
				}
				continue
			}
			c.Lines = append(c.Lines, "play "+id+" "+mode)
			plays = append(plays, play{line: "play " + id + " " + mode, mode: mode, points: g.cardPoints(g.sc.Deck.Card(id), mode)})
		}
	}
	if len(c.Lines) == 0 {
		return b
	}
	b.Choices = append(b.Choices, c)
	sb, err := decode(state)
	if err != nil {
		return b
	}
	// the position the parser reads the lines on (newParser)
	sb.dry = true
	sb.beginRound(seat)
	sb.checkSupply(seat)
	b.Choices = append(b.Choices, sb.roundActions(seat, plays)...)
	return b
}

// maxEntrench is the most entrenchments the brief offers, spaces on the
// front line first, so that the attacks are not lost among them.
const maxEntrench = 6

// front reports whether space id is next to a space holding units of
// none of sides.
func (g *game) front(id string, sides []Side) bool {
	m := g.sc.Map
	i, _ := m.Space(id)
	for _, n := range m.Graph.Neighbours(i) {
		if slices.ContainsFunc(g.unitsAt(m.Spaces[n].ID), func(u *unit) bool { return !slices.Contains(sides, u.Side()) }) {
			return true
		}
	}
	return false
}

// needs are the play lines of mode whose card gives at least n points.
func needs(plays []play, mode string, n int) []string {
	var out []string
	for _, p := range plays {
		if p.mode == mode && p.points >= n {
			out = append(out, p.line)
		}
	}
	return out
}

// roundActions are the action choices of the round, found by the parser's
// checks on g, the sandbox it reads the lines on.
//
// An Operation (op): "one attack or entrenchment" (1 OP: an attack from
// one space with all its units that may act, 13.4.1; an entrenchment by a
// named unit, front-line spaces first, 13.3, at most maxEntrench), then "one unit moves" (1 OP: a unit to an adjacent
// space, 13.2), which leaves out the units of the attacking spaces and the
// entrenching units, so that the move, read after either, is checked on
// the position it will find; it needs a card of 2 OPs (1 when there is no
// attack or entrenchment to offer). A Strategic
// Redeployment (sr): one unit redeployed (1 point, 9.1). A Replacement
// (rp): one unit replaced or recreated (10.1), needing a card of as many
// RP as the dearest line.
func (g *game) roundActions(seat string, plays []play) []adjudicator.Choice {
	var out []adjudicator.Choice
	sides := g.seatSides(seat)
	mine := func(u *unit) bool { return u.Box == onMap && slices.Contains(sides, u.Side()) }
	m := g.sc.Map

	// an Operation
	if op := needs(plays, "op", 1); len(op) > 0 {
		first := adjudicator.Choice{About: "an attack or an entrenchment of your Operation (13.4, 13.3; 1 OP)", Default: "none is made", Needs: op}
		busy := map[string]bool{} // units the first choice's lines use
		for _, sp := range m.Spaces {
			if !slices.ContainsFunc(g.unitsAt(sp.ID), func(u *unit) bool { return !slices.Contains(sides, u.Side()) }) {
				continue
			}
			i, _ := m.Space(sp.ID)
			for _, n := range m.Graph.Neighbours(i) {
				from := m.Spaces[n].ID
				if len(first.Lines) >= maxLines || !slices.ContainsFunc(g.unitsAt(from), mine) {
					continue
				}
				o := &order{Verb: "attack", Space: sp.ID, Groups: []group{{From: from}}}
				if _, err := g.checkAttack(seat, o); err == nil {
					first.Lines = append(first.Lines, "attack "+sp.ID+" from "+from)
					for _, u := range g.unitsAt(from) {
						busy[u.ID] = true
					}
				}
			}
		}
		attacks := len(first.Lines)
		for _, front := range []bool{true, false} {
			for _, sp := range m.Spaces {
				if len(first.Lines) >= min(maxLines, attacks+maxEntrench) || !slices.ContainsFunc(g.unitsAt(sp.ID), mine) || g.front(sp.ID, sides) != front {
					continue
				}
				if u, err := g.checkEntrench(seat, sp.ID, ""); err == nil && !busy[u.ID] {
					first.Lines = append(first.Lines, "entrench "+sp.ID+" "+u.ID)
					busy[u.ID] = true
				}
			}
		}
		if len(first.Lines) > 0 {
			out = append(out, first)
		}
		cost := 1 // the move's OP, and the first choice's
		if len(first.Lines) > 0 {
			cost = 2
		}
		if opn := needs(plays, "op", cost); len(opn) > 0 {
			move := adjudicator.Choice{About: "one unit's move of your Operation (13.2; 1 OP, 2 with the choice above)", Default: "none moves", Needs: opn}
			var units []*unit
			for _, u := range g.Units {
				if mine(u) && !busy[u.ID] && g.mayOperate(u) == nil {
					units = append(units, u)
				}
			}
			move.Lines = roundRobin(units, func(u *unit) []string {
				i, _ := m.Space(u.Space)
				var ls []string
				for _, n := range m.Graph.Neighbours(i) {
					to := m.Spaces[n].ID
					if g.checkMove(seat, []*unit{u}, []string{to}) == nil {
						ls = append(ls, "move "+u.ID+" "+to)
					}
				}
				return ls
			})
			if len(move.Lines) > 0 {
				out = append(out, move)
			}
		}
	}

	// a Strategic Redeployment
	if sr := needs(plays, "sr", 1); len(sr) > 0 {
		c := adjudicator.Choice{About: "one unit's Strategic Redeployment (9.1; 1 point)", Default: "none is redeployed", Needs: sr}
		var units []*unit
		for _, u := range g.Units {
			if mine(u) && !g.acted(u.ID) && u.Supply != oos {
				units = append(units, u)
			}
		}
		// a Key Space or two a unit: each check traces supply (9.1.2)
		per, checks := max(2, maxLines/max(1, len(units))+1), 0
		c.Lines = roundRobin(units, func(u *unit) []string {
			var ls []string
			for _, sp := range m.Spaces {
				if !sp.Key || sp.ID == u.Space || checks > 200 || len(ls) >= per {
					continue
				}
				checks++
				if g.checkRedeploy(u, sp.ID) == nil {
					ls = append(ls, "redeploy "+u.ID+" "+sp.ID)
				}
			}
			return ls
		})
		if len(c.Lines) > 0 {
			out = append(out, c)
		}
	}

	// a Replacement
	if rp := needs(plays, "rp", 1); len(rp) > 0 {
		c := adjudicator.Choice{About: "one unit replaced or recreated (10.1; 1 RP, 2 to recreate at full strength)", Default: "none is replaced"}
		dearest := 0
		for _, u := range g.Units {
			if !slices.Contains(sides, u.Side()) || len(c.Lines) >= maxLines {
				continue
			}
			if u.Box == onMap {
				if cost, _, err := g.checkReplace(seat, u); err == nil {
					c.Lines = append(c.Lines, "replace "+u.ID)
					dearest = max(dearest, cost)
				}
				continue
			}
			if u.Box != eliminated {
				continue
			}
			for _, sp := range m.Spaces {
				for _, full := range []bool{false, true} {
					if len(c.Lines) >= maxLines {
						break
					}
					if cost, _, err := g.checkRecreate(seat, u, sp.ID, full); err == nil {
						c.Lines = append(c.Lines, fmt.Sprintf("recreate %s %s %s", u.ID, sp.ID, map[bool]string{true: "full", false: "reduced"}[full]))
						dearest = max(dearest, cost)
					}
				}
			}
		}
		if c.Needs = needs(plays, "rp", dearest); len(c.Lines) > 0 && len(c.Needs) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// roundRobin gives each unit its lines in turn, one a unit a round, up to
// maxLines in all, so that every unit is offered some.
func roundRobin(units []*unit, lines func(u *unit) []string) []string {
	all := make([][]string, len(units))
	for i, u := range units {
		all[i] = lines(u)
	}
	var out []string
	for k, more := 0, true; more && len(out) < maxLines; k++ {
		more = false
		for _, ls := range all {
			if k < len(ls) && len(out) < maxLines {
				out = append(out, ls[k])
				more = true
			}
		}
	}
	return out
}
