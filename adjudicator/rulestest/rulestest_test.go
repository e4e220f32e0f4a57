package rulestest

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
)

func TestFakeCases(t *testing.T) { Run(t, Config{Rules: fake.Game, Dir: "testdata"}) }

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"rule x\n", "before the first case"},
		{"case a\nscenario duel\nwant over\n", "cites no rule"},
		{"case a\nrule r\nwant over\n", "no prestate"},
		{"case a\nrule r\nscenario duel\n", "expects nothing"},
		{"case a\nrule r\nscenario duel\ndice 1 x\n", `"x" is not a number`},
		{"case a\nrule r\nscenario duel\nwant state a = {\n", "want state PATH = JSON"},
		{"case a\nrule r\nscenario duel\nfrobnicate\n", "unknown directive"},
	} {
		_, err := Parse("t.case", strings.NewReader(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.src, err, tc.want)
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
