package bu

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
)

// benchData is a 150-space map (a 15 x 10 grid of spaces with roads to
// their neighbours, ten regions), a YUG space on the west edge and a CRO
// space on the east, the Serbs holding the eight western columns; counters
// for 100 VRS brigades; one card.
func benchData() map[string]string {
	var m strings.Builder
	m.WriteString("title = \"bench\"\nwidth = 1600\nheight = 1100\n")
	for r := range 10 {
		fmt.Fprintf(&m, "[[region]]\nid = \"r%d\"\nname = \"R%d\"\ncontrol_value = 8\npoints = 2\nkey_for = [\"Serb\"]\ncontrol = \"Serb\"\n", r, r)
	}
	serb, croat, bos := 25, 7, 20
	for r := range 10 {
		for c := range 15 {
			side := "Serb"
			switch {
			case c >= 8 && r < 2:
				side = "Croat"
			case c >= 8:
				side = "Bosniak"
			}
			fmt.Fprintf(&m, "[[space]]\nid = \"s%d-%d\"\nname = \"S%d-%d\"\nx = %d\ny = %d\nregion = \"r%d\"\ncontrol = %q\n", r, c, r, c, 50+c*100, 50+r*100, r, side)
			if c%5 == 2 {
				m.WriteString("key = true\n")
			}
			var setup []string
			for range 2 {
				switch {
				case side == "Serb" && serb > 0 && c < 7:
					setup, serb = append(setup, `"VRS"`), serb-1
				case side == "Croat" && croat > 0:
					setup, croat = append(setup, `"HVO"`), croat-1
				case side == "Bosniak" && bos > 0 && c > 8:
					setup, bos = append(setup, `"ARBIH"`), bos-1
				}
			}
			if len(setup) > 0 {
				fmt.Fprintf(&m, "setup = [%s]\n", strings.Join(setup, ", "))
			}
		}
	}
	m.WriteString("[[space]]\nname = \"Yug\"\nx = 10\ny = 10\ndesignation = \"YUG\"\n[[space]]\nname = \"Cro\"\nx = 1590\ny = 10\ndesignation = \"CRO\"\n")
	for r := range 10 {
		for c := range 15 {
			if c < 14 {
				fmt.Fprintf(&m, "[[road]]\na = \"s%d-%d\"\nb = \"s%d-%d\"\n", r, c, r, c+1)
			}
			if r < 9 {
				fmt.Fprintf(&m, "[[road]]\na = \"s%d-%d\"\nb = \"s%d-%d\"\n", r, c, r+1, c)
			}
		}
		fmt.Fprintf(&m, "[[road]]\na = \"yug\"\nb = \"s%d-0\"\n[[road]]\na = \"cro\"\nb = \"s%d-14\"\n", r, r)
	}
	counters := `title = "bench"
[[type]]
id = "VRS"
side = "Serb"
army = "VRS"
full = "4-6-4"
reduced = "2-6-4"
[[type]]
id = "HVO"
side = "Croat"
army = "HVO"
full = "3-6-4"
reduced = "2-6-4"
[[type]]
id = "ARBIH"
side = "Bosniak"
army = "ARBIH"
full = "3-6-2"
reduced = "2-6-2"
[[units]]
type = "VRS"
ids = ["VRS-1..100"]
[[units]]
type = "HVO"
ids = ["HVO-1..10"]
[[units]]
type = "ARBIH"
ids = ["ARBIH-1..30"]
`
	cards := "title = \"bench\"\n"
	for i, deck := range []string{"Serb", "Croat", "Bosniak"} {
		for n := 1; n <= 8; n++ {
			cards += fmt.Sprintf("[[card]]\nid = \"%c%d\"\ntitle = \"card %d\"\ndeck = %q\nperiod = \"both\"\ncv = 4\ntype = \"other\"\n  [[card.effect]]\n  kind = \"sw\"\n  value = 1\n",
				"SCB"[i], n, n, deck)
		}
	}
	tracks := "title = \"bench\"\n[intervention]\nlevel1 = -2\nlevel2 = -4\nlevel3 = -6\n[cards]\nSerb = [7, 7, 6, 6]\nCroat = [5, 5, 6, 6]\nBosniak = [5, 6, 6, 6]\n"
	return map[string]string{"map": m.String(), "counters": counters, "cards": cards, "tracks": tracks}
}

// benchState is the Serbian action round of the bench: 60 Serbian units
// on the map (a supply check of 60), three of them next to the Bosniak
// space s4-8, each in its own space, attacking it together.
func benchState(tb testing.TB) ([]byte, []string) {
	state, err := Game.New("three", benchData())
	if err != nil {
		tb.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		tb.Fatal(err)
	}
	g.Phase, g.Active, g.Turn = phaseRound, seatSerb, 3
	g.Hands[seatSerb] = []string{"S1", "S2"}
	g.Hands[seatCroat] = []string{"C1"}
	n := 0
	for _, u := range g.Units {
		if u.Side() == serb && u.Box == onMap {
			n++
		}
	}
	free := map[string]int{}
	for _, u := range g.Units {
		if u.Box == onMap {
			free[u.Space]++
		}
	}
	// the attackers, one a space next to s4-8
	attack := []string{"s3-8", "s5-8", "s4-7"}
	for _, sp := range attack[:2] {
		g.Control[sp] = serb
	}
	var spare []*unit
	for _, u := range g.Units {
		if u.Side() == serb && u.Box == pool {
			spare = append(spare, u)
		}
	}
	for i, sp := range attack {
		u := spare[i]
		u.Box, u.Space = onMap, sp
		free[sp]++
		n++
	}
	spare = spare[len(attack):]
	for _, u := range g.Units {
		if u.Side() == bosniak && u.Box == pool {
			u.Box, u.Space = onMap, "s4-8"
			break
		}
	}
	for r := 0; r < 10 && n < 60; r++ {
		for c := 0; c < 7 && n < 60; c++ {
			sp := fmt.Sprintf("s%d-%d", r, c)
			for free[sp] < stackLimit && n < 60 {
				u := spare[0]
				spare = spare[1:]
				u.Box, u.Space = onMap, sp
				free[sp]++
				n++
			}
		}
	}
	out, err := g.encode()
	if err != nil {
		tb.Fatal(err)
	}
	return out, []string{"play S1 op", "attack s4-8 from s3-8 s5-8 s4-7 losses auto advance all"}
}

// BenchmarkActionRound adjudicates the bench's action round (the supply
// check of 60 units, an attack from three spaces with its rolls, losses,
// retreat and advance) in memory: the game's own share of the committed
// step below.
//
//	go test -run '^$' -bench ActionRound ./adjudicator/games/bu
func BenchmarkActionRound(b *testing.B) {
	state, orders := benchState(b)
	var canon []string
	var ls []adjudicator.OrderLine
	for i, l := range orders {
		ls = append(ls, adjudicator.OrderLine{Line: i + 1, Text: l})
	}
	canon, problems := Game.ParseOrders(state, seatSerb, ls)
	if len(problems) > 0 {
		b.Fatalf("bench orders refused: %+v", problems)
	}
	for i := 0; b.Loop(); i++ {
		_, events, err := Game.Adjudicate(state, map[string][]string{seatSerb: canon}, newSeeded(b, uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		if !hasRule(events, "13.4.5") {
			b.Fatalf("no battle: %v", events)
		}
	}
}

func hasRule(events []adjudicator.Event, rule string) bool {
	for _, e := range events {
		if strings.Contains(e.Rule, rule) {
			return true
		}
	}
	return false
}

// BenchmarkActionRoundCommitted measures the bench's action round as the
// judge runs it: Judge.Process in one store Update on a real bbolt file
// (the orders read again, the round adjudicated with umpire-dice-v2 dice,
// the draw records, events, the next step and four reports written).
// Creating the game and taking the orders through intake is not timed.
// Target: under 20 ms.
//
//	go test -run '^$' -bench ActionRoundCommitted -benchtime 20x ./adjudicator/games/bu
func BenchmarkActionRoundCommitted(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	judge := &adjudicator.Judge{Games: adjudicator.NewRegistry(Game)}
	intake := &adjudicator.Intake{Judge: judge}
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	state, orders := benchState(b)
	var took time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		id := fmt.Sprintf("bench-%d", n)
		hostGame(b, db, judge, id, "three", benchData(), now)
		// the bench's round as the open step
		err := db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge("judge@umpire.test", now)
			st, err := jt.Step(id, 1)
			if err != nil {
				return err
			}
			spec, err := Game.Step(state)
			if err != nil {
				return err
			}
			st.State, st.Phase, st.Owing, st.NoOrders = state, spec.Phase, spec.Owing, spec.NoOrders
			return jt.PutStep(st)
		})
		if err != nil {
			b.Fatal(err)
		}
		sendOrders(b, db, intake, id, 1, seatSerb, orders, now)
		b.StartTimer()
		t0 := time.Now()
		err = db.Update(ctx, func(tx *store.Tx) error {
			return judge.Process(ctx, tx.Judge("judge@umpire.test", now), id, now)
		})
		took += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n == 1 {
			checkBenchStep(b, db, id)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(took.Microseconds())/1000/float64(n), "ms/op")
}

// checkBenchStep checks the step did its work: a battle, a verified log.
func checkBenchStep(b *testing.B, db *store.DB, id string) {
	b.Helper()
	err := db.View(context.Background(), func(tx *store.Tx) error {
		jt := tx.Judge("judge@umpire.test", time.Now())
		events, err := jt.Events(id, 1)
		if err != nil {
			return err
		}
		if !hasRule(events, "13.4.5") || !hasRule(events, "7.1") {
			return fmt.Errorf("step 1 events: %v", events)
		}
		var buf strings.Builder
		if _, err := jt.WriteDiceLog(id, &buf); err != nil {
			return err
		}
		r, err := dice.VerifyStream(strings.NewReader(buf.String()), dice.VerifyOptions{})
		if err != nil || !r.OK() {
			return fmt.Errorf("dice log: %v %+v", err, r)
		}
		b.Logf("one action round: %d events, %d draws verified", len(events), r.Draws)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
