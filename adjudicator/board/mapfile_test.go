package board

import (
	"errors"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

const smallMap = `title = "t"
[grid]
first = "0101"
last = "0505"

[[terrain]]
kind = "mountain"
hexes = ["0202..0303"]

[[area]]
name = "North"
hexes = ["0101..0502"]

[[area]]
name = "South"
hexes = ["0103..0505"]

[[hexsides]]
kind = "river"
sides = ["0102/0103"]

[[road]]
kind = "highway"
path = ["0101", "0102", "0103"]

[[place]]
hex = "0103"
kind = "city"
name = "Town"

[sets]
sources = ["0101"]

[side_sets]
bridges = ["0102/0103"]
`

func TestParseMap(t *testing.T) {
	m, err := ParseMap("small.toml", []byte(smallMap))
	if err != nil {
		t.Fatal(err)
	}
	if m.Grid.Cols != 5 || m.Grid.Rows != 5 || m.Grid.FirstCol != 1 {
		t.Errorf("grid %+v", m.Grid)
	}
	if m.Terrain[ID{2, 2}] != "mountain" || m.Terrain[ID{3, 3}] != "mountain" || m.Terrain[ID{4, 4}] != "clear" {
		t.Errorf("terrain: %v", m.Terrain)
	}
	if m.Area[ID{1, 1}] != "North" || m.Area[ID{1, 3}] != "South" {
		t.Errorf("areas: %v %v", m.Area[ID{1, 1}], m.Area[ID{1, 3}])
	}
	if !m.River(ID{1, 3}, ID{1, 2}) || m.Link(ID{1, 2}, ID{1, 3}) != Highway || !m.OnRoad(ID{1, 1}) || m.OnRoad(ID{5, 5}) {
		t.Error("river or road links wrong")
	}
	if m.Places[ID{1, 3}].Name != "Town" || !m.InSet("sources", ID{1, 1}) || len(m.SideSets["bridges"]) != 1 {
		t.Error("places or sets wrong")
	}
	if b := m.Borders(); len(b) == 0 {
		t.Error("no borders between the areas")
	}
	ridged, err := ParseMap("small.toml", []byte(strings.Replace(smallMap, `kind = "river"`, `kind = "ridge"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !ridged.Ridge(ID{1, 2}, ID{1, 3}) || ridged.River(ID{1, 2}, ID{1, 3}) || m.Ridge(ID{1, 2}, ID{1, 3}) {
		t.Error("a ridge hexside is not read as a ridge")
	}
}

// TestParseMapErrors checks a wrong file is refused with its line and field.
// TestParseMapUp: a map may name the printed columns that sit higher.
func TestParseMapUp(t *testing.T) {
	text := strings.Replace(smallMap, `first = "0101"`, "up = \"even\"\nfirst = \"0101\"", 1)
	m, err := ParseMap("up.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if m.Grid.Up != EvenUp || m.Grid.Adjacent(ID{2, 2}, ID{1, 3}) || !m.Grid.Adjacent(ID{2, 2}, ID{1, 1}) {
		t.Errorf("even columns up: grid %+v, 0202-0101 adjacent %v", m.Grid, m.Grid.Adjacent(ID{2, 2}, ID{1, 1}))
	}
}

func TestParseMapErrors(t *testing.T) {
	tests := []struct {
		name, from, to string
		line           int
		field, err     string
	}{
		{"bad hex", `hexes = ["0202..0303"]`, `hexes = ["02x2"]`, 8, "terrain[0].hexes", "want four digits"},
		{"off map", `sides = ["0102/0103"]`, `sides = ["0102/0109"]`, 20, "hexsides[0].sides", "off the map"},
		{"not adjacent", `path = ["0101", "0102", "0103"]`, `path = ["0101", "0103"]`, 24, "road[0].path", "not adjacent"},
		{"road kind", `kind = "highway"`, `kind = "canal"`, 23, "road[0].kind", "want road, highway"},
		{"unknown field", `title = "t"`, "title = \"t\"\ncolour = 3", 2, "colour", "unknown field"},
		{"syntax", `[grid]`, `[grid`, 3, "", ""},
		{"set", `sources = ["0101"]`, `sources = ["9999"]`, 32, "sets.sources", "off the map"},
		{"orientation", `first = "0101"`, "orientation = \"round\"\nfirst = \"0101\"", 3, "grid.orientation", "flat-top"},
		{"up", `first = "0101"`, "up = \"left\"\nfirst = \"0101\"", 3, "grid.up", "want odd or even"},
		{"hexside kind", `kind = "river"`, `kind = "canal"`, 19, "hexsides[0].kind", "want river or ridge"},
	}
	for _, tt := range tests {
		text := strings.Replace(smallMap, tt.from, tt.to, 1)
		_, err := ParseMap("m.toml", []byte(text))
		var fe *datafile.FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want a FileError", tt.name, err)
			continue
		}
		if fe.Line != tt.line || fe.Field != tt.field || !strings.Contains(fe.Err, tt.err) {
			t.Errorf("%s: got %q (line %d, field %q), want line %d field %q with %q", tt.name, err, fe.Line, fe.Field, tt.line, tt.field, tt.err)
		}
	}
}

func FuzzParseMap(f *testing.F) {
	f.Add([]byte(smallMap))
	f.Add([]byte("[grid]\nfirst = \"0101\"\nlast = \"9999\"\n"))
	f.Add([]byte("[[road]]\nkind = \"road\"\npath = [\"0101\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("fuzz.toml", data)
		if err == nil && m.Grid.Validate() != nil {
			t.Fatal("a map with an invalid grid was accepted")
		}
	})
}
