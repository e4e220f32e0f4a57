package perrote

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// groupRule says how a man fighting several opponents is resolved (Hand to
// Hand): Pairs compares his one die with each opponent's, as pairs, he
// falls if any opponent rolls higher and, if he beats any, one opponent
// (only one) falls; Highest compares his die with the highest opponent's
// only, so one side or the other loses a man.
type groupRule int

// The group rules.
const (
	pairs groupRule = iota
	highest
)

// fight is one man against one or more: the outnumbered side's man and the
// opponents dealt to him (Hand to Hand).
type fight struct {
	Attackers, Defenders int // men on each side (one side has one)
	AttackerDice         []int
	DefenderDice         []int
	AttackerLosses       int
	DefenderLosses       int
}

// deal sets the men up one to one and deals the larger side's extra men out
// over the smaller side's men in turn, from the first (Hand to Hand); it
// returns the fights' sizes as attacker and defender counts.
func deal(attackers, defenders int) [][2]int {
	small, large := min(attackers, defenders), max(attackers, defenders)
	out := make([][2]int, small)
	for i := range out {
		n := large / small
		if i < large%small {
			n++
		}
		if attackers >= defenders {
			out[i] = [2]int{n, 1}
		} else {
			out[i] = [2]int{1, n}
		}
	}
	return out
}

// handToHand fights a close combat round (Hand to Hand): every man rolls a
// d6, fight by fight in the order Deal gives, attackers' dice before
// defenders' in each fight. In a pair the lower die falls and a tie removes
// no one. Both sides need at least one man.
func handToHand(r dice.Roller, attackers, defenders int, rule groupRule) []fight {
	var fights []fight
	for i, size := range deal(attackers, defenders) {
		f := fight{Attackers: size[0], Defenders: size[1]}
		f.AttackerDice = dice.Roll(r, f.Attackers, 6, fmt.Sprintf("Per Rote hand to hand, fight %d, attackers", i+1))
		f.DefenderDice = dice.Roll(r, f.Defenders, 6, fmt.Sprintf("Per Rote hand to hand, fight %d, defenders", i+1))
		f.AttackerLosses, f.DefenderLosses = f.resolve(rule)
		fights = append(fights, f)
	}
	return fights
}

// resolve finds the fight's losses from its dice.
func (f fight) resolve(rule groupRule) (attackerLosses, defenderLosses int) {
	lone, many := f.DefenderDice[0], f.AttackerDice
	if f.Attackers == 1 {
		lone, many = f.AttackerDice[0], f.DefenderDice
	}
	loneFalls, oneOpponentFalls := false, false
	switch rule {
	case highest:
		top := 0
		for _, d := range many {
			top = max(top, d)
		}
		loneFalls, oneOpponentFalls = top > lone, lone > top
	default:
		for _, d := range many {
			if d > lone {
				loneFalls = true
			}
			if d < lone {
				oneOpponentFalls = true
			}
		}
	}
	a, b := 0, 0 // the lone man's side, the opponents' side
	if loneFalls {
		a = 1
	}
	if oneOpponentFalls {
		b = 1
	}
	if f.Attackers == 1 {
		return a, b
	}
	return b, a
}

// losses totals the round's losses.
func losses(fights []fight) (attackers, defenders int) {
	for _, f := range fights {
		attackers += f.AttackerLosses
		defenders += f.DefenderLosses
	}
	return attackers, defenders
}
