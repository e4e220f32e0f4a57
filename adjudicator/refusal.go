package adjudicator

import "fmt"

// Refusal is a game's refusal of one order line: the Text a receipt shows
// the player and the Hint that says what would be legal. Games make every
// refusal with Refuse, so that the refusal walk (package rulestest) finds
// each of them by the constructor and checks that a rules case produces it
// and that docs/troubleshooting.md explains it.
type Refusal struct {
	Text string
	Hint string
}

// Refuse makes a refusal: hint says what would be legal, format and args
// the text. The walk reads the format, so it must be a string literal.
func Refuse(hint, format string, args ...any) *Refusal {
	return &Refusal{Text: fmt.Sprintf(format, args...), Hint: hint}
}

func (r *Refusal) Error() string { return r.Text }

// Problem is the refusal as a receipt's problem on line.
func (r *Refusal) Problem(line int) Problem {
	return Problem{Line: line, Text: r.Text, Hint: r.Hint}
}
