package perrote

import "github.com/umpire-pbem/umpire/adjudicator/resolve"

// Calculator is Per Rote OSR's rules calculator: the procedures
// `umpire resolve perrote` answers (docs/resolve.md).
var Calculator = &resolve.Game{
	ID:    "perrote",
	Title: "Per Rote OSR",
	Procedures: []*resolve.Procedure{
		shootProc,
		vehicleDamageProc,
		turnOrderProc,
		moraleProc,
		handToHandProc,
		mortarProc,
		smokeProc,
		sneakAttackProc,
	},
}

var yesNo = []string{"yes", "no"}
