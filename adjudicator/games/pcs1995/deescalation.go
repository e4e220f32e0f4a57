package pcs1995

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// deescalationDRM is the 7.5 table: the DRM the current VP gives side's
// roll. The bands favour NATO at low VP (1-3 +3, 4-6 +2, 7-8 +1) and
// Russia/Serbia at high VP (12-13 +1, 14-16 +2, 17-19 +3); the other side's
// roll is unmodified. VP outside 1-19 (possible only mid-turn) use the
// nearest band. The bool says whether the VP was outside the table.
func deescalationDRM(vp int, side faction) (int, bool) {
	out := vp < 1 || vp > 19
	var nato, rs int
	switch {
	case vp <= 3:
		nato = 3
	case vp <= 6:
		nato = 2
	case vp <= 8:
		nato = 1
	case vp <= 11:
	case vp <= 13:
		rs = 1
	case vp <= 16:
		rs = 2
	default:
		rs = 3
	}
	if side == NATO {
		return nato, out
	}
	return rs, out
}

// deescalationSuccess is whether a modified roll succeeds: 7 or more (7.5).
func deescalationSuccess(modified int) bool { return modified >= 7 }

// rollDeescalation makes one de-escalation roll (7.5); roll is the die
// and its DRM as the reports write it (kit.Roll).
func rollDeescalation(r dice.Roller, vp int, side faction, detail ...string) (roll string, modified int, success bool) {
	drm, _ := deescalationDRM(vp, side)
	die := dice.Roll(r, 1, 8, purpose("1995 7.5 de-escalation roll", detail))[0]
	var mods kit.Modifiers
	mods.Add(drm, fmt.Sprintf("at %d VP", vp), "7.5")
	return kit.Roll(die, mods), die + drm, deescalationSuccess(die + drm)
}
