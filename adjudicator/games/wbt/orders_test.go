package wbt

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// fuzzState is a position the order fuzzer reads files in.
type fuzzState struct {
	name  string
	state []byte
}

// fuzzStates are positions of every step kind: the demo game's phases of
// turns 1 and 2 (the set-ups, weather, both movement and combat phases,
// the maximum effort choice), and on the small test map a loss decision,
// an advance decision, a discretionary reconstitution turn and bad
// weather.
func fuzzStates(tb testing.TB) []fuzzState {
	tb.Helper()
	var out []fuzzState
	state, err := Game.New("demo", nil)
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	bot := Game.(adjudicator.Bot)
	for i := 0; i < 40; i++ {
		g, err := decode(state)
		if err != nil {
			tb.Fatal(err)
		}
		if g.Turn > 2 {
			break
		}
		if key := g.label(); !seen[key] {
			seen[key] = true
			out = append(out, fuzzState{"demo " + key, state})
		}
		seat, _ := g.owing()
		lines, err := bot.Bot(state, seat)
		if err != nil {
			tb.Fatal(err)
		}
		var ol []adjudicator.OrderLine
		for j, l := range lines {
			ol = append(ol, adjudicator.OrderLine{Line: j + 1, Text: l})
		}
		canon, _ := Game.ParseOrders(state, seat, ol)
		if state, _, err = Game.Adjudicate(state, map[string][]string{seat: canon}, newSeeded(uint64(i))); err != nil {
			tb.Fatal(err)
		}
	}
	small := func(name string, setup ...string) []byte {
		s, err := loadTestMap(filepath.Join("testdata", "game", "small-map.toml"), nil)
		if err != nil {
			tb.Fatal(err)
		}
		for _, l := range setup {
			f := strings.Fields(l)
			if s, err = (gameFixtures{}).Setup(s, f[0], f[1:]); err != nil {
				tb.Fatalf("%s: %s: %v", name, l, err)
			}
		}
		return s
	}
	units := []string{"unit US-1AD 0305", "unit UK-1 0406", "unit US-MEF 0708", "unit US-1AAA 0403", "unit KO-KLA 0305",
		"unit S-1 0306", "unit S-2 0306", "unit S-3 0507", "unit S-TF 0506", "unit S-ART 0506", "unit S-ATK 0307", "down 0302/0303"}
	out = append(out,
		fuzzState{"small NATO movement", small("move", units...)},
		fuzzState{"small Serbian movement", small("serb-move", append([]string{"phase serb-move"}, units...)...)},
		fuzzState{"small Serbian combat turn 4", small("serb-combat", append([]string{"phase serb-combat", "turn 4"}, units...)...)},
		fuzzState{"small NATO combat, bad weather", small("combat", append([]string{"phase nato-combat", "weather bad"}, units...)...)},
		fuzzState{"small discretionary turn", small("recon", append([]string{"recon discretionary"}, units...)...)},
	)
	// a loss decision and an advance decision: a NATO attack on two
	// Serbian units, under the dice until the step waits for one
	for _, want := range []string{phaseLosses, phaseAdvance} {
		start := small("battle", "phase nato-combat", "unit US-1AD 0305", "unit UK-1 0406", "unit S-1 0306", "unit S-2 0306")
		for seed := uint64(1); seed < 200; seed++ {
			next, _, err := Game.Adjudicate(start, map[string][]string{seatNATO: {"attack 0306 with US-1AD UK-1"}}, newSeeded(seed))
			if err != nil {
				tb.Fatal(err)
			}
			if g, _ := decode(next); g != nil && g.Phase == want {
				out = append(out, fuzzState{"small " + want, next})
				break
			}
		}
	}
	return out
}

// fuzzSeeds are order files of every verb, tricky lines among them, alone
// and together.
var fuzzSeeds = []string{
	"move US-1AD 2302 2303", "attack 1708 with US-1AD advance all", "repair US-1AD 1909/2010", "dismount US-1AD", "remount US-1AD",
	"demolish 1900/2000", "demolish S-TFD 1900/2000", "losses US-1AD KO-KLA", "losses none", "support any", "support 1708 2832",
	"airsupply 1708", "airsupply defend any", "airsupply defend 1708 none", "move US-1AAA 1317", "sequence combat-move if bad",
	"reconstitute if good", "move S-TFD+S-36M 1709", "move S-1+S-2 0307 0308 leave S-2", "move S-1+S-2 0407 together",
	"move S-1+S-2 0407 leave", "move US-1AD 0304 0404 else 0304 0204 0205", "move US-1AD # x", "lose X", "lose S-1 S-2",
	"advance all", "advance US-1AD", "advancing ask", "maximum-effort", "neutrals croatia romania", "neutrals none", "uk3 yes",
	"place US-1AD 2302", "place S-1 0406", "pass", "attack 0306 with US-1AD UK-1 advance none losses UK-1",
	"attack 0306 with S-ART S-TF advance S-TF", "move S-1+S-1 0407 0408 else 0407 0507 together",
	"neutrals croatia\nneutrals none\nuk3 yes\nuk3 no\nplace UK-3 2302\nplace US-1AD 2302",
	"repair US-1AD 0304/0305\nmove US-1AD 0306\nattack 0306 with US-1AD",
	"dismount UK-1\nrepair UK-1 0404/0405\nmove UK-1 0407\nmove UK-1 0507",
	"demolish S-3 0507/0508\nmove S-3 0506\nmove S-TF+S-ART 0505 0504 else 0506 0606 leave S-ART",
	"maximum-effort\nmove S-3 0508 0509\nattack 0305 with S-1",
	"sequence move-combat if good\nsequence combat-move if bad\nsequence move-combat\nreconstitute\nairsupply 0305",
	"attack 0306 with US-1AD\nattack 0306 with UK-1\nattack 0307 with US-1AD\n\n# a comment\n  pass",
	"lose S-1\nlose S-2\nlose S-1 S-1 S-1",
	"move US-1AAA 0404 0405\nmove US-MEF 0709 0710 0711 0712\nmove KO-KLA 0306 0307",
}

// FuzzParseOrders reads arbitrary order files for both seats in every
// kind of step (rulestest.ParseWithin: no hang, no panic, every refusal
// with its line and a hint). For the seat that owes orders, the canonical
// orders read back the same with no problem, and they adjudicate.
func FuzzParseOrders(f *testing.F) {
	states := fuzzStates(f)
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, fs := range states {
			owing, _ := mustDecode(t, fs.state).owing()
			for _, seat := range []string{seatNATO, seatSerb} {
				canon, problems := rulestest.ParseWithin(t, Game, fs.state, seat, text)
				if seat != owing {
					continue
				}
				if n := len(strings.Split(text, "\n")); len(canon)+len(problems) > n {
					t.Fatalf("%s: %d lines gave %d orders and %d problems", fs.name, n, len(canon), len(problems))
				}
				if len(canon) == 0 {
					continue
				}
				again, p2 := rulestest.ParseWithin(t, Game, fs.state, seat, strings.Join(canon, "\n"))
				if len(p2) > 0 || len(again) != len(canon) {
					t.Fatalf("%s: canonical %q reads back as %q %v", fs.name, canon, again, p2)
				}
				for i := range canon {
					if kit.StripComment(again[i]) != kit.StripComment(canon[i]) {
						t.Fatalf("%s: canonical %q reads back as %q", fs.name, canon[i], again[i])
					}
				}
				if _, _, err := Game.Adjudicate(fs.state, map[string][]string{seat: canon}, newSeeded(1)); err != nil {
					t.Fatalf("%s: %q: %v", fs.name, canon, err)
				}
			}
		}
	})
}

func mustDecode(tb testing.TB, state []byte) *game {
	tb.Helper()
	g, err := decode(state)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
