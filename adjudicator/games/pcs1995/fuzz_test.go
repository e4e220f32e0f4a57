package pcs1995

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// fuzzState is a state the order fuzzer reads files against, with the
// seat whose orders are due.
type fuzzState struct {
	name  string
	state []byte
	seat  string
	// parseOnly: a decision step made up by the case fixtures, without
	// the piece of work a real one resumes: read, not adjudicated
	parseOnly bool
}

var (
	fuzzOnce   sync.Once
	fuzzStates []fuzzState
	fuzzErr    error
)

// statesForFuzzing are the steps an order file meets: the set-up, a
// turn's first step, each seat's activations, each kind of decision
// (from a demo game whose seats have no standing orders), a strict air
// placement, and Action Phase positions on the test map with units in
// contact and air units in their boxes (some spent).
func statesForFuzzing() ([]fuzzState, error) {
	fuzzOnce.Do(func() { fuzzStates, fuzzErr = buildFuzzStates() })
	return fuzzStates, fuzzErr
}

func buildFuzzStates() ([]fuzzState, error) {
	var out []fuzzState
	seen := map[string]bool{}
	add := func(prefix string, state []byte) error {
		g, err := decode(state)
		if err != nil {
			return err
		}
		seats, _ := g.owing()
		for _, seat := range seats {
			key := prefix + g.Phase + "/" + seat
			if g.Pending != nil {
				key += "/" + g.Pending.Decide
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, fuzzState{name: key, state: state, seat: seat})
			}
		}
		return nil
	}
	for _, opts := range []map[string]string{nil, {"strict": "yes"}} {
		state, err := Game.New("demo", opts)
		if err != nil {
			return nil, err
		}
		r := newSeeded(7)
		bot := Game.(adjudicator.Bot)
		for step := 0; step < 150; step++ {
			if err := add("demo:", state); err != nil {
				return nil, err
			}
			spec, err := Game.Step(state)
			if err != nil || spec.Over {
				break
			}
			orders := map[string][]string{}
			for _, seat := range spec.Owing {
				lines, err := bot.Bot(state, seat)
				if err != nil {
					return nil, err
				}
				var ol []adjudicator.OrderLine
				for i, l := range lines {
					if opts == nil && lineKind(strings.Fields(l)) == "standing" {
						continue // no standing orders: every decision is asked
					}
					ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
				}
				orders[seat], _ = Game.ParseOrders(state, seat, ol)
			}
			if state, _, err = Game.Adjudicate(state, orders, r); err != nil {
				return nil, err
			}
		}
	}
	// the test map: units in contact, air units in every box
	base, err := loadTestMap(filepath.Join("testdata", "game", "test-map.toml"), nil)
	if err != nil {
		return nil, err
	}
	for _, setup := range [][]string{
		{"phase action NATO", "unit N-C1 2003", "unit N-C2 2005", "unit N-B 2103 static", "unit N-AB 2102", "unit R-C 2004", "unit R-B1 2104",
			"air NF1 patrol", "air NF2 spent", "air NG1 gs", "air NG2 interdiction", "air RF1 patrol", "air RG1 gs", "deesc RS"},
		{"phase action RS", "unit R-C 2004", "unit R-B1 2104", "unit R-AR 2105", "unit N-C1 2003", "unit N-C2 2003",
			"air RF1 patrol", "air RG2 interdiction", "air NF1 patrol", "deesc NATO"},
		{"phase turn", "arriving CA-1", "unit N-C1 2003", "unit R-C 2004", "air NF1 spent"},
		{"decision NATO advance", "unit N-C1 2003", "unit R-C 2004"},
		{"decision RS absorb", "unit N-C1 2003", "unit R-C 2004"},
	} {
		state := base
		for _, d := range setup {
			f := strings.Fields(d)
			if state, err = (gameFixtures{}).Setup(state, f[0], f[1:]); err != nil {
				return nil, fmt.Errorf("%s: %w", d, err)
			}
		}
		n := len(out)
		if err := add(fmt.Sprintf("test %d:", len(out)), state); err != nil {
			return nil, err
		}
		for i := n; i < len(out); i++ {
			out[i].parseOnly = strings.HasPrefix(setup[0], "decision")
		}
	}
	return out, nil
}

// fuzzSeeds are realistic lines of every verb, on the test map's units,
// and the tricky cases issue 27 found.
var fuzzSeeds = []string{
	"move N-C1 2004 2104\nsm N-C2 2006 2007 2008\nme N-C1 attack 2004 bid 3 gs NG1 escort NF1 advance 2104\npa N-C1 2004 with N-C2 gs NG1 interdict NG2 escort NF1 advance N-C1>2104,N-C2\npass",
	"airmobile N-AB 2706 via 2203 2303 escort NF1\ndeescalate R-C,R-B1\nask",
	"pa N-C1 2004 if 2004 enemy and N-C1 fresh else move N-C1 1903 if vp >= 3 else skip",
	"move N-C1 2004 if N-C1 at 2003 else me N-C1 2103 attack 2004 bid 1 else skip",
	"place CA-1 1407\nair NF1 patrol\nair NF2 suppression if enemy patrol >= 2 and enemy gs < 1 else patrol\nair NG1 airstrike\nairstrike R-C with NG1 escort NF1\nbomb escort NF2",
	"absorb static support retreat vp rout\ndefend gs all interdict none escort 1\nintercept airstrike 2\nintercept all none\ninterdict sm 1 escort none\nadvancing lead\nentry 1407 1812\nitalians 1105 1104\noncall NF1 patrol\nstop after attack on 2003 2005",
	"stop none\nstop after attack on any\nabsorb ask\ndefend ask\ninterdict ask\nadvancing ask",
	"decide 2\ndecide all\ndecide gs all interdict none escort 1\ndecide sm 1 escort none\ndecide static support retreat 2106 vp\ndecide N-C1>2104,N-C2\ndecide lead\ndecide none",
	"pa N-C1 2004 gs", "pa N-C1 2004 interdict else pass", "me N-C1 attack 2004 bid 2 gs", "pa N-C1 2004 escort if vp >= 3",
	"pass\nmove N-C1 2004", "deescalate\ndeescalate", "absorb rout\nabsorb static", "decide 1\ndecide 2",
	"move N-C1 2004 2005 2006 2007 2008 2009 2010", "me N-C1 2104 2105 attack 2205 bid 4", "pa N-C1 2004 advance N-C1>2104>2105>2106>2107>2108",
	"air NG1 airstrike if enemy patrol >= x\nairstrike R-C with NG1", "airmobile N-AB 2706 via 2103 2102 2103",
	"move N-C1 2004 else else", "if", "else skip", "move N-C1 2004 if and", "air NF1 patrol if enemy", "pa N-C1 2004 advance N-C1>", "decide N-C1>,",
	"MOVE n-c1 2004 # a comment", "move N-C1 2004 if vp >= 1 and vp >= 1", "ask else ask else ask",
}

// FuzzParseOrders: no order file freezes or breaks the receipt in any step:
// every refusal names a line and a hint (rulestest.ParseWithin), what is
// accepted reads again the same with no problem, and the accepted orders
// adjudicate without an error.
//
//	go test -run '^$' -fuzz '^FuzzParseOrders$' -fuzztime 60s ./adjudicator/games/pcs1995
func FuzzParseOrders(f *testing.F) {
	states, err := statesForFuzzing()
	if err != nil {
		f.Fatal(err)
	}
	bot := Game.(adjudicator.Bot)
	for i, s := range states {
		if lines, err := bot.Bot(s.state, s.seat); err == nil && len(lines) > 0 {
			f.Add(uint8(i), strings.Join(lines, "\n"))
		}
		for _, seed := range fuzzSeeds {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		s := states[int(which)%len(states)]
		canon, _ := rulestest.ParseWithin(t, Game, s.state, s.seat, text)
		var again []adjudicator.OrderLine
		for i, l := range canon {
			again = append(again, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon2, problems2 := Game.ParseOrders(s.state, s.seat, again)
		if len(problems2) > 0 || strings.Join(canon, "\n") != strings.Join(canon2, "\n") {
			t.Fatalf("%s: the canonical orders %q read again give %q, %+v", s.name, canon, canon2, problems2)
		}
		if s.parseOnly {
			return
		}
		if _, _, err := Game.Adjudicate(s.state, map[string][]string{s.seat: canon}, newSeeded(uint64(len(text)))); err != nil {
			t.Fatalf("%s: the accepted orders %q do not adjudicate: %v", s.name, canon, err)
		}
	})
}

// dataSeeds are the data files of the tests and the demo, for the data
// fuzzers.
func dataSeeds(f *testing.F, name string, demo []byte) {
	f.Add(string(demo))
	if b, err := os.ReadFile(filepath.Join("testdata", "game", name)); err == nil {
		f.Add(string(b))
		f.Add(strings.ReplaceAll(string(b), "\n\n", "\n\n# a comment\n"))
		f.Add(string(b[:len(b)/2]))
	}
	f.Add("")
	f.Add("[[unit]]\nid = \"X\"\n")
	f.Add("[grid]\nids = \"CCRR\"\nfirst = \"1001\"\nlast = \"1002\"\n[[area]]\nname = \"Italy\"\nhexes = [\"1001..1002\"]\n")
	f.Add("[[chit]]\nid = \"01\"\nfront = { A = 1, B = 1, C = 1, D = 1 }\nback = { A = 1 }\n")
}

// checkDataError holds a data file's refusal to datafile.FileError naming
// the file as the game master gave it.
func checkDataError(t *testing.T, err error, file string) {
	t.Helper()
	if err == nil {
		return
	}
	var fe *datafile.FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not a datafile.FileError", err)
	}
	if fe.File != file {
		t.Fatalf("error %v names %q, not the file given, %q", err, fe.File, file)
	}
}

// FuzzMapFile: any map text a game master gives (checked against the demo
// counters and chits) is read or refused with a FileError naming the map.
func FuzzMapFile(f *testing.F) {
	dataSeeds(f, "test-map.toml", demoMap)
	f.Fuzz(func(t *testing.T, text string) {
		d := data{MapName: "option map", Map: text, CountersName: "demo-counters.toml", ChitsName: "demo-chits.toml"}
		_, err := parseScenario(d, []byte(text), demoCounters, demoChits)
		checkDataError(t, err, "option map")
	})
}

// FuzzCounterFile: any counter list is read or refused with a FileError
// naming it (read against the demo map, parsed once).
func FuzzCounterFile(f *testing.F) {
	dataSeeds(f, "test-counters.toml", demoCounters)
	demo := &scenario{}
	if err := demo.readMap("demo-map.toml", demoMap); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sc := &scenario{Map: demo.Map, byID: map[string]*counter{}, airByID: map[string]*airCounter{}}
		_, err := sc.readCounters("option counters", []byte(text), nil)
		checkDataError(t, err, "option counters")
	})
}

// FuzzChitFile: any chit manifest is read or refused with a FileError
// naming it.
func FuzzChitFile(f *testing.F) {
	dataSeeds(f, "test-chits.toml", demoChits)
	f.Fuzz(func(t *testing.T, text string) {
		sc := &scenario{chitBy: map[string]*chit{}}
		_, err := sc.readChits("option chits", []byte(text))
		checkDataError(t, err, "option chits")
	})
}
