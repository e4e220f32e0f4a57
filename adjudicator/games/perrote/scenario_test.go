package perrote

import (
	"errors"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

func TestEmbeddedScenarios(t *testing.T) {
	names := scenarioNames()
	if len(names) < 2 {
		t.Fatalf("scenarios: %v", names)
	}
	for _, n := range names {
		sc, err := loadScenario(n)
		if err != nil {
			t.Fatal(err)
		}
		seats, err := Game.Seats(n)
		if err != nil || len(seats) != 2 || seats[0] != sc.Seats[0] {
			t.Errorf("%s: seats %v %v", n, seats, err)
		}
	}
	sc, _ := loadScenario("demo")
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
	for _, tc := range []struct {
		from, to string
		line     int
		want     string
	}{
		{`hex = "0808"`, `hex = "0909x"`, 20, "bad:20: unit B1: hex"},
		{`type = "us-squad"`, `type = "us-squadd"`, 19, `bad:19: no unit type "us-squadd"`},
		{`cols = 10`, `cols = "ten"`, 4, "bad:4"},
		{`share = 0.5`, `share = 2.0`, 8, "bad:8: share must be"},
		{`hex = "0101"`, "hex = \"0101\"\n  wings = 2", 15, `bad:15: field side.unit.wings: unknown field`},
		{`id = "B1"`, `id = "A1"`, 18, "bad:18: unit A1 is named twice"},
		{`turns = 3`, `turns = 0`, 2, "bad:2: turns must be"},
		{`kind = "destroy"`, `kind = "win"`, 7, `bad:7: victory kind "win"`},
		{`hex = "0808"`, `hex = 808`, 20, "bad:20: field side[1].unit[0].hex: incompatible types"},
		{`type = "russian-squad"`, `type = ["russian-squad"]`, 13, "bad:13: field side[0].unit[0].type"},
	} {
		src := strings.Replace(good, tc.from, tc.to, 1)
		_, err := ParseScenario("bad", []byte(src))
		var fe *datafile.FileError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &fe) || fe.File != "bad" || fe.Line != tc.line {
			t.Errorf("%s -> %s: %v, want %q, a FileError naming bad at line %d", tc.from, tc.to, err, tc.want, tc.line)
		}
	}
}

// TestCustomScenarioNamesTheOption: a custom scenario's refusal names the
// file the game master sent, the option scenario, and its line.
func TestCustomScenarioNamesTheOption(t *testing.T) {
	text, err := scenarioFS.ReadFile("scenarios/demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(text), `hex = "1505"`, `hex = "9999"`, 1)
	_, err = Game.New(custom, map[string]string{"scenario": bad})
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.File != "option scenario" || fe.Line < 1 || !strings.Contains(err.Error(), "option scenario:") {
		t.Errorf("a bad custom scenario: %v, want a FileError naming option scenario and its line", err)
	}
	if _, err := loadScenario("demo"); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseScenario reads arbitrary scenario files: a refusal is a
// FileError naming the file; an accepted scenario starts a game the bots
// and the report can play.
func FuzzParseScenario(f *testing.F) {
	for _, n := range scenarioNames() {
		data, _ := scenarioFS.ReadFile("scenarios/" + n + ".toml")
		f.Add(data)
	}
	f.Add([]byte("title = \"x\"\n[board]\ncols = 3\n"))
	f.Add([]byte("title = \"x\"\nturns = \"three\"\n[[side]]\nname = \"A\"\n[[side.unit]]\nid = \"A1\"\nhex = 101\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseScenario("fuzz", data)
		if err != nil {
			var fe *datafile.FileError
			if !errors.As(err, &fe) || fe.File != "fuzz" {
				t.Fatalf("refusal %v: want a FileError naming fuzz", err)
			}
			return
		}
		state, err := newFromScenario(sc)
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

// fuzzStates are positions to read order files in: each shipped scenario
// at its start, the demo after one and two turns of the bots, and a demo
// played to its end.
func fuzzStates(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, n := range scenarioNames() {
		state, err := Game.New(n, nil)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, state)
	}
	state, err := Game.New("demo", nil)
	if err != nil {
		tb.Fatal(err)
	}
	for k := uint64(1); k < 100; k++ {
		spec, err := Game.Step(state)
		if err != nil {
			tb.Fatal(err)
		}
		if k <= 3 || spec.Over {
			out = append(out, state)
		}
		if spec.Over {
			break
		}
		orders := map[string][]string{}
		for _, seat := range spec.Owing {
			lines, err := Bot(state, seat)
			if err != nil {
				tb.Fatal(err)
			}
			var in []adjudicator.OrderLine
			for i, l := range lines {
				in = append(in, adjudicator.OrderLine{Line: i + 1, Text: l})
			}
			orders[seat], _ = Game.ParseOrders(state, seat, in)
		}
		if state, _, err = Game.Adjudicate(state, orders, stepRoller("fuzz", k)); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// FuzzParseOrders reads arbitrary order files for every seat (and one that
// is none) in several positions (rulestest.ParseWithin: no hang, no panic,
// every refusal with its line and a hint); the canonical orders read back
// the same with no problem, and they adjudicate.
func FuzzParseOrders(f *testing.F) {
	states := fuzzStates(f)
	for _, s := range []string{"move R1 0504 0505", "shoot T1 at B1 with tank_gun kill", "charge R2 0506", "mortar R1 at 0505 spotter R2 smoke",
		"casualties R1 lmg, rpg", "split R1", "embark R1 T1", "disembark R1 0404", "enter R1 0101", "face T1 n", "hold R1",
		"stand SN at A1 with sniper suppress", "move T1 0109 face ne", "shoot R2 A2", "stand R2 at b1 with rpg, lmg suppression",
		"move R1 0104\nfly R1\nmove S1 1504\nmove R1 0102\nshoot R9 at S1\nshoot T1 at S1 with sniper\nmove R2 0206 0207 0208",
		"move R1 0104 0105\nshoot R2 at A2 with all kill\n# a comment\n\nhold SN\ncasualties R1 assault lmg",
		"embark R1 T1\nmove T1 0109 0110\ndisembark R1 0110\ncharge R2 0207\nmortar M1 at 0507 smoke",
		"split R1\nsplit R1\nhold R1\nhold R1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, state := range states {
			s, err := decode(state)
			if err != nil {
				t.Fatal(err)
			}
			for _, seat := range append(s.seats(), "Nobody") {
				canon, problems := rulestest.ParseWithin(t, Game, state, seat, text)
				if n := len(strings.Split(text, "\n")); len(canon)+len(problems) > n {
					t.Fatalf("%d lines gave %d orders and %d problems", n, len(canon), len(problems))
				}
				if len(canon) == 0 {
					continue
				}
				// canonical orders parse again to themselves
				canon2, problems2 := rulestest.ParseWithin(t, Game, state, seat, strings.Join(canon, "\n"))
				if len(problems2) > 0 || strings.Join(canon, "\n") != strings.Join(canon2, "\n") {
					t.Fatalf("canonical %q reparses as %q, %v", canon, canon2, problems2)
				}
				if _, _, err := Game.Adjudicate(state, map[string][]string{seat: canon}, stepRoller("fuzz", 1)); err != nil {
					t.Fatalf("%q: %v", canon, err)
				}
			}
		}
	})
}
