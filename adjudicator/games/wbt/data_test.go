package wbt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
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

func FuzzParseOrders(f *testing.F) {
	state, err := Game.New("demo", nil)
	if err != nil {
		f.Fatal(err)
	}
	// a state in NATO's movement phase of turn 1
	state = advanceTo(f, state, PhaseNATOMove)
	for _, s := range []string{"move US-1AD 2302 2303", "attack 1708 with US-1AD advance all", "repair US-1AD 1909/2010",
		"dismount US-1AD", "demolish 1900/2000", "losses US-1AD KO-KLA", "support any", "airsupply 1708", "move US-1AAA 1317",
		"sequence combat-move if bad", "move S-TFD+S-36M 1709", "move US-1AD # x", "lose X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, seat := range []string{SeatNATO, SeatSerb} {
			canon, problems := Game.ParseOrders(state, seat, []adjudicator.OrderLine{{Line: 1, Text: line}})
			if len(canon)+len(problems) > 1 {
				t.Fatalf("one line gave %d orders and %d problems", len(canon), len(problems))
			}
			if seat != SeatNATO {
				continue
			}
			// an accepted order must adjudicate, and canonical orders read back the same
			if len(canon) == 1 {
				again, p2 := Game.ParseOrders(state, seat, []adjudicator.OrderLine{{Line: 1, Text: canon[0]}})
				if len(p2) > 0 || len(again) != 1 || stripComment(again[0]) != stripComment(canon[0]) {
					t.Fatalf("canonical %q reads back as %q %v", canon[0], again, p2)
				}
				if _, _, err := Game.Adjudicate(state, map[string][]string{seat: canon}, newSeeded(1)); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

func FuzzCounters(f *testing.F) {
	f.Add(demoCounters)
	f.Add([]byte("[[unit]]\nid = \"A\"\nside = \"NATO\"\nnationality = \"US\"\nmobility = \"mech\"\nfactors = [\"1\"]\nmove = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Data{CountersName: "fuzz.toml", Counters: string(data)}
		if len(d.Counters) == 0 {
			return
		}
		sc, err := d.Load()
		if err != nil {
			return
		}
		for _, c := range sc.Counters {
			if c.MaxSteps() < 1 || c.Move < 1 {
				t.Fatalf("counter %s accepted with no steps or movement", c.ID)
			}
		}
	})
}

// advanceTo plays the bots until the phase is open.
func advanceTo(tb testing.TB, state []byte, phase string) []byte {
	bot := Game.(adjudicator.Bot)
	for i := 0; i < 20; i++ {
		g, err := decode(state)
		if err != nil {
			tb.Fatal(err)
		}
		if g.Phase == phase {
			return state
		}
		seat, _ := g.owing()
		lines, _ := bot.Bot(state, seat)
		var ol []adjudicator.OrderLine
		for i, l := range lines {
			ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon, _ := Game.ParseOrders(state, seat, ol)
		if state, _, err = Game.Adjudicate(state, map[string][]string{seat: canon}, newSeeded(uint64(i))); err != nil {
			tb.Fatal(err)
		}
	}
	tb.Fatalf("phase %s never came", phase)
	return nil
}
