package rulestest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rule x\n", "before the first case"},
		{"case a\nscenario duel\nwant over\n", "cites no rule"},
		{"case a\nrule r\nwant over\n", "no prestate"},
		{"case a\nrule r\nscenario duel\n", "expects nothing"},
		{"case a\nrule r\nscenario duel\ndice 1 x\n", `"x" is not a number`},
		{"case a\nrule r\nscenario duel\nwant state a = {\n", "want state PATH = JSON"},
		{"case a\nrule r\nscenario duel\nfrobnicate\n", "unknown directive"},
		{"case a\nrule r\nscenario duel\nwant mepps 5\n", `want "mepps 5"`},
		{"case a\nrule r\nscenario duel\nwant problem A\n", "want problem SEAT [line N] TEXT"},
		{"case a\nrule r\nscenario duel\nwant over\nparse only\nthen\n", "parse only ends a case"},
		{"case a\nrule r\nscenario duel\nwant over\nthen now\n", "then takes nothing"},
	} {
		_, err := Parse("t.case", strings.NewReader(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestParseWants(t *testing.T) {
	src := `case a
rule r
scenario duel
orders A
  roll 2 # a comment
want event [fake] A rolls
want no event "  spaced # kept "
want problem A line 3 not yours
want hint B write roll 2
then
want order A "pass"
`
	cases, err := Parse("t.case", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	c := cases[0]
	if len(c.Steps) != 2 || c.Steps[0].Orders["A"][0].Text != "roll 2" {
		t.Fatalf("steps %+v", c.Steps)
	}
	w := c.Steps[0].Wants
	for i, want := range []Want{
		{Kind: "event", Rule: "fake", Text: "A rolls"},
		{Kind: "no event", Text: "  spaced # kept "},
		{Kind: "problem", Seat: "A", OrderLine: 3, Text: "not yours"},
		{Kind: "hint", Seat: "B", Text: "write roll 2"},
	} {
		w[i].Line = 0
		if fmt.Sprint(w[i]) != fmt.Sprint(want) {
			t.Errorf("want %d = %+v, want %+v", i, w[i], want)
		}
	}
	if o := c.Steps[1].Wants[0]; o.Kind != "order" || o.Seat != "A" || o.Text != "pass" {
		t.Errorf("order want %+v", o)
	}
}

// fixtures are a game's directives for the fake game: "score SEAT N"
// and "want score SEAT N".
type fixtures struct{}

func (fixtures) Setup(state []byte, directive string, args []string) ([]byte, error) {
	if directive != "score" || len(args) != 2 {
		return nil, ErrUnknown
	}
	var doc any
	_ = json.Unmarshal(state, &doc)
	n, _ := strconv.Atoi(args[1])
	doc, err := setPath(doc, "score."+args[0], n)
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

func (fixtures) Check(state []byte, name, want string) error {
	seat, n, _ := strings.Cut(want, " ")
	if name != "score" {
		return ErrUnknown
	}
	var doc any
	_ = json.Unmarshal(state, &doc)
	got, _ := getPath(doc, "score."+seat)
	if fmt.Sprint(got) != n {
		return fmt.Errorf("score %v", got)
	}
	return nil
}

// TestFailures shows the runner catches what differs: each case here is
// wrong in one way and must fail with the message given.
func TestFailures(t *testing.T) {
	cfg := Config{Rules: fake.Game, Fixtures: fixtures{}}
	head := "case a\nrule r\nscenario duel\n"
	for _, tc := range []struct{ src, want string }{
		{"orders A\n  roll 1\ndice 2\nwant event A rolls [3]\n", `want event "A rolls [3]"`},
		{"orders A\n  roll 1\ndice 2\nwant event [other] A rolls\n", `want event [other] "A rolls"`},
		{"orders A\n  roll 1\ndice 2\nwant no event A rolls\n", "want no event"},
		{"orders A\n  roll 1\ndice 2 3\nwant not over\n", "dice:"},
		{"orders A\n  roll 1\ndice 2\nwant state score.A = 3\n", "state score.A = 2, want 3"},
		{"orders A\n  roll 9\nwant problem A line 2 roll 1 to 3\nparse only\n", "no problem for A on order line 2"},
		{"orders A\n  roll 9\nwant hint A write pass\nparse only\n", "unexpected problem"},
		{"orders A\n  roll 1\nwant order A roll 2\nparse only\n", "no order of A"},
		{"score A 4\norders A\n  roll 1\ndice 2\nwant score A 5\n", "want score A 5: score 6"},
		{"orders A\n  roll 1\ndice 2\nthen\norders A\n  roll 1\ndice 1\nwant score A 4\n", "step 2 (line 7): line 11: want score A 4: score 3"},
		{"frob 1\nwant over\n", `unknown directive "frob"`},
		{"want frob 1\n", `unknown want "frob"`},
	} {
		cases, err := parse("t.case", strings.NewReader(head+tc.src), true)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		diffs := strings.Join(cases[0].Check(cfg), "\n")
		if !strings.Contains(diffs, tc.want) {
			t.Errorf("%q: diffs %q, want %q", tc.src, diffs, tc.want)
		}
	}
}

func TestPaths(t *testing.T) {
	doc := map[string]any{"units": []any{map[string]any{"id": "R1", "hex": "0101"}, map[string]any{"id": "U1", "hex": "0202"}}}
	d, err := setPath(doc, "units[id=U1].hex", "0303")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := getPath(d, "units[id=U1].hex"); v != "0303" {
		t.Errorf("units[id=U1].hex = %v", v)
	}
	if v, _ := getPath(d, "units.#"); v != float64(2) {
		t.Errorf("units.# = %v", v)
	}
	if v, err := getPath(d, "units.0.missing"); v != nil || err != nil {
		t.Errorf("a missing last key reads null: %v %v", v, err)
	}
	if _, err := getPath(d, "units[id=X1].hex"); err == nil {
		t.Error("no such element should fail")
	}
	if _, err := setPath(d, "units.5.hex", 1); err == nil {
		t.Error("index out of range should fail")
	}
}
