package sms1914

import "github.com/umpire-pbem/umpire/adjudicator/resolve"

// Calculator is 1914: Serbien muß sterbien's rules calculator: the procedures
// `umpire resolve sms1914` answers (../shared/design/resolve.md).
var Calculator = &resolve.Game{
	ID:         "sms1914",
	Title:      "1914: Serbien muß sterbien",
	Procedures: []*resolve.Procedure{},
}
