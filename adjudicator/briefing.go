package adjudicator

import (
	"fmt"
	"strings"
)

// Briefer is implemented by rules that can brief a seat on the step open
// in state: what the step asks of it and, for each of its units or
// decisions, the order lines it may send. The judge mails the brief, with
// a pre-filled order file made of it (OrderForm), on join, on start and in
// every report that opens a step the seat owes orders for.
//
// The contract, checked for every game by rulestest.Briefings over whole
// games: a file made of at most one line of each Choice, and at least one
// line in all, is accepted by ParseOrders with no problem, and no line of
// it is a no-op. A seat that owes orders has at least one Choice.
type Briefer interface {
	Brief(state []byte, seat string) Brief
}

// Brief is what the step open in a state asks of one seat.
type Brief struct {
	// Asks says in a sentence or two what the step asks of the seat
	// ("Move your units and declare attacks", "Choose where each
	// retreating unit goes").
	Asks string
	// Choices are the seat's units and decisions, in the order a player
	// would take them: each with the lines it may send.
	Choices []Choice
}

// Choice is one unit or decision of a brief.
type Choice struct {
	// About names what the choice is about: a unit with its values and
	// position ("ARBIH-2 infantry 3-4 at tuzla"), or a decision ("the
	// card to play").
	About string
	// Lines are complete order lines the game's parser accepts in the
	// step, each one a legal answer; a file sends at most one of them.
	Lines []string
	// Default says what happens about it when no line is sent, a clause
	// ("it holds"); "" says nothing.
	Default string
}

// StandingOrders is implemented by rules whose seats give standing orders
// (orders that stay in force from step to step until changed, such as how
// losses are taken): the lines in force for seat in state, written as the
// parser takes them, defaults included. Every report shows them.
type StandingOrders interface {
	Standing(state []byte, seat string) []string
}

// FormMark starts each line of a pre-filled order file that a player may
// keep by deleting the mark; FormHeading starts a choice's heading.
const (
	FormMark    = "# "
	FormHeading = "## "
)

// OrderForm is the pre-filled order file for seat of game at step (its
// phase) from brief: the header filled in, then each choice as a heading
// and its lines, each commented out, for the player to keep one by
// deleting its "# ", sign and send. A brief without choices gives a file
// that says there is nothing to order.
func OrderForm(game, seat string, step uint64, phase string, brief Brief) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Order file of %s for %s, step %d (%s).\n", seat, game, step, phase)
	if brief.Asks != "" {
		for _, l := range wrapWords(brief.Asks, 76) {
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString("# Keep at most one line under each ## heading by deleting its '# ';\n")
	b.WriteString("# every other line starting with # is a comment. Then sign and send.\n")
	fmt.Fprintf(&b, "game: %s\nstep: %d\nseat: %s\n", game, step, seat)
	if len(brief.Choices) == 0 {
		b.WriteString("\n# Nothing to order in this step.\n")
	}
	for _, c := range brief.Choices {
		head := c.About
		if c.Default != "" {
			head += "; without an order " + c.Default
		}
		head += ". Keep one:"
		b.WriteString("\n")
		for i, l := range wrapWords(head, 75) {
			if i == 0 {
				b.WriteString(FormHeading + l + "\n")
			} else {
				b.WriteString(FormHeading + "  " + l + "\n")
			}
		}
		for _, l := range c.Lines {
			b.WriteString(FormMark + l + "\n")
		}
	}
	b.WriteString("end\n")
	return b.String()
}

// FormChoices reads back a pre-filled order file (OrderForm): its
// header lines, and each choice's heading with its lines, as a player's
// program or a test reads the file it was mailed.
func FormChoices(form string) (header []string, choices []Choice) {
	for _, l := range strings.Split(form, "\n") {
		l = strings.TrimRight(l, "\r")
		switch {
		case strings.HasPrefix(l, FormHeading+"  ") && len(choices) > 0:
			choices[len(choices)-1].About += " " + strings.TrimPrefix(l, FormHeading+"  ")
		case strings.HasPrefix(l, FormHeading):
			choices = append(choices, Choice{About: strings.TrimPrefix(l, FormHeading)})
		case strings.HasPrefix(l, FormMark) && len(choices) > 0:
			choices[len(choices)-1].Lines = append(choices[len(choices)-1].Lines, strings.TrimPrefix(l, FormMark))
		case l != "" && !strings.HasPrefix(l, "#") && l != "end":
			header = append(header, l)
		}
	}
	return header, choices
}

// wrapWords breaks s into lines of at most width characters at spaces
// (a longer word has a line of its own).
func wrapWords(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
