package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// Crosser is who crosses an unbridged river hexside (10.15, 12.3).
type Crosser int

// The crossers.
const (
	OtherUnit  Crosser = iota // any unit or Serbian stack but the two below
	MEF                       // the US MEF: always 1 extra MP, no roll (10.15)
	AirAssault                // the 1st AAA rebasing: ignores rivers (12.3)
)

// RiverCrossingCost rolls the extra MP to cross an unbridged river hexside
// (10.15): one die for a NATO unit or a Serbian stack, a flat 1 for the MEF,
// none for the 1st AAA. It returns the cost and whether a die was rolled.
func RiverCrossingCost(c Crosser, r dice.Roller) (extra int, rolled bool) {
	switch c {
	case MEF:
		return 1, false
	case AirAssault:
		return 0, false
	}
	return dice.Roll(r, 1, 6, "WbT 10.15 unbridged river crossing roll")[0], true
}
