package wbt

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// crosser is who crosses an unbridged river hexside (10.15, 12.3).
type crosser int

// The crossers.
const (
	otherUnit  crosser = iota // any unit or Serbian stack but the two below
	mef                       // the US MEF: always 1 extra MP, no roll (10.15)
	airAssault                // the 1st AAA rebasing: ignores rivers (12.3)
)

// riverCrossingCost rolls the extra MP to cross an unbridged river hexside
// (10.15): one die for a NATO unit or a Serbian stack, a flat 1 for the MEF,
// none for the 1st AAA. It returns the cost and whether a die was rolled.
func riverCrossingCost(c crosser, r dice.Roller) (extra int, rolled bool) {
	switch c {
	case mef:
		return 1, false
	case airAssault:
		return 0, false
	}
	return dice.Roll(r, 1, 6, "WbT 10.15 unbridged river crossing roll")[0], true
}
