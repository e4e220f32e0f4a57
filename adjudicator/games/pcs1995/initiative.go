package pcs1995

import "github.com/umpire-pbem/umpire/adjudicator/dice"

// faction is one of the two players: NATO or Russia/Serbia (RS).
type faction string

// The two sides.
const (
	NATO faction = "NATO"
	RS   faction = "RS"
)

// initiativeWinner compares the two d8 (3.2, 4.0 II): the higher wins and a
// tie goes to Russia/Serbia.
func initiativeWinner(nato, rs int) faction {
	if nato > rs {
		return NATO
	}
	return RS
}

// rollInitiative determines the initiative for a turn (3.2): NATO holds it
// on turn 1 without a roll; later NATO rolls a d8, then Russia/Serbia.
func rollInitiative(r dice.Roller, turn int) (winner faction, rolled bool) {
	if turn <= 1 {
		return NATO, false
	}
	n := dice.Roll(r, 1, 8, "1995 3.2 NATO initiative die")[0]
	s := dice.Roll(r, 1, 8, "1995 3.2 Russian/Serbian initiative die")[0]
	return initiativeWinner(n, s), true
}
