package resolve_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// toy is a small game exercising every input kind: 2d6 plus a modifier
// against a target, and a procedure whose draws depend on its first die.
var toy = &resolve.Game{ID: "toy", Title: "Toy", Procedures: []*resolve.Procedure{
	{
		Name: "check", Summary: "2d6 + drm against a target", Dice: "2d6",
		Inputs: []resolve.Input{
			{Name: "target", Kind: resolve.Int, Required: true, Bounded: true, Min: 2, Max: 12},
			{Name: "drm", Kind: resolve.Int},
			{Name: "side", Kind: resolve.Word, Allowed: []string{"NATO", "Serb"}, Default: "NATO"},
			{Name: "easy", Kind: resolve.Bool},
			{Name: "list", Kind: resolve.Ints},
		},
		Outputs: []resolve.Output{{Name: "total"}, {Name: "passed"}},
		Main:    "passed",
		Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
			d := dice.Roll(r, 2, 6, "check")
			total := d[0] + d[1] + in.Int("drm")
			if in.Bool("easy") {
				total++
			}
			res := &resolve.Result{Rule: "1.1", Explain: "Rolled " + in.Word("side") + "."}
			return res.Set("total", total).Set("passed", total >= in.Int("target")), nil
		},
	},
	{
		Name: "explode", Summary: "a six rolls again, once", Dice: "1d6, another on a 6",
		Outputs: []resolve.Output{{Name: "total"}}, Main: "total",
		Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
			d := dice.Roll(r, 1, 6, "first")[0]
			if d == 6 {
				d += dice.Roll(r, 1, 6, "again")[0]
			}
			return (&resolve.Result{Rule: "1.2"}).Set("total", d), nil
		},
	},
}}

var reg = resolve.NewRegistry(toy)

func resolveArgs(t *testing.T, proc string, args ...string) (map[string]any, error) {
	t.Helper()
	ans, err := resolve.Resolve(toy, toy.Procedure(proc), args)
	if err != nil {
		return nil, err
	}
	raw, err := ans.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return m, nil
}

func TestResolveForcedDice(t *testing.T) {
	m, err := resolveArgs(t, "check", "target=8", "drm=-1", "side=serb", "easy=yes", "dice=3,4")
	if err != nil {
		t.Fatal(err)
	}
	if m["total"] != 7.0 || m["passed"] != false || m["explain"] != "Rolled Serb." || m["rule"] != "1.1" {
		t.Errorf("answer %v", m)
	}
	if d := m["dice"].([]any); len(d) != 2 || d[0] != 3.0 {
		t.Errorf("dice %v", d)
	}
}

func TestResolveFreshDiceReported(t *testing.T) {
	for range 50 {
		m, err := resolveArgs(t, "check", "target=7")
		if err != nil {
			t.Fatal(err)
		}
		d := m["dice"].([]any)
		if len(d) != 2 || m["total"] != d[0].(float64)+d[1].(float64) {
			t.Fatalf("fresh dice %v do not make total %v", d, m["total"])
		}
	}
}

func TestResolveInputErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		name string
		says string
	}{
		{[]string{"dice=1,1"}, "target", "required"},
		{[]string{"target=13", "dice=1,1"}, "target", "from 2 to 12"},
		{[]string{"target=7", "color=red", "dice=1,1"}, "color", "takes target, drm"},
		{[]string{"target=7", "side=UN", "dice=1,1"}, "side", "one of NATO, Serb"},
		{[]string{"target=7", "easy=maybe", "dice=1,1"}, "easy", "yes or no"},
		{[]string{"target=7", "target=8", "dice=1,1"}, "target", "twice"},
		{[]string{"target=7", "list=1,x", "dice=1,1"}, "list", "integers"},
		{[]string{"target=7", "dice=1"}, "dice", "draws 2"},
		{[]string{"target=7", "dice=1,2,3"}, "dice", "draws 2"},
		{[]string{"target=7", "dice=1,7"}, "dice", "reads 1 to 6"},
		{[]string{"target=7", "dice=a"}, "dice", "comma list"},
		{[]string{"target"}, "target", "name=value"},
	} {
		_, err := resolveArgs(t, "check", c.args...)
		ie, ok := err.(*resolve.InputError)
		if !ok || ie.Name != c.name || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: got %v, want input %s saying %q", c.args, err, c.name, c.says)
		}
	}
}

func TestResolveVariableDraws(t *testing.T) {
	if _, err := resolveArgs(t, "explode", "dice=6"); err == nil || !strings.Contains(err.Error(), "draws 2") {
		t.Errorf("a six with no second die: %v", err)
	}
	m, err := resolveArgs(t, "explode", "dice=6,3")
	if err != nil || m["total"] != 9.0 {
		t.Errorf("6,3: %v %v", m, err)
	}
	if _, err := resolveArgs(t, "explode", "dice=5,3"); err == nil || !strings.Contains(err.Error(), "draws 1") {
		t.Errorf("a five with a second die: %v", err)
	}
}

func TestDistribution(t *testing.T) {
	outs, e, err := resolve.Distribution(toy, toy.Procedure("explode"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Rule != "1.2" || e.Runs != 11 || e.StandIn {
		t.Errorf("enumeration %+v", e)
	}
	want := map[int]*big.Rat{1: big.NewRat(1, 6), 5: big.NewRat(1, 6), 6: new(big.Rat), 7: big.NewRat(1, 36), 12: big.NewRat(1, 36)}
	sum := new(big.Rat)
	prev := 0
	for _, o := range outs {
		v := o.Value.(int)
		if v < prev {
			t.Errorf("outcomes not in order: %d after %d", v, prev)
		}
		prev = v
		sum.Add(sum, o.P)
		if w, ok := want[v]; ok && w.Cmp(o.P) != 0 {
			t.Errorf("P(%d) = %s, want %s", v, o.P, w)
		}
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("probabilities sum to %s", sum)
	}
	outs, _, err = resolve.Distribution(toy, toy.Procedure("check"), []string{"target=7"})
	if err != nil || len(outs) != 2 || outs[1].Value != true || outs[1].P.Cmp(big.NewRat(21, 36)) != 0 {
		t.Errorf("2d6 >= 7: %v %v", outs, err)
	}
	if _, _, err := resolve.Distribution(toy, toy.Procedure("check"), []string{"target=7", "dice=1,1"}); !resolve.IsInput(err) {
		t.Errorf("dice= with distribution: %v", err)
	}
}

func TestCases(t *testing.T) {
	text := `# 1.1: 3+4 is 7, passing 7
run check target=7 dice=3,4
want total=7 passed=true

# 1.1 unknown side
run check target=7 side=UN
error side

dist explode
want 1=1/6 7=1/36 6=0

run check target=2 dice=6,6
want total=11
`
	cases, err := resolve.ParseCases("toy.cases", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 4 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases[:3] {
		if d := c.Check(toy); d != nil {
			t.Errorf("case %d: %v", i, d)
		}
	}
	if d := cases[3].Check(toy); len(d) == 0 || !strings.Contains(d[0], "total = 12, want 11") {
		t.Errorf("a wrong expectation was not caught: %v", d)
	}
	for _, bad := range []string{"want x=1\n", "run check\nrun check\n", "run check target=7 dice=1,1\n", "run check\nwant [x\n"} {
		if _, err := resolve.ParseCases("bad.cases", strings.NewReader(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestListing(t *testing.T) {
	var b strings.Builder
	resolve.List(&b, toy)
	for _, s := range []string{"check", "target=  an integer from 2 to 12 (required)", "side=  one of NATO, Serb (default NATO)", "passed [--distribution]", "explode"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("listing lacks %q:\n%s", s, b.String())
		}
	}
	b.Reset()
	resolve.ListGames(&b, reg)
	if !strings.Contains(b.String(), "toy") {
		t.Errorf("games listing: %s", b.String())
	}
}

// FuzzParse feeds arbitrary name=value words to the parser: it never panics,
// and anything it refuses is an InputError naming an input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"target=7", "drm=-2", "side=nato", "easy=yes", "list=1,2,3", "dice=1,2", "=", "target==", "list=,", "drm=+-1", "drm=99999999999"} {
		f.Add(s, "target=7")
	}
	p := toy.Procedure("check")
	f.Fuzz(func(t *testing.T, a, b string) {
		ans, err := resolve.Resolve(toy, p, []string{a, b})
		if err != nil {
			if !resolve.IsInput(err) {
				t.Fatalf("%q %q: not an input error: %v", a, b, err)
			}
			return
		}
		if _, err := ans.JSON(); err != nil {
			t.Fatal(err)
		}
	})
}
