package sms1914

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// smallMagnitudeNeed is the lowest d6 that inflicts the SR under the 9.10.1
// table, or 0 when the SR is automatic: with 1/2 or 3/4 DE of enemy, 1 SR
// needs a 3-6 and 2 SRs give 1 SR automatically; with 1/4 DE, 1 SR needs a
// 5-6 and 2 SRs a 4-6. enemyQuarters is the enemy's size in quarter
// division-equivalents (1 to 3), srs the total CRT and Intensity SRs (1 or 2).
func smallMagnitudeNeed(enemyQuarters, srs int) int {
	switch {
	case enemyQuarters >= 2 && srs == 2:
		return 0
	case enemyQuarters >= 2:
		return 3
	case srs == 2:
		return 4
	}
	return 5
}

// smallMagnitude is the 9.10.1 check when the enemy's forces in the combat
// total less than one division-equivalent. A result listed on the table
// inflicts an SR, so at most one SR is suffered. It rolls 1d6 unless the SR
// is automatic.
func smallMagnitude(r dice.Roller, enemyQuarters, srs int) (suffered int, rolled bool, err error) {
	if enemyQuarters < 1 || enemyQuarters > 3 || srs < 1 || srs > 2 {
		return 0, false, fmt.Errorf("small magnitude needs an enemy of 1/4 to 3/4 DE and 1 or 2 SRs")
	}
	need := smallMagnitudeNeed(enemyQuarters, srs)
	if need == 0 {
		return 1, false, nil
	}
	if dice.Roll(r, 1, 6, "1914 SmS 9.10.1 Small Magnitude roll")[0] >= need {
		return 1, true, nil
	}
	return 0, true, nil
}
