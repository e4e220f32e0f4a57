package wbt

import "github.com/umpire-pbem/umpire/adjudicator/resolve"

// Calculator is War by Television: Kosovo 1999's rules calculator: the procedures
// `umpire resolve wbt` answers (../shared/design/resolve.md).
var Calculator = &resolve.Game{
	ID:         "wbt",
	Title:      "War by Television: Kosovo 1999",
	Procedures: []*resolve.Procedure{},
}
