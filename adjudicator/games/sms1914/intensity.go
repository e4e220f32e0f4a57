package sms1914

// Battle is a combat's intensity (9.8.1).
type Battle string

// The four battle intensities of the 9.8.1 matrix.
const (
	lowIntensity    Battle = "low"
	AttackerIntense Battle = "attacker"
	DefenderIntense Battle = "defender"
	highIntensity   Battle = "high"
)

// intensity combines the two declarations, the attacker's first (9.1.1f,
// 9.8.1); if neither side declares Intense the combat is Low Intensity.
func intensity(attackerIntense, defenderIntense bool) Battle {
	switch {
	case attackerIntense && defenderIntense:
		return highIntensity
	case attackerIntense:
		return AttackerIntense
	case defenderIntense:
		return DefenderIntense
	}
	return lowIntensity
}

// DefenderRetreat is how many hexes the defender retreats for a CRT result
// with the given black and white retreat numbers (0 when none), 9.8.2: Low
// and High Intensity retreat on black results only, Attacker Intense on
// black and white, Defender Intense on a black 2 only.
func (b Battle) DefenderRetreat(black, white int) int {
	switch b {
	case AttackerIntense:
		return max(black, white)
	case DefenderIntense:
		if black == 2 {
			return 2
		}
		return 0
	}
	return black
}

// AttackerSR is the attacker's Intensity SR (9.8.2): in Attacker Intense
// and High Intensity combat, one SR when the result has no black retreat.
func (b Battle) AttackerSR(black int) int {
	if (b == AttackerIntense || b == highIntensity) && black == 0 {
		return 1
	}
	return 0
}

// DefenderSR is the defender's Intensity SR (9.8.2): in Defender Intense
// and High Intensity combat, one SR when the result has a black or a white
// retreat (whether or not the defender actually retreats).
func (b Battle) DefenderSR(black, white int) int {
	if (b == DefenderIntense || b == highIntensity) && (black > 0 || white > 0) {
		return 1
	}
	return 0
}
