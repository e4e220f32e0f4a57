package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/resolve"

// Calculator is 1995: Milosevic's Last Gamble's rules calculator: the procedures
// `umpire resolve pcs1995` answers (../shared/design/resolve.md).
var Calculator = &resolve.Game{
	ID:         "pcs1995",
	Title:      "1995: Milosevic's Last Gamble",
	Procedures: []*resolve.Procedure{},
}
