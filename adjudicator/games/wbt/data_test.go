package wbt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

func TestDemoScenario(t *testing.T) {
	sc, err := Data{}.Load()
	if err != nil {
		t.Fatal(err)
	}
	g := sc.Map.Grid
	for _, tc := range []struct {
		hex, terrain string
	}{{"1006", "marsh"}, {"1514", "hills"}, {"2826", "mountain"}, {"3330", "forest"}, {"3225", "clear"}, {"1708", "clear"}} {
		id, _ := g.Parse(tc.hex)
		if got := sc.Map.Terrain[id]; got != tc.terrain {
			t.Errorf("WbT 10.10: %s is %s, want %s", tc.hex, got, tc.terrain)
		}
	}
	novi, _ := g.Parse("1708")
	if p := sc.Map.Places[novi]; p.Kind != "city" || p.Name != "Novi Sad" {
		t.Errorf("WbT 2.1: 1708 is %+v", p)
	}
	if len(sc.Cities) != 9 {
		t.Errorf("WbT 4.6: %d rump-Yugoslav cities, want 9", len(sc.Cities))
	}
	for _, s := range []string{"3239", "4029", "2000", "3039"} {
		id, _ := g.Parse(s)
		if !sc.Map.InSet("supply_source", id) || !sc.Map.OnRoad(id) {
			t.Errorf("WbT 8.7: %s is not a supply source on a road", s)
		}
	}
	if len(sc.Intact) != 1 || sc.Intact[0].String() != "1900/2000" {
		t.Errorf("WbT 10.18: intact bridges %v", sc.Intact)
	}
	for _, s := range []string{"2034", "3835"} {
		id, _ := g.Parse(s)
		if !sc.Milosevic[id] {
			t.Errorf("WbT 11.19: %s is not on the Milosevic Line", s)
		}
	}
	// 11.19: "border hexes between 2034 and 3835, inclusive": Kosovo's
	// hexes on the Albanian border from 2034 south, and on the Macedonian
	// border east to 3835; nothing north of 2034.
	var line []string
	for id := range sc.Milosevic {
		line = append(line, g.Format(id))
	}
	slices.Sort(line)
	want := []string{"2034", "2035"}
	for c := 21; c <= 38; c++ {
		want = append(want, fmt.Sprintf("%d35", c))
	}
	if !slices.Equal(line, want) {
		t.Errorf("WbT 11.19: the Milosevic Line is %v, want %v", line, want)
	}
	tfd := sc.Counter("S-TFD")
	if tfd.AttackAt(2) != 2 || tfd.DefenseAt(2) != 3 || tfd.Move != 6 || tfd.MaxSteps() != 2 {
		t.Errorf("WbT 2.3: TFD is %v", tfd)
	}
	if len(sc.Notices) != 3 {
		t.Errorf("stand-in notices: %v", sc.Notices)
	}
}

// TestBadFiles checks a game master's wrong file is refused with the line
// and field named.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	counters := string(demoCounters)
	mapText := string(demoMap)
	tests := []struct {
		name, option, path, want string
	}{
		{"counter side", "counters", write("c1.toml", strings.Replace(counters, `side = "NATO"`, `side = "Blue"`, 1)), `:22: field unit[0].side: "Blue": want NATO or Serb`},
		{"counter factors", "counters", write("c2.toml", strings.Replace(counters, `factors = ["8", "6", "4", "2"]`, `factors = ["8", "x"]`, 1)), `field unit[0].factors: "x"`},
		{"counter mobility", "counters", write("c3.toml", strings.Replace(counters, `mobility = "mech"`, `mobility = "tracked"`, 1)), `:25: field unit[0].mobility`},
		{"counter special", "counters", write("c4.toml", strings.Replace(counters, `special = ["mef"]`, `special = ["navy"]`, 1)), `field unit[3].special: "navy"`},
		{"counter unknown", "counters", write("c5.toml", strings.Replace(counters, `move = 8`, "move = 8\ncolour = 1", 1)), "field unit.colour: unknown field"},
		{"map area", "map", write("m1.toml", strings.Replace(mapText, `name = "Bosnia"`, `name = "Atlantis"`, 1)), `field area.name: unknown area "Atlantis"`},
		{"map hex", "map", write("m2.toml", strings.Replace(mapText, `first = "1000"`, `first = "10x0"`, 1)), "field grid.first"},
		{"map bridge", "map", write("m3.toml", strings.Replace(mapText, `intact_bridge = ["1900/2000"]`, `intact_bridge = ["1000/1001"]`, 1)), "field side_sets.intact_bridge: 1000/1001 is not a bridge"},
		{"crt", "crt", write("crt.toml", strings.Replace(string(demoCRT), `roll3 = ["3/0", "2/0"`, `roll3 = ["3/0", "2-0"`, 1)), "crt.roll3"},
	}
	for _, tt := range tests {
		_, err := Game.New("demo", map[string]string{tt.option: tt.path})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Game.New("demo", map[string]string{"colour": "red"}); err == nil {
		t.Error("an unknown option was accepted")
	}
}

// fileErrorNaming fails t unless err is (or wraps) a *datafile.FileError
// naming the file.
func fileErrorNaming(t *testing.T, err error, file string) {
	t.Helper()
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.File != file {
		t.Fatalf("refusal %v: want a FileError naming %s", err, file)
	}
}

// FuzzCounters reads arbitrary counter files (with the small test map, a
// quick one to read): a refusal is a FileError naming the file; an accepted
// counter has steps and movement.
func FuzzCounters(f *testing.F) {
	small, err := os.ReadFile(filepath.Join("testdata", "game", "small-counters.toml"))
	if err != nil {
		f.Fatal(err)
	}
	mapText, err := os.ReadFile(filepath.Join("testdata", "game", "small-map.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(demoCounters)
	f.Add(small)
	f.Add([]byte("[[unit]]\nid = \"A\"\nside = \"NATO\"\nnationality = \"US\"\nmobility = \"mech\"\nfactors = [\"1\"]\nmove = 1\n"))
	f.Add([]byte("[[unit]]\nid = \"A\"\nside = \"Serb\"\nnationality = \"S\"\nmobility = \"nonmech\"\nfactors = [\"1-2\", \"x\"]\nmove = \"five\"\nhex = \"9999\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return // the demo file
		}
		d := Data{MapName: "small-map.toml", Map: string(mapText), CountersName: "fuzz.toml", Counters: string(data)}
		sc, err := d.Load()
		if err != nil {
			fileErrorNaming(t, err, "fuzz.toml")
			return
		}
		for _, c := range sc.Counters {
			if c.MaxSteps() < 1 || c.Move < 1 {
				t.Fatalf("counter %s accepted with no steps or movement", c.ID)
			}
		}
	})
}

// FuzzMap reads arbitrary map files through the game's reader (with
// counters that set up nowhere, and with the demo counters): a refusal is a
// FileError naming the map, even when the demo counters do not fit it; an
// accepted map starts a game whose first step can be reported.
func FuzzMap(f *testing.F) {
	small, err := os.ReadFile(filepath.Join("testdata", "game", "small-map.toml"))
	if err != nil {
		f.Fatal(err)
	}
	counters, err := os.ReadFile(filepath.Join("testdata", "game", "small-counters.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	f.Add(demoMap)
	f.Add([]byte("[grid]\nfirst = \"0101\"\nlast = \"0303\"\n[sets]\nsupply_source = [\"0101\"]\nmilosevic_line = []\n"))
	f.Add([]byte("[grid]\nfirst = \"0101\"\nlast = \"0303\"\nids = \"CC.RR\"\n[[area]]\nname = \"Atlantis\"\nhexes = [\"0101..0303\"]\n"))
	f.Add([]byte("[grid]\nfirst = \"0101\"\nlast = \"0303\"\n[[hexsides]]\nkind = \"river\"\nsides = [\"0101/0102\"]\n[side_sets]\nintact_bridge = [\"0101/0102\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return // the demo file
		}
		for _, d := range []Data{
			{MapName: "fuzz-map.toml", Map: string(data), CountersName: "small-counters.toml", Counters: string(counters)},
			{MapName: "fuzz-map.toml", Map: string(data)},
		} {
			sc, err := d.Load()
			if err != nil {
				fileErrorNaming(t, err, "fuzz-map.toml")
				continue
			}
			if sc.Map == nil || sc.CRT == nil {
				t.Fatal("a scenario without its map or CRT")
			}
		}
		// the game master's text in the option, as a game created by mail
		// gives it: a refusal names the option
		state, err := Game.New("demo", map[string]string{"map": string(data) + "\n", "counters": string(counters)})
		if err != nil {
			fileErrorNaming(t, err, "option map")
			return
		}
		if _, err := Game.Step(state); err != nil {
			t.Fatal(err)
		}
		for _, seat := range []string{seatNATO, seatSerb} {
			if _, err := Game.(adjudicator.Reporter).Situation(state, seat); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzCRT reads arbitrary CRT table files: a refusal is a FileError naming
// the file; an accepted table has a result in every cell.
func FuzzCRT(f *testing.F) {
	f.Add(demoCRT)
	for _, n := range []string{"bad-cell", "broken", "missing-nato", "missing-roll", "real-crt", "short-row", "unknown-field", "wrong-columns"} {
		data, err := os.ReadFile(filepath.Join("testdata", n+".toml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseCRT("fuzz-crt.toml", data)
		if err != nil {
			fileErrorNaming(t, err, "fuzz-crt.toml")
			return
		}
		for roll := 1; roll <= 6; roll++ {
			for col := range columns {
				if r := c.Cell(col, roll); r.Attacker < 0 || r.Defender < 0 {
					t.Fatalf("cell %d/%d: %v", col, roll, r)
				}
			}
		}
	})
}

// TestDataRefusalsNameTheFile (issue 27): a data refusal names the file
// the game master sent, as given (a path, or the option for a text), and
// its line; when a demo file does not fit the master's file, the master's
// file is named, not the embedded demo file it was checked against.
func TestDataRefusalsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small, err := os.ReadFile(filepath.Join("testdata", "game", "small-map.toml"))
	if err != nil {
		t.Fatal(err)
	}
	smallPath := filepath.Join("testdata", "game", "small-map.toml")
	crt := string(demoCRT)
	counters := string(demoCounters)
	for _, tc := range []struct {
		name    string
		options map[string]string
		file    string
		line    int
		want    string
	}{
		// the demo counters set up off the master's small map: the map is named, at its grid's last hex
		{"map only, by path", map[string]string{"map": smallPath}, smallPath, 12, "the demo counters set US-1AD up at 2302"},
		{"map only, by text", map[string]string{"map": string(small)}, "option map", 12, "give the counters for this map too"},
		{"crt row", map[string]string{"crt": filepath.Join("testdata", "short-row.toml")}, filepath.Join("testdata", "short-row.toml"), 9, "field crt.roll5: has 8 cells"},
		{"crt cell", map[string]string{"crt": write("cell.toml", strings.Replace(crt, `roll3 = ["3/0", "2/0"`, `roll3 = ["3/0", "2-0"`, 1))}, filepath.Join(dir, "cell.toml"), 21, "column NATO 1:3 / Serbs 1:2"},
		{"crt type", map[string]string{"crt": write("type.toml", strings.Replace(crt, `roll3 = ["3/0", "2/0"`, `roll3 = [3, "2/0"`, 1))}, filepath.Join(dir, "type.toml"), 21, ""},
		{"crt heading missing", map[string]string{"crt": "[crt]\nserbs = []\n"}, "option crt", 1, "field crt.nato: missing"},
		{"counters type", map[string]string{"counters": write("move.toml", strings.Replace(counters, "move = 8", `move = "eight"`, 1))}, filepath.Join(dir, "move.toml"), 27, ""},
		{"counters side", map[string]string{"counters": strings.Replace(counters, `side = "NATO"`, `side = "Blue"`, 1)}, "option counters", 22, `"Blue": want NATO or Serb`},
	} {
		_, err := Game.New("demo", tc.options)
		var fe *datafile.FileError
		if !errors.As(err, &fe) || fe.File != tc.file || fe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a FileError naming %s at line %d with %q", tc.name, err, tc.file, tc.line, tc.want)
		}
	}
}
