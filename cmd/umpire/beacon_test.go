package main

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/beacon/beacontest"
	"github.com/umpire-pbem/umpire/store"
)

// TestSchedulerFetchesBeaconRounds: a step that waits for its beacon round
// is left alone until the round's time; then the scheduler fetches it from
// the relay (a local drand-format relay signing with a key the test makes)
// and the step is adjudicated. While the relay is down the step waits, the
// game master is told, and the next try comes later.
func TestSchedulerFetchesBeaconRounds(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	relay := beacontest.New(t, "scheduler", uint64(t0.Add(-time.Hour).Unix()), 30, 600)
	b := relay.Beacon
	file := fmt.Sprintf("id = \"bc-1\"\ngame = \"fake\"\nscenario = \"duel\"\ngm = \"GMKEY\"\n"+
		"beacon = { chain_hash = %q, public_key = %q, genesis = %d, period = %d, delay = \"10m\" }\n[schedule]\nevery = \"48h\"\n",
		b.ChainHash, fmt.Sprintf("%x", b.PublicKey[:]), b.Genesis, b.Period)
	db, err := store.Open(filepath.Join(t.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &adjudicator.Judge{Games: games()}
	f, err := adjudicator.ParseGameFile([]byte(file), j.Games)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(t.Context(), func(stx *store.Tx) error {
		tx := stx.Judge(judgeAddress, t0)
		if err := j.Create(tx, f, []byte(file), t0); err != nil {
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
		if err := j.Start(tx, f.ID, t0); err != nil {
			return err
		}
		return j.Process(t.Context(), tx, f.ID, t0) // the GM closes step 1
	})
	if err != nil {
		t.Fatal(err)
	}
	step := func() adjudicator.StepRecord {
		var st adjudicator.StepRecord
		db.View(t.Context(), func(tx *store.Tx) (err error) { st, err = tx.Judge(judgeAddress, t0).Step("bc-1", 1); return err })
		return st
	}
	if st := step(); st.Status != adjudicator.StepWaiting {
		t.Fatalf("step 1 after process: %s", st.Status)
	}
	round := step().Dice.Round
	at := time.Unix(int64(b.RoundTime(round)), 0).UTC()
	now := at.Add(-time.Second)
	s := &scheduler{db: db, judge: j, from: judgeAddress, now: func() time.Time { return now },
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), interval: time.Minute, wake: make(chan struct{}, 1),
		beacons: &beacon.Relay{URLs: []string{relay.URL}, Tries: 2, Backoff: time.Millisecond}}
	relay.SetNow(at)
	next, err := s.pass(t.Context())
	if err != nil || relay.Requests() != 0 || !next.Equal(at) {
		t.Fatalf("before the round's time: next %v, %d requests, %v", next, relay.Requests(), err)
	}
	// At the round's time, with the relay down: the step waits, the GM is told.
	now = at
	relay.SetDown(true)
	if _, err := s.pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := step(); st.Status != adjudicator.StepWaiting || st.Dice.Tries != 1 {
		t.Fatalf("with the relay down: %s, %d tries", st.Status, st.Dice.Tries)
	}
	if !gmTold(t, db, "waits for beacon round") {
		t.Error("the game master was not told the step waits")
	}
	// The relay back, at the next try: the step is adjudicated.
	relay.SetDown(false)
	now = step().Dice.Retry
	if _, err := s.pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := step(); st.Status != adjudicator.StepClosed {
		t.Fatalf("after the relay came back: %s", st.Status)
	}
}

func gmTold(t *testing.T, db *store.DB, subject string) bool {
	t.Helper()
	told := false
	db.View(t.Context(), func(tx *store.Tx) error {
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 1000)
		for _, m := range due {
			if m.To[0] == "gm@players.test" && strings.Contains(m.Subject, subject) {
				told = true
			}
		}
		return err
	})
	return told
}
