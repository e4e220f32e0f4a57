package rulestest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// PhaseState is where a game's examples of one phase are tried: the case
// directives of a prestate (scenario or state, sets, the game's own setup
// directives, one a line, as in a case file) and the seat that orders.
// The prestate may go on with steps, each ending with "then" (orders, dice
// and wants, as in a case): they are adjudicated first, as for a
// follow-up decision, and the example is tried in the step after them.
type PhaseState struct {
	Seat     string
	Prestate string
	// Lead are order lines the example follows in the same file, such as
	// the card an action round's orders are played with; they must be
	// accepted too.
	Lead []string
}

// Accepts feeds line to cfg.Rules' own parser, after ps.Lead, as ps.Seat
// in the state ps.Prestate makes, and returns the problems it reports ("" when it
// accepts the line). The prestate's state files are read from cfg.Dir.
func Accepts(cfg Config, ps PhaseState, line string) (string, error) {
	cases, err := parse(filepath.Join(cfg.Dir, "example.case"),
		strings.NewReader("case example\nrule help\n"+ps.Prestate+"\nwant not over\n"), cfg.Fixtures != nil)
	if err != nil {
		return "", err
	}
	if len(cases) != 1 {
		return "", fmt.Errorf("prestate %q: want one case, got %d", ps.Prestate, len(cases))
	}
	c := cases[0]
	state, err := c.prestate(cfg)
	if err != nil {
		return "", fmt.Errorf("prestate: %w", err)
	}
	for i, st := range c.Steps[:len(c.Steps)-1] {
		next, diffs, _ := st.check(cfg, state)
		if len(diffs) > 0 {
			return "", fmt.Errorf("prestate, step %d: %s", i+1, strings.Join(diffs, "; "))
		}
		state = next
	}
	spec, err := cfg.Rules.Step(state)
	if err != nil {
		return "", err
	}
	if !slices.Contains(spec.Owing, ps.Seat) {
		return "", fmt.Errorf("prestate: step %q owes orders of %v, not %s", spec.Phase, spec.Owing, ps.Seat)
	}
	var lines []adjudicator.OrderLine
	for i, l := range append(slices.Clone(ps.Lead), line) {
		lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	_, problems := cfg.Rules.ParseOrders(state, ps.Seat, lines)
	var out []string
	for _, p := range problems {
		text := ""
		if p.Line >= 1 && p.Line <= len(lines) {
			text = lines[p.Line-1].Text
		}
		out = append(out, fmt.Sprintf("line %d (%s): %s (hint: %s)", p.Line, text, p.Text, p.Hint))
	}
	return strings.Join(out, "; "), nil
}

// Examples checks cfg.Rules' verb table (adjudicator.Grammar), which its
// help mails: every verb has a form, a summary, a phase and an example,
// and the example is accepted by the game's own parser in the state that
// states gives for the verb's first phase (every phase the table names
// must have one), or for the verb itself where its example needs another
// seat or position.
func Examples(t *testing.T, cfg Config, states map[string]PhaseState) {
	t.Helper()
	g, ok := cfg.Rules.(adjudicator.Grammar)
	if !ok {
		t.Fatalf("%s has no verb table (adjudicator.Grammar)", cfg.Rules.ID())
	}
	verbs := g.Verbs()
	if len(verbs) == 0 {
		t.Fatalf("%s: empty verb table", cfg.Rules.ID())
	}
	for _, p := range verbs.Phases() {
		if _, ok := states[p]; !ok {
			t.Errorf("phase %q of the verb table has no state to try its examples in", p)
		}
	}
	for _, v := range verbs {
		t.Run(v.Name, func(t *testing.T) {
			if v.Form == "" || v.Summary == "" || len(v.Phases) == 0 || v.Example == "" {
				t.Fatalf("verb %q lacks its form, summary, phase or example: %+v", v.Name, v)
			}
			if f := strings.Fields(v.Form); f[0] != v.Name {
				t.Errorf("verb %q: its form %q starts with another word", v.Name, v.Form)
			}
			if f := strings.Fields(v.Example); !v.Is(f[0]) {
				t.Errorf("verb %q: its example %q is of another verb", v.Name, v.Example)
			}
			ps, ok := states[v.Name]
			if !ok {
				ps, ok = states[v.Phases[0]]
			}
			if !ok {
				t.Skipf("no state of phase %q", v.Phases[0])
			}
			problems, err := Accepts(cfg, ps, v.Example)
			if err != nil {
				t.Fatal(err)
			}
			if problems != "" {
				t.Errorf("%s's example %q, in phase %s as %s: %s", v.Name, v.Example, v.Phases[0], ps.Seat, problems)
			}
		})
	}
}

// OrdersDocumented checks a game's orders page (docs/orders-GAME.md)
// against its verb table: every verb is named in it, in backquotes or in
// a fenced block, and every order line in its fenced blocks whose info
// string is "orders PHASE" is accepted by the game's parser in the state
// states gives for PHASE, each line on its own; in a block whose info
// string is "order-file PHASE" the lines are one file, accepted whole
// (order-file headers, "end" and comments are skipped). A page with no such block fails: its examples are not checked.
func OrdersDocumented(t *testing.T, cfg Config, doc string, states map[string]PhaseState) {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := cfg.Rules.(adjudicator.Grammar)
	if !ok {
		t.Fatalf("%s has no verb table (adjudicator.Grammar)", cfg.Rules.ID())
	}
	blocks := orderBlocks(text)
	if len(blocks) == 0 {
		t.Fatalf("%s: no ```orders PHASE block: its examples are not checked", doc)
	}
	var code strings.Builder
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllSubmatch(text, -1) {
		code.WriteString(" " + string(m[1]) + " ")
	}
	for _, b := range fencedBlocks(text) {
		code.WriteString("\n" + b + "\n")
	}
	words := strings.Fields(strings.ToLower(code.String()))
	for _, v := range g.Verbs() {
		if !slices.Contains(words, v.Name) {
			t.Errorf("%s does not document the order %q (%s)", doc, v.Name, v.Form)
		}
	}
	blocksParse(t, cfg, doc, blocks, states)
}

// DocumentedOrdersParse checks the fenced blocks of doc whose info string
// is "orders PHASE", as OrdersDocumented does, for a page that is not the
// game's orders page (docs/order-file.md's example).
func DocumentedOrdersParse(t *testing.T, cfg Config, doc string, states map[string]PhaseState) {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := orderBlocks(text)
	if len(blocks) == 0 {
		t.Fatalf("%s: no ```orders PHASE block: its examples are not checked", doc)
	}
	blocksParse(t, cfg, doc, blocks, states)
}

func blocksParse(t *testing.T, cfg Config, doc string, blocks []orderBlock, states map[string]PhaseState) {
	t.Helper()
	for _, b := range blocks {
		ps, ok := states[b.phase]
		if !ok {
			t.Errorf("%s:%d: no state of phase %q to try its examples in", doc, b.line, b.phase)
			continue
		}
		var orders []string
		var at []int
		for i, l := range b.lines {
			l = strings.TrimSpace(strings.SplitN(l, "#", 2)[0])
			if l == "" || l == "end" || regexp.MustCompile(`^[a-z]+:`).MatchString(l) {
				continue
			}
			orders, at = append(orders, l), append(at, b.line+1+i)
		}
		if b.whole && len(orders) > 0 {
			whole := ps
			whole.Lead = append(slices.Clone(ps.Lead), orders[:len(orders)-1]...)
			problems, err := Accepts(cfg, whole, orders[len(orders)-1])
			if err != nil {
				t.Fatalf("%s:%d: %v", doc, b.line, err)
			}
			if problems != "" {
				t.Errorf("%s:%d: the order file, in phase %s as %s: %s", doc, b.line, b.phase, ps.Seat, problems)
			}
			continue
		}
		for i, l := range orders {
			problems, err := Accepts(cfg, ps, l)
			if err != nil {
				t.Fatalf("%s:%d: %v", doc, at[i], err)
			}
			if problems != "" {
				t.Errorf("%s:%d: %q, in phase %s as %s: %s", doc, at[i], l, b.phase, ps.Seat, problems)
			}
		}
	}
}

type orderBlock struct {
	line  int // the opening fence's line
	phase string
	whole bool // an "order-file PHASE" block: its lines are one file
	lines []string
}

// orderBlocks are the fenced blocks of a page whose info string is
// "orders PHASE" or "order-file PHASE".
func orderBlocks(text []byte) []orderBlock {
	var out []orderBlock
	var cur *orderBlock
	in := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "```") {
			if in {
				if cur != nil {
					out = append(out, *cur)
				}
				in, cur = false, nil
				continue
			}
			in = true
			info := strings.TrimPrefix(l, "```")
			if phase, ok := strings.CutPrefix(info, "orders "); ok {
				cur = &orderBlock{line: n, phase: strings.TrimSpace(phase)}
			} else if phase, ok := strings.CutPrefix(info, "order-file "); ok {
				cur = &orderBlock{line: n, phase: strings.TrimSpace(phase), whole: true}
			}
			continue
		}
		if in && cur != nil {
			cur.lines = append(cur.lines, l)
		}
	}
	return out
}

// fencedBlocks are the texts of every fenced block of a page.
func fencedBlocks(text []byte) []string {
	var out []string
	var b strings.Builder
	in := false
	for l := range strings.SplitSeq(string(text), "\n") {
		if strings.HasPrefix(l, "```") {
			if in {
				out = append(out, b.String())
				b.Reset()
			}
			in = !in
			continue
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return out
}
