package bu

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// TestDemoDataIsLabelled: the demo's four files are stand-ins and every
// report and map says so; the text's facts are in them.
func TestDemoDataIsLabelled(t *testing.T) {
	t.Parallel()
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	sit, err := Game.(adjudicator.Reporter).Situation(state, seatSerb)
	if err != nil {
		t.Fatal(err)
	}
	if len(sit.Notices) != 4 || !strings.Contains(sit.Picture.Notice, "stand-in map") || !strings.Contains(sit.Picture.Notice, "stand-in cards") {
		t.Errorf("notices %q, picture notice %q: want the four stand-in files named", sit.Notices, sit.Picture.Notice)
	}
	g, _ := decode(state)
	pod := g.sc.Map.RegionByID("podrinje")
	if pod == nil || pod.ControlValue != 3 || pod.Points != 5 || len(pod.Keys) != 1 || g.sc.Map.Spaces[pod.Keys[0]].ID != "gorazde" {
		t.Errorf("Podrinje: %+v, want Control Value 3, 5 Region Points, Gorazde its only Key Space (13.5's example)", pod)
	}
	if c := g.sc.Deck.Card("B1"); c == nil || c.Title != "Mehmed Alagić" || c.Has(effDRM).Value != 3 || c.Has(effDRM).Role != "defender" {
		t.Errorf("B1: %+v, want Mehmed Alagic, +3 in defence (13.4's example)", c)
	}
	for _, pair := range [][2]string{{"kupres", "sipovo"}, {"livno", "glamoc"}, {"livno", "sinj"}, {"tuzla", "srebrenik"}, {"tuzla", "gracanica"},
		{"doboj", "derventa"}, {"gradacac", "derventa"}, {"brcko", "bijeljina"}, {"brcko", "priboj"}, {"priboj", "loznica"}, {"bijeljina", "loznica"},
		{"brcko", "srebrenik"}, {"gorazde", "foca"}, {"bihac", "cazin"}, {"cazin", "velika-kladusa"}} {
		a, _ := g.sc.Map.Space(pair[0])
		b, _ := g.sc.Map.Space(pair[1])
		if !g.sc.Map.Graph.Adjacent(a, b) {
			t.Errorf("%s and %s are not adjacent; the text's examples say they are", pair[0], pair[1])
		}
	}
}

// TestGMFilesRefusedWithLineAndField: a game master's wrong data file is
// refused when the game is created, naming the file's line and field and
// what is allowed.
func TestGMFilesRefusedWithLineAndField(t *testing.T) {
	t.Parallel()
	demo := func(name string) string {
		b, err := os.ReadFile(filepath.Join("scenarios", "demo-"+name+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		option, old, new, want string
	}{
		{"cards", "cv = 3\ntype = \"combat\"", "cv = 5\ntype = \"combat\"", "field card[0].cv: 5: the Card Value ranges from 2 to 4 (1.5.3)"},
		{"cards", "kind = \"drm\"\n  value = 2\n  role = \"attacker\"", "kind = \"bombard\"\n  value = 2\n  role = \"attacker\"", "field card S1 effect[0]: kind \"bombard\": want one of drm"},
		{"cards", "timing = \"before\"", "timing = \"during\"", "timing: \"during\": an interrupt is played before or after"},
		{"cards", "period = \"early\"", "period = \"middle\"", "field card[0].period: \"middle\": want early, late or both (1.5.2)"},
		{"map", "terrain = \"mountain\"", "terrain = \"forest\"", "field space[12].terrain: \"forest\": want clear, mountain, swamp, city or river (1.2.8)"},
		{"map", "a = \"velika-kladusa\"", "a = \"atlantis\"", "field road[0].a: \"atlantis\" is not a space of the map"},
		{"map", "setup = [\"VRS\", \"VRS\"]", "setup = [\"VRS\"]", "the setup symbols place 24 Serb brigades; 4.1.1 sets up 25"},
		{"map", "control_value = 3\npoints = 5", "control_value = 0\npoints = 5", "control_value: 0: want the number of spaces to control"},
		{"counters", "full = \"4-6-4\"", "full = \"4-6\"", "field type[0].full: \"4-6\": want CF-LF-MF"},
		{"counters", "attack_only = [\"Serb\"]", "attack_only = [\"Croat\"]", "attack_only: \"Croat\": want an enemy side (1.3.4)"},
		{"tracks", "level2 = -4", "level2 = -1", "field intervention.level2: -1: each level begins at a lower FA"},
		{"tracks", "Croat = [5, 5, 6, 6]", "Croat = [5, 5, 6]", "field cards.Croat: [5 5 6]: want 4 numbers"},
		{"tracks", "level3 = -6", "level3 = -6\nlevel4 = -7", "field intervention.level4: unknown field"},
	} {
		text := demo(tc.option)
		if !strings.Contains(text, tc.old) {
			t.Fatalf("%s: the demo file has no %q", tc.option, tc.old)
		}
		text = strings.Replace(text, tc.old, tc.new, 1)
		_, err := Game.New("three", map[string]string{tc.option: text})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with %q: error %v, want %q", tc.option, tc.new, err, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), "option "+tc.option) {
			t.Errorf("%s: error %v does not name the file", tc.option, err)
		}
		if !strings.Contains(tc.want, "setup symbols") && !strings.Contains(err.Error(), "option "+tc.option+":") {
			t.Errorf("%s: error %v names no line", tc.option, err)
		}
	}
}

// TestGMFilesLoad: the game master's files, given by path or as text,
// replace the demo's; files without stand_in carry no notice.
func TestGMFilesLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, _ := os.ReadFile(filepath.Join("scenarios", "demo-tracks.toml"))
	real := strings.Replace(strings.Replace(string(b), "stand_in = true", "stand_in = false", 1), "level1 = -2", "level1 = -1", 1)
	path := filepath.Join(dir, "tracks.toml")
	if err := os.WriteFile(path, []byte(real), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{path, real} {
		state, err := Game.New("two", map[string]string{"tracks": v})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := decode(state)
		if g.sc.Tracks.Levels[0] != -1 || len(g.sc.Notices) != 3 {
			t.Errorf("tracks from %.20q: levels %v, notices %q", v, g.sc.Tracks.Levels, g.sc.Notices)
		}
	}
	if _, err := Game.New("three", map[string]string{"tracks": filepath.Join(dir, "missing.toml")}); err == nil || !strings.Contains(err.Error(), "cannot read the tracks file") {
		t.Errorf("a missing file: %v", err)
	}
	for _, o := range []map[string]string{{"extended": "3"}, {"fight_to_the_end": "maybe"}, {"last_turn": "5"}, {"weather": "good"}} {
		if _, err := Game.New("three", o); err == nil {
			t.Errorf("options %v accepted", o)
		}
	}
	if _, err := Game.New("four", nil); err == nil || !strings.Contains(err.Error(), "three") {
		t.Errorf("scenario four: %v", err)
	}
}

// TestSpectatorSeesNoHand: the public view (and every seat's) shows no
// hand but the reader's own; the game master sees all.
func TestSpectatorSeesNoHand(t *testing.T) {
	t.Parallel()
	state, _, _ := playGame(t, "three", 5, map[string]string{"last_turn": "1"})
	_ = state
	// a position with hands: the start of turn 1 after the deal
	s0, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := Game.Adjudicate(s0, nil, newSeeded(t, 9))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(next)
	rep := Game.(adjudicator.Reporter)
	for _, reader := range []string{adjudicator.Spectator, seatSerb, seatCroat, seatBosniak, ""} {
		sit, err := rep.Situation(next, reader)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Join(sit.Hand, "\n") + strings.Join(sit.Notices, "\n")
		for _, tr := range sit.Tracks {
			all += tr.Text
		}
		for seat, hand := range g.Hands {
			for _, c := range hand {
				seen := strings.Contains(all, c+" ")
				if want := reader == seat || reader == ""; seen != want {
					t.Errorf("reader %q sees %s's card %s: %v", reader, seat, c, seen)
				}
			}
		}
	}
}

// TestGMFileNamedNotDemo: a game master's file that the demo files it is
// checked against do not fit is the file named, not the embedded demo file
// (the demo is not the game master's to fix): counters without the demo
// cards' unit type, a map without the demo counters' or cards' region,
// counters with too few units for the demo map's setup symbols. A line is
// named wherever the game master's file has one.
func TestGMFileNamedNotDemo(t *testing.T) {
	t.Parallel()
	demo := func(name string) string {
		b, err := os.ReadFile(filepath.Join("scenarios", "demo-"+name+".toml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	counters, gmMap := demo("counters"), demo("map")
	for _, tc := range []struct {
		about    string
		options  map[string]string
		want     string // the file named, with its line when it has one
		contains string
	}{
		{"counters without the ARBIH type the demo cards place",
			map[string]string{"counters": strings.NewReplacer(`id = "ARBIH"`, `id = "ABIH"`, `type = "ARBIH"`, `type = "ABIH"`).Replace(counters)},
			"option counters: ", `the demo cards need what this file lacks: demo-cards.toml:1083: field card B7 effect[0]: type "ARBIH": want a unit type of the counter list`},
		{"a map without the demo counters' Cazinska Krajina",
			map[string]string{"map": strings.ReplaceAll(gmMap, `"cazinska-krajina"`, `"cazin"`)},
			"option map: ", `the demo counter list needs what this file lacks: demo-counters.toml:94: field type[9].region_only: "cazinska-krajina" is not a region of the map (1.3.4)`},
		{"a map without the demo cards' Birač",
			map[string]string{"map": strings.ReplaceAll(gmMap, `"birac"`, `"birach"`)},
			"option map: ", `the demo cards need what this file lacks: demo-cards.toml:292: field card S19 effect[0]: where "birac": want a space, a region or key`},
		{"counters with too few VRS-E units for the demo map's setup symbols",
			map[string]string{"counters": strings.Replace(counters, `ids = ["VRS-E1..8"]`, `ids = ["VRS-E1..5", "VRS-E8"]`, 1)},
			"option counters:" + strconv.Itoa(strings.Count(counters[:strings.Index(counters, `ids = ["VRS-E1..8"]`)], "\n")+1) + ": ", "field units[1].ids: the demo map's setup symbols need more VRS-E units than this file holds: demo-map.toml:789: field space[79].setup: no more units of type VRS-E in the counter list for this symbol"},
	} {
		_, err := Game.New("three", tc.options)
		if err == nil {
			t.Errorf("%s: accepted", tc.about)
			continue
		}
		var fe *datafile.FileError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Error(), tc.want) || !strings.Contains(err.Error(), tc.contains) {
			t.Errorf("%s: error %v, want a *datafile.FileError beginning %q and saying %q", tc.about, err, tc.want, tc.contains)
		}
	}
}

// TestGMFileLines: a refusal names the line of the value wherever the file
// has one: a key written in an inline table, a key left out of an entry
// (its entry's line), an effect written inline (the card's effect key).
func TestGMFileLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		option, text, want string
	}{
		{"tracks", "title = \"t\"\nintervention = {level1 = -2, level2 = -1, level3 = -6}\ncards = {Serb = [7, 7, 6, 6], Croat = [5, 5, 6, 6], Bosniak = [6, 6, 6, 6]}\n",
			"option tracks:2: field intervention.level2: -1: each level begins at a lower FA"},
		{"tracks", "title = \"t\"\n\n[intervention]\nlevel1 = -2\nlevel3 = -6\n[cards]\nSerb = [7, 7, 6, 6]\nCroat = [5, 5, 6, 6]\nBosniak = [6, 6, 6, 6]\n",
			"option tracks:3: field intervention.level2: missing"},
		{"cards", "title = \"t\"\n[[card]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\neffect = [{kind = \"bombard\"}]\n",
			"option cards:9: field card X1 effect[0]: kind \"bombard\""},
		{"cards", "[[ card ]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\n  [[ card.effect ]] # the event\n  kind = \"bombard\"\n",
			"option cards:8: field card X1 effect[0]: kind \"bombard\""},
		{"map", "title = \"m\"\n[[region]]\nname = \"R\"\ncontrol_value = 1\n[[space]]\nname = \"A\"\nregion = \"r\"\n",
			"option map:5: field space[0].control: \"\": want Serb, Croat or Bosniak"},
	} {
		_, err := Game.New("three", map[string]string{tc.option: tc.text})
		var fe *datafile.FileError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.option, err, tc.want)
		}
	}
}
