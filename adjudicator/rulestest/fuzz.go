package rulestest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// ParseLimit is how long ParseOrders may take on one fuzzed order file
// before ParseWithin calls it a hang. Real files parse in microseconds;
// the bound is wide so that a loaded machine does not fail a fuzzer.
const ParseLimit = 5 * time.Second

// ParseWithin is the body of every game's order fuzzer. It reads text as
// an order file's lines (numbered from 1) with rules.ParseOrders for seat
// in state, and fails t when the parser hangs (takes more than
// ParseLimit: a grammar loop that does not consume, which would stop the
// judge), panics (a Stalled loop among them), or refuses a line without
// naming a line of the file and a hint. It returns what the parser
// returned, for the game's own checks (canonical orders read back the
// same, accepted orders adjudicate).
func ParseWithin(t testing.TB, rules adjudicator.Rules, state []byte, seat, text string) ([]string, []adjudicator.Problem) {
	t.Helper()
	var lines []adjudicator.OrderLine
	for i, l := range strings.Split(text, "\n") {
		lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	type result struct {
		canon    []string
		problems []adjudicator.Problem
		panicked any
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			r.panicked = recover()
			done <- r
		}()
		r.canon, r.problems = rules.ParseOrders(state, seat, lines)
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(ParseLimit):
		// the parser goroutine is left spinning: the fuzzer stops here
		t.Fatalf("%s's ParseOrders did not return within %v for %s's file %q: a grammar loop that does not consume", rules.ID(), ParseLimit, seat, text)
	}
	if r.panicked != nil {
		t.Fatalf("%s's ParseOrders panicked for %s's file %q: %v", rules.ID(), seat, text, r.panicked)
	}
	for _, p := range r.problems {
		if p.Hint == "" || p.Line < 1 || p.Line > len(lines) {
			t.Fatalf("%s's refusal %s for %q: every refusal names a line of the file and a hint", rules.ID(), describe(p), text)
		}
	}
	return r.canon, r.problems
}

func describe(p adjudicator.Problem) string {
	return fmt.Sprintf("(line %d: %q, hint %q)", p.Line, p.Text, p.Hint)
}
