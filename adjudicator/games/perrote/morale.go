package perrote

// moraleState is a unit's state from its casualties (Morale).
type moraleState int

// The states: steady; suppressed (-5 to the turn order roll, from 25%);
// pinned (also suppressed, and may not move toward the enemy unless its
// turn order roll is 15+, from 50%); falling back (also suppressed, must
// move away from the enemy or into hard cover, from 75%).
const (
	steady moraleState = iota
	suppressed
	pinned
	fallingBack
)

var moraleWords = [...]string{"steady", "suppressed", "pinned", "falling_back"}

func (m moraleState) String() string { return moraleWords[m] }

// moraleSuppression is the turn order modifier of suppression (Kill
// fire/suppression fire, Morale).
const moraleSuppression = 5

// morale is the state of a unit that has lost lost of its original models
// (Morale): percentages of the original size, each reached at exactly 25%,
// 50%, 75%. Special forces are not suppressed until 50%. Heroic units
// ignore morale (Heroic) and are steady.
func morale(lost, original int, special, heroic bool) moraleState {
	if heroic || original <= 0 || lost <= 0 {
		return steady
	}
	switch {
	case lost*4 >= original*3:
		return fallingBack
	case lost*2 >= original:
		return pinned
	case lost*4 >= original && !special:
		return suppressed
	}
	return steady
}

// Drm is the state's turn order modifier: -5 unless steady (Morale).
func (m moraleState) Drm() int {
	if m == steady {
		return 0
	}
	return -moraleSuppression
}

// advanceRoll is the turn order roll (unmodified) a pinned unit needs to
// move toward the enemy (Morale).
const advanceRoll = 15

// MayAdvance reports whether a unit in state m that rolled roll (its d20,
// before modifiers) may move toward the enemy this turn (Morale).
func (m moraleState) MayAdvance(roll int) bool {
	switch m {
	case pinned:
		return roll >= advanceRoll
	case fallingBack:
		return false
	}
	return true
}
