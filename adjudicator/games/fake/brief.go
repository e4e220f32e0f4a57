package fake

import (
	"fmt"
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Brief implements adjudicator.Briefer: in a window the challenged seat's
// two answers; in an order step the dice to roll, each unit's moves to
// the hexes beside it, the seats to challenge and the hidden card.
func (rules) Brief(state []byte, seat string) adjudicator.Brief {
	s, err := decode(state)
	if err != nil {
		return adjudicator.Brief{Asks: err.Error()}
	}
	if s.Window != "" {
		return adjudicator.Brief{Asks: fmt.Sprintf("%s challenged you: accept or refuse.", s.Challenger),
			Choices: []adjudicator.Choice{{About: "your answer to the challenge", Lines: []string{"accept", "refuse"}, Default: "you refuse"}}}
	}
	b := adjudicator.Brief{Asks: "Roll dice for points, move your units, challenge a seat or draw a hidden card.",
		Choices: []adjudicator.Choice{{About: "dice to roll for points", Lines: []string{"roll 1", "roll 2", "roll 3"}, Default: "you roll none"}}}
	for _, u := range unitsOf(s, seat) {
		hex := s.Units[u]
		c := adjudicator.Choice{About: fmt.Sprintf("unit %s at %s", u, hex), Default: "it stays"}
		col, _ := strconv.Atoi(hex[:2])
		row, _ := strconv.Atoi(hex[2:])
		for _, d := range [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			if c2, r2 := col+d[0], row+d[1]; c2 >= 1 && c2 <= 99 && r2 >= 1 && r2 <= 99 {
				c.Lines = append(c.Lines, fmt.Sprintf("move %s %02d%02d", u, c2, r2))
			}
		}
		b.Choices = append(b.Choices, c)
	}
	var others []string
	for _, o := range s.Seats {
		if o != seat {
			others = append(others, "challenge "+o)
		}
	}
	if len(others) > 0 {
		b.Choices = append(b.Choices, adjudicator.Choice{About: "a seat to challenge", Lines: others, Default: "you challenge nobody"})
	}
	b.Choices = append(b.Choices, adjudicator.Choice{About: "a hidden card", Lines: []string{"secret", "show"}, Default: "you draw none"})
	return b
}
