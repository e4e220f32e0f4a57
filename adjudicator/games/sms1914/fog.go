package sms1914

// This file holds the fog of war (3.1.5, 3.1.6, 3.1.6a): an enemy stack
// shows its top unit only, chosen by the 3.1.5 order of stacking; its
// markers on top (IPs, PAs, pontoons, Komitadji, the Two-Hex marker); the
// units of a hex a player attacks are revealed to him by ID, type and
// size; strengths never. The game master sees everything, and once the
// game has ended every view shows all.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// stackRank is a unit's place in the 3.1.5 order (lower is nearer the
// top), with the enemy adjacent to the stack or not.
func stackRank(u *unit, enemyAdjacent bool) int {
	demoralized := u.c.Formation && u.CE.Demoralized()
	switch {
	case u.c.Kind == kSquadron:
		return 9
	case enemyAdjacent && u.c.Formation && u.combat() && !demoralized:
		return 0 // the largest Formation with the best PR
	case !enemyAdjacent && u.c.Kind == kCavalry && !demoralized:
		return 0
	case !enemyAdjacent && u.c.Formation && u.c.InfantryType() && !demoralized:
		return 1
	case demoralized:
		return 2
	case u.isFort():
		return 3
	case u.c.Kind == kArtillery:
		return 5
	case u.c.Supply():
		return 6
	}
	return 4 // an asset with the best PR
}

// topUnit is the unit on top of the side's stack in a hex (3.1.5): the
// first by rank, then the largest, then the best PR; ties by id (the
// owner's choice, 3.1.5).
func (g *game) topUnit(id board.ID, side side) *unit {
	var us []*unit
	for _, u := range g.sideAt(id, side) {
		if u.c.Kind != kSquadron {
			us = append(us, u)
		}
	}
	if len(us) == 0 {
		return nil
	}
	adj := false
	for _, h := range g.nbrs(id) {
		if g.friendIn(h, side.Enemy()) {
			adj = true
		}
	}
	slices.SortStableFunc(us, func(a, b *unit) int {
		ra, rb := stackRank(a, adj), stackRank(b, adj)
		if ra != rb {
			return ra - rb
		}
		if qa, qb := a.c.DEQuarters(), b.c.DEQuarters(); qa != qb {
			return qb - qa
		}
		if pa, pb := a.values().PR, b.values().PR; pa != pb {
			return pb - pa
		}
		return strings.Compare(a.ID, b.ID)
	})
	return us[0]
}

// visibleTo reports whether a unit may be seen by the viewer side: its
// own units, the top unit of an enemy stack, a squadron (it never holds a
// hex, 25.1), units revealed by the viewer's attacks this step (3.1.6),
// and everything once the game is over.
func (g *game) visibleTo(u *unit, viewer side) bool {
	if u.c.Side == viewer || g.Over {
		return true
	}
	if !u.onMap() {
		return false
	}
	if u.c.Kind == kSquadron {
		return true
	}
	for _, h := range u.hexes() {
		if g.topUnit(h, u.c.Side) == u {
			return true
		}
	}
	return slices.Contains(g.Revealed[viewer.Seat()], u.ID)
}

// hidden lists, for a seat, the enemy units its mail must not name after
// the step that left this state: units on the map or off it that are not
// the top of their stack and were not revealed by the seat's attacks in
// the step. The full game by mail checks every mail against it.
func hidden(state []byte, seat string) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	viewer := seatSide(seat)
	var out []string
	for _, u := range g.Units {
		if u.c.Side == viewer || u.Out && !u.Gone {
			continue
		}
		if u.Gone {
			continue // an eliminated unit's fate is announced without its id
		}
		if !g.visibleTo(u, viewer) {
			out = append(out, u.ID)
		}
	}
	slices.Sort(out)
	return out, nil
}

// FogLeaks lets the full game by mail check every report a seat gets.
func (rules) FogLeaks(state []byte, seat, text string) ([]string, error) {
	return fogLeaks(state, seat, text)
}

// fogLeaks lists what a text meant for a seat after the step that left
// this state shows that the seat may not see: enemy units named that are
// hidden from it (Hidden), and enemy units' printed values ("AS-DS PRn
// AVn") that none of the seat's own units shares.
func fogLeaks(state []byte, seat, text string) ([]string, error) {
	hidden, err := hidden(state, seat)
	if err != nil {
		return nil, err
	}
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	var leaks []string
	for _, id := range hidden {
		if containsToken(text, id) {
			leaks = append(leaks, "hidden unit "+id)
		}
	}
	viewer := seatSide(seat)
	own := map[string]bool{}
	for _, u := range g.Units {
		if u.c.Side == viewer {
			own[strengthText(u)] = true
			for sr := 0; sr <= u.c.MaxSR(); sr++ {
				v := u.c.At(sr)
				own[fmt.Sprintf("%d-%d PR%d AV%d", v.AS, v.DS, v.PR, v.AV)] = true
			}
		}
	}
	if g.Over {
		return leaks, nil
	}
	for _, u := range g.Units {
		if u.c.Side == viewer || !u.onMap() || u.c.Supply() {
			continue
		}
		if s := strengthText(u); !own[s] && strings.Contains(text, s) {
			leaks = append(leaks, "the values of "+u.ID+": "+s)
		}
	}
	return leaks, nil
}

// containsToken reports whether id appears in text as a whole unit id:
// not inside a longer id or number.
func containsToken(text, id string) bool {
	idChar := func(b byte) bool {
		return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("/-_+.", b) >= 0
	}
	for i := 0; ; {
		j := strings.Index(text[i:], id)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(id)
		before := j == 0 || !idChar(text[j-1]) || text[j-1] == '.' && (j < 2 || !idChar(text[j-2]))
		after := end == len(text) || !idChar(text[end]) || text[end] == '.' && (end+1 == len(text) || !idChar(text[end+1]))
		if before && after {
			return true
		}
		i = j + 1
	}
}
