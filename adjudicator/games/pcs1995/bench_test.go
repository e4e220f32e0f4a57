package pcs1995

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// benchGame is the benchmark's game: the test map with 60 units a side
// facing each other across columns 17 and 18, the demo chits, and each
// seat's order file for the turn: 20 activations each (NATO 8 PAs and 12
// moves, Russia/Serbia 7 PAs and 13 moves: 40 activations, 15 attacks),
// then pass, with standing orders that decide every loss.
func benchGame(b *testing.B) (options map[string]string, orders map[string][]string) {
	b.Helper()
	mapText, err := os.ReadFile(filepath.Join("testdata", "game", "test-map.toml"))
	if err != nil {
		b.Fatal(err)
	}
	var cs strings.Builder
	cs.WriteString("stand_in = true\nnotice = \"benchmark counters\"\n")
	unit := func(id, side, nat, typ string, ma int, mov, hex string) {
		fmt.Fprintf(&cs, "[[unit]]\nid = %q\nside = %q\nnationality = %q\ntype = %q\nuqr = \"B\"\nma = %d\nmovement = %q\nhex = %q\n", id, side, nat, typ, ma, mov, hex)
	}
	n := 0
	for c := 14; c <= 17; c++ {
		for r := 2; r <= 16; r++ {
			n++
			unit(fmt.Sprintf("BN%02d", n), "NATO", "American", "mech", 8, "mech", fmt.Sprintf("%02d%02d", c, r))
		}
	}
	n = 0
	for c := 18; c <= 21; c++ {
		for r := 2; r <= 16; r++ {
			n++
			unit(fmt.Sprintf("BR%02d", n), "RS", "Serbian", "infantry", 6, "foot", fmt.Sprintf("%02d%02d", c, r))
		}
	}
	options = map[string]string{"map": string(mapText), "counters": cs.String()}
	standing := []string{"absorb static support retreat vp rout", "defend none", "intercept all none", "interdict sm none", "advancing none"}
	var nato, rs []string
	// NATO: column 17 (BN46..BN60, rows 2-16) attacks column 18 (BR01..BR15)
	// at rows 2-9; column 14 (BN01..BN15) moves west into Italy.
	for r := 2; r <= 9; r++ {
		nato = append(nato, fmt.Sprintf("pa BN%02d 18%02d", 45+r-1, r))
	}
	for i := 1; i <= 12; i++ {
		nato = append(nato, fmt.Sprintf("move BN%02d 13%02d 12%02d", i, i+1, i+1))
	}
	// RS: column 18 rows 10-16 (BR09..BR15) attack column 17 (BN54..BN60);
	// column 21 (BR46..BR58) moves east.
	for r := 10; r <= 16; r++ {
		rs = append(rs, fmt.Sprintf("pa BR%02d 17%02d", r-1, r))
	}
	for i := 46; i <= 58; i++ {
		r := i - 44
		rs = append(rs, fmt.Sprintf("move BR%02d 22%02d 23%02d", i, r, r))
	}
	orders = map[string][]string{
		seatNATO: append(append(standing, nato...), "pass"),
		seatRS:   append(append(standing, rs...), "pass"),
	}
	return options, orders
}

// benchTurnState is the benchmark game's turn-1 step, after the set-up.
func benchTurnState(b *testing.B, options map[string]string) []byte {
	b.Helper()
	state, err := Game.New("demo", options)
	if err != nil {
		b.Fatal(err)
	}
	state, _, err = Game.Adjudicate(state, nil, newSeeded(1))
	if err != nil {
		b.Fatal(err)
	}
	return state
}

// BenchmarkActionPhase adjudicates a whole game turn's step of 60 units a
// side: both seats' order files parsed, the queues interleaved (40
// activations, 15 combats with their chits, losses, retreats), the Cleanup
// with every NATO unit's LOC traced, the next turn's rolls, and each seat's
// report with its map. Baseline and target: docs/rulings.md; run
//
//	go test -run '^$' -bench ActionPhase ./adjudicator/games/pcs1995
func BenchmarkActionPhase(b *testing.B) {
	options, orders := benchGame(b)
	state := benchTurnState(b, options)
	canon := map[string][]string{}
	for seat, lines := range orders {
		var ol []adjudicator.OrderLine
		for i, l := range lines {
			ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		c, probs := Game.ParseOrders(state, seat, ol)
		if len(probs) > 0 {
			b.Fatalf("%s: %+v", seat, probs)
		}
		canon[seat] = c
	}
	rep := Game.(adjudicator.Reporter)
	combats, acts := 0, 0
	for i := 0; b.Loop(); i++ {
		next, events, err := Game.Adjudicate(state, canon, newSeeded(uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			for _, e := range events {
				if strings.Contains(e.Text, " draws chit ") {
					combats++
				}
			}
			g, _ := decode(next)
			acts = g.Count[seatNATO] + g.Count[seatRS]
			if g.Turn != 2 || combats != 15 {
				b.Fatalf("turn %d after the step, %d combats: %v", g.Turn, combats, events)
			}
		}
		for _, seat := range []string{seatNATO, seatRS} {
			if _, err := rep.Situation(next, seat); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(combats), "combats")
	_ = acts
}

// BenchmarkActionPhaseCommitted is BenchmarkActionPhase through the judge:
// the game hosted in a real bbolt file, both order files taken through
// intake, then Judge.Process adjudicates the turn's step and commits it in
// one store Update (state, dice records, events, the next step, a report
// for each seat and the game master). Target: under 50 ms.
//
//	go test -run '^$' -bench ActionPhaseCommitted -benchtime 5x ./adjudicator/games/pcs1995
func BenchmarkActionPhaseCommitted(b *testing.B) {
	options, orders := benchGame(b)
	db, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	judge := &adjudicator.Judge{Games: adjudicator.NewRegistry(Game)}
	intake := &adjudicator.Intake{Judge: judge}
	ctx := context.Background()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var took time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		id := fmt.Sprintf("bench-%d", n)
		hostBench(b, db, judge, intake, id, options, orders, now)
		b.StartTimer()
		t0 := time.Now()
		err := db.Update(ctx, func(tx *store.Tx) error {
			return judge.Process(ctx, tx.Judge("judge@umpire.test", now), id, now)
		})
		took += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n == 1 {
			err := db.View(ctx, func(tx *store.Tx) error {
				st, err := tx.Step(id, 2)
				if err != nil || st.Status != "closed" {
					return fmt.Errorf("step 2: %v %v", st.Status, err)
				}
				events, err := tx.Events(id, 2)
				combats := 0
				for _, e := range events {
					if strings.Contains(e.Text, " draws chit ") {
						combats++
					}
				}
				if combats != 15 {
					return fmt.Errorf("%d combats", combats)
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(took.Microseconds())/1000/float64(n), "ms/op")
}

// hostBench creates the game, holds its seats, starts it, adjudicates the
// set-up and takes both order files of turn 1 through intake.
func hostBench(b *testing.B, db *store.DB, judge *adjudicator.Judge, intake *adjudicator.Intake, id string, options map[string]string, orders map[string][]string, now time.Time) {
	b.Helper()
	var file strings.Builder
	fmt.Fprintf(&file, "id = %q\ngame = \"pcs1995\"\nscenario = \"demo\"\ngm = \"GMKEY\"\n[schedule]\nevery = \"48h\"\nearly = false\n[options]\n", id)
	for _, k := range []string{"counters", "map"} {
		fmt.Fprintf(&file, "%s = '''\n%s'''\n", k, options[k])
	}
	f, err := adjudicator.ParseGameFile([]byte(file.String()), judge.Games)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	seats := []string{seatNATO, seatRS}
	err = db.Update(ctx, func(stx *store.Tx) error {
		tx := stx.Judge("judge@umpire.test", now)
		if err := judge.Create(tx, f, []byte(file.String()), now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: "GMKEY", Kind: "openpgp", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range seats {
			if err := tx.PutKey(adjudicator.Key{Fingerprint: "KEY-" + seat, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, nil); err != nil {
				return err
			}
			if err := judge.Join(tx, id, seat, "KEY-"+seat); err != nil {
				return err
			}
		}
		if err := judge.Start(tx, id, now); err != nil {
			return err
		}
		return judge.Process(ctx, tx, id, now)
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, seat := range seats {
		text := fmt.Sprintf("game: %s\nstep: 2\nseat: %s\n%s\nend\n", id, seat, strings.Join(orders[seat], "\n"))
		env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%s@players.test", id, seat), From: strings.ToLower(seat) + "@players.test",
			Received: now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "KEY-" + seat, Content: text, Signed: []byte(text)}}
		err := db.Update(ctx, func(tx *store.Tx) error {
			_, err := intake.Handle(ctx, tx.Judge("judge@umpire.test", now), env)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	err = db.View(ctx, func(tx *store.Tx) error {
		st, err := tx.Step(id, 2)
		if err != nil {
			return err
		}
		if st.Status != "open" || len(st.Ready) != 2 {
			return fmt.Errorf("before processing, step 2 is %s with %v ready", st.Status, st.Ready)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
