package pcs1995

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// natoContingents are the nationalities of the NATO Reinforcements Table
// (5.1.1), in table order: 1-2 German, 3-4 Canadian, 5-6 Italian, 7-8
// French.
var natoContingents = []string{"German", "Canadian", "Italian", "French"}

// natoTable reads the NATO Reinforcements Table (5.1.1).
func natoTable(roll int) string { return natoContingents[(roll-1)/2] }

// natoReinforcement is the nationality that arrives on a roll (5.1): none
// ("") when the table names a nationality that has already contributed
// (the Italians count once deployed by 5.1.2).
func natoReinforcement(roll int, used []string) string {
	n := natoTable(roll)
	if slices.Contains(used, n) {
		return ""
	}
	return n
}

// rollNATOReinforcement rolls the NATO reinforcement die (5.1). Once all
// four contingents have arrived no roll can bring any, so none is drawn.
func rollNATOReinforcement(r dice.Roller, used []string, detail ...string) (arrives, named string, rolled bool) {
	all := true
	for _, n := range natoContingents {
		all = all && slices.Contains(used, n)
	}
	if all {
		return "", "", false
	}
	roll := dice.Roll(r, 1, 8, purpose("1995 5.1 NATO reinforcements roll", detail))[0]
	return natoReinforcement(roll, used), natoTable(roll), true
}

// rsArrive is whether the 3 VO reinforcements enter (5.2): a d8 less than
// the current turn number.
func rsArrive(turn, roll int) bool { return roll < turn }

// rollRSReinforcements rolls for the Russian/Serbian reinforcements (5.2):
// from turn 2 on, while they have not yet arrived.
func rollRSReinforcements(r dice.Roller, turn int, arrived bool, detail ...string) (arrive, rolled bool) {
	if turn < 2 || arrived {
		return false, false
	}
	return rsArrive(turn, dice.Roll(r, 1, 8, purpose("1995 5.2 Russian/Serbian reinforcements roll", detail))[0]), true
}
