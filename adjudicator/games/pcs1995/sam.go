package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// samTarget is what a SAM roll fires from (6.6): the ground unit the air
// mission targeted, or an airmobile unit landing on an enemy city (3.3.1).
type samTarget struct {
	UQR              uqr  // the targeted unit's UQR
	NoTarget         bool // no targeted ground unit (a strategic bombing): no UQR or city DRM
	City             bool // the targeted unit is in a city hex
	HomeCity         bool // a friendly city its player has controlled since the start (a city)
	AirmobileLanding bool // an airmobile unit landing on an unoccupied enemy-controlled city
}

// SAMRolls is whether the SAM fire is rolled at all (6.6): a targeted unit
// of UQR D fires only from a friendly city its player has held since the
// start. An airmobile landing, and a mission with no targeted ground unit,
// always roll.
func (t samTarget) SAMRolls() bool {
	return t.AirmobileLanding || t.NoTarget || t.UQR.Grade > 1 || t.HomeCity
}

// SAMDRM is the SAM fire DRM (6.6.1): +1 for a UQR A target, +1 for a target
// in a city unless it is UQR D; none without a targeted ground unit (6.6:
// a strategic bombing). An airmobile landing on an enemy-controlled
// city takes +1 and nothing else (3.3.1: there is no targeted ground unit).
func (t samTarget) SAMDRM() int {
	if t.AirmobileLanding {
		return 1
	}
	if t.NoTarget {
		return 0
	}
	drm := 0
	if t.UQR.Grade == 4 {
		drm++
	}
	if (t.City || t.HomeCity) && t.UQR.Grade > 1 {
		drm++
	}
	return drm
}

// samDamages is whether a modified SAM roll hits: 7 or more (6.6).
func samDamages(modified int) bool { return modified >= 7 }

// rollSAM fires SAM at one air unit or landing airmobile unit (6.6): rolled
// is false (and no die drawn) when the rule gives no roll.
func rollSAM(r dice.Roller, t samTarget, detail ...string) (rolled bool, modified int, damaged bool) {
	if !t.SAMRolls() {
		return false, 0, false
	}
	m := dice.Roll(r, 1, 8, purpose("1995 6.6 SAM fire", detail))[0] + t.SAMDRM()
	return true, m, samDamages(m)
}
