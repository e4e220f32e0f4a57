package adjudicator_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/store"
)

// quartet is a four-seat fake game whose steps wait for the deadline (or the
// GM's process) even when every seat is ready, so that the benchmark decides
// when the step is adjudicated.
const quartet = `id = %q
game = "fake"
scenario = "quartet"
gm = "GMKEY"
[schedule]
every = "48h"
early = false
`

// stepOrderLines returns a seat's 50 orders: rolls, moves of its own units,
// secret cards and passes, in a fixed mix.
func stepOrderLines(seat string) []string {
	lines := make([]string, 0, 50)
	for i := range 50 {
		switch i % 5 {
		case 0, 3:
			lines = append(lines, "roll 1")
		case 1:
			lines = append(lines, fmt.Sprintf("move %s%d %02d%02d", seat, 1+i%2, 1+i%20, 1+i%7))
		case 2:
			lines = append(lines, "secret")
		case 4:
			lines = append(lines, "pass")
		}
	}
	return lines
}

// BenchmarkStep measures adjudicating one step of a four-seat fake game
// whose seats each sent an order file of 50 orders (200 in all: about 80
// dice rolls and 40 hidden cards), and committing it: Judge.Process in one
// store Update on a real bbolt file, with the dice records, events, the
// next step and five reports (four seats and the GM) written. The dice
// chains have the default length, so the step derives its links from the
// roots as a real game's first step does (links-ms/op reports how long
// that derivation alone takes). Creating the game and taking the order
// files through intake is not timed. Target (umpire-dice-v2, issue 13):
// under 10 ms.
//
//	go test -run '^$' -bench Step -benchtime 3x ./adjudicator
func BenchmarkStep(b *testing.B) {
	db, err := store.Open(filepath.Join(b.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	judge := &adjudicator.Judge{Games: adjudicator.NewRegistry(fake.Game)}
	intake := &adjudicator.Intake{Judge: judge}
	ctx := context.Background()
	seats := []string{"A", "B", "C", "D"}
	now := start

	var took, links, inside time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		id := fmt.Sprintf("q%d", n)
		hostQuartet(b, db, judge, intake, id, seats, now)

		b.StartTimer()
		t0 := time.Now()
		err := db.Update(ctx, func(tx *store.Tx) error {
			err := judge.Process(ctx, tx.Judge("judge@umpire.test", now), id, now)
			inside += time.Since(t0)
			return err
		})
		took += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n == 1 {
			checkStep(b, db, id, seats)
		}
		links += linksTime(b, db, id)
		b.StartTimer()
	}
	b.ReportMetric(float64(took.Microseconds())/1000/float64(n), "ms/op")
	b.ReportMetric(float64(inside.Microseconds())/1000/float64(n), "adjudicate-ms/op")
	b.ReportMetric(float64(links.Microseconds())/1000/float64(n), "links-ms/op")
}

// linksTime returns how long deriving step 1's open dice link from game
// id's chain checkpoints takes, as Adjudicate does: the part of
// BenchmarkStep's time that depends on the chain length.
func linksTime(b *testing.B, db *store.DB, id string) time.Duration {
	b.Helper()
	var sec store.DiceSecrets
	err := db.View(context.Background(), func(tx *store.Tx) (err error) { sec, err = tx.DiceSecrets(id); return err })
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	c := dice.Chain{Root: sec.OpenRoot, Length: sec.ChainLength, Checkpoints: sec.OpenCheckpoints}
	if _, err := c.Link(1); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}

// hostQuartet creates game id with its seats held, starts it and delivers
// each seat's order file through intake.
func hostQuartet(b *testing.B, db *store.DB, judge *adjudicator.Judge, intake *adjudicator.Intake, id string, seats []string, now time.Time) {
	b.Helper()
	file := fmt.Sprintf(quartet, id)
	f, err := adjudicator.ParseGameFile([]byte(file), judge.Games)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	err = db.Update(ctx, func(stx *store.Tx) error {
		tx := stx.Judge("judge@umpire.test", now)
		if err := judge.Create(tx, f, []byte(file), now); err != nil {
			return err
		}
		if err := tx.PutKey(adjudicator.Key{Fingerprint: gmKey, Kind: "openpgp", Address: "gm@players.test"}, nil); err != nil {
			return err
		}
		for _, seat := range seats {
			key := "KEY-" + seat
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, nil); err != nil {
				return err
			}
			if err := judge.Join(tx, id, seat, key); err != nil {
				return err
			}
		}
		return judge.Start(tx, id, now)
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, seat := range seats {
		text := fmt.Sprintf("game: %s\nstep: 1\nseat: %s\n%s\nend\n", id, seat, strings.Join(stepOrderLines(seat), "\n"))
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
		st, err := tx.Step(id, 1)
		if err != nil {
			return err
		}
		if st.Status != "open" || len(st.Ready) != len(seats) {
			return fmt.Errorf("before processing, step 1 is %s with %v ready", st.Status, st.Ready)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// checkStep checks that the benchmark's step did its work: 200 orders
// adjudicated, the dice log verifies, a report queued for each seat and the
// GM.
func checkStep(b *testing.B, db *store.DB, id string, seats []string) {
	b.Helper()
	err := db.View(context.Background(), func(tx *store.Tx) error {
		st, err := tx.Step(id, 1)
		if err != nil {
			return err
		}
		if st.Status != "closed" || len(st.Used) != len(seats) {
			return fmt.Errorf("step 1 is %s, adjudicated with the orders of %v", st.Status, st.Used)
		}
		if next, err := tx.Step(id, 2); err != nil || next.Status != "open" {
			return fmt.Errorf("step 2: %+v, %v", next.Status, err)
		}
		events, err := tx.Events(id, 1)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if _, err := tx.WriteDiceLog(id, &buf); err != nil {
			return err
		}
		res, err := dice.VerifyStream(&buf, dice.VerifyOptions{})
		if err != nil || !res.OK() || res.Draws == 0 {
			return fmt.Errorf("dice log: %+v %v", res, err)
		}
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0)
		if err != nil {
			return err
		}
		reports := 0
		for _, m := range due {
			if m.Game == id && m.Kind == store.MailReport {
				reports++
			}
		}
		if reports != len(seats)+1 {
			return fmt.Errorf("%d reports queued, want %d", reports, len(seats)+1)
		}
		b.Logf("one step: %d orders, %d events, %d dice draws (%d re-derived, %d sealed), %d reports",
			50*len(seats), len(events), res.Draws, res.Rederived, res.Sealed, reports)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
