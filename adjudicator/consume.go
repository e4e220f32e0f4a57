package adjudicator

import "fmt"

// Stalled is the panic of a loop over a player's words that took none: a
// parser bug that would otherwise spin for ever on one line and stop the
// judge (issue 27: a lone "gs" at the end of a 1995 pa line did). The judge
// recovers it as a message it cannot process (the message is set aside and
// its sender told), and the fuzzers report it at once instead of hanging.
type Stalled struct{ Left int }

func (s Stalled) Error() string {
	return fmt.Sprintf("an order grammar loop took nothing (%d left to read)", s.Left)
}

// Consuming guards a loop that reads words (or the characters of a string)
// from the front of *words:
//
//	for more := adjudicator.Consuming(&rest); more(); {
//		... rest = rest[n:] ...
//	}
//
// more reports whether anything is left, and panics with Stalled when the
// pass before it left *words as long as it found it. Every loop of an order
// grammar is either counted (i++ and nothing else moving i) or guarded so;
// TestGrammarLoopsConsume checks each game's orders*.go for it.
func Consuming[S ~string | ~[]string](words *S) func() bool {
	last := -1
	return func() bool {
		n := len(*words)
		if last >= 0 && n >= last {
			panic(Stalled{Left: n})
		}
		last = n
		return n > 0
	}
}
