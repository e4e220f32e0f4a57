package perrote

import (
	"fmt"
	"slices"
	"strings"
)

// This file checks victory at the end of each turn. The rulebook leaves
// victory to the players: each scenario gives its conditions (hold
// objectives at the end, or destroy a share of the enemy), and the game
// ends at the turn limit (docs/rulings.md 30).

// holdObjectives updates who holds each objective: the side alone in its
// hex holds it; a contested or empty hex keeps its holder.
func (t *turn) holdObjectives() {
	for i := range t.s.Objectives {
		o := &t.s.Objectives[i]
		sides := map[string]bool{}
		for _, u := range t.unitsAt(o.Hex) {
			sides[u.Side] = true
		}
		if len(sides) == 1 {
			for sd := range sides {
				if o.Holder != sd {
					t.event(ruleVictory, "%s takes the objective %s (%s).", sd, o.Name, o.Hex)
				}
				o.Holder = sd
			}
		}
	}
}

// destroyedShare is the share of side's units out of the game.
func destroyedShare(s *State, side string) float64 {
	n, gone := 0, 0
	for _, u := range s.Units {
		if u.Side == side {
			n++
			if u.Eliminated() {
				gone++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(gone) / float64(n)
}

func (t *turn) victory() {
	t.holdObjectives()
	s := t.s
	// destroy: a side that has eliminated its share of every enemy wins
	// at once; a side wiped out loses.
	var winners []string
	for _, sd := range s.seats() {
		for _, v := range s.Victory {
			if v.Kind != "destroy" || (v.Side != "" && v.Side != sd) {
				continue
			}
			all := true
			for _, en := range s.seats() {
				if en != sd && destroyedShare(s, en) < v.Share {
					all = false
				}
			}
			if all && !slices.Contains(winners, sd) {
				winners = append(winners, sd)
			}
		}
	}
	alive := []string{}
	for _, sd := range s.seats() {
		if destroyedShare(s, sd) < 1 {
			alive = append(alive, sd)
		}
	}
	switch {
	case len(alive) == 1:
		t.end(alive[0], fmt.Sprintf("%s has wiped out the enemy", alive[0]))
		return
	case len(alive) == 0:
		t.end("", "both sides are wiped out")
		return
	case len(winners) == 1:
		t.end(winners[0], fmt.Sprintf("%s has destroyed its share of the enemy", winners[0]))
		return
	case len(winners) > 1:
		t.end("", "both sides have destroyed their share of the enemy on the same turn: a draw")
		return
	}
	if t.n < s.Turns {
		return
	}
	held := map[string]int{}
	hold := false
	for _, v := range s.Victory {
		hold = hold || v.Kind == "hold"
	}
	if hold {
		for _, o := range s.Objectives {
			if o.Holder != "" {
				held[o.Holder]++
			}
		}
		best, bestN, tie := "", -1, false
		var parts []string
		for _, sd := range s.seats() {
			parts = append(parts, fmt.Sprintf("%s %d", sd, held[sd]))
			switch {
			case held[sd] > bestN:
				best, bestN, tie = sd, held[sd], false
			case held[sd] == bestN:
				tie = true
			}
		}
		if !tie {
			t.end(best, fmt.Sprintf("the last turn is over and %s holds the most objectives (%s)", best, strings.Join(parts, ", ")))
			return
		}
		t.end("", fmt.Sprintf("the last turn is over and the objectives are shared (%s): a draw", strings.Join(parts, ", ")))
		return
	}
	t.end("", "the last turn is over with no side's victory condition met: a draw")
}

func (t *turn) end(winner, why string) {
	t.s.Over, t.s.Winner = true, winner
	if winner != "" {
		t.s.Result = winner + " wins: " + why + "."
	} else {
		t.s.Result = "Draw: " + why + "."
	}
	t.event(ruleVictory, "The game is over after turn %d. %s", t.n, t.s.Result)
}
