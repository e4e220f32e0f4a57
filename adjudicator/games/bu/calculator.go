package bu

import "github.com/umpire-pbem/umpire/adjudicator/resolve"

// Calculator is Brotherhood & Unity's rules calculator: the procedures
// `umpire resolve bu` answers (../shared/design/resolve.md).
var Calculator = &resolve.Game{
	ID:         "bu",
	Title:      "Brotherhood & Unity",
	Procedures: []*resolve.Procedure{},
}
