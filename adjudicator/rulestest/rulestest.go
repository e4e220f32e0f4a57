// Package rulestest runs adjudication cases, written as data, against any
// game's rules (adjudicator.Rules): one case format and one runner for
// every game. docs/rules-cases.md is the game authors' guide.
//
// A case file (*.case) holds one or more cases. Each starts with a case
// line and is made of directives, one a line; # after a space, or at the
// start of a line, starts a comment (not inside double quotes):
//
//	case RPG at a tank's front needs a 6
//	rule Vehicle Damage                 the rule the case checks (required)
//	scenario demo turns=6               the prestate: a scenario and options,
//	state duel.json                     or a state file beside the case file
//	set units[id=T1].facing = 3         edit the prestate: path = JSON value
//	unit US-1AD 0305                    a game's own setup directive (Fixtures)
//	orders Russia                       the seat's order lines follow,
//	  shoot R1 at T1 with rpg           indented
//	dice 14 12 5                        forced faces, in draw order (more
//	dice 6 6                            dice lines add to them)
//	want event needs 6+                 an event's text contains this
//	want event [4.5] failed to clear    an event citing rule 4.5 contains this
//	want no event destroyed             no event's text contains this
//	want no event [4.5] destroyed       no event citing 4.5 contains this
//	want rule Vehicle Damage            an event cites this rule
//	want state units[id=T1].motive = "crippled"
//	want problem Russia not next to     a problem of Russia's orders says this
//	want problem Russia line 2 not next order line 2 has a problem saying this
//	want hint Russia line 2 move UNIT   a problem's hint (line optional)
//	want order Russia move R1 0405      a canonical order of Russia's has this
//	want seen NATO S-2                  NATO's situation (units table) shows this
//	want over                           the game is over after the step
//	want not over                       it is not
//	want error the game is over         Adjudicate fails with this
//	want mepps 50                       a game's own check (Fixtures)
//	parse only                          check the orders only: no adjudication
//	then                                the next step: the orders, dice and
//	                                    wants after it are adjudicated on the
//	                                    state the step before left
//
// The = of set and want state has a space on each side. Paths are
// dot-separated keys and array indexes of the state's JSON; a
// segment "name[key=value]" picks the element of array name whose field
// key is value, and a final "#" is the length of an array or object.
// A TEXT may be put in double quotes, to keep spaces at its ends or a " #".
//
// Every problem ParseOrders reports must be wanted (by a want problem or
// want hint of its seat, on its line if one is given); "parse only" ends
// the case. A rule is cited by an event whose Rule is it or lists it
// ("11.9, 11.20"). Dice are forced with resolve.NewForced: too few, too
// many or an out-of-range face fails the case and lists the draws made;
// each step draws exactly its own dice.
//
// A game adds its own setup directives and state checks with Fixtures
// (Config.Fixtures): a directive rulestest does not know goes to
// Fixtures.Setup, in file order with the sets, and a want it does not
// know to Fixtures.Check.
//
// A problem without a hint fails its case: a refusal must say what would be
// legal. Refusals (Config.Refusals) checks that the cases produce every
// refusal the game's source can make (refusals.go).
package rulestest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	// Sets are the edits of the prestate, in file order: JSON sets and the
	// game's setup directives.
	Sets []Set
	// Steps are the adjudicated steps: the first, then one for each then.
	Steps []*Step
}

// Prestate is where a case starts: a scenario with options, or a file.
type Prestate struct {
	Scenario  string
	Options   map[string]string
	StateFile string
}

// Set is an edit of the prestate: a JSON value at Path, or a game's setup
// Directive with its Args.
type Set struct {
	Line      int
	Path      string
	Value     json.RawMessage
	Directive string
	Args      []string
}

// Step is one adjudicated step of a case.
type Step struct {
	Line      int // the case or then line
	Orders    map[string][]adjudicator.OrderLine
	SeatOrder []string
	Dice      []int
	DiceGiven bool
	Wants     []Want
	ParseOnly bool
}

// Want is one expectation.
type Want struct {
	Line int
	// Kind is event, no event, rule, state, problem, hint, order, seen,
	// over, not over, error, or game (a Fixtures check).
	Kind string
	Seat string // problem, hint, order, seen
	// Rule is the rule an event (or no event) cites; "" for any.
	Rule string
	// OrderLine is the order line of a problem or hint; 0 for any.
	OrderLine int
	// Name is a game check's name.
	Name string
	Text string // the text; state: the path; game: the rest of the line
	// Value is the expected JSON for state.
	Value json.RawMessage
}

// Fixtures are a game's own setup directives and state checks, for what
// JSON paths say badly ("unit US-1AD 0305 steps=1", "want gone S-2").
type Fixtures interface {
	// Setup applies one setup directive (its first word) with its
	// arguments (the other words; a double-quoted argument may hold
	// spaces) to the prestate. It returns ErrUnknown for a directive
	// that is not the game's.
	Setup(state []byte, directive string, args []string) ([]byte, error)
	// Check checks the poststate of a step against "want NAME WANT" and
	// says what differs; ErrUnknown for a name that is not the game's.
	Check(state []byte, name, want string) error
}

// ErrUnknown is what Fixtures return for a directive or check they do not
// have.
var ErrUnknown = errors.New("unknown")

// Config says what Run runs.
type Config struct {
	Rules adjudicator.Rules
	// Dir holds the *.case files.
	Dir string
	// Load, when set, turns a state file that is not JSON (a scenario
	// source, say) into a state.
	Load func(path string, data []byte) ([]byte, error)
	// Fixtures, when set, are the game's own directives and checks.
	Fixtures Fixtures
	// CheckDraw, when set, checks every draw a step makes (that its
	// purpose cites a rule, say).
	CheckDraw func(resolve.Draw) error
	// Refusals, when set, collects every problem the cases' orders have,
	// for Refusals.Check.
	Refusals *Refusals
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
		cases, err := parse(file, f, c.Fixtures != nil)
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

// Parse reads the cases of one file, with no game directives.
func Parse(file string, r io.Reader) ([]*Case, error) { return parse(file, r, false) }

// parse reads the cases of one file; with game true, a directive or want
// it does not know is the game's.
func parse(file string, r io.Reader, game bool) ([]*Case, error) {
	var cases []*Case
	var cur *Case
	var st *Step
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
			st.Orders[seat] = append(st.Orders[seat], adjudicator.OrderLine{Line: len(st.Orders[seat]) + 1, Text: line})
			continue
		}
		seat = ""
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		if word == "case" {
			if err := finish(cur, file); err != nil {
				return nil, err
			}
			st = newStep(n)
			cur = &Case{File: filepath.Base(file), Line: n, Name: rest, Dir: filepath.Dir(file), Steps: []*Step{st}}
			cases = append(cases, cur)
			continue
		}
		if cur == nil {
			return nil, fail("%q before the first case line", word)
		}
		if st.ParseOnly && word != "want" && word != "parse" {
			return nil, fail("%s after parse only: parse only ends a case", word)
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
			if _, ok := st.Orders[seat]; !ok {
				st.Orders[seat] = nil
				st.SeatOrder = append(st.SeatOrder, seat)
			}
		case "dice":
			st.DiceGiven = true
			for _, f := range strings.Fields(strings.ReplaceAll(rest, ",", " ")) {
				v, err := strconv.Atoi(f)
				if err != nil {
					return nil, fail("dice: %q is not a number", f)
				}
				st.Dice = append(st.Dice, v)
			}
		case "then":
			if rest != "" {
				return nil, fail("then takes nothing")
			}
			st = newStep(n)
			cur.Steps = append(cur.Steps, st)
		case "parse":
			if rest != "only" {
				return nil, fail("write parse only")
			}
			st.ParseOnly = true
		case "want":
			w, err := parseWant(n, rest, game)
			if err != nil {
				return nil, fail("%v", err)
			}
			st.Wants = append(st.Wants, w)
		default:
			if !game {
				return nil, fail("unknown directive %q", word)
			}
			cur.Sets = append(cur.Sets, Set{Line: n, Directive: word, Args: fields(rest)})
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

func newStep(line int) *Step {
	return &Step{Line: line, Orders: map[string][]adjudicator.OrderLine{}}
}

func finish(c *Case, file string) error {
	switch {
	case c == nil:
		return nil
	case c.Rule == "":
		return fmt.Errorf("%s:%d: case %q cites no rule", file, c.Line, c.Name)
	case c.Scenario == "" && c.StateFile == "":
		return fmt.Errorf("%s:%d: case %q has no prestate (scenario or state)", file, c.Line, c.Name)
	}
	for _, st := range c.Steps {
		if len(st.Wants) > 0 {
			return nil
		}
	}
	return fmt.Errorf("%s:%d: case %q expects nothing", file, c.Line, c.Name)
}

// unquote drops the double quotes around a text.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// fields splits a directive's arguments at spaces; a double-quoted
// argument may hold spaces.
func fields(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			if end := strings.IndexByte(s[1:], '"'); end >= 0 {
				out = append(out, s[1:end+1])
				s = s[end+2:]
				continue
			}
		}
		f, rest, _ := strings.Cut(s, " ")
		out = append(out, f)
		s = rest
	}
	return out
}

// seatLine splits "SEAT [line N] TEXT".
func seatLine(s string) (seat string, line int, text string, ok bool) {
	seat, text, ok = strings.Cut(s, " ")
	if !ok {
		return "", 0, "", false
	}
	if rest, found := strings.CutPrefix(text, "line "); found {
		num, after, _ := strings.Cut(rest, " ")
		if v, err := strconv.Atoi(num); err == nil && v > 0 {
			line, text = v, after
		}
	}
	text = unquote(text)
	return seat, line, text, text != ""
}

// ruleText splits "[RULE] TEXT" or "TEXT".
func ruleText(s string) (rule, text string) {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i > 0 {
			return s[1:i], unquote(s[i+1:])
		}
	}
	return "", unquote(s)
}

func parseWant(n int, s string, game bool) (Want, error) {
	w := Want{Line: n}
	kind, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	switch {
	case strings.HasPrefix(s, "no event "):
		w.Kind = "no event"
		w.Rule, w.Text = ruleText(strings.TrimPrefix(s, "no event "))
	case kind == "event":
		w.Kind = kind
		w.Rule, w.Text = ruleText(rest)
	case kind == "rule" || kind == "error":
		w.Kind, w.Text = kind, unquote(rest)
	case s == "over" || s == "not over":
		w.Kind = s
	case kind == "problem" || kind == "hint" || kind == "order" || kind == "seen":
		seat, line, text, ok := seatLine(rest)
		if !ok || line > 0 && (kind == "order" || kind == "seen") {
			if kind == "problem" || kind == "hint" {
				return w, fmt.Errorf("want %s SEAT [line N] TEXT", kind)
			}
			return w, fmt.Errorf("want %s SEAT TEXT", kind)
		}
		w.Kind, w.Seat, w.OrderLine, w.Text = kind, seat, line, text
	case kind == "state":
		p, v, ok := strings.Cut(rest, " = ")
		v = strings.TrimSpace(v)
		if !ok || !json.Valid([]byte(v)) {
			return w, fmt.Errorf("want state PATH = JSON value")
		}
		w.Kind, w.Text, w.Value = "state", strings.TrimSpace(p), json.RawMessage(v)
	case game:
		w.Kind, w.Name, w.Text = "game", kind, rest
	default:
		return w, fmt.Errorf("want %q: want event, no event, rule, state, problem, hint, order, seen, over, not over or error", s)
	}
	if w.Text == "" && (w.Kind == "event" || w.Kind == "no event" || w.Kind == "rule" || w.Kind == "error") && w.Rule == "" {
		return w, fmt.Errorf("want %s needs a text", w.Kind)
	}
	return w, nil
}

// stripComment drops a comment: # at the start of the line or after a
// space, not inside double quotes.
func stripComment(s string) string {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == '#' && !quoted && (strings.TrimSpace(s[:i]) == "" || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
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
	if err != nil {
		return nil, err
	}
	for _, s := range c.Sets {
		if s.Directive != "" {
			if cfg.Fixtures == nil {
				return nil, fmt.Errorf("line %d: unknown directive %q", s.Line, s.Directive)
			}
			state, err = cfg.Fixtures.Setup(state, s.Directive, s.Args)
			if errors.Is(err, ErrUnknown) {
				return nil, fmt.Errorf("line %d: unknown directive %q", s.Line, s.Directive)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", s.Line, s.Directive, err)
			}
			continue
		}
		var doc, v any
		if err := json.Unmarshal(state, &doc); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(s.Value, &v); err != nil {
			return nil, err
		}
		if doc, err = setPath(doc, s.Path, v); err != nil {
			return nil, fmt.Errorf("line %d: set %s: %w", s.Line, s.Path, err)
		}
		if state, err = json.Marshal(doc); err != nil {
			return nil, err
		}
	}
	return state, nil
}

// Check runs the case and returns what differs from its expectations.
func (c *Case) Check(cfg Config) []string {
	state, err := c.prestate(cfg)
	if err != nil {
		return []string{"prestate: " + err.Error()}
	}
	var diffs []string
	for i, st := range c.Steps {
		prefix := ""
		if len(c.Steps) > 1 {
			prefix = fmt.Sprintf("step %d (line %d): ", i+1, st.Line)
		}
		next, d, goOn := st.check(cfg, state)
		for _, s := range d {
			diffs = append(diffs, prefix+s)
		}
		if !goOn {
			break
		}
		state = next
	}
	return diffs
}

// check runs one step on state; goOn is false when the case ends there.
func (st *Step) check(cfg Config, state []byte) (next []byte, diffs []string, goOn bool) {
	orders := map[string][]string{}
	problems := map[string][]adjudicator.Problem{}
	for _, seat := range st.SeatOrder {
		canon, probs := cfg.Rules.ParseOrders(state, seat, st.Orders[seat])
		orders[seat], problems[seat] = canon, probs
		if cfg.Refusals != nil {
			cfg.Refusals.Add(probs...)
		}
	}
	for _, seat := range st.SeatOrder {
		for _, p := range problems[seat] {
			if strings.TrimSpace(p.Hint) == "" {
				diffs = append(diffs, fmt.Sprintf("a problem for %s without a hint, order line %d: %s (a refusal must say what would be legal)", seat, p.Line, p.Text))
			}
			if !slices.ContainsFunc(st.Wants, func(w Want) bool { return w.matchesProblem(seat, p) }) {
				diffs = append(diffs, fmt.Sprintf("unexpected problem for %s, order line %d: %s (%s)", seat, p.Line, p.Text, p.Hint))
			}
		}
	}
	for _, w := range st.Wants {
		switch w.Kind {
		case "problem", "hint":
			if !slices.ContainsFunc(problems[w.Seat], func(p adjudicator.Problem) bool { return w.matchesProblem(w.Seat, p) }) {
				where := ""
				if w.OrderLine > 0 {
					where = fmt.Sprintf(" on order line %d", w.OrderLine)
				}
				diffs = append(diffs, fmt.Sprintf("line %d: no %s for %s%s contains %q (problems: %+v)", w.Line, w.Kind, w.Seat, where, w.Text, problems[w.Seat]))
			}
		case "order":
			if !slices.ContainsFunc(orders[w.Seat], func(o string) bool { return strings.Contains(o, w.Text) }) {
				diffs = append(diffs, fmt.Sprintf("line %d: no order of %s contains %q (orders: %q)", w.Line, w.Seat, w.Text, orders[w.Seat]))
			}
		}
	}
	if st.ParseOnly {
		return nil, diffs, false
	}
	roller := resolve.NewForced(st.Dice)
	next, events, err := cfg.Rules.Adjudicate(state, orders, roller)
	if err != nil {
		for _, w := range st.Wants {
			if w.Kind == "error" && strings.Contains(err.Error(), w.Text) {
				return nil, diffs, false
			}
		}
		return nil, append(diffs, "adjudicate: "+err.Error()), false
	}
	if err := roller.Err(); err != nil && (st.DiceGiven || len(roller.Drawn()) > 0) {
		diffs = append(diffs, "dice: "+strings.TrimPrefix(err.Error(), "dice: "))
	}
	if cfg.CheckDraw != nil {
		for _, d := range roller.Drawn() {
			if err := cfg.CheckDraw(d); err != nil {
				diffs = append(diffs, fmt.Sprintf("draw %q: %v", d.Purpose, err))
			}
		}
	}
	var doc any
	if err := json.Unmarshal(next, &doc); err != nil {
		return nil, append(diffs, "poststate: "+err.Error()), false
	}
	var over bool
	if spec, err := cfg.Rules.Step(next); err == nil {
		over = spec.Over
	}
	failed := len(diffs)
	for _, w := range st.Wants {
		switch w.Kind {
		case "event", "no event", "rule":
			found := slices.ContainsFunc(events, func(e adjudicator.Event) bool {
				if w.Kind == "rule" {
					return cites(e.Rule, w.Text)
				}
				return (w.Rule == "" || cites(e.Rule, w.Rule)) && strings.Contains(e.Text, w.Text)
			})
			if found != (w.Kind != "no event") {
				what := fmt.Sprintf("%q", w.Text)
				if w.Rule != "" {
					what = fmt.Sprintf("[%s] %q", w.Rule, w.Text)
				}
				diffs = append(diffs, fmt.Sprintf("line %d: want %s %s", w.Line, w.Kind, what))
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
		case "seen":
			rep, ok := cfg.Rules.(adjudicator.Reporter)
			if !ok {
				diffs = append(diffs, fmt.Sprintf("line %d: want seen: the game has no situation report", w.Line))
				continue
			}
			sit, err := rep.Situation(next, w.Seat)
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("line %d: situation of %s: %v", w.Line, w.Seat, err))
				continue
			}
			b, _ := json.Marshal(sit.Units)
			if !strings.Contains(string(b), w.Text) {
				diffs = append(diffs, fmt.Sprintf("line %d: %s's situation does not show %q: %s", w.Line, w.Seat, w.Text, b))
			}
		case "over", "not over":
			if over != (w.Kind == "over") {
				diffs = append(diffs, fmt.Sprintf("line %d: want %s, but over is %v", w.Line, w.Kind, over))
			}
		case "error":
			diffs = append(diffs, fmt.Sprintf("line %d: want error %q, but Adjudicate succeeded", w.Line, w.Text))
		case "game":
			var err error = ErrUnknown
			if cfg.Fixtures != nil {
				err = cfg.Fixtures.Check(next, w.Name, w.Text)
			}
			switch {
			case errors.Is(err, ErrUnknown):
				diffs = append(diffs, fmt.Sprintf("line %d: unknown want %q", w.Line, w.Name))
			case err != nil:
				diffs = append(diffs, fmt.Sprintf("line %d: want %s %s: %v", w.Line, w.Name, w.Text, err))
			}
		}
	}
	if len(diffs) > failed {
		diffs = append(diffs, "events:\n"+eventList(events))
	}
	return next, diffs, true
}

// matchesProblem says whether a problem or hint want w is met by p, a
// problem of seat's orders.
func (w Want) matchesProblem(seat string, p adjudicator.Problem) bool {
	if w.Seat != seat || w.OrderLine > 0 && w.OrderLine != p.Line {
		return false
	}
	switch w.Kind {
	case "problem":
		return strings.Contains(p.Text, w.Text)
	case "hint":
		return strings.Contains(p.Hint, w.Text)
	}
	return false
}

// cites says whether an event's rule (one, or a list "11.9, 11.20") is
// or lists rule.
func cites(eventRule, rule string) bool {
	return eventRule == rule || slices.Contains(strings.Split(eventRule, ", "), rule)
}

func eventList(events []adjudicator.Event) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "    [%s] %s\n", e.Rule, e.Text)
	}
	return b.String()
}
