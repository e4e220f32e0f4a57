package perrote

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestCanonicalOrders: orders are echoed in one canonical form.
func TestCanonicalOrders(t *testing.T) {
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"MOVE r1 0104 0105", "move R1 0104 0105"},
		{"shoot r1 t1", ""}, // own unit: a problem
		{"shoot R2 A2", "shoot R2 at A2 with all kill"},
		{"stand R2 at b1 with rpg, lmg suppression", "stand R2 at B1 with rpg,lmg suppress"},
		{"move T1 0109 face ne", "move T1 0109 face ne"},
		{"casualties R1 assault, lmg", "casualties R1 assault lmg"},
		{"hold SN", "hold SN"},
	} {
		canon, problems := Game.ParseOrders(state, "Russia", []adjudicator.OrderLine{{Line: 1, Text: tc.in}})
		for i, c := range canon {
			canon[i], _, _ = strings.Cut(c, "  # ") // the forecast
		}
		got := strings.Join(canon, "; ")
		if got != tc.want {
			t.Errorf("%q -> %q %v, want %q", tc.in, got, problems, tc.want)
		}
		if tc.want == "" && (len(problems) != 1 || problems[0].Line != 1 || problems[0].Hint == "") {
			t.Errorf("%q: want one problem on line 1 with a hint, got %v", tc.in, problems)
		}
	}
}

// TestOrderProblems: each bad order names its line and gives a hint;
// the good ones are kept.
func TestOrderProblems(t *testing.T) {
	state, _ := Game.New("demo", nil)
	lines := []adjudicator.OrderLine{
		{Line: 3, Text: "move R1 0104"},
		{Line: 4, Text: "fly R1"},
		{Line: 5, Text: "move S1 1504"},
		{Line: 6, Text: "move R1 0102"},
		{Line: 7, Text: "shoot R9 at S1"},
		{Line: 8, Text: "shoot T1 at S1 with sniper"},
		{Line: 9, Text: "move R2 0206 0207 0208"},
	}
	canon, problems := Game.ParseOrders(state, "Russia", lines)
	if len(canon) != 1 || canon[0] != "move R1 0104" {
		t.Errorf("kept %q", canon)
	}
	want := map[int]string{4: "not an order", 5: "not yours", 6: "already has a movement order", 7: "no unit R9", 8: "carries no sniper", 9: "at most 2"}
	for _, p := range problems {
		if !strings.Contains(p.Text, want[p.Line]) || p.Hint == "" {
			t.Errorf("line %d: %q (%q), want %q", p.Line, p.Text, p.Hint, want[p.Line])
		}
		delete(want, p.Line)
	}
	if len(want) > 0 {
		t.Errorf("no problems for %v", want)
	}
}

// TestSituation: the report shows tracks, every unit and a map with the
// objectives, counters and last turn's arrows, the same for every reader.
func TestSituation(t *testing.T) {
	state, _ := Game.New("demo", nil)
	orders := map[string][]string{}
	for _, seat := range []string{"Russia", "USA"} {
		orders[seat], _ = Bot(state, seat)
	}
	next, _, err := Game.Adjudicate(state, orders, stepRoller("sit", 1))
	if err != nil {
		t.Fatal(err)
	}
	rep := Game.(adjudicator.Reporter)
	sit, err := rep.Situation(next, "Russia")
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := rep.Situation(next, adjudicator.Spectator)
	if len(sit.Units) != len(pub.Units) || len(sit.Units) != 10 {
		t.Errorf("units: %d for Russia, %d public", len(sit.Units), len(pub.Units))
	}
	p := sit.Picture
	if p == nil || p.Grid == nil || p.Grid.Cols != 16 || len(p.Labels) != 2 || len(p.Counters) == 0 || len(p.Arrows) == 0 || len(p.Hexsides) == 0 {
		t.Fatalf("picture: %+v", p)
	}
	if sit.Tracks[0].Name != "Turn" || sit.Tracks[0].Value != 1 || sit.Tracks[0].Max != 6 {
		t.Errorf("tracks: %+v", sit.Tracks)
	}
}

// TestBreakthroughBots plays the larger scenario with bots to its end.
func TestBreakthroughBots(t *testing.T) {
	state, turns := playBots(t, "breakthrough", "bt-1")
	s, _ := decode(state)
	if !s.Over || len(turns) > 10 {
		t.Errorf("over %v after %d turns", s.Over, len(turns))
	}
}
