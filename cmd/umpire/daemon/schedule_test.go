package daemon

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// restartGame is a fake duel closing its steps 48 hours after they open,
// with no grace period: at the deadline the step is adjudicated.
const restartGame = `id = "rs-1"
game = "fake"
scenario = "duel"
gm = "GMKEY"
[schedule]
every = "48h"
`

// restartOrders are seat A's orders: three dice draws, one of them sealed.
// Seat B sends none. One adjudication of step 1 makes these draws and these
// events, and queues these mails.
var restartOrders = []string{"roll 2", "roll 1", "secret"}

const (
	restartDraws       uint64 = 3 // roll 2, roll 1, secret
	restartSealedDraws uint64 = 1 // secret
	restartEvents             = 5 // A rolls twice, A draws card N (to A), A draws a hidden card, B passes (no orders)
)

// newRestartStore creates the game in a new store at path at t0, with seats
// A and B held by keys with addresses, and delivers A's orders for step 1 an
// hour later. chain is the dice chains' length (0: the default).
func newRestartStore(t *testing.T, path string, t0 time.Time, chain uint64) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var root uint64
	j := &adjudicator.Judge{Games: games(), ChainLength: chain, NewRoot: func() (dice.Hash, error) {
		root++
		return sha256.Sum256(binary.BigEndian.AppendUint64([]byte("restart"), root)), nil
	}}
	f, err := adjudicator.ParseGameFile([]byte(restartGame), j.Games)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(t.Context(), func(stx *store.Tx) error {
		tx := stx.Judge(daemontest.JudgeAddress, t0)
		if err := j.Create(tx, f, []byte(restartGame), t0); err != nil {
			return err
		}
		for key, addr := range map[string]string{"GMKEY": "gm@players.test", "KEY-A": "a@players.test", "KEY-B": "b@players.test"} {
			if err := tx.PutKey(adjudicator.Key{Fingerprint: key, Kind: "ssh", Address: addr}, nil); err != nil {
				return err
			}
		}
		for _, seat := range f.Seats {
			if err := j.Join(tx, f.ID, seat, "KEY-"+seat); err != nil {
				return err
			}
		}
		return j.Start(tx, f.ID, t0)
	})
	if err != nil {
		t.Fatal(err)
	}
	at := t0.Add(time.Hour)
	text := fmt.Sprintf("game: rs-1\nstep: 1\nseat: A\n%s\nend\n", strings.Join(restartOrders, "\n"))
	env := &adjudicator.Envelope{MessageID: "rs-1-A@players.test", From: "a@players.test", Received: at, Text: text,
		Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "KEY-A", Content: text, Signed: []byte(text)}}
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		_, err := (&adjudicator.Intake{Judge: j}).Handle(t.Context(), tx.Judge(daemontest.JudgeAddress, at), env)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// life is one run of the judge's scheduler at now: it opens the store, runs
// passes until nothing more is due now (as "serve --once" does), closes the
// store, and returns how many ticks changed something.
func life(t *testing.T, path string, now time.Time) int {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	s := &scheduler{db: db, judge: &adjudicator.Judge{Games: games()}, from: daemontest.JudgeAddress,
		now: func() time.Time { return now }, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		poke: func() { changed++ }, interval: time.Minute, wake: make(chan struct{}, 1)}
	for range 10 {
		next, err := s.pass(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if next.IsZero() || next.After(now) {
			break
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return changed
}

// TestRestartAroundDeadline runs the judge's scheduler as three daemon lives
// on one store, each opening it, running its passes and closing it: one
// before step 1's deadline, and two after it (the judge was down at the
// deadline, then restarted again). Step 1 must be adjudicated exactly once:
// by the first life after the deadline, and not again by the next.
func TestRestartAroundDeadline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	t0 := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	newRestartStore(t, path, t0, 64)
	deadline := t0.Add(48 * time.Hour)

	if n := life(t, path, deadline.Add(-30*time.Minute)); n != 0 {
		t.Errorf("a life before the deadline changed %d games", n)
	}
	checkStepOpen(t, path)
	late := t0.Add(49 * time.Hour)
	if n := life(t, path, late); n != 1 {
		t.Errorf("the first life after the deadline changed %d games, want 1", n)
	}
	if n := life(t, path, late); n != 0 {
		t.Errorf("the second life after the deadline changed %d games, want none", n)
	}
	st2 := checkAdjudicatedOnce(t, path, func(closed time.Time) error {
		if !closed.Equal(late) {
			return fmt.Errorf("step 1 closed at %v, want %v (the first life after the deadline)", closed, late)
		}
		return nil
	})
	if want := late.Add(48 * time.Hour); !st2.Deadline.Equal(want) {
		t.Errorf("step 2 due %v, want %v", st2.Deadline, want)
	}
}

// checkStepOpen checks that step 1 is still open and nothing is queued but
// A's receipt.
func checkStepOpen(t *testing.T, path string) {
	t.Helper()
	withStore(t, path, func(tx *store.Tx) error {
		g, err := tx.Game("rs-1")
		if err != nil {
			return err
		}
		st, err := tx.Step("rs-1", 1)
		if err != nil {
			return err
		}
		if g.Step != 1 || st.Status != "open" {
			return fmt.Errorf("before the deadline: game at step %d, step 1 %s", g.Step, st.Status)
		}
		if ms := gameMails(t, tx); len(ms) != 0 {
			return fmt.Errorf("before the deadline, the judge queued %v", ms)
		}
		return nil
	})
}

// checkAdjudicatedOnce checks that step 1 was adjudicated exactly once: it
// is closed, step 2 is open and there is no step 3, the dice log verifies
// and holds one adjudication's draws, the events are one adjudication's,
// replay reproduces step 2, and one report went to each seat and to the GM,
// and one late-seats notice to the GM. closed checks when step 1 closed. It
// returns step 2.
func checkAdjudicatedOnce(t *testing.T, path string, closed func(time.Time) error) store.Step {
	t.Helper()
	var st2 store.Step
	withStore(t, path, func(tx *store.Tx) error {
		g, err := tx.Game("rs-1")
		if err != nil {
			return err
		}
		st1, err := tx.Step("rs-1", 1)
		if err != nil {
			return err
		}
		if st2, err = tx.Step("rs-1", 2); err != nil {
			return err
		}
		if g.Step != 2 || st1.Status != "closed" || st2.Status != "open" {
			t.Errorf("game at step %d, step 1 %s, step 2 %s; want 2, closed, open", g.Step, st1.Status, st2.Status)
		}
		if err := closed(st1.Closed); err != nil {
			t.Error(err)
		}
		if _, err := tx.Step("rs-1", 3); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("step 3: %v", err)
		}
		if len(st1.Used) != 1 || st1.Used["A"] != 1 {
			t.Errorf("step 1 was adjudicated with the orders %v, want A's version 1", st1.Used)
		}
		var buf bytes.Buffer
		if _, err := tx.WriteDiceLog("rs-1", &buf); err != nil {
			return err
		}
		res, err := dice.VerifyStream(&buf, dice.VerifyOptions{})
		if err != nil {
			return err
		}
		if !res.OK() || res.Steps != 1 || res.Draws != restartDraws || res.Sealed != restartSealedDraws {
			t.Errorf("dice log: %d steps, %d draws (%d sealed), problem %v; want 1 step, %d draws (%d sealed)",
				res.Steps, res.Draws, res.Sealed, res.Problem, restartDraws, restartSealedDraws)
		}
		if es, err := tx.Events("rs-1", 1); err != nil || len(es) != restartEvents {
			t.Errorf("step 1 has %d events (%v), want %d", len(es), err, restartEvents)
		}
		if n, err := (&adjudicator.Judge{Games: games()}).Replay(tx.Judge(daemontest.JudgeAddress, time.Now()), "rs-1"); err != nil || n != 1 {
			t.Errorf("replay: %d steps, %v", n, err)
		}
		want := map[string]int{
			"report a@players.test": 1, "report b@players.test": 1, "report gm@players.test": 1,
			"announcement gm@players.test": 1,
		}
		got := map[string]int{}
		for _, m := range gameMails(t, tx) {
			got[string(m.Kind)+" "+strings.Join(m.To, ",")]++
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("mails of the game: %v, want %v", got, want)
		}
		return nil
	})
	return st2
}

// gameMails returns every mail of game rs-1 in the outbox, whatever its
// state (a daemon may have sent them).
func gameMails(t *testing.T, tx *store.Tx) []store.Mail {
	t.Helper()
	var out []store.Mail
	for id := uint64(1); id <= 200; id++ {
		m, err := tx.Mail(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		// the start announcements (umpire-dice-v3), queued when the
		// store was made, aside
		if m.Game == "rs-1" && !isStartAnnouncement(m) {
			out = append(out, m)
		}
	}
	return out
}

// isStartAnnouncement reports whether m is the start announcement of an
// umpire-dice-v3 game, which the judge queues when the game starts.
func isStartAnnouncement(m store.Mail) bool {
	return strings.Contains(m.Subject, ": start: the start record")
}

// withStore opens the store at path, checks its consistency, runs fn in a
// read-only transaction and closes it.
func withStore(t *testing.T, path string, fn func(tx *store.Tx) error) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	if err := db.View(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}
