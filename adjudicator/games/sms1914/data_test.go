package sms1914

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// textAdjacent are the pairs of hexes the rule text says are adjacent
// (its examples and hex lists), with where it says so.
var textAdjacent = [][3]string{
	{"29.10", "30.09", "8.5.3 example: a unit in 29.10 projects a ZOC into Beograd"},
	{"21.10", "21.09", "25.1 example: the squadron in 21.10 supports 21.09"},
	{"21.10", "22.09", "25.1 example"},
	{"21.10", "22.10", "25.1 example"},
	{"18.04", "19.04", "8.2.2 example"},
	{"18.04", "19.05", "8.2.2 example"},
	{"19.04", "19.05", "8.2.2 example: an adjacent-to-adjacent move"},
	{"22.11", "22.12", "19.1.7 example: the Lim Brigade's two hexes"},
	{"21.12", "22.11", "19.1.7 example"},
	{"21.13", "22.12", "19.1.7 example"},
	{"22.11", "23.12", "19.1.7 example: the retreat"},
	{"22.12", "23.12", "19.1.7 example: still Two-Hex after it"},
	{"17.08", "18.08", "3.5.4 example"},
	{"17.08", "17.09", "25.1.3: 17.08+17.09"},
	{"29.09", "30.09", "25.1.3: 29.09+30.09"},
	{"10.05", "11.05", "7.1.5 bridge"},
	{"11.08", "12.07", "7.1.5 bridge"},
	{"23.03", "23.04", "7.1.5 bridge"},
	{"20.06", "21.07", "25.1.1 example"},
	{"21.07", "21.08", "25.1.1 example"},
	{"21.08", "21.09", "25.1.1 example"},
	{"21.09", "21.10", "25.1.1 example"},
	{"16.07", "17.07", "25.1.1 movement note"},
	{"28.08", "28.09", "25.1.1 movement note"},
	{"28.08", "29.09", "25.1.2 exception"},
	{"29.08", "29.09", "25.1.2 exception"},
	{"44.18", "43.18", "7.1.6a examples"},
	{"44.17", "44.18", "7.1.6a examples: 44.18 is in the EZOC"},
	{"44.17", "43.18", "7.1.6a examples: so is 43.18"},
	{"42.40", "43.40", "11.2 example"},
	{"43.41", "43.40", "11.2 example"},
	{"42.39", "43.40", "11.2 example"},
	{"42.39", "42.40", "11.2 example: Timok is next to the attackers"},
	{"59.54", "58.54", "15.3.1 example"},
	{"10.17", "10.18", "5.1.1 boundary example"},
	{"11.18", "11.19", "5.1.1 boundary example"},
	{"12.17", "12.18", "5.1.1 boundary example"},
	{"13.18", "13.19", "5.1.1 boundary example"},
	{"14.17", "14.18", "5.1.1 boundary example"},
}

// TestParity: with the odd columns half a hex higher every pair the text
// names is adjacent, whatever column the map begins at; the other parity
// breaks them (so the test can fail).
func TestParity(t *testing.T) {
	t.Parallel()
	for _, first := range []int{1, 6} {
		g := board.Grid{Cols: 70 - first, Rows: 70, FirstCol: first, FirstRow: 1, IDStyle: board.Dotted, Up: board.OddUp}
		wrong := g
		wrong.Up = board.EvenUp
		broken := 0
		for _, p := range textAdjacent {
			a, _ := g.Parse(p[0])
			b, _ := g.Parse(p[1])
			if !g.Adjacent(a, b) {
				t.Errorf("%s and %s are not adjacent with odd columns up (%s)", p[0], p[1], p[2])
			}
			if !wrong.Adjacent(a, b) {
				broken++
			}
		}
		if broken == 0 {
			t.Errorf("every pair is adjacent under both parities: the test proves nothing")
		}
	}
	// the 5.1.1 example's boundary "along the same row" is a straight line
	// across the grain: each hexside is one step east of the one before
	sc, err := data{}.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range textAdjacent {
		a, err1 := sc.Map.Grid.Parse(p[0])
		b, err2 := sc.Map.Grid.Parse(p[1])
		if err1 == nil && err2 == nil && !sc.Map.Grid.Adjacent(a, b) {
			t.Errorf("demo map: %s and %s are not adjacent (%s)", p[0], p[1], p[2])
		}
	}
}

// TestDemoMapFacts: the stand-in map holds every fact the text gives.
func TestDemoMapFacts(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	h := g.parse
	side := func(a, b string) string { return g.feature(h(a), h(b)) }
	// named places (1.1, 3.4.1, 7.5.1, 15.6.3a, 25, 26, 27)
	for hex, name := range map[string]string{"30.09": "Beograd", "21.10": "Sabac", "23.16": "Valjevo", "06.25": "Kalinovik", "06.21": "Sarajevo",
		"06.20": "Vogosca", "10.12": "Tuzla", "11.08": "Brcko", "16.22": "Visegrad", "16.28": "Plavlje", "17.08": "Parasnica",
		"19.28": "Prijepolje", "21.27": "Nova Varos", "22.21": "Uzice", "23.03": "Neusatz", "23.08": "Budjanovci", "23.10": "Grabovci",
		"25.09": "Dec", "25.18": "Planinica", "26.11": "Obrenovac", "28.09": "Surcin", "29.09": "Semlin", "34.20": "Kragujevac"} {
		if p := g.sc.Map.Places[h(hex)]; p.Name != name {
			t.Errorf("%s is %q, want %s", hex, p.Name, name)
		}
	}
	// the sides of the border (1.1, 3.5.5, 25.2, 26, 27)
	for hex, area := range map[string]string{"30.09": "Serbia", "21.10": "Serbia", "23.16": "Serbia", "21.27": "Serbia", "34.20": "Serbia",
		"23.08": "Syrmien", "25.09": "Syrmien", "28.09": "Syrmien", "29.09": "Syrmien", "16.22": "Bosnia", "06.21": "Bosnia",
		"07.21": "Bosnia", "06.20": "Bosnia", "06.25": "Bosnia", "30.08": "Banat", "23.03": "Backa", "17.10": "Serbia"} {
		if a := g.area(h(hex)); a != area {
			t.Errorf("%s lies in %q, want %s", hex, a, area)
		}
	}
	if !g.inSerbia(h("17.10")) || !g.sc.partial[h("17.10")] {
		t.Error("7.5.1: 17.10 is a partial Serbia hex")
	}
	// bridges (7.1.5): two over the Sava, Peterwardein over the Donau; none at Beograd (18.2)
	for _, b := range [][3]string{{"10.05", "11.05", "sava"}, {"11.08", "12.07", "sava"}, {"23.03", "23.04", "donau"}} {
		if f := side(b[0], b[1]); !strings.HasPrefix(f, b[2]) || !g.sc.bridge[board.MakePair(h(b[0]), h(b[1]))] {
			t.Errorf("7.1.5: %s/%s is %q, bridged %v", b[0], b[1], f, g.sc.bridge[board.MakePair(h(b[0]), h(b[1]))])
		}
	}
	if g.bridged(h("29.09"), h("30.09")) || !isSava(side("29.09", "30.09")) {
		t.Error("18.2: no bridge at Beograd")
	}
	// 3.5.4: 17.08 is a riverbend hex whose arrow points at 18.08
	if side("17.08", "18.08") != sideSavaBend || !g.alongArrow(h("17.08"), h("18.08")) || g.alongArrow(h("18.08"), h("17.08")) {
		t.Error("3.5.4: 17.08/18.08 is a riverbend along its arrow from 17.08 only")
	}
	for _, p := range [][2]string{{"17.08", "17.09"}, {"21.07", "21.08"}} {
		if !isSava(side(p[0], p[1])) {
			t.Errorf("25.1: %s/%s is a Sava hexside", p[0], p[1])
		}
	}
	// 25.1 example: the squadron in 21.10 may support these hexes and no others
	var support []string
	for _, n := range append(g.nbrs(h("21.10")), h("21.10")) {
		if n == h("21.10") || g.riverSide(n) {
			support = append(support, g.hex(n))
		}
	}
	slices.Sort(support)
	if strings.Join(support, " ") != "21.09 21.10 22.09 22.10" {
		t.Errorf("25.1 example: a squadron in 21.10 supports %v", support)
	}
	// 25.1.1: 20.06-21.07-21.08-21.09-21.10 is a squadron's way; 16.07-17.07 and 28.08-28.09 are not
	way := []string{"20.06", "21.07", "21.08", "21.09", "21.10"}
	for i := 1; i < len(way); i++ {
		if !g.alongRiver(h(way[i-1]), h(way[i])) || !g.squadronHex(h(way[i])) {
			t.Errorf("25.1.1 example: %s to %s", way[i-1], way[i])
		}
	}
	for _, p := range [][2]string{{"16.07", "17.07"}, {"28.08", "28.09"}} {
		if g.alongRiver(h(p[0]), h(p[1])) {
			t.Errorf("25.1.1 movement note: a squadron cannot move %s to %s", p[0], p[1])
		}
	}
	// the Montenegrin M hexes (24.2) are on the map's south edge
	for _, m := range mExits {
		if !g.mapEdge(h(m)) {
			t.Errorf("24.2: %s is not on the map edge", m)
		}
	}
	// 15.6.3a: Sarajevo to Tuzla is 14 + 5 + 5 + 2 = 26 MPs
	hexes := 0
	for _, l := range g.sc.offmap {
		switch {
		case l.From == "06.21" && l.To == "Zavidovic", l.From == "Zavidovic" && l.To == "Doboj", l.From == "Doboj" && l.To == "08.12":
			hexes += l.Hexes
		}
	}
	if hexes+2 != 26 || !g.railLink(h("08.12"), h("09.12")) || !g.railLink(h("09.12"), h("10.12")) {
		t.Errorf("15.6.3a: Sarajevo to Tuzla is %d MPs", hexes+2)
	}
	// the border from the east edge to 15.20 is the Donau, the Sava and the Drina (1.1)
	for _, id := range g.sc.hexes {
		for _, n := range g.nbrs(id) {
			if g.homeSide(id) == g.homeSide(n) || id.Row > 20 || n.Row > 20 {
				continue
			}
			f := g.feature(id, n)
			if !isSava(f) && !isDonau(f) && f != sideMajor {
				t.Errorf("1.1: the border hexside %s/%s is no river", g.hex(id), g.hex(n))
			}
		}
	}
	// every demo file is labelled stand-in, and the reports say so
	for _, f := range []string{"scenarios/demo-map.toml", "scenarios/demo-counters.toml", "scenarios/demo-scenario.toml", "demo-tables.toml"} {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "STAND-IN") || !strings.Contains(string(b), "stand_in = true") {
			t.Errorf("%s is not labelled stand-in", f)
		}
	}
	sit, err := Game.(adjudicator.Reporter).Situation(state, seatAH)
	if err != nil || len(sit.Notices) != 4 || !strings.Contains(sit.Picture.Notice, "stand-in map") {
		t.Errorf("stand-in notices: %v %v", sit.Notices, err)
	}
}

// TestDemoCountersFromTheText: the counters the text describes carry its values.
func TestDemoCountersFromTheText(t *testing.T) {
	t.Parallel()
	sc, err := data{}.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id     string
		v      values
		baseCE int
	}{
		{"9/VIII", values{13, 12, 3, 4}, 10}, {"21/VIII", values{12, 11, 3, 5}, 10}, {"13/VIII", values{6, 6, 3, 2}, 10},
		{"Morava-I", values{11, 12, 4, 2}, 11}, {"Lim", values{6, 6, 3, 1}, 10}, {"1ID", values{10, 10, 3, 3}, 11},
		{"2Gb", values{4, 5, 3, 1}, 11},
	} {
		c := sc.Counter(tc.id)
		if c.Sides[0] != tc.v || c.BaseCE != tc.baseCE {
			t.Errorf("%s: %+v CE %d, want %+v CE %d", tc.id, c.Sides[0], c.BaseCE, tc.v, tc.baseCE)
		}
	}
	if c := sc.Counter("Timok-I"); c.Sides[0].AV != 3 {
		t.Errorf("11.2 example: Timok AV %d", c.Sides[0].AV)
	}
	if c := sc.Counter("Beograd-Fort"); c.Abandon != 1 || c.Kind != kFort {
		t.Errorf("8.5.3 example: Beograd fort abandonment %d", c.Abandon)
	}
	if c := sc.Counter("Sarajevo-Fort"); c.Abandon != -1 {
		t.Errorf("8.5.3: an A-H * fort, got %d", c.Abandon)
	}
	for _, cb := range [][]string{{"31/IV", "31-/IV", "Dani"}, {"Drina-II", "Loznica", "Drina-II"}, {"1ID", "7Gb", "9Gb"}, {"18ID", "4Gb", "6Gb"}} {
		if !slices.ContainsFunc(sc.Setup.Combos, func(c combo) bool { return c.Into == cb[0] && slices.Equal(c.From, cb[1:]) }) {
			t.Errorf("16.3/16.4: no combination %v", cb)
		}
	}
}

// TestBadFiles: a game master's wrong file is refused with the file, the
// line and the field named; given as the option's text (a game created by
// mail) the error names the option.
func TestBadFiles(t *testing.T) {
	t.Parallel()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	mapText, counters, scenario, tables := read("scenarios/demo-map.toml"), read("scenarios/demo-counters.toml"), read("scenarios/demo-scenario.toml"), demoTables
	lineOf := func(text, what string) int {
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, what) {
				return i + 1
			}
		}
		return 0
	}
	for _, tc := range []struct {
		name, option, text string
		line               int
		field, want        string
	}{
		{"four-digit ids", "map", strings.Replace(mapText, `ids = "CC.RR"`, `ids = "CCRR"`, 1), lineOf(mapText, `ids = "CC.RR"`), "grid.ids", "dotted ids"},
		{"even columns up", "map", strings.Replace(mapText, `up = "odd"`, `up = "even"`, 1), lineOf(mapText, `up = "odd"`), "grid.up", "odd columns"},
		{"unknown terrain", "map", strings.Replace(mapText, `kind = "rough"`, `kind = "swamp"`, 1), lineOf(mapText, `kind = "rough"`), "terrain.kind", "unknown terrain"},
		{"unknown hexside set", "map", strings.Replace(mapText, "[side_sets]\n", "[side_sets]\ncanal = [\"20.10/20.11\"]\n", 1), lineOf(mapText, "[side_sets]") + 1, "side_sets.canal", "unknown hexside set"},
		{"bad kind", "counters", strings.Replace(counters, `kind = "cavalry"`, `kind = "hussars"`, 1), lineOf(counters, `kind = "cavalry"`), "kind", "want one of"},
		{"bad values", "counters", strings.Replace(counters, "full = [13, 12, 3, 4]", "full = [13, 12, 3]", 1), lineOf(counters, "full = [13, 12, 3, 4]"), "full", "four numbers"},
		{"unknown unit", "scenario", strings.Replace(scenario, `id = "9/VIII"`, `id = "99/VIII"`, 1), lineOf(scenario, `id = "9/VIII"`), "id", "not in the counter file"},
		{"no victory", "scenario", strings.Replace(scenario, "[victory]", "[victoria]", 1), lineOf(scenario, "[victory]"), "victoria", "unknown field"},
		{"bad cell", "tables", strings.Replace(tables, `"-/+3w1", "-/+3w1", "-/+3w1", "-/+3", "-/+3", "-/+3"], # white 3 (black 3 rulebook)`, `"-/+3w1", "-/+3w1", "-/+3x1", "-/+3", "-/+3", "-/+3"], # white 3 (black 3 rulebook)`, 1), lineOf(tables, `"-/+3w1", "-/+3w1", "-/+3w1", "-/+3", "-/+3", "-/+3"], # white 3 (black 3 rulebook)`), `crt.cells."2:1"`, "unknown mark"},
		{"no TEC row", "tables", strings.Replace(tables, "[tec.terrain]\nlowland = { mp = 2 }", "[tec.terrain]\nlowlands = { mp = 2 }", 1), lineOf(tables, "[tec.terrain]"), "tec.terrain.lowland", "missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Game.New("demo", map[string]string{tc.option: tc.text})
			var fe *datafile.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a file error", err)
			}
			if fe.Line != tc.line || !strings.Contains(fe.Field, tc.field) || !strings.Contains(fe.Err, tc.want) || !strings.Contains(err.Error(), "option "+tc.option) {
				t.Errorf("got %q (line %d, field %q), want line %d field %q saying %q", err, fe.Line, fe.Field, tc.line, tc.field, tc.want)
			}
		})
	}
	// the same files by path and by text give the same game
	dir := t.TempDir()
	p := dir + "/map.toml"
	os.WriteFile(p, []byte(mapText), 0o644)
	a, err := Game.New("demo", map[string]string{"map": p})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Game.New("demo", map[string]string{"map": mapText})
	if err != nil {
		t.Fatal(err)
	}
	ga, _ := decode(a)
	gb, _ := decode(b)
	if ga.Data.Map != gb.Data.Map || len(ga.Units) != len(gb.Units) {
		t.Error("a file by path and by text differ")
	}
	if _, err := Game.New("demo", map[string]string{"map": dir + "/none.toml"}); err == nil || !strings.Contains(err.Error(), "none.toml") {
		t.Errorf("a missing file: %v", err)
	}
	if got := (rules{}).FileOptions(); strings.Join(got, " ") != "map counters scenario tables" {
		t.Errorf("file options %v", got)
	}
}

// TestDataBounds: a value no counter, scenario or table can hold is
// refused with the file the game master sent, the field and its line
// (docs/scenario-sms1914.md, docs/tables-sms1914.md).
func TestDataBounds(t *testing.T) {
	t.Parallel()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	counters, scenario, tables := read("scenarios/demo-counters.toml"), read("scenarios/demo-scenario.toml"), demoTables
	lineOf := func(text, what string) int {
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, what) {
				return i + 1
			}
		}
		t.Fatalf("%q is not in the file", what)
		return 0
	}
	for _, tc := range []struct {
		name, option, old, new string
		field, want            string
	}{
		{"garrison of 1e9 (8.6.2)", "counters", "garrison = 2", "garrison = 1000000000", "garrison", "0 to 10"},
		{"negative garrison", "counters", "garrison = 2", "garrison = -1", "garrison", "0 to 10"},
		{"ammo limit of 1e9 (2.6.2)", "counters", "ammo_limit = 4", "ammo_limit = 1000000000", "ammo_limit", "0 to 99"},
		{"supply range of 1e9 (2.6.1)", "counters", "extended_range = ", "extended_range = 1000000000 # ", "extended_range", "0 to 30"},
		{"base CE of an artillery unit", "counters", "kind = \"artillery\"", "base_ce = 1000000000\nkind = \"artillery\"", "base_ce", "0 to 19"},
		{"negative replacements (16.6.1)", "scenario", "repl = { AH = 1, Serbia = 1 }", "repl = { AH = -5, Serbia = 1 }", "repl.AH", "0 to 99"},
		{"VP of 1e9 (27)", "scenario", "vp = 0", "vp = 1000000000", "vp", "-200 to 200"},
		{"komitadji named as such", "scenario", "komitadji = 3", "komitadji = 99", "komitadji", "0 to 20"},
		{"victory threshold of 1e9", "scenario", "ah = 5", "ah = 1000000000", "victory.ah", "-200 to 200"},
		{"first turn out of range", "scenario", "first_turn = 5", "first_turn = 99", "first_turn", "0 to 40"},
		{"artillery modifier of 1e9 (10.1.2)", "tables", "  [ 3,  3,  2,  2,  1,  1,  1,  0], # AV 20+", "  [ 3,  3,  2,  2,  1,  1,  1,  1000000000], # AV 20+", "artillery.drm", "-12 to 12"},
		{"CRT modifier of 1e9 (9.9.2)", "tables", `"+2/+3w1", "+2/+3", "+2/+3", "+2/+3", "+2/+3", "+2/+3"], # white 0`, `"+1000000000/+3w1", "+2/+3", "+2/+3", "+2/+3", "+2/+3", "+2/+3"], # white 0`, `crt.cells."1:4"`, "-12 to 12"},
		{"Forced March CEL reductions of 1e9 (7.2.3a)", "tables", `["-1E",        "-1E"],`, `["-1000000000E", "-1E"],`, "forced_march.results", "at most 6 CEL reductions"},
		{"TEC defence of 1e9 (9.3.1)", "tables", "high_mountain = { mp = 4, defense = 4 }", "high_mountain = { mp = 4, defense = 1000000000 }", "tec.terrain.high_mountain", "0 to 20"},
		{"TEC hexside attack of 1e9 (9.3.2)", "tables", "minor_river = { mp = 1, attack = -2 }", "minor_river = { mp = 1, attack = -1000000000 }", "tec.hexside.minor_river", "-20 to 20"},
		{"CRT rows beyond a modified white die", "tables", "white_max = 8", "white_max = 1000000000", "crt.white_max", "up to 30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := map[string]string{"counters": counters, "scenario": scenario, "tables": tables}[tc.option]
			if !strings.Contains(text, tc.old) {
				t.Fatalf("%q is not in the %s file", tc.old, tc.option)
			}
			line := lineOf(text, tc.old) // the new text's first line takes its place
			_, err := Game.New("demo", map[string]string{tc.option: strings.Replace(text, tc.old, tc.new, 1)})
			var fe *datafile.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a file error", err)
			}
			if fe.Line != line || fe.Field != tc.field && !strings.HasSuffix(fe.Field, "."+tc.field) || !strings.Contains(fe.Err, tc.want) || !strings.Contains(fe.File, "option "+tc.option) {
				t.Errorf("got %q (file %q, line %d, field %q), want option %s line %d field %q saying %q", err, fe.File, fe.Line, fe.Field, tc.option, line, tc.field, tc.want)
			}
		})
	}
}

// TestRefusalsNameTheFileSent: a demo file checked against a file the game
// master sent names his file, with the demo file's line in the text; an
// army marker or boundary the Areas of Attachment cannot use names its
// line of the scenario.
func TestRefusalsNameTheFileSent(t *testing.T) {
	t.Parallel()
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	counters, scenario := read("scenarios/demo-counters.toml"), read("scenarios/demo-scenario.toml")
	// counters without 9/VIII, which the demo scenario sets up
	_, err := Game.New("demo", map[string]string{"counters": strings.Replace(counters, `id = "9/VIII"`, `id = "9/VIIIa"`, 1)})
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.File != "option counters" || !strings.Contains(fe.Err, "demo-scenario.toml:") || !strings.Contains(fe.Err, "option scenario") {
		t.Errorf("counters that do not fit the demo scenario: %v", err)
	}
	// counters without the SIXTH army, whose plan the demo scenario names
	_, err = Game.New("demo", map[string]string{"counters": strings.Replace(counters, `id = "SIXTH"`, `id = "SIXTHa"`, 1)})
	if !errors.As(err, &fe) || fe.File != "option counters" || strings.HasPrefix(fe.File, "demo") {
		t.Errorf("counters without an army of the demo scenario: %v", err)
	}
	// the game master's scenario: its own file and line
	_, err = Game.New("demo", map[string]string{"scenario": strings.Replace(scenario, `marker = "12.10"`, `marker = "34.20"`, 1)})
	if !errors.As(err, &fe) || fe.File != "option scenario" || fe.Line != strings.Count(scenario[:strings.Index(scenario, `marker = "12.10"`)], "\n")+1 || fe.Field != "army.marker" {
		t.Errorf("an army marker in Serbia: %v (line %d)", err, fe.Line)
	}
	// a game master's table file missing a section names its file
	_, err = Game.New("demo", map[string]string{"tables": "stand_in = true\n[crt]\nwhite_min = 0\n"})
	if !errors.As(err, &fe) || fe.File != "table file option tables" || fe.Field != "crt.columns" || fe.Line != 2 {
		t.Errorf("a table file without crt.columns: %v", err)
	}
}
