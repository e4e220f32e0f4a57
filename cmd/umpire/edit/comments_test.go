package edit

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
)

// annotate writes the game's demo file into a new folder with each
// replacement made once, as a game master annotates it by hand.
func annotate(t *testing.T, game, file string, rs [][2]string) string {
	t.Helper()
	p := copyDemo(t, game, file)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, r := range rs {
		if !strings.Contains(text, r[0]) {
			t.Fatalf("the demo's %s has no %q", file, r[0])
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	if err := os.WriteFile(p, []byte(text+"\n# the end: sent to the club on Friday\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// savedHas reads the saved file and fails for each want it lacks.
func savedHas(t *testing.T, p string, wants []string) string {
	t.Helper()
	saved, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(wants, "\n# the end: sent to the club on Friday\n") {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the saved file lacks %q:\n%s", want, saved)
		}
	}
	return string(saved)
}

// TestNetworkCommentsKept: B&U's network map annotated by hand (a line
// before a space and a road, comments after values and after a header)
// is saved with every comment where it stood; the comments of the road
// the game master removed go to the end after a note; the judge reads
// the saved file, and a second save writes the same text.
func TestNetworkCommentsKept(t *testing.T) {
	mp := annotate(t, "bu", "demo-map.toml", [][2]string{
		{"title = \"Brotherhood & Unity demo map\"\n", "title = \"Brotherhood & Unity demo map\" # from the box\n"},
		{"[[space]]\nname = \"Cazin\"\n", "# Cazin: position measured twice\n[[space]]\nname = \"Cazin\" # the town, not the municipality\n"},
		{"control_value = 3\n", "control_value = 3 # 1.2.10\n"},
		{"[[road]]\na = \"velika-kladusa\"\n", "[[road]] # the border road\na = \"velika-kladusa\"\n"},
		{"[[road]]\na = \"cazin\"\nb = \"bosanska-krupa\"\n", "# the road over the pass\n[[road]]\na = \"cazin\" # unchecked\nb = \"bosanska-krupa\"\n"},
	})
	s, err := New(Config{Game: bu.Game, MapPath: mp})
	if err != nil {
		t.Fatal(err)
	}
	doc := *s.doc
	net := *doc.Network
	net.Roads = slices.DeleteFunc(slices.Clone(net.Roads), func(r NetRoad) bool { return r.A == "cazin" && r.B == "bosanska-krupa" })
	if len(net.Roads) != len(doc.Network.Roads)-1 {
		t.Fatalf("no road from cazin to bosanska-krupa among %d", len(net.Roads))
	}
	doc.Network = &net
	post(t, s, "/api/save", &doc, http.StatusOK)
	saved := savedHas(t, mp, []string{
		"# Brotherhood & Unity: the stand-in demo map (docs/scenario-bu.md).\n",
		"title = \"Brotherhood & Unity demo map\" # from the box\n",
		"# Cazin: position measured twice\n[[space]]\nname = \"Cazin\" # the town, not the municipality\n",
		"name = \"Cazinska Krajina\"\ncontrol_value = 3 # 1.2.10\n",
		"[[road]] # the border road\na = \"velika-kladusa\"\n",
		"# umpire edit: kept from [[road]] a \"cazin\" b \"bosanska-krupa\" (no longer in the file):\n# the road over the pass\n",
		"# umpire edit: kept from the line of a in [[road]] a \"cazin\" b \"bosanska-krupa\" (no longer in the file):\n# unchecked\n",
	})
	if strings.Contains(saved, "a = \"cazin\"\nb = \"bosanska-krupa\"") {
		t.Error("the removed road is still written")
	}
	if _, err := bu.Game.New("", map[string]string{"map": saved}); err != nil {
		t.Errorf("create refuses the saved map: %v", err)
	}
	s2, err := New(Config{Game: bu.Game, MapPath: mp})
	if err != nil {
		t.Fatal(err)
	}
	if again := s2.check(s2.doc); again.MapText != saved {
		t.Errorf("a second save changes the file:\n%s", again.MapText)
	}
}

// TestCounterCommentsKept: a counter file annotated by hand (a line
// before a row, comments after top-level and row values, in a value
// written on several lines) is saved with every comment where it stood;
// the comments of the row the game master deleted go to the end after a
// note; the judge reads the saved files, and a second save writes the
// same text.
func TestCounterCommentsKept(t *testing.T) {
	mp := copyDemo(t, "wbt", "demo-map.toml")
	cp := annotate(t, "wbt", "demo-counters.toml", [][2]string{
		{"stand_in = true\n", "stand_in = true # until the sheet comes\n"},
		{"factors = [\"8\", \"6\", \"4\", \"2\"]\n", "factors = [\n  \"8\", # full strength\n  \"6\", \"4\", \"2\",\n]\n"},
		{"[[unit]]\nid = \"US-1ID\"\n", "# the 1ID: from the 1.4 example\n[[unit]]\nid = \"US-1ID\" # mechanized\n"},
		{"[[unit]]\nid = \"S-ATK2\"\n", "# the last one: to check\n[[unit]] # anti-tank\nid = \"S-ATK2\"\n"},
	})
	s, err := New(Config{Game: wbt.Game, MapPath: mp, CountersPath: cp})
	if err != nil {
		t.Fatal(err)
	}
	doc := *s.doc
	cs := *doc.Counters
	cs.Tables = slices.Clone(cs.Tables)
	for i, tb := range cs.Tables {
		if tb.Name == "unit" {
			tb.Rows = slices.DeleteFunc(slices.Clone(tb.Rows), func(r []string) bool { return tb.rowField(r, "id") == "S-ATK2" })
			cs.Tables[i] = tb
		}
	}
	doc.Counters = &cs
	post(t, s, "/api/save", &doc, http.StatusOK)
	saved := savedHas(t, cp, []string{
		"# War by Television: Kosovo 1999 -- DEMO COUNTERS (STAND-IN DATA)\n",
		"stand_in = true # until the sheet comes\n",
		"# NATO. factors lists the combat factor of each step",
		"id = \"US-1AD\"\n",
		"factors = [\"8\", \"6\", \"4\", \"2\"] # full strength\n",
		"# the 1ID: from the 1.4 example\n[[unit]]\nid = \"US-1ID\" # mechanized\n",
		"# umpire edit: kept from [[unit]] id \"S-ATK2\" (no longer in the file):\n# the last one: to check\n",
		"# umpire edit: kept from the header line of [[unit]] id \"S-ATK2\" (no longer in the file):\n# anti-tank\n",
	})
	if strings.Contains(saved, "id = \"S-ATK2\"") {
		t.Error("the deleted row is still written")
	}
	if _, err := wbt.Game.New("", map[string]string{"map": s.check(s.doc).MapText, "counters": saved}); err != nil {
		t.Errorf("create refuses the saved counters: %v", err)
	}
	s2, err := New(Config{Game: wbt.Game, MapPath: mp, CountersPath: cp})
	if err != nil {
		t.Fatal(err)
	}
	if again := s2.check(s2.doc); again.CountersText != saved {
		t.Errorf("a second save changes the file:\n%s", again.CountersText)
	}
}
