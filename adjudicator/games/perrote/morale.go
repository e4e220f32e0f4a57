package perrote

// MoraleState is a unit's state from its casualties (Morale).
type MoraleState int

// The states: steady; suppressed (-5 to the turn order roll, from 25%);
// pinned (also suppressed, and may not move toward the enemy unless its
// turn order roll is 15+, from 50%); falling back (also suppressed, must
// move away from the enemy or into hard cover, from 75%).
const (
	Steady MoraleState = iota
	Suppressed
	Pinned
	FallingBack
)

var moraleWords = [...]string{"steady", "suppressed", "pinned", "falling_back"}

func (m MoraleState) String() string { return moraleWords[m] }

// MoraleSuppression is the turn order modifier of suppression (Kill
// fire/suppression fire, Morale).
const MoraleSuppression = 5

// Morale is the state of a unit that has lost lost of its original models
// (Morale): percentages of the original size, each reached at exactly 25%,
// 50%, 75%. Special forces are not suppressed until 50%. Heroic units
// ignore morale (Heroic) and are steady.
func Morale(lost, original int, special, heroic bool) MoraleState {
	if heroic || original <= 0 || lost <= 0 {
		return Steady
	}
	switch {
	case lost*4 >= original*3:
		return FallingBack
	case lost*2 >= original:
		return Pinned
	case lost*4 >= original && !special:
		return Suppressed
	}
	return Steady
}

// Drm is the state's turn order modifier: -5 unless steady (Morale).
func (m MoraleState) Drm() int {
	if m == Steady {
		return 0
	}
	return -MoraleSuppression
}

// AdvanceRoll is the turn order roll (unmodified) a pinned unit needs to
// move toward the enemy (Morale).
const AdvanceRoll = 15

// MayAdvance reports whether a unit in state m that rolled roll (its d20,
// before modifiers) may move toward the enemy this turn (Morale).
func (m MoraleState) MayAdvance(roll int) bool {
	switch m {
	case Pinned:
		return roll >= AdvanceRoll
	case FallingBack:
		return false
	}
	return true
}
