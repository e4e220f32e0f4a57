package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/beacon/beacontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
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
	db, j := beaconDB(t)
	hostForBeacon(t, db, j, t0, "bc-1", fmt.Sprintf("beacon = { chain_hash = %q, public_key = %q, genesis = %d, period = %d, delay = \"10m\" }\n",
		b.ChainHash, fmt.Sprintf("%x", b.PublicKey[:]), b.Genesis, b.Period))
	defer db.Close()
	step := func() adjudicator.StepRecord {
		var st adjudicator.StepRecord
		db.View(t.Context(), func(tx *store.Tx) (err error) {
			st, err = tx.Judge(daemontest.JudgeAddress, t0).Step("bc-1", 1)
			return err
		})
		return st
	}
	if st := step(); st.Status != adjudicator.StepWaiting {
		t.Fatalf("step 1 after process: %s", st.Status)
	}
	round := step().Dice.Round
	at := time.Unix(int64(b.RoundTime(round)), 0).UTC()
	now := at.Add(-time.Second)
	s := &scheduler{db: db, judge: j, from: daemontest.JudgeAddress, now: func() time.Time { return now },
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), interval: time.Minute, wake: make(chan struct{}, 1),
		beacons: &beacon.Relay{URLs: []string{relay.URL}, Tries: 2, Backoff: time.Millisecond}}
	relay.SetNow(at)
	next, err := s.pass(t.Context())
	s.settle()
	if err != nil || relay.Requests() != 0 || !next.Equal(at) {
		t.Fatalf("before the round's time: next %v, %d requests, %v", next, relay.Requests(), err)
	}
	// At the round's time, with the relay down: the step waits, the GM is told.
	now = at
	relay.SetDown(true)
	if _, err := s.pass(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.settle()
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
	s.settle()
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

// beaconDB opens a store on a real bbolt file and a judge of every game.
func beaconDB(t *testing.T) (*store.DB, *adjudicator.Judge) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "umpire.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db, &adjudicator.Judge{Games: games()}
}

// hostForBeacon creates and starts a fake duel id with the game file line
// extra (a beacon, or none), its seats A and B joined, and has the game
// master close step 1 at t0.
func hostForBeacon(t *testing.T, db *store.DB, j *adjudicator.Judge, t0 time.Time, id, extra string) {
	t.Helper()
	file := fmt.Sprintf("id = %q\ngame = \"fake\"\nscenario = \"duel\"\ngm = \"GMKEY\"\n%s[schedule]\nevery = \"48h\"\n", id, extra)
	f, err := adjudicator.ParseGameFile([]byte(file), j.Games)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(t.Context(), func(stx *store.Tx) error {
		tx := stx.Judge(daemontest.JudgeAddress, t0)
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
}

// TestSlowRelayHoldsUpNoPass: while the beacon relay hangs, a scheduler
// pass does not wait for it: the pass returns, another game's deadline in
// the same pass is adjudicated, a second pass starts no second fetch of
// the same round; when the relay answers (an error here) the step records
// its try and waits, its game master told.
func TestSlowRelayHoldsUpNoPass(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	relay := beacontest.New(t, "slow", uint64(t0.Add(-time.Hour).Unix()), 30, 600)
	b := relay.Beacon
	release := make(chan struct{})
	var requests atomic.Int32
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.Error(w, "relay overloaded", http.StatusServiceUnavailable)
	}))
	defer hang.Close()
	db, j := beaconDB(t)
	defer db.Close()
	hostForBeacon(t, db, j, t0, "slow-1", fmt.Sprintf("beacon = { chain_hash = %q, public_key = %q, genesis = %d, period = %d, delay = \"10m\" }\n",
		b.ChainHash, fmt.Sprintf("%x", b.PublicKey[:]), b.Genesis, b.Period))
	// a game without a beacon whose step 2 closes at its deadline
	hostForBeacon(t, db, j, t0, "plain-1", "")
	stepOf := func(game string, k uint64) adjudicator.StepRecord {
		var st adjudicator.StepRecord
		db.View(t.Context(), func(tx *store.Tx) (err error) {
			st, err = tx.Judge(daemontest.JudgeAddress, t0).Step(game, k)
			return err
		})
		return st
	}
	wait := stepOf("slow-1", 1)
	if wait.Status != adjudicator.StepWaiting {
		t.Fatalf("slow-1 step 1: %s", wait.Status)
	}
	// both due: the beacon round's time, and plain-1's deadline (48 h)
	now := time.Unix(int64(b.RoundTime(wait.Dice.Round)), 0).UTC()
	if d := stepOf("plain-1", 2).Deadline; d.After(now) {
		now = d
	}
	s := &scheduler{db: db, judge: j, from: daemontest.JudgeAddress, now: func() time.Time { return now },
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), interval: time.Minute, wake: make(chan struct{}, 1),
		beacons: &beacon.Relay{URLs: []string{hang.URL}, Tries: 1, Timeout: time.Hour}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	passed := make(chan error, 1)
	go func() { _, err := s.pass(ctx); passed <- err }()
	select {
	case err := <-passed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("the pass waited for the hanging relay")
	}
	if st := stepOf("plain-1", 2); st.Status != adjudicator.StepClosed {
		t.Errorf("plain-1's step 2 at its deadline, in the pass with the hanging relay: %s", st.Status)
	}
	if _, err := s.pass(ctx); err != nil {
		t.Fatal(err)
	}
	for reached := time.Now().Add(time.Minute); requests.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(reached) { // the fetch's request should reach the relay
			close(release)
			t.Fatal("no beacon fetch reached the relay")
		}
	}
	close(release)
	s.settle()
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests for one round: a second pass fetched it again", n)
	}
	if st := stepOf("slow-1", 1); st.Status != adjudicator.StepWaiting || st.Dice.Tries != 1 {
		t.Errorf("slow-1 after the relay's error: %s, %d tries", st.Status, st.Dice.Tries)
	}
	if !gmTold(t, db, "waits for beacon round") {
		t.Error("the game master was not told the step waits")
	}
}
