package pcs1995

import (
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

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
func (t samTarget) SAMDRM() int { return t.SAMMods().Sum() }

// SAMMods are the DRMs of SAMDRM, each named with its rule.
func (t samTarget) SAMMods() kit.Modifiers {
	var mods kit.Modifiers
	if t.AirmobileLanding {
		mods.Add(1, "landing on an enemy city", "3.3.1")
		return mods
	}
	if t.NoTarget {
		return nil
	}
	if t.UQR.Grade == 4 {
		mods.Add(1, "UQR A target", "6.6.1")
	}
	if (t.City || t.HomeCity) && t.UQR.Grade > 1 {
		mods.Add(1, "target in a city", "6.6.1")
	}
	return mods
}

// samDamages is whether a modified SAM roll hits: 7 or more (6.6).
func samDamages(modified int) bool { return modified >= 7 }

// rollSAM fires SAM at one air unit or landing airmobile unit (6.6): rolled
// is false (and no die drawn) when the rule gives no roll; roll is the die
// and its DRMs as the reports write it (kit.Roll).
func rollSAM(r dice.Roller, t samTarget, detail ...string) (rolled bool, roll string, modified int, damaged bool) {
	if !t.SAMRolls() {
		return false, "", 0, false
	}
	die := dice.Roll(r, 1, 8, purpose("1995 6.6 SAM fire", detail))[0]
	m := die + t.SAMDRM()
	return true, kit.Roll(die, t.SAMMods()), m, samDamages(m)
}
