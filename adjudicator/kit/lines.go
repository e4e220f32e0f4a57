package kit

import (
	"iter"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// StripComment drops an order line's "# ..." comment (the forecast a
// receipt's canonical order carries) and the spaces around the order.
func StripComment(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// Fields is the words of an order line, without its comment. Signs that
// join words ("+", ",", "/") stay inside them.
func Fields(line string) []string {
	return strings.Fields(StripComment(line))
}

// Lines yields each order line's number in the file and its text without
// its comment, skipping lines that hold nothing else.
func Lines(lines []adjudicator.OrderLine) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for _, l := range lines {
			text := StripComment(l.Text)
			if text == "" {
				continue
			}
			if !yield(l.Line, text) {
				return
			}
		}
	}
}
