package bu

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// fuzzState is a position an order file is read on, and the seat sending
// it.
type fuzzState struct {
	name  string
	state []byte
	seat  string
	kind  string // the seed lines that fit it: setup, start, round, decide
}

// fuzzStates are the positions the order fuzzer reads files on: every
// step of the 3-seat and the 2-seat game (the set-up, the start of a turn,
// an action round of each side early and late, and the decision windows:
// losses, retreat, advance), each read for every seat, so that standing
// orders (combat and interrupt cards held, losses, retreat, strike...) are
// read in every step too.
func fuzzStates(tb testing.TB) []fuzzState {
	tb.Helper()
	build := func(scenario string, setup string, orders map[string][]string, faces ...int) []byte {
		state, err := Game.New(scenario, nil)
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(setup), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			if state, err = (fixtures{}).Setup(state, f[0], f[1:]); err != nil {
				tb.Fatalf("%s: %v", line, err)
			}
		}
		if orders == nil {
			return state
		}
		var problems []string
		for seat, lines := range orders {
			canon, probs := rulestest.ParseWithin(tb, Game, state, seat, strings.Join(lines, "\n"))
			for _, p := range probs {
				problems = append(problems, p.Text)
			}
			orders[seat] = canon
		}
		if len(problems) > 0 {
			tb.Fatalf("the fuzzer's own orders are refused: %q", problems)
		}
		next, _, err := Game.Adjudicate(state, orders, resolve.NewForced(faces))
		if err != nil {
			tb.Fatal(err)
		}
		return next
	}
	type pos struct {
		name, kind string
		state      []byte
	}
	battle := `
empty
turn 3
round Serb
unit VRS-E1 bijeljina
unit VRS-E2 bijeljina
unit VRS-E3 priboj
unit VRS-1 priboj
unit ARBIH-1 brcko
unit ARBIH-2 brcko
unit ARBIH-3 srebrenik
unit ARBIH-E1 tuzla
unit HVO-1 orasje
control orasje croat
trench brcko complete
hand Serb S13 S25
hand Croat C15 C22 C29
hand Bosniak B1 B31 B14
`
	var all []pos
	add := func(name, kind string, state []byte) { all = append(all, pos{name, kind, state}) }
	// the set-up (4.0, 14.2)
	add("setup-three", "setup", build("three", "", nil))
	add("setup-two", "setup", build("two", "", nil))
	// the start of a turn (6.2, 6.3): turn 1 after the deal, and turn 3
	// with Foreign Units in every box
	add("start-three-1", "start", build("three", "", map[string][]string{}, 0))
	add("start-three-3", "start", build("three", `
turn 3
phase start
reserve SDG-1 HV-1
eliminated SDG-2
unit SDG-3 loznica reduced
unit HV-2 sinj reduced
hand Serb S21 S22 S26 S11
hand Croat C15 C22 C20
hand Bosniak B1 B31 B26
`, nil))
	add("start-two-3", "start", build("two", `
turn 3
phase start
reserve HV-1 MUJ-1
hand BC B1 C22 B31
`, nil))
	// action rounds: each side active, late and early, with hands of every
	// kind of card (op, sr, rp, offensive, foreign, reduce, place, control,
	// combat, interrupt); the other seats hold combat and interrupt cards
	add("round-three-serb-3", "round", build("three", `
turn 3
round Serb
hand Serb S13 S25 S11 S23 S28 S16 S27 S21 S22 S26 S32 S2 S9 S14 S20
hand Croat C15 C22 C29 C20 C12
eliminated VRS-3 VRS-E8
unit VRS-2 prijedor reduced
hand Bosniak B1 B15 B31 B26 B14
standing Croat interrupt C29
`, nil))
	add("round-three-croat-3", "round", build("three", `
turn 3
round Croat
hand Croat C23 C28 C6 C12 C14 C16 C17 C22 C30 C24
hand Serb S21 S22 S26
hand Bosniak B1 B31
`, nil))
	add("round-three-bosniak-3", "round", build("three", `
turn 3
round Bosniak
hand Bosniak B16 B22 B26 B14 B13 B17 B19 B28 B2
hand Serb S21 S26 S2
hand Croat C15 C29
lastmode Bosniak rp
`, nil))
	add("round-three-serb-1", "round", build("three", `
turn 1
round Serb
hand Serb S1 S4 S6 S19 S29 S31 S10 S17 S5 S3 S24
hand Croat C2 C11 C7 C31 C1 C5
hand Bosniak B1 B4 B11 B18 B7 B20
`, nil))
	add("round-two-bc-3", "round", build("two", `
turn 3
round BC
hand BC B16 B22 B26 C23 C28 C6 B14 C12 C29 B31
hand Serb S21 S26 S22
fa croat -2
`, nil))
	add("round-two-serb-1", "round", build("two", `
turn 1
round Serb
hand Serb S4 S6 S19 S31 S1
hand BC B1 C2 B18 C11
`, nil))
	// the decision windows: losses (13.4.6.2), retreat (13.4.8), advance
	// (13.4.9), 3 seats and 2
	add("decide-three-losses", "decide", build("three", `
empty
turn 3
round Bosniak
unit ARBIH-E1 brcko
unit ARBIH-1 brcko
unit VRS-1 priboj
unit VRS-2 priboj reduced
hand Bosniak B28
hand Croat C16 C15
hand Serb S21 S22
`, map[string][]string{seatBosniak: {"play B28 op", "attack priboj from brcko losses auto"}}, 4, 0))
	add("decide-three-retreat", "decide", build("three", battle+"standing Bosniak losses auto\n",
		map[string][]string{seatSerb: {"play S13 op", "attack brcko from bijeljina priboj advance none"}}, 6, 0))
	add("decide-three-advance", "decide", build("three", `
empty
turn 3
round Serb
unit VRS-E1 bijeljina
unit VRS-E2 bijeljina
unit VRS-E3 bijeljina
unit VRS-E4 priboj
unit VRS-1 priboj reduced
unit ARBIH-1 brcko reduced
unit ARBIH-2 gradacac
hand Serb S13 S11
hand Croat C16
hand Bosniak B1
`, map[string][]string{seatSerb: {"play S13 op", "attack brcko from bijeljina priboj"}}, 9, 0))
	add("decide-two-retreat", "decide", build("two", strings.ReplaceAll(strings.ReplaceAll(battle, "hand Croat C15 C22 C29\n", ""), "hand Bosniak", "hand BC")+"standing BC losses auto\n",
		map[string][]string{seatSerb: {"play S13 op", "attack brcko from bijeljina priboj advance none"}}, 6, 0))
	var out []fuzzState
	for _, p := range all {
		g, err := decode(p.state)
		if err != nil {
			tb.Fatal(err)
		}
		if p.kind == "decide" && g.Pending == nil {
			tb.Fatalf("%s: no decision is open (%s)", p.name, g.label())
		}
		for _, seat := range g.Seats {
			out = append(out, fuzzState{name: p.name + "/" + seat, state: p.state, seat: seat, kind: p.kind})
		}
	}
	return out
}

// fuzzSeeds are realistic lines of every verb and the tricky ones, by the
// kind of step they fit; "any" fits every step (standing orders, pass,
// comments, what is not an order).
var fuzzSeeds = map[string][]string{
	"any": {
		"losses auto\nretreat move srebrenik tuzla\nadvancing all\nstrike auto\nsupply auto",
		"losses ask\nretreat ask\nadvancing ask\ncombat none\ninterrupt none",
		"losses VRS-1 VRS-2,VRS-3\nstrike ARBIH-E1+ARBIH-1\nsupply ARBIH-5",
		"combat B1 at brcko tuzla\ncombat C15\ninterrupt C29 on op by Serb\ninterrupt S22 on event\ninterrupt B31 on attack",
		"ties croat\nties auto",
		"losses ,\nsupply ,,\nstrike ,\nlosses VRS-1,,VRS-2\npass now\npass # a comment",
		"#\n\n   \npass", "retreat", "combat B1 at", "interrupt C29 on", "interrupt C29 by", "strike +", "losses auto auto",
		"retreat move brčko Zvornik", "LOSSES AUTO", "fly away",
	},
	"setup": {
		"region srednja-bosna bosniak\nregion sjeverna-hercegovina croat\nregion zapadna-hercegovina croat",
		"region posavina croat", "region srednja-bosna serb", "region", "region srednja-bosna",
	},
	"start": {
		"reinforce VRS-19 prijedor\nreinforce ARBIH-21 tuzla\nreinforce HVO-9 mostar",
		"recover SDG-2\nwithdraw SDG-3\ndeploy SDG-1 loznica",
		"restore SDG-3 HV-2\ndeploy HV-1 sinj\ndeploy MUJ-1 zenica",
		"restore SDG-3\nrecover ,\nrestore HV-2,HV-2\nwithdraw\ndeploy SDG-1",
		"reinforce\nreinforce VRS-1 banja-luka\nrecover SDG-2\nrecover SDG-2",
	},
	"round": {
		"play S13 op\nmove VRS-1+VRS-2 doboj derventa\nattack brcko from bijeljina priboj loznica:SDG-1>priboj combat S11 losses auto advance all",
		"play S25 event\nattack brcko from bijeljina prep ARBIH-1 ARBIH-2 advance VRS-E1>srebrenik VRS-E2",
		"play S13 sr\nredeploy VRS-1 banja-luka\nredeploy VRS-2 prijedor",
		"play S28 rp\nrecreate VRS-3 banja-luka full\nreplace VRS-4\nrecreate VRS-5 bijeljina reduced",
		"play S19 event\ntarget ARBIH-2 ARBIH-3\ntarget ARBIH-4",
		"play S23 event\nplace VRS-25 prijedor", "play S6 event\ndeploy SDG-1 loznica", "play S28 event\ntake zepa",
		"play B11 event\nsafe srebrenica zepa", "play C7 event\ntake bugojno jablanica",
		"play C23 event\nmove HVO-1 mostar\nattack jablanica from mostar:HVO-1+HVO-2>konjic combat C12 advance HVO-E1>jablanica",
		"play B16 event for bosniak\nattack doboj from tesanj maglaj losses ARBIH-1 ask advance none",
		"play C30 dp for croat", "play S32 dp", "play B28 rp\nreplace ARBIH-1\nreplace ARBIH-1",
		"play S13 op\nentrench doboj\nentrench doboj VRS-1\nentrench",
		"play S13 op\nattack brcko from losses\nattack brcko from bijeljina: advance\nattack brcko from bijeljina combat",
		"play S13 op\nmove VRS-1++VRS-2 doboj\nmove , doboj\nmove VRS-1 VRS-1",
		"play\nplay S13\nplay S13 op op\nplay S99 op\nplay S13 op\nplay S25 event",
		"move VRS-1 doboj\nplay S13 op", "play S13 op\nmove VRS-1 brčko", "play S25 event\nattack x from",
		"attack", "move", "advance >", "play S13 op\nattack brcko from bijeljina advance VRS-E1>srebrenik VRS-E1",
	},
	"decide": {
		"lose VRS-1", "lose VRS-2\nlose VRS-1", "lose +\nlose VRS-1,", "lose",
		"ignore", "ignore\nretreat ARBIH-1 srebrenik", "retreat ARBIH-1 srebrenik\nretreat ARBIH-2 srebrenik",
		"retreat ARBIH-1 srebrenik tuzla\nretreat ARBIH-2 gradacac derventa", "retreat ARBIH-1", "retreat VRS-1 x y z",
		"advance all", "advance none", "advance VRS-E1>srebrenik VRS-E2>gradacac VRS-E3 VRS-E4",
		"advance VRS-E1 VRS-E2 VRS-E3 VRS-E4", "advance VRS-1", "advance", "advance all\nadvance none",
	},
}

// FuzzParseOrders: no order file hangs or breaks the parser, in any step
// of the 2- and 3-seat games and for any seat (rulestest.ParseWithin:
// every refusal names a line and says what would be legal); the canonical
// orders read back the same without a problem; and the accepted orders
// adjudicate without an error, leaving a position that keeps the game's
// invariants.
//
//	go test -run '^$' -fuzz '^FuzzParseOrders$' -fuzztime 60s ./adjudicator/games/bu
func FuzzParseOrders(f *testing.F) {
	states := fuzzStates(f)
	for i, st := range states {
		for _, kind := range []string{"any", st.kind} {
			for _, seed := range fuzzSeeds[kind] {
				f.Add(uint8(i), seed)
			}
		}
	}
	for i, st := range states {
		for _, seed := range stateSeeds(f, st) {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		st := states[int(which)%len(states)]
		canon, _ := rulestest.ParseWithin(t, Game, st.state, st.seat, text)
		again, problems := rulestest.ParseWithin(t, Game, st.state, st.seat, strings.Join(canon, "\n"))
		if len(problems) > 0 || !slices.Equal(canon, again) {
			t.Fatalf("%s: the canonical orders %q read back as %q with %+v", st.name, canon, again, problems)
		}
		next, _, err := Game.Adjudicate(st.state, map[string][]string{st.seat: canon}, newSeeded(t, uint64(len(text))))
		if err != nil {
			t.Fatalf("%s: the accepted orders %q do not adjudicate: %v", st.name, canon, err)
		}
		checkInvariants(t, next, 0)
	})
}

// stateSeeds are order files made for a position from its own units,
// spaces and cards, so that the seeds hold lines the receipt accepts: the
// bot's orders, each card of the active seat's hand played in each mode
// with lines of that mode, and the answers a decision lists.
func stateSeeds(tb testing.TB, st fuzzState) []string {
	tb.Helper()
	bot, err := rules{}.Bot(st.state, st.seat)
	if err != nil {
		tb.Fatal(err)
	}
	out := []string{strings.Join(bot, "\n")}
	g, err := decode(st.state)
	if err != nil {
		tb.Fatal(err)
	}
	mine := func(u *unit) bool { return slices.Contains(g.seatSides(st.seat), u.Side()) }
	var lines []string
	for _, u := range g.Units {
		if u.Box == onMap && mine(u) {
			i, _ := g.sc.Map.Space(u.Space)
			for _, n := range g.sc.Map.Graph.Neighbours(i) {
				to := g.sc.Map.Spaces[n].ID
				if occ := g.occupant(to); occ != "" && g.enemies(u.Side(), occ) {
					lines = append(lines, fmt.Sprintf("attack %s from %s:%s losses auto advance all", to, u.Space, u.ID), fmt.Sprintf("target %s", g.unitsAt(to)[0].ID))
				} else {
					lines = append(lines, fmt.Sprintf("move %s %s", u.ID, to), fmt.Sprintf("redeploy %s %s", u.ID, to), fmt.Sprintf("take %s", to), fmt.Sprintf("safe %s", to))
				}
			}
			lines = append(lines, fmt.Sprintf("entrench %s %s", u.Space, u.ID))
			if u.Reduced {
				lines = append(lines, "replace "+u.ID)
			}
		}
		if mine(u) && u.Box == eliminated {
			lines = append(lines, fmt.Sprintf("recreate %s %s full", u.ID, u.Space))
		}
		if mine(u) && u.Box == pool {
			lines = append(lines, fmt.Sprintf("place %s tuzla", u.ID))
		}
		if len(lines) > 60 {
			break
		}
	}
	if g.Phase == phaseRound && st.seat == g.Active {
		for i, id := range g.Hands[st.seat] {
			for j, mode := range []string{"op", "sr", "rp", "dp", "event"} {
				k := (3*i + j) % max(len(lines)-3, 1)
				out = append(out, fmt.Sprintf("play %s %s\n%s", id, mode, strings.Join(lines[k:min(k+4, len(lines))], "\n")))
			}
		}
	}
	if g.Phase == phaseDecide && g.Pending != nil && slices.Contains(g.Pending.Seats, st.seat) {
		b := g.Round.Battle
		switch g.Pending.Kind {
		case "losses":
			out = append(out, g.lossChoices(b, st.seat)...)
		case "retreat":
			var all []string
			for _, id := range b.survivors(g, b.Defenders) {
				for _, path := range g.retreatPaths(b, g.byID[id]) {
					line := fmt.Sprintf("retreat %s %s", id, strings.Join(path, " "))
					out = append(out, line)
					all = append(all, line)
				}
			}
			out = append(out, strings.Join(all, "\n"))
		case "advance":
			var all []string
			for _, u := range g.advancers(b) {
				out = append(out, "advance "+u.ID)
				ti, _ := g.sc.Map.Space(b.Target)
				for _, n := range g.sc.Map.Graph.Neighbours(ti) {
					all = append(all, u.ID+">"+g.sc.Map.Spaces[n].ID)
				}
			}
			out = append(out, "advance "+strings.Join(all, " "))
		}
	}
	return out
}

// miniMap is a small map of every kind of space and road: the seed of the
// map fuzzer (the fuzzer minimizes each new input it finds, and a seed as
// large as the demo map keeps it minimizing for minutes).
const miniMap = `title = "mini"
stand_in = true
notice = "a test map"
[[region]]
id = "podrinje"
name = "Podrinje"
control_value = 2
points = 5
key_for = ["Bosniak"]
control = "Bosniak"
[[region]]
name = "Srednja Bosna"
control_value = 1
points = 2
choose_2p = true
[[space]]
name = "Goražde"
region = "podrinje"
key = true
control = "Bosniak"
terrain = "city"
setup = ["ARBIH"]
[[space]]
name = "Foča"
region = "podrinje"
control = "Serb"
terrain = "river"
[[space]]
name = "Zenica"
region = "srednja-bosna"
control = "bosniak"
insert = "sarajevo"
[[space]]
name = "Loznica"
designation = "YUG"
[[space]]
name = "Sinj"
designation = "cro"
[[road]]
a = "gorazde"
b = "foca"
river = true
[[road]]
a = "foca"
b = "loznica"
[[road]]
a = "zenica"
b = "Goražde"
`

// someCards are one card in sixteen of the demo decks: the seed of the card
// fuzzer, small enough for it to minimize what it finds.
func someCards() string {
	blocks := strings.Split(string(demoCards), "[[card]]")
	var b strings.Builder
	b.WriteString(blocks[0])
	for i := 1; i < len(blocks); i += 16 {
		b.WriteString("[[card]]" + blocks[i])
	}
	return b.String()
}

// fuzzDataFile checks what a data file reader returns for any text: no
// panic, and a refusal is a *datafile.FileError naming the file.
func fuzzDataFile(t *testing.T, name string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.File != name {
		t.Fatalf("error %v (%T) is not a *datafile.FileError naming %s", err, err, name)
	}
}

// FuzzParseMap: no map file breaks the reader; a refusal names the file.
func FuzzParseMap(f *testing.F) {
	f.Add(miniMap)
	f.Add("[[region]]\nid = \"r\"\nname = \"R\"\ncontrol_value = 1\n[[space]]\nname = \"A\"\nregion = \"r\"\ncontrol = \"serb\"\n[[space]]\nname = \"B\"\ndesignation = \"YUG\"\n[[road]]\na = \"a\"\nb = \"b\"\nriver = true\n")
	f.Add("[[space]]\nname = \"A\"\n[[road]]\na = \"a\"\nb = \"a\"\n")
	f.Add("region = [{id = \"r\", name = \"R\", control_value = 0}]\n")
	f.Add("stand_in = true\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, err := parseMap("gm-map.toml", []byte(text))
		fuzzDataFile(t, "gm-map.toml", err)
	})
}

// FuzzParseCounters: no counter list breaks the reader; a refusal names
// the file.
func FuzzParseCounters(f *testing.F) {
	m, err := parseMap("demo-map.toml", demoMap)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(`title = "c"
stand_in = true
notice = "test counters"
[[type]]
id = "VRS-E"
side = "Serb"
army = "VRS"
elite = true
full = "5-7-6"
reduced = "3-7-6"
[[type]]
id = "NOZB"
side = "Serb"
army = "NOZB"
foreign = true
full = "3-6-4"
reduced = "2-6-4"
deploy = ["KRA", "key"]
region_only = "cazinska-krajina"
capture_fa = 0
[[units]]
type = "VRS-E"
ids = ["VRS-E1..8"]
[[units]]
type = "nozb"
ids = ["NOZB-1", "NOZB-2"]
[[reinforcement]]
turn = 2
side = "Serb"
units = ["VRS-E2..3"]
`)
	f.Add("[[type]]\nid = \"X\"\nside = \"serb\"\narmy = \"VRS\"\nfull = \"4-6-4\"\nreduced = \"2-6-4\"\n[[units]]\ntype = \"X\"\nids = [\"X-1..3\", \"X-9\"]\n[[reinforcement]]\nturn = 2\nside = \"serb\"\nunits = [\"X-2\"]\n")
	f.Add("[[type]]\nid = \"F\"\nside = \"croat\"\narmy = \"HV\"\nforeign = true\ndeploy = [\"CRO\"]\nattack_only = [\"serb\"]\nregion_only = \"posavina\"\ncapture_fa = 0\nfull = \"1-1-1\"\nreduced = \"0-1-0\"\n")
	f.Add("[[units]]\ntype = \"X\"\nids = [\"X-9..1\", \"X-1..99999\"]\n")
	f.Add("[[type]]\nfull = \"4-6\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, err := parseCounters("gm-counters.toml", []byte(text), m)
		fuzzDataFile(t, "gm-counters.toml", err)
	})
}

// FuzzParseTracks: no track file breaks the reader; a refusal names the
// file.
func FuzzParseTracks(f *testing.F) {
	f.Add(string(demoTracks))
	f.Add("[intervention]\nlevel1 = -2\nlevel2 = -4\nlevel3 = -6\n[cards]\nSerb = [7, 7, 6, 6]\nCroat = [5, 5, 6, 6]\nBosniak = [6, 6, 6, 6]\n")
	f.Add("intervention = {level1 = -1, level2 = -1, level3 = 0}\ncards = {Serb = [1]}\n")
	f.Add("[intervention]\nlevel4 = -7\n[cards]\nNATO = [1, 2, 3, 4]\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, err := parseTracks("gm-tracks.toml", []byte(text))
		fuzzDataFile(t, "gm-tracks.toml", err)
	})
}

// FuzzParseCards: no card file breaks the reader; a refusal is a
// *datafile.FileError naming the file (an effect's too), and what it
// accepts has each card's effects within the vocabulary.
func FuzzParseCards(f *testing.F) {
	sc, err := data{}.Load()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(someCards())
	f.Add("[[card]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\n  [[card.effect]]\n  kind = \"sw\"\n  value = 1\n")
	f.Add("[[card]]\nid = \"X1\"\n")
	f.Add("[[card]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\neffect = [{kind = \"bombard\"}]\n")
	f.Add("[[ card ]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\n[[ card.effect ]] # a comment\nkind = \"place\"\ntype = \"ARBIH\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := parseCards("gm-cards.toml", []byte(text), sc.Map, sc.Counters)
		fuzzDataFile(t, "gm-cards.toml", err)
		if err != nil {
			return
		}
		for _, c := range d.Cards {
			if len(c.Effects) == 0 || c.CV < 2 || c.CV > 4 {
				t.Fatalf("card %+v accepted", c)
			}
			for _, e := range c.Effects {
				if !slices.Contains(effectKinds, e.Kind) {
					t.Fatalf("card %s: effect kind %q accepted", c.ID, e.Kind)
				}
			}
		}
	})
}
