// Package rulestest runs adjudication cases, written as data, against any
// game's rules (adjudicator.Rules): one case format and one runner for
// every game.
//
// A case file (*.case) holds one or more cases. Each starts with a case
// line and is made of directives, one a line; # starts a comment:
//
//	case RPG at a tank's front needs a 6
//	rule Vehicle Damage                 the rule the case checks (required)
//	scenario demo turns=6               the prestate: a scenario and options,
//	state duel.json                     or a state file beside the case file
//	set units[id=T1].facing = 3         edit the prestate: path = JSON value
//	orders Russia                       the seat's order lines follow,
//	  shoot R1 at T1 with rpg           indented
//	dice 14 12 5                        forced faces, in draw order (more
//	dice 6 6                            dice lines add to them)
//	want event needs 6+                 an event's text contains this
//	want no event destroyed             no event's text contains this
//	want rule Vehicle Damage            an event cites this rule
//	want state units[id=T1].motive = "crippled"
//	want problem Russia not next to     ParseOrders reports such a problem
//	want over                           the game is over after the step
//	want error the game is over         Adjudicate fails with this
//	parse only                          check the orders' problems only
//
// The = of set and want state has a space on each side. Paths are
// dot-separated keys and array indexes of the state's JSON; a
// segment "name[key=value]" picks the element of array name whose field
// key is value, and a final "#" is the length of an array or object.
// Dice are forced with resolve.NewForced: too few, too many or an
// out-of-range face fails the case and lists the draws made.
package rulestest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Case is one adjudication case.
type Case struct {
	File string
	Line int
	Name string
	Rule string
	Dir  string // the case file's directory, for state files
	Prestate
	Sets      []Set
	Orders    map[string][]adjudicator.OrderLine
	SeatOrder []string
	Dice      []int
	DiceGiven bool
	Wants     []Want
	ParseOnly bool
}

// Prestate is where a case starts: a scenario with options, or a file.
type Prestate struct {
	Scenario  string
	Options   map[string]string
	StateFile string
}

// Set is an edit of the prestate.
type Set struct {
	Line  int
	Path  string
	Value json.RawMessage
}

// Want is one expectation.
type Want struct {
	Line int
	Kind string // event, no event, rule, state, problem, over, error
	Seat string // problem
	Text string // event, rule, problem, error; state: the path
	// Value is the expected JSON for state.
	Value json.RawMessage
}

// Config says what Run runs.
type Config struct {
	Rules adjudicator.Rules
	// Dir holds the *.case files.
	Dir string
	// Load, when set, turns a state file that is not JSON (a scenario
	// source, say) into a state.
	Load func(path string, data []byte) ([]byte, error)
}

// Run runs every case of every *.case file in c.Dir as a subtest.
func Run(t *testing.T, c Config) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(c.Dir, "*.case"))
	if err != nil || len(files) == 0 {
		t.Fatalf("rulestest: no *.case files in %s", c.Dir)
	}
	total := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := Parse(file, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range cases {
			total++
			name := strings.TrimSuffix(filepath.Base(file), ".case") + ":" + strconv.Itoa(cs.Line)
			t.Run(name, func(t *testing.T) {
				if diffs := cs.Check(c); len(diffs) > 0 {
					t.Errorf("%s:%d %s (%s)\n  %s", cs.File, cs.Line, cs.Name, cs.Rule, strings.Join(diffs, "\n  "))
				}
			})
		}
	}
	t.Logf("%d cases from %d files", total, len(files))
}

// Parse reads the cases of one file.
func Parse(file string, r io.Reader) ([]*Case, error) {
	var cases []*Case
	var cur *Case
	seat := ""
	sc := bufio.NewScanner(r)
	n := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, n, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		n++
		raw := sc.Text()
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		if indented && seat != "" {
			cur.Orders[seat] = append(cur.Orders[seat], adjudicator.OrderLine{Line: len(cur.Orders[seat]) + 1, Text: line})
			continue
		}
		seat = ""
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if word == "case" {
			if err := finish(cur, file); err != nil {
				return nil, err
			}
			cur = &Case{File: filepath.Base(file), Line: n, Name: rest, Dir: filepath.Dir(file), Orders: map[string][]adjudicator.OrderLine{}}
			cases = append(cases, cur)
			continue
		}
		if cur == nil {
			return nil, fail("%q before the first case line", word)
		}
		switch word {
		case "rule":
			cur.Rule = rest
		case "scenario":
			f := strings.Fields(rest)
			if len(f) == 0 {
				return nil, fail("scenario needs a name")
			}
			cur.Scenario, cur.Options = f[0], map[string]string{}
			for _, kv := range f[1:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, fail("scenario option %q: want key=value", kv)
				}
				cur.Options[k] = v
			}
		case "state":
			cur.StateFile = rest
		case "set":
			p, v, ok := strings.Cut(rest, " = ")
			if !ok || !json.Valid([]byte(strings.TrimSpace(v))) {
				return nil, fail("set: want PATH = JSON value")
			}
			cur.Sets = append(cur.Sets, Set{Line: n, Path: strings.TrimSpace(p), Value: json.RawMessage(strings.TrimSpace(v))})
		case "orders":
			if rest == "" {
				return nil, fail("orders needs a seat")
			}
			seat = rest
			if _, ok := cur.Orders[seat]; !ok {
				cur.Orders[seat] = nil
				cur.SeatOrder = append(cur.SeatOrder, seat)
			}
		case "dice":
			cur.DiceGiven = true
			for _, f := range strings.Fields(strings.ReplaceAll(rest, ",", " ")) {
				v, err := strconv.Atoi(f)
				if err != nil {
					return nil, fail("dice: %q is not a number", f)
				}
				cur.Dice = append(cur.Dice, v)
			}
		case "parse":
			if rest != "only" {
				return nil, fail("write parse only")
			}
			cur.ParseOnly = true
		case "want":
			w, err := parseWant(n, rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			cur.Wants = append(cur.Wants, w)
		default:
			return nil, fail("unknown directive %q", word)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := finish(cur, file); err != nil {
		return nil, err
	}
	return cases, nil
}

func finish(c *Case, file string) error {
	switch {
	case c == nil:
		return nil
	case c.Rule == "":
		return fmt.Errorf("%s:%d: case %q cites no rule", file, c.Line, c.Name)
	case c.Scenario == "" && c.StateFile == "":
		return fmt.Errorf("%s:%d: case %q has no prestate (scenario or state)", file, c.Line, c.Name)
	case len(c.Wants) == 0:
		return fmt.Errorf("%s:%d: case %q expects nothing", file, c.Line, c.Name)
	}
	return nil
}

func parseWant(n int, s string) (Want, error) {
	w := Want{Line: n}
	switch {
	case strings.HasPrefix(s, "no event "):
		w.Kind, w.Text = "no event", strings.TrimPrefix(s, "no event ")
	case strings.HasPrefix(s, "event "):
		w.Kind, w.Text = "event", strings.TrimPrefix(s, "event ")
	case strings.HasPrefix(s, "rule "):
		w.Kind, w.Text = "rule", strings.TrimPrefix(s, "rule ")
	case strings.HasPrefix(s, "error "):
		w.Kind, w.Text = "error", strings.TrimPrefix(s, "error ")
	case s == "over" || s == "not over":
		w.Kind = s
	case strings.HasPrefix(s, "problem "):
		seat, text, ok := strings.Cut(strings.TrimPrefix(s, "problem "), " ")
		if !ok {
			return w, fmt.Errorf("want problem SEAT TEXT")
		}
		w.Kind, w.Seat, w.Text = "problem", seat, text
	case strings.HasPrefix(s, "state "):
		p, v, ok := strings.Cut(strings.TrimPrefix(s, "state "), " = ")
		v = strings.TrimSpace(v)
		if !ok || !json.Valid([]byte(v)) {
			return w, fmt.Errorf("want state PATH = JSON value")
		}
		w.Kind, w.Text, w.Value = "state", strings.TrimSpace(p), json.RawMessage(v)
	default:
		return w, fmt.Errorf("want %q: want event, no event, rule, state, problem, over, not over or error", s)
	}
	return w, nil
}

func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	if strings.HasPrefix(strings.TrimSpace(s), "#") {
		return ""
	}
	return s
}

// prestate builds the case's starting state.
func (c *Case) prestate(cfg Config) ([]byte, error) {
	var state []byte
	var err error
	if c.Scenario != "" {
		state, err = cfg.Rules.New(c.Scenario, c.Options)
	} else {
		path := filepath.Join(c.Dir, c.StateFile)
		state, err = os.ReadFile(path)
		if err == nil && !json.Valid(state) {
			if cfg.Load == nil {
				return nil, fmt.Errorf("state %s is not JSON", c.StateFile)
			}
			state, err = cfg.Load(path, state)
		}
	}
	if err != nil || len(c.Sets) == 0 {
		return state, err
	}
	var doc any
	if err := json.Unmarshal(state, &doc); err != nil {
		return nil, err
	}
	for _, s := range c.Sets {
		var v any
		if err := json.Unmarshal(s.Value, &v); err != nil {
			return nil, err
		}
		if doc, err = setPath(doc, s.Path, v); err != nil {
			return nil, fmt.Errorf("line %d: set %s: %w", s.Line, s.Path, err)
		}
	}
	return json.Marshal(doc)
}

// Check runs the case and returns what differs from its expectations.
func (c *Case) Check(cfg Config) []string {
	state, err := c.prestate(cfg)
	if err != nil {
		return []string{"prestate: " + err.Error()}
	}
	var diffs []string
	orders := map[string][]string{}
	problems := map[string][]adjudicator.Problem{}
	for _, seat := range c.SeatOrder {
		canon, probs := cfg.Rules.ParseOrders(state, seat, c.Orders[seat])
		orders[seat], problems[seat] = canon, probs
	}
	for _, seat := range c.SeatOrder {
		for _, p := range problems[seat] {
			if !c.wantsProblem(seat, p) {
				diffs = append(diffs, fmt.Sprintf("unexpected problem for %s, order line %d: %s (%s)", seat, p.Line, p.Text, p.Hint))
			}
		}
	}
	for _, w := range c.Wants {
		if w.Kind != "problem" {
			continue
		}
		found := false
		for _, p := range problems[w.Seat] {
			found = found || strings.Contains(p.Text, w.Text) || strings.Contains(p.Hint, w.Text)
		}
		if !found {
			diffs = append(diffs, fmt.Sprintf("line %d: no problem for %s contains %q (problems: %v)", w.Line, w.Seat, w.Text, problems[w.Seat]))
		}
	}
	if c.ParseOnly {
		return diffs
	}
	roller := resolve.NewForced(c.Dice)
	next, events, err := cfg.Rules.Adjudicate(state, orders, roller)
	if err != nil {
		for _, w := range c.Wants {
			if w.Kind == "error" && strings.Contains(err.Error(), w.Text) {
				return diffs
			}
		}
		return append(diffs, "adjudicate: "+err.Error())
	}
	if err := roller.Err(); err != nil && (c.DiceGiven || len(roller.Drawn()) > 0) {
		diffs = append(diffs, "dice: "+err.Error())
	}
	var doc any
	if err := json.Unmarshal(next, &doc); err != nil {
		return append(diffs, "poststate: "+err.Error())
	}
	var over bool
	if spec, err := cfg.Rules.Step(next); err == nil {
		over = spec.Over
	}
	for _, w := range c.Wants {
		switch w.Kind {
		case "event", "no event", "rule":
			found := false
			for _, e := range events {
				if w.Kind == "rule" && e.Rule == w.Text || w.Kind != "rule" && strings.Contains(e.Text, w.Text) {
					found = true
				}
			}
			if found != (w.Kind != "no event") {
				diffs = append(diffs, fmt.Sprintf("line %d: want %s %q; events:\n%s", w.Line, w.Kind, w.Text, eventList(events)))
			}
		case "state":
			got, err := getPath(doc, w.Text)
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("line %d: state %s: %v", w.Line, w.Text, err))
				continue
			}
			var want any
			_ = json.Unmarshal(w.Value, &want)
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if string(gb) != string(wb) {
				diffs = append(diffs, fmt.Sprintf("line %d: state %s = %s, want %s", w.Line, w.Text, gb, wb))
			}
		case "over", "not over":
			if over != (w.Kind == "over") {
				diffs = append(diffs, fmt.Sprintf("line %d: want %s, but over is %v", w.Line, w.Kind, over))
			}
		case "error":
			diffs = append(diffs, fmt.Sprintf("line %d: want error %q, but Adjudicate succeeded", w.Line, w.Text))
		}
	}
	return diffs
}

func (c *Case) wantsProblem(seat string, p adjudicator.Problem) bool {
	for _, w := range c.Wants {
		if w.Kind == "problem" && w.Seat == seat && (strings.Contains(p.Text, w.Text) || strings.Contains(p.Hint, w.Text)) {
			return true
		}
	}
	return false
}

func eventList(events []adjudicator.Event) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "    [%s] %s\n", e.Rule, e.Text)
	}
	return b.String()
}
