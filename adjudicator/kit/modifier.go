package kit

import (
	"fmt"
	"strings"
)

// Modifier is one term added to a die roll: its value, what it is for, as
// a player reads it ("card B15", "city", "Bosniak on turn 1"), and the rule
// that gives it ("13.4.4.3").
type Modifier struct {
	Value int
	Why   string
	Rule  string
}

// Modifiers are the terms added to one roll, in the order the rules list
// them.
type Modifiers []Modifier

// Add appends a modifier of value v, unless v is 0 (a term that changes
// nothing is not named).
func (ms *Modifiers) Add(v int, why, rule string) {
	if v != 0 {
		*ms = append(*ms, Modifier{Value: v, Why: why, Rule: rule})
	}
}

// Sum is the modifiers' total.
func (ms Modifiers) Sum() int {
	n := 0
	for _, m := range ms {
		n += m.Value
	}
	return n
}

// String lists the modifiers as terms of a sum, each with its rule:
// "+2 card B15 (13.4.4) -2 Bosniak on turn 1 (13.4.4.3)"; "" for none.
func (ms Modifiers) String() string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%+d %s", m.Value, m.Why)
		if m.Rule != "" {
			fmt.Fprintf(&b, " (%s)", m.Rule)
		}
	}
	return b.String()
}

// Roll is a die roll as the reports and the rules calculator write it:
// the die, each modifier with its value and rule, and the total, "7 +2
// card B15 (13.4.4) -2 Bosniak on turn 1 (13.4.4.3) = 7"; the die alone
// when nothing modifies it. One way of writing a modified roll, so that a
// player can check the sum and the rule of every term, and a test can
// read it back (reporttext_test.go in cmd/umpire/web).
func Roll(die int, ms Modifiers) string {
	if len(ms) == 0 {
		return fmt.Sprint(die)
	}
	return fmt.Sprintf("%d %s = %d", die, ms, die+ms.Sum())
}
