package perrote

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

func TestEmbeddedScenarios(t *testing.T) {
	names := ScenarioNames()
	if len(names) < 2 {
		t.Fatalf("scenarios: %v", names)
	}
	for _, n := range names {
		sc, err := LoadScenario(n)
		if err != nil {
			t.Fatal(err)
		}
		seats, err := Game.Seats(n)
		if err != nil || len(seats) != 2 || seats[0] != sc.Seats[0] {
			t.Errorf("%s: seats %v %v", n, seats, err)
		}
	}
	sc, _ := LoadScenario("demo")
	if sc.Start.Board.Cols != 16 || sc.Start.Turns > 6 || len(sc.Seats) != 2 || sc.Seats[0] != "Russia" || sc.Seats[1] != "USA" {
		t.Errorf("demo: %dx%d, %d turns, seats %v", sc.Start.Board.Cols, sc.Start.Board.Rows, sc.Start.Turns, sc.Seats)
	}
}

// TestScenarioErrors: a bad scenario is refused with the line at fault.
func TestScenarioErrors(t *testing.T) {
	good := `title = "t"
turns = 3
[board]
cols = 10
rows = 8
[[victory]]
kind = "destroy"
share = 0.5
[[side]]
name = "A"
  [[side.unit]]
  id = "A1"
  type = "russian-squad"
  hex = "0101"
[[side]]
name = "B"
  [[side.unit]]
  id = "B1"
  type = "us-squad"
  hex = "0808"
`
	if _, err := ParseScenario("good", []byte(good)); err != nil {
		t.Fatalf("good scenario: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`hex = "0808"`, `hex = "0909x"`, "line 20: unit B1: hex"},
		{`type = "us-squad"`, `type = "us-squadd"`, `line 19: no unit type "us-squadd"`},
		{`cols = 10`, `cols = "ten"`, "line 4"},
		{`share = 0.5`, `share = 2.0`, "line 8: share must be"},
		{`hex = "0101"`, "hex = \"0101\"\n  wings = 2", `line 15: unknown key "side.unit.wings"`},
		{`id = "B1"`, `id = "A1"`, "line 18: unit A1 is named twice"},
		{`turns = 3`, `turns = 0`, "line 2: turns must be"},
		{`kind = "destroy"`, `kind = "win"`, `line 7: victory kind "win"`},
	} {
		src := strings.Replace(good, tc.from, tc.to, 1)
		_, err := ParseScenario("bad", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, n := range ScenarioNames() {
		data, _ := scenarioFS.ReadFile("scenarios/" + n + ".toml")
		f.Add(data)
	}
	f.Add([]byte("title = \"x\"\n[board]\ncols = 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseScenario("fuzz", data)
		if err != nil {
			return
		}
		state, err := NewFromScenario(sc)
		if err != nil {
			t.Fatal(err)
		}
		for _, seat := range sc.Seats {
			if _, err := Bot(state, seat); err != nil {
				t.Fatal(err)
			}
			if _, err := Game.(adjudicator.Reporter).Situation(state, seat); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzParseOrders(f *testing.F) {
	state, err := Game.New("demo", nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"move R1 0504 0505", "shoot T1 at B1 with tank_gun kill", "charge R2 0506", "mortar R1 at 0505 spotter R2 smoke",
		"casualties R1 lmg, rpg", "split R1", "embark R1 T1", "disembark R1 0404", "enter R1 0101", "face T1 n", "hold R1", "stand SN at A1 with sniper suppress"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var lines []adjudicator.OrderLine
		for i, l := range strings.Split(text, "\n") {
			lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon, problems := Game.ParseOrders(state, "Russia", lines)
		for _, p := range problems {
			if p.Line < 1 || p.Line > len(lines) {
				t.Fatalf("problem on line %d of %d: %s", p.Line, len(lines), p.Text)
			}
		}
		// canonical orders parse again to themselves
		var again []adjudicator.OrderLine
		for i, c := range canon {
			again = append(again, adjudicator.OrderLine{Line: i + 1, Text: c})
		}
		canon2, problems2 := Game.ParseOrders(state, "Russia", again)
		if len(problems2) > 0 || strings.Join(canon, "\n") != strings.Join(canon2, "\n") {
			t.Fatalf("canonical %q reparses as %q, %v", canon, canon2, problems2)
		}
	})
}
