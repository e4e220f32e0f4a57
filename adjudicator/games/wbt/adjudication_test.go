package wbt

// The adjudication cases: testdata/game/*.cases, each a situation on the
// small test map, the orders of the seat owing, the dice forced, and what
// must follow. Format (one directive a line, # comments):
//
//	case NAME                       starts a case (the comment above cites the rule)
//	phase PHASE                     setup-nato, weather, nato-move, nato-combat, serb-combat, serb-move
//	set KEY VALUE...                turn, length, weather good|bad, sequence, recon, mepps, marker,
//	                                control HEX, intact HEX/HEX, down HEX/HEX, air HEX, badrange N,
//	                                standing KEY IDS..., maxeffortused, neutrals C...
//	unit ID HEX [steps=N] [dismounted] [moved] [attacked] [fixed]
//	orders                          the lines up to "end" are the owing seat's orders
//	dice N N ...                    the faces drawn, in order (exactly as many as drawn)
//	want unit ID HEX [steps=N] [dismounted]
//	want gone ID                    eliminated
//	want mepps N | turn N | length N | phase P | winner SEAT | marker N | recon R | weather W
//	want control HEX | nocontrol HEX | intact HEX/HEX | down HEX/HEX
//	want event RULE "TEXT"          an event citing RULE whose text contains TEXT
//	want noevent "TEXT"             no event contains TEXT
//	want seen SEAT "TEXT"           SEAT's situation (units table) shows TEXT
//	want problem LINE "TEXT"        the parser refuses order line LINE with TEXT
//	want hint LINE "TEXT"           and its hint contains TEXT
//	want order "TEXT"               a canonical order contains TEXT
//	want pending SEAT               a follow-up decision (loss, advance) waits for SEAT
//	want nopending                  no follow-up decision waits
//	then                            the follow-up step: the orders, dice and wants after it
//	                                are the next step's (the seat owing then gives the orders)

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

type gameCase struct {
	name, file string
	line       int
	setup      [][]string
	units      [][]string
	steps      []*caseStep
}

// caseStep is one adjudicated step of a case: the owing seat's orders, the
// dice and what must follow.
type caseStep struct {
	orders []string
	dice   []int
	wants  [][]string
}

func (c *gameCase) last() *caseStep { return c.steps[len(c.steps)-1] }

func fieldsQuoted(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.Index(s[1:], `"`)
			if end < 0 {
				out = append(out, s[1:])
				break
			}
			out = append(out, s[1:end+1])
			s = s[end+2:]
			continue
		}
		f, rest, _ := strings.Cut(s, " ")
		out = append(out, f)
		s = rest
	}
	return out
}

func readCases(t *testing.T, path string) []*gameCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []*gameCase
	var cur *gameCase
	inOrders := false
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		if inOrders {
			if strings.TrimSpace(raw) == "end" {
				inOrders = false
				continue
			}
			cur.last().orders = append(cur.last().orders, strings.TrimSpace(raw))
			continue
		}
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := fieldsQuoted(line)
		if f[0] == "case" {
			cur = &gameCase{name: f[1], file: filepath.Base(path), line: n, steps: []*caseStep{{}}}
			cases = append(cases, cur)
			continue
		}
		if cur == nil {
			t.Fatalf("%s:%d: directive before case", path, n)
		}
		switch f[0] {
		case "phase", "set":
			cur.setup = append(cur.setup, f)
		case "unit":
			cur.units = append(cur.units, f[1:])
		case "orders":
			inOrders = true
		case "then":
			cur.steps = append(cur.steps, &caseStep{})
		case "dice":
			for _, d := range f[1:] {
				v, err := strconv.Atoi(d)
				if err != nil {
					t.Fatalf("%s:%d: die %q", path, n, d)
				}
				cur.last().dice = append(cur.last().dice, v)
			}
		case "want":
			cur.last().wants = append(cur.last().wants, f[1:])
		default:
			t.Fatalf("%s:%d: unknown directive %q", path, n, f[0])
		}
	}
	return cases
}

// caseState builds a case's state on the test map.
func caseState(t *testing.T, c *gameCase) []byte {
	state, err := Game.New("demo", map[string]string{"map": "testdata/game/small-map.toml", "counters": "testdata/game/small-counters.toml"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	g.Phase, g.Turn, g.Plan = PhaseNATOMove, 3, nil
	g.ReconMarker = 4
	for _, u := range g.Units {
		u.Out, u.Hex = true, ""
	}
	for _, s := range c.setup {
		if s[0] == "phase" {
			g.Phase = s[1]
			continue
		}
		v := s[2:]
		switch s[1] {
		case "turn":
			g.Turn, _ = strconv.Atoi(v[0])
		case "length":
			g.Length, _ = strconv.Atoi(v[0])
		case "weather":
			g.Bad = v[0] == "bad"
		case "prevbad":
			g.PrevBad = true
		case "sequence":
			g.Sequence = v[0]
		case "recon":
			g.Recon = v[0]
		case "mepps":
			g.MePPs, _ = strconv.Atoi(v[0])
		case "marker":
			g.ReconMarker, _ = strconv.Atoi(v[0])
		case "control":
			g.Control = append(g.Control, v[0])
		case "intact":
			g.Intact = append(g.Intact, v[0])
		case "down":
			g.Intact = removeString(g.Intact, v[0])
		case "air":
			g.AirHex, g.AirTurn = v[0], g.Turn
		case "badrange":
			g.BadRange, _ = strconv.Atoi(v[0])
		case "standing":
			g.Standing[v[0]] = v[1:]
		case "maxeffortused":
			g.MaxEffortUsed = true
		case "neutrals":
			g.Neutrals = v
		case "plan":
			g.Plan = v
		default:
			t.Fatalf("%s: unknown set %q", c.name, s[1])
		}
	}
	if g.Plan == nil {
		switch g.Phase {
		case PhaseNATOMove:
			g.Plan = []string{PhaseNATOCombat, PhaseSerbCombat, PhaseSerbMove}
		case PhaseNATOCombat:
			g.Plan = []string{PhaseSerbCombat, PhaseSerbMove}
		case PhaseSerbCombat:
			g.Plan = []string{PhaseSerbMove}
		}
	}
	for _, f := range c.units {
		u := g.byID[f[0]]
		if u == nil {
			t.Fatalf("%s: no unit %s", c.name, f[0])
		}
		u.Out = false
		u.Hex = f[1]
		u.Steps = u.c.MaxSteps()
		for _, o := range f[2:] {
			k, val, _ := strings.Cut(o, "=")
			switch k {
			case "steps":
				u.Steps, _ = strconv.Atoi(val)
			case "dismounted":
				u.Dismounted = true
			case "moved":
				u.Moved = true
			case "attacked":
				u.Attacked = true
			case "fixed":
				u.Fixed = true
			default:
				t.Fatalf("%s: unit option %q", c.name, o)
			}
		}
	}
	b, err := g.encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAdjudicationCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/game/*.cases")
	total := 0
	for _, file := range files {
		for _, c := range readCases(t, file) {
			total++
			t.Run(strings.TrimSuffix(c.file, ".cases")+"/"+c.name, func(t *testing.T) { runCase(t, c) })
		}
	}
	t.Logf("%d adjudication cases", total)
}

func runCase(t *testing.T, c *gameCase) {
	state := caseState(t, c)
	for i, st := range c.steps {
		where := fmt.Sprintf("%s:%d %s", c.file, c.line, c.name)
		if i > 0 {
			where += fmt.Sprintf(" (step %d)", i+1)
		}
		next, ok := runStep(t, where, state, st)
		if !ok {
			return
		}
		state = next
	}
}

// runStep adjudicates one step of a case and checks its wants; ok is false
// when the case stops there (orders refused, or a parse-only step).
func runStep(t *testing.T, where string, state []byte, st *caseStep) ([]byte, bool) {
	spec, err := Game.Step(state)
	if err != nil {
		t.Fatal(err)
	}
	seat := spec.Owing[0]
	var lines []adjudicator.OrderLine
	for i, o := range st.orders {
		lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: o})
	}
	canon, problems := Game.ParseOrders(state, seat, lines)
	parseOnly := slices.ContainsFunc(st.wants, func(w []string) bool { return w[0] == "problem" || w[0] == "order" })
	for _, w := range st.wants {
		switch w[0] {
		case "problem":
			n, _ := strconv.Atoi(w[1])
			if !slices.ContainsFunc(problems, func(p adjudicator.Problem) bool { return p.Line == n && strings.Contains(p.Text, w[2]) }) {
				t.Errorf("%s: want problem on line %d with %q, got %+v", where, n, w[2], problems)
			}
		case "hint":
			n, _ := strconv.Atoi(w[1])
			if !slices.ContainsFunc(problems, func(p adjudicator.Problem) bool { return p.Line == n && strings.Contains(p.Hint, w[2]) }) {
				t.Errorf("%s: want a hint on line %d with %q, got %+v", where, n, w[2], problems)
			}
		case "order":
			if !slices.ContainsFunc(canon, func(o string) bool { return strings.Contains(o, w[1]) }) {
				t.Errorf("%s: want an order with %q, got %q", where, w[1], canon)
			}
		}
	}
	if parseOnly {
		return nil, false
	}
	if len(problems) > 0 {
		t.Fatalf("%s: orders refused: %+v", where, problems)
	}
	r := resolve.NewForced(st.dice)
	next, events, err := Game.Adjudicate(state, map[string][]string{seat: canon}, r)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var log strings.Builder
	for _, e := range events {
		fmt.Fprintf(&log, "  [%s] %s\n", e.Rule, e.Text)
	}
	for _, d := range r.Drawn() {
		if !strings.HasPrefix(d.Purpose, "WbT ") {
			t.Errorf("%s: a draw without a rule: %q", where, d.Purpose)
		}
	}
	if err := r.Err(); err != nil {
		t.Errorf("%s: dice: %v\n%s", where, err, log.String())
	}
	g, err := decode(next)
	if err != nil {
		t.Fatal(err)
	}
	fail := func(format string, args ...any) {
		t.Errorf("%s: %s\nevents:\n%s", where, fmt.Sprintf(format, args...), log.String())
	}
	for _, w := range st.wants {
		if w[0] != "seen" {
			continue
		}
		sit, err := Game.(adjudicator.Reporter).Situation(next, w[1])
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(sit.Units)
		if !strings.Contains(string(b), w[2]) {
			fail("%s's situation does not show %q", w[1], w[2])
		}
	}
	checkWants(t, where, g, events, st.wants, fail)
	return next, true
}

func checkWants(t *testing.T, where string, g *game, events []adjudicator.Event, wants [][]string, fail func(string, ...any)) {
	for _, w := range wants {
		switch w[0] {
		case "unit":
			u := g.byID[w[1]]
			if u.Hex != w[2] {
				fail("%s is at %q, want %s", w[1], u.Hex, w[2])
			}
			for _, o := range w[3:] {
				k, v, _ := strings.Cut(o, "=")
				switch k {
				case "steps":
					if n, _ := strconv.Atoi(v); u.Steps != n {
						fail("%s has %d steps, want %d", w[1], u.Steps, n)
					}
				case "dismounted":
					if !u.Dismounted {
						fail("%s is not dismounted", w[1])
					}
				case "mounted":
					if u.Dismounted {
						fail("%s is dismounted", w[1])
					}
				}
			}
		case "gone":
			if g.byID[w[1]].alive() {
				fail("%s is still on the map at %s", w[1], g.byID[w[1]].Hex)
			}
		case "mepps":
			if n, _ := strconv.Atoi(w[1]); g.MePPs != n {
				fail("MePPs %d, want %d", g.MePPs, n)
			}
		case "turn":
			if n, _ := strconv.Atoi(w[1]); g.Turn != n {
				fail("game turn %d, want %d", g.Turn, n)
			}
		case "length":
			if n, _ := strconv.Atoi(w[1]); g.Length != n {
				fail("length %d, want %d", g.Length, n)
			}
		case "marker":
			if n, _ := strconv.Atoi(w[1]); g.ReconMarker != n {
				fail("reconstitution marker %d, want %d", g.ReconMarker, n)
			}
		case "recon":
			if g.Recon != strings.TrimPrefix(w[1], "none") {
				fail("reconstitution %q, want %q", g.Recon, w[1])
			}
		case "weather":
			if (w[1] == "bad") != g.Bad {
				fail("weather bad=%v, want %s", g.Bad, w[1])
			}
		case "phase":
			if g.Phase != w[1] {
				fail("phase %s, want %s", g.Phase, w[1])
			}
		case "winner":
			if g.Winner != w[1] {
				fail("winner %q, want %s", g.Winner, w[1])
			}
		case "control":
			if !slices.Contains(g.Control, w[1]) {
				fail("NATO does not control %s", w[1])
			}
		case "nocontrol":
			if slices.Contains(g.Control, w[1]) {
				fail("NATO controls %s", w[1])
			}
		case "intact":
			if !slices.Contains(g.Intact, w[1]) {
				fail("bridge %s is down", w[1])
			}
		case "down":
			if slices.Contains(g.Intact, w[1]) {
				fail("bridge %s is intact", w[1])
			}
		case "pending":
			if g.Pending == nil || g.Pending.Seat != w[1] {
				fail("no decision pending for %s", w[1])
			}
		case "nopending":
			if g.Pending != nil {
				fail("a decision is pending for %s", g.Pending.Seat)
			}
		case "event":
			if !slices.ContainsFunc(events, func(e adjudicator.Event) bool {
				return slices.Contains(strings.Split(e.Rule, ", "), w[1]) && strings.Contains(e.Text, w[2])
			}) {
				fail("no event citing %s with %q", w[1], w[2])
			}
		case "noevent":
			if slices.ContainsFunc(events, func(e adjudicator.Event) bool { return strings.Contains(e.Text, w[1]) }) {
				fail("an event contains %q", w[1])
			}
		case "problem", "order", "hint", "seen":
		default:
			t.Fatalf("%s: unknown want %q", where, w[0])
		}
	}
}
