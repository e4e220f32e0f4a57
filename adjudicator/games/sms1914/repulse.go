package sms1914

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// RepulseOutcome is a Repulse attempt's result (7.4.3-7.4.5).
type RepulseOutcome struct {
	Rolled  bool
	Roll    CombatRoll
	Success bool
}

// Repulse resolves a Repulse at a printed column (7.4.3): at 8:1 it
// succeeds automatically; at 3:1, 4:1 or 6:1 the active player rolls the CRT
// (white die modified by PR) and succeeds if the result has a black-circled
// retreat; below 3:1 it fails without a roll (7.4.5).
func Repulse(r dice.Roller, t *CRT, column Position, prDRM int) RepulseOutcome {
	s := t.Scale
	three, _ := s.Find("3:1")
	switch {
	case column >= s.Top():
		return RepulseOutcome{Success: true}
	case column < three:
		return RepulseOutcome{}
	}
	roll := t.RollCRT(r, column, prDRM, "7.4.3 Repulse")
	return RepulseOutcome{Rolled: true, Roll: roll, Success: roll.Result.BlackRetreat > 0}
}
