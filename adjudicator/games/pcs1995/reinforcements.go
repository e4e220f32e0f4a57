package pcs1995

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// NATOContingents are the nationalities of the NATO Reinforcements Table
// (5.1.1), in table order: 1-2 German, 3-4 Canadian, 5-6 Italian, 7-8
// French.
var NATOContingents = []string{"German", "Canadian", "Italian", "French"}

// NATOTable reads the NATO Reinforcements Table (5.1.1).
func NATOTable(roll int) string { return NATOContingents[(roll-1)/2] }

// NATOReinforcement is the nationality that arrives on a roll (5.1): none
// ("") when the table names a nationality that has already contributed
// (the Italians count once deployed by 5.1.2).
func NATOReinforcement(roll int, used []string) string {
	n := NATOTable(roll)
	if slices.Contains(used, n) {
		return ""
	}
	return n
}

// RollNATOReinforcement rolls the NATO reinforcement die (5.1). Once all
// four contingents have arrived no roll can bring any, so none is drawn.
func RollNATOReinforcement(r dice.Roller, used []string, detail ...string) (arrives, named string, rolled bool) {
	all := true
	for _, n := range NATOContingents {
		all = all && slices.Contains(used, n)
	}
	if all {
		return "", "", false
	}
	roll := dice.Roll(r, 1, 8, purpose("1995 5.1 NATO reinforcements roll", detail))[0]
	return NATOReinforcement(roll, used), NATOTable(roll), true
}

// RSArrive is whether the 3 VO reinforcements enter (5.2): a d8 less than
// the current turn number.
func RSArrive(turn, roll int) bool { return roll < turn }

// RollRSReinforcements rolls for the Russian/Serbian reinforcements (5.2):
// from turn 2 on, while they have not yet arrived.
func RollRSReinforcements(r dice.Roller, turn int, arrived bool, detail ...string) (arrive, rolled bool) {
	if turn < 2 || arrived {
		return false, false
	}
	return RSArrive(turn, dice.Roll(r, 1, 8, purpose("1995 5.2 Russian/Serbian reinforcements roll", detail))[0]), true
}
