package bu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestDemoDataIsLabelled: the demo's four files are stand-ins and every
// report and map says so; the text's facts are in them.
func TestDemoDataIsLabelled(t *testing.T) {
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	sit, err := Game.(adjudicator.Reporter).Situation(state, SeatSerb)
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
	if c := g.sc.Deck.Card("B1"); c == nil || c.Title != "Mehmed Alagić" || c.Has(EffDRM).Value != 3 || c.Has(EffDRM).Role != "defender" {
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
	for _, reader := range []string{adjudicator.Spectator, SeatSerb, SeatCroat, SeatBosniak, ""} {
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
