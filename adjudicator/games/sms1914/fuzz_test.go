package sms1914

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// fuzzState is a position the order fuzzer reads orders in, and the seat
// whose orders are due.
type fuzzState struct {
	name  string
	state []byte
	seat  string
}

// fuzzStates are positions of every kind of step, for both sides: the
// phasing player's turn step and the other's counter movement, attack and
// counter attack declarations, the defender's answers (decision windows
// opened by "defend ask"), the Inter-Phase for both seats; on the test map
// with units of every kind (cavalry, a depot, a squadron, a Two-Hex unit,
// a Montenegrin unit off the map, units bearing PAs and tasks), with
// standing and conditional orders kept.
func fuzzStates(tb testing.TB) []fuzzState {
	tb.Helper()
	path := filepath.Join("testdata", "game", "empty.state")
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	empty, err := loadCaseState(path, b)
	if err != nil {
		tb.Fatal(err)
	}
	setup := func(lines ...string) []byte {
		s := empty
		for _, l := range lines {
			f := strings.Fields(l)
			if s, err = (fixtures{}).Setup(s, f[0], f[1:]); err != nil {
				tb.Fatalf("%s: %v", l, err)
			}
		}
		return s
	}
	board := []string{
		"unit SX 27.11 attach=2nd", "unit SY 27.11 attach=2nd pa=28.10", "unit SK 22.18", "unit SDEP 31.12",
		"unit SA 29.13 hex2=29.14 attach=2nd", "unit SC 29.13", "unit SR 27.11", "unit CT-1 22.19",
		"unit AX 28.10 army=SECOND attach=VIII", "unit AY 28.10 army=SECOND attach=VIII ce=CI", "unit AA 30.12 army=SECOND attach=VIII",
		"unit ADEP 28.08 army=SECOND", "unit Sava-Sq 20.06", "unit Depot-SIXTH 06.21 army=SIXTH", "unit AK 22.08 army=SECOND",
		"unit SG 33.14 task=ip:5", "pontoon ah 21.09/22.08 built",
		"standing Serb defend ask", "standing Serb defend intense at 28.11 if odds<=2:1", "standing Serb react all yes",
		"standing AH defend intense if attacker", "standing AH withhold AY", "standing AH retreat toward 28.08",
	}
	with := func(extra ...string) []byte { return setup(append(append([]string{}, board...), extra...)...) }
	out := []fuzzState{
		{"serbian turn", with("phase turn serb"), seatSerb},
		{"a-h turn", with("phase turn ah"), seatAH},
		{"a-h counter movement", with("phase counter serb"), seatAH},
		{"serbian counter movement", with("phase counter ah"), seatSerb},
		{"serbian attack", with("phase attack serb"), seatSerb},
		{"a-h counter attack", with("phase counterattack serb"), seatAH},
		{"a-h attack", with("phase attack ah"), seatAH},
		{"serbian counter attack", with("phase counterattack ah"), seatSerb},
		{"a-h answers", with("phase defend serb", "declare Serb attack 28.10 with SX+SY intense advance all"), seatAH},
		{"serbian answers", with("phase defend ah", "declare AH attack 27.11 with AX intense if odds>=3:1"), seatSerb},
		{"serbian counter answers", with("phase counterdefend serb", "declare AH attack 29.13 with AA"), seatSerb},
		{"inter-phase, serbs", with("phase interphase"), seatSerb},
		{"inter-phase, a-h", with("phase interphase"), seatAH},
		{"gt 32 serbian turn", with("phase turn serb", "gt 32"), seatSerb},
	}
	// and the demo's own steps, as the bots reach them
	seen := map[string]bool{}
	playDemo(tb, func(step int, before, after []byte, events []adjudicator.Event, draws []legacy.EntryRecord) {
		spec, err := Game.Step(after)
		if err != nil || spec.Over || seen[spec.Phase] || len(out) > 30 {
			return
		}
		seen[spec.Phase] = true
		for _, s := range spec.Owing {
			out = append(out, fuzzState{"demo: " + spec.Phase, after, s})
		}
	})
	return out
}

// fuzzOrderSeeds are realistic lines of every verb, and the tricky ones.
var fuzzOrderSeeds = []string{
	"move SX 27.11 28.11 29.12\npa SX 29.13",
	"move SX 27.11 28.11 else 27.11 27.12 nofm\nmove SC 29.13 30.13 fm=2",
	"move SX+SR 27.11 28.11",
	"move SK 22.18 22.19",
	"move CT-1 22.19 22.18",
	"move AK 22.08 21.09",
	"move Sava-Sq 20.06 21.07 21.08 21.09 21.10",
	"move Depot-SIXTH 06.21 Zavidovic Doboj 08.12 09.12 10.12",
	"move SDEP 31.12 32.12 33.13",
	"pa SX 28.10\npa SY 28.10\npa SR 28.10",
	"repulse SX 28.10 using SX+SR\nmove SX 27.11 28.10",
	"recover SX\nip SG\nmarsch AX with AY",
	"twohex SX 27.12\nconsolidate SA 29.13\nwheel SA 29.14 30.13",
	"combine 31/IV\nsplit 1ID\nintegrate det.29\neliminate SC",
	"exit Sandzak\nenter Sandzak 22.29\nbox Sandzak West",
	"attach 9/VIII VIII\nattach 10KD independent\nboundary 12.18/12.19 12.18/13.19\nboundary keep\narmy FIFTH 12.10",
	"extend SDEP\nnoextend CT-1",
	"attack 28.10 with SX+SY intense if odds>=3:1 advance all\nattack 30.12 with SA noammo noshells advance SA twohex",
	"attack 27.11 with AX+AY intense mandated advance AX",
	"answer 28.10 intense withhold AY noammo shells yes\nanswer 27.11 not shells needed",
	"react all yes\nreact SK 23.12\nreact SK no\nretire all\nretire SK\nretire none",
	"defend ask\ndefend auto\ndefend clear\ndefend intense at 30.09 31.10 if odds<=2:1\ndefend not if attacker\ndefend intense",
	"withhold AY\nwithhold none\nammo no\nshells needed\nlosses AX AY\nlosses none",
	"retreat toward 23.16\nretreat none\nrepulse no\nrepulse yes",
	"pontoon 21.07/21.08\npontoon none\nkomitadji 23.12 29.12\nsirmien claim\nabandon FIFTH\ndisplace Depot-SIXTH 10.12",
	"repl 29/IV 36/XIII\nmarsch-depot Depot-SECOND\nmontenegro 16.29\nfrench place",
	"pass", "pass # nothing", "pass move SX 27.11", "# only a comment", "",
	"defend intense at 30.09\ndefend intense at 30.09\ndefend not at 30.09",
	"move", "move SX", "pa", "attack", "attack 28.10", "attack 28.10 with", "answer", "defend intense at", "defend intense if",
	"wheel SA", "twohex", "move SX 27.11 else", "move SX+SX 27.11 28.11", "attack 28.10 with SX+SX advance SX+SX",
	"MOVE sx 27.11 28.11", "move SX 27.11 28.11 # 99 MP", "move SX 2711 2811", "move SX 27.11 99.99",
	"komitadji 23.12 23.13", "react all maybe", "defend intense at 28.11 28.11",
}

// FuzzParseOrders: no order file makes the parser hang, panic or refuse a
// line without its number and a hint (rulestest.ParseWithin), in a step
// of every kind for either seat; canonical orders read back the same with
// no problem; and accepted orders adjudicate without error.
//
//	go test -run '^$' -fuzz '^FuzzParseOrders$' -fuzztime 60s ./adjudicator/games/sms1914
func FuzzParseOrders(f *testing.F) {
	states := fuzzStates(f)
	// every seed in three steps, every step with many seeds
	for i, s := range fuzzOrderSeeds {
		for _, k := range []int{i, i*7 + 3, i*13 + 5} {
			f.Add(uint8(k%len(states)), s)
		}
	}
	h := sha256.Sum256([]byte("fuzz"))
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		st := states[int(which)%len(states)]
		canon, _ := rulestest.ParseWithin(t, Game, st.state, st.seat, text)
		again, problems := rulestest.ParseWithin(t, Game, st.state, st.seat, strings.Join(canon, "\n"))
		if len(problems) > 0 || strings.Join(again, "\n") != strings.Join(canon, "\n") {
			t.Fatalf("%s: canonical %q read back as %q, %+v", st.name, canon, again, problems)
		}
		orders := map[string][]string{st.seat: canon}
		if _, _, err := Game.Adjudicate(st.state, orders, legacy.NewStepRoller(legacy.NewLog(h, h), 1, h, h, h)); err != nil {
			t.Fatalf("%s: orders %q: %v", st.name, canon, err)
		}
	})
}

// fuzzData checks a data file's reader: read runs it on text; no panic,
// no hang, and an error is a *datafile.FileError naming the file.
func fuzzData(t *testing.T, name, text string, read func() error) {
	if text == "" {
		return // an empty text is the demo file
	}
	done := make(chan error, 1)
	go func() { done <- read() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(rulestest.ParseLimit):
		t.Fatalf("reading %s took more than %v: %q", name, rulestest.ParseLimit, text)
	}
	if err == nil {
		return
	}
	var fe *datafile.FileError
	if !errors.As(err, &fe) || !strings.Contains(fe.File, name) {
		t.Fatalf("%q: the error %v is no file error naming %s", text, err, name)
	}
}

func fuzzDataSeeds(f *testing.F, demo []byte, more ...string) {
	f.Add(string(demo))
	for _, s := range more {
		f.Add(s)
	}
	// the demo with each of its lines dropped in turn, a few of them
	lines := strings.Split(string(demo), "\n")
	for i := 0; i < len(lines); i += max(1, len(lines)/40) {
		f.Add(strings.Join(append(append([]string{}, lines[:i]...), lines[i+1:]...), "\n"))
	}
}

// FuzzMapFile, FuzzCountersFile, FuzzScenarioFile, FuzzTablesFile: the
// readers behind ReadData and Load, each given arbitrary text for its file
// (docs/scenario-sms1914.md, docs/tables-sms1914.md). The map is read
// with the demo's other files by Load, as a game master's map is; the
// counters, the scenario (and the game it starts) and the tables by their
// own readers, against the demo's map and counters.
//
//	go test -run '^$' -fuzz '^FuzzMapFile$' -fuzztime 60s ./adjudicator/games/sms1914
func FuzzMapFile(f *testing.F) {
	fuzzDataSeeds(f, demoMap, "[grid]\nids = \"CC.RR\"\nup = \"odd\"\nfirst = \"06.01\"\nlast = \"07.02\"\n", "[grid]\nids = \"CCRR\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		d := data{MapName: "fuzz-map.toml", Map: text, CountersName: "demo-counters.toml", ScenarioName: "demo-scenario.toml", TablesName: "demo-tables.toml"}
		fuzzData(t, d.MapName, text, func() error {
			sc, err := d.Load()
			if err == nil {
				_, err = newState(d, sc)
			}
			return err
		})
	})
}

// demoScenarioData is the demo's data, parsed once.
func demoScenarioData(f *testing.F) *scenario {
	sc, err := data{}.Load()
	if err != nil {
		f.Fatal(err)
	}
	return sc
}

func FuzzCountersFile(f *testing.F) {
	demo := demoScenarioData(f)
	fuzzDataSeeds(f, demoCounters, "[[unit]]\nid = \"X\"\nside = \"AH\"\nkind = \"infantry\"\nsize = \"XX\"\nbase_ce = 10\nfull = [1, 1, 1, 1]\n",
		"[[unit]]\nid = \"G\"\nside = \"Serb\"\nkind = \"garrison\"\nsize = \"III\"\nbase_ce = 9\nfull = [1, 1, 1, 0]\ngarrison = 1000000000\nhome = \"30.09\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzData(t, "fuzz-counters.toml", text, func() error {
			sc := &scenario{Map: demo.Map, byID: map[string]*counter{}}
			return sc.readCounters("fuzz-counters.toml", []byte(text))
		})
	})
}

func FuzzScenarioFile(f *testing.F) {
	demo := demoScenarioData(f)
	fuzzDataSeeds(f, demoScenario, "first_turn = 5\nlast_turn = 7\n[victory]\nah = 5\nserb = -3\n", "first_turn = 99\n", "repl = { AH = -5 }\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzData(t, "fuzz-scenario.toml", text, func() error {
			sc := *demo
			sc.Setup, sc.offmap = nil, nil
			if err := sc.readScenario("fuzz-scenario.toml", []byte(text)); err != nil {
				return err
			}
			_, err := newState(data{MapName: "demo-map.toml", CountersName: "demo-counters.toml", ScenarioName: "fuzz-scenario.toml", ScenarioText: text, TablesName: "demo-tables.toml"}, &sc)
			return err
		})
	})
}

func FuzzTablesFile(f *testing.F) {
	fuzzDataSeeds(f, []byte(demoTables), "[crt]\ncolumns = [\"1:4\"]\nwhite_min = 0\nwhite_max = 0\n", "[artillery]\nde = [1e9]\nav = [0]\ndrm = [[1000000000]]\n")
	for _, p := range []string{"artillery-only", "bad-cell", "broken", "columns-only", "custom", "falling", "five-to-one", "short-row"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "tables", p+".toml")); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		fuzzData(t, "fuzz-tables.toml", text, func() error {
			tb, err := parseTables("fuzz-tables.toml", []byte(text))
			if err != nil {
				return err
			}
			if _, err := tb.CRT(); err != nil {
				return err
			}
			if _, err := tb.ArtilleryTable(); err != nil {
				return err
			}
			if _, err := tb.ForcedMarchTable(); err != nil {
				return err
			}
			_, err = tb.TEC()
			return err
		})
	})
}
