package wbt

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// reconstitution is the outcome of a game turn's reconstitution check (9.0).
type reconstitution int

// The reconstitution outcomes.
const (
	noReconstitution reconstitution = iota
	mandatory                       // rolled 5-6 (9.2, 9.3)
	Discretionary                   // announced before the roll (9.4)
)

func (r reconstitution) String() string {
	return [...]string{"none", "mandatory", "discretionary"}[r]
}

// firstReconstitutionCheck is the turn the reconstitution marker starts on
// (9.2).
const firstReconstitutionCheck = 3

// checkReconstitution makes the reconstitution check of a turn the marker is
// on (9.2, 9.4): a discretionary reconstitution takes no roll; otherwise 5-6
// mandates one. A reconstitution moves the marker three turns on, no
// reconstitution one turn. It returns the outcome, the roll (0 if none) and
// the turn of the next check.
func checkReconstitution(turn int, discretionary bool, r dice.Roller) (out reconstitution, roll, next int) {
	if discretionary {
		return Discretionary, 0, turn + 3
	}
	roll = dice.Roll(r, 1, 6, fmt.Sprintf("WbT 9.2 reconstitution check, game turn %d", turn))[0]
	if roll >= 5 {
		return mandatory, roll, turn + 3
	}
	return noReconstitution, roll, turn + 1
}
