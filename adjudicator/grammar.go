package adjudicator

import (
	"fmt"
	"slices"
	"strings"
)

// Verb is one order of a game's grammar: the word an order line starts
// with, the form of the whole line, the phases (steps) that take it, the
// rules it carries out, an example the game's own parser accepts in a
// state of the first of those phases, and a sentence saying what it does.
// A game's parser looks its verbs up in its table (Verbs.Lookup), so the
// help text that `help GAME` mails, which is made from the same table,
// cannot name a verb the parser refuses or miss one it takes.
type Verb struct {
	Name    string
	Aliases []string // other words the parser takes for the verb
	Form    string   // "move UNIT HEX...": the whole line, words in capitals filled in
	Phases  []string // the game's names of the phases that take it; a topic each
	Rules   string   // the rule numbers, "10.2, 10.4"
	Example string   // an order line the parser accepts in the first phase
	Summary string
}

// Verbs is a game's order table.
type Verbs []Verb

// Grammar is implemented by rules whose orders are a verb table: `help
// GAME` mails it, and `help GAME TOPIC` one verb or one phase of it.
type Grammar interface {
	Verbs() Verbs
}

// Lookup finds the verb that word names (its name or an alias, in any
// case).
func (vs Verbs) Lookup(word string) (Verb, bool) {
	for _, v := range vs {
		if v.Is(word) {
			return v, true
		}
	}
	return Verb{}, false
}

// Is says whether word names v: its name or an alias, in any case.
func (v Verb) Is(word string) bool {
	w := strings.ToLower(word)
	return v.Name == w || slices.Contains(v.Aliases, w)
}

// Has says whether word is one of the table's verbs or aliases.
func (vs Verbs) Has(word string) bool {
	_, ok := vs.Lookup(word)
	return ok
}

// Check refuses a canonical order whose verb is not in the table: the
// guard that keeps a parser from accepting an order its help does not
// list. It is an error of the judge, not of the player's line.
func (vs Verbs) Check(canon string) error {
	f := strings.Fields(canon)
	if len(f) == 0 || vs.Has(f[0]) {
		return nil
	}
	return fmt.Errorf("the judge took %q, which is not in the game's order table: tell the operator of the judge", f[0])
}

// Names are the verbs' names, in table order.
func (vs Verbs) Names() []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}

// Phases are the phases the table names, in the order they first appear.
func (vs Verbs) Phases() []string {
	var out []string
	for _, v := range vs {
		for _, p := range v.Phases {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// InPhase are the verbs phase takes, in table order.
func (vs Verbs) InPhase(phase string) Verbs {
	var out Verbs
	for _, v := range vs {
		if slices.Contains(v.Phases, phase) {
			out = append(out, v)
		}
	}
	return out
}

// Help is the text `help GAME` mails for game kind id: every verb with
// its form, phases, rules and example, grouped by phase; about says whose
// game it is ("wbt", or "wbt, the game of club-1").
func (vs Verbs) Help(id, title, about string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): the orders, one a line in an order file (send 'help' for the file's\nheader and how to sign it). Words are case-insensitive.\n", title, about)
	for _, p := range vs.Phases() {
		fmt.Fprintf(&b, "\n%s:\n", p)
		for _, v := range vs.InPhase(p) {
			fmt.Fprintf(&b, "  %s\n", v.Form)
		}
	}
	b.WriteString("\nEach order:\n")
	for _, v := range vs {
		b.WriteString("\n")
		v.write(&b)
	}
	fmt.Fprintf(&b, "\nSend 'help %s TOPIC' for one order or one phase; the topics are\n%s", id, wrapList(vs.Topics()))
	return b.String()
}

// wrapList is names joined with commas, in indented lines of at most 78
// characters (a name longer than that has a line of its own).
func wrapList(names []string) string {
	var b strings.Builder
	line := "  "
	for i, n := range names {
		if i < len(names)-1 {
			n += ","
		}
		if len(line) > 2 && len(line)+1+len(n) > 78 {
			b.WriteString(line + "\n")
			line = "  "
		}
		if len(line) > 2 {
			line += " "
		}
		line += n
	}
	return b.String() + line + "\n"
}

// Topics are the names `help GAME TOPIC` answers: the verbs, then the
// phases.
func (vs Verbs) Topics() []string {
	return append(vs.Names(), vs.Phases()...)
}

// Topic is the text `help GAME TOPIC` mails: one verb, or one phase's
// verbs; false when topic names neither.
func (vs Verbs) Topic(id, topic string) (string, bool) {
	var b strings.Builder
	if v, ok := vs.Lookup(topic); ok {
		v.write(&b)
		return b.String(), true
	}
	for _, p := range vs.Phases() {
		if strings.EqualFold(p, topic) {
			fmt.Fprintf(&b, "%s (%s): the orders of this phase\n", p, id)
			for _, v := range vs.InPhase(p) {
				b.WriteString("\n")
				v.write(&b)
			}
			return b.String(), true
		}
	}
	return "", false
}

func (v Verb) write(b *strings.Builder) {
	fmt.Fprintf(b, "%s\n  %s\n", v.Form, v.Summary)
	if len(v.Aliases) > 0 {
		fmt.Fprintf(b, "  also written: %s\n", strings.Join(v.Aliases, ", "))
	}
	fmt.Fprintf(b, "  phase: %s\n", strings.Join(v.Phases, ", "))
	if v.Rules != "" {
		fmt.Fprintf(b, "  rules: %s\n", v.Rules)
	}
	fmt.Fprintf(b, "  example: %s\n", v.Example)
}

// Nearest are the names closest to word by edit distance (case ignored),
// closest first, at most three, and none further than a third of the
// longer word's length plus one: the did-you-mean of an unknown name.
func Nearest(word string, names []string) []string {
	type scored struct {
		name string
		d    int
	}
	var out []scored
	w := strings.ToLower(word)
	for _, n := range names {
		d := editDistance(w, strings.ToLower(n))
		if d <= max(len(w), len(n))/3+1 {
			out = append(out, scored{n, d})
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int { return a.d - b.d })
	var names3 []string
	for i := 0; i < len(out) && i < 3; i++ {
		names3 = append(names3, out[i].name)
	}
	return names3
}

// editDistance is the Levenshtein distance of a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DidYouMean is the hint for word, an unknown name: "did you mean R1 or
// R2?" with the names of the first list that has any near word (Nearest),
// so that a seat's own units, listed first, come before the others; when
// no name is near, fallback (which says where the names are, never all of
// them).
func DidYouMean(word, fallback string, lists ...[]string) string {
	for _, names := range lists {
		if near := nearNames(word, names); len(near) > 0 {
			return "did you mean " + OrList(near) + "?"
		}
	}
	return fallback
}

// OrList writes names as "A", "A or B", "A, B or C".
func OrList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// UnitHint is the hint for id, a unit the seat has not: the nearest of
// the seat's own units (own), else where the seat finds their ids.
func UnitHint(id string, own []string) string {
	return DidYouMean(id, "'units GAME' mails your units' ids", own)
}

// Hint is rest, the hint for word, an unknown verb of the table, after
// the verbs nearest to it: "did you mean move? " + rest.
func (vs Verbs) Hint(word, rest string) string {
	var names []string
	for _, v := range vs {
		names = append(names, v.Name)
		names = append(names, v.Aliases...)
	}
	if near := nearNames(word, names); len(near) > 0 {
		return "did you mean " + OrList(near) + "? " + rest
	}
	return rest
}
