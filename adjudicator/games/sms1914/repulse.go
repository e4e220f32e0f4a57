package sms1914

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// repulseOutcome is a Repulse attempt's result (7.4.3-7.4.5).
type repulseOutcome struct {
	Rolled  bool
	Roll    combatRoll
	Success bool
}

// repulse resolves a Repulse at a printed column (7.4.3): at 8:1 it
// succeeds automatically; at 3:1, 4:1 or 6:1 the active player rolls the CRT
// (white die modified by PR) and succeeds if the result has a black-circled
// retreat; below 3:1 it fails without a roll (7.4.5).
func repulse(r dice.Roller, t *crt, column position, prDRM int) repulseOutcome {
	s := t.Scale
	three, _ := s.Find("3:1")
	switch {
	case column >= s.Top():
		return repulseOutcome{Success: true}
	case column < three:
		return repulseOutcome{}
	}
	roll := t.RollCRT(r, column, prDRM, "7.4.3 Repulse")
	return repulseOutcome{Rolled: true, Roll: roll, Success: roll.Result.BlackRetreat > 0}
}
