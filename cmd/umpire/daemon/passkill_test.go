//go:build integration

package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// passKillGames is how many games TestPassKilled has due in one pass: more
// than one batch of ticks.
const passKillGames = tickBatch + 150

// TestPassKilled kills a scheduler pass that sends passKillGames games'
// reminders (a pass ticks them in batches, each batch one commit) with
// SIGKILL at a random moment, then runs the next daemon life: every game
// must have had its reminder exactly once, its step marked reminded once
// and one reminder mail queued for its game master, whatever the kill
// interrupted. The pass runs in a child process (this test binary).
// UMPIRE_PASS_KILL_RUNS sets the number of runs (default 4);
// UMPIRE_KILL_SEED repeats them.
func TestPassKilled(t *testing.T) {
	if path := os.Getenv("UMPIRE_PASS_KILL_STORE"); path != "" {
		passKillChild(t, path)
		return
	}
	if testing.Short() {
		t.Skip("kills a child process")
	}
	runs := 4
	if s := os.Getenv("UMPIRE_PASS_KILL_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("UMPIRE_KILL_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (UMPIRE_KILL_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	now := passKillNow()
	for r := range runs {
		delay := time.Duration(rng.IntN(40)) * time.Millisecond
		t.Run(fmt.Sprintf("run%d", r), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "umpire.db")
			buildPassKillStore(t, path)
			ready := path + ".ready"
			cmd := exec.Command(os.Args[0], "-test.run=^TestPassKilled$")
			cmd.Env = append(os.Environ(), "UMPIRE_PASS_KILL_STORE="+path)
			out, err := os.Create(path + ".log")
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for start := time.Now(); ; time.Sleep(time.Millisecond) {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				if time.Since(start) > time.Minute {
					cmd.Process.Signal(syscall.SIGKILL)
					cmd.Wait()
					t.Fatalf("the child did not open the store: %s", readFile(t, path+".log"))
				}
			}
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()

			before := passKillCount(t, path)
			t.Logf("killed %v after the pass began: %d of %d games reminded then", delay, before, passKillGames)
			if n := life(t, path, now); n == 0 && before < passKillGames {
				t.Errorf("the next life changed nothing, with %d games reminded", before)
			}
			if got := passKillCount(t, path); got != passKillGames {
				t.Errorf("after the next life %d games reminded, want %d", got, passKillGames)
			}
		})
	}
}

// passKillNow is the clock of TestPassKilled: the games' first reminder
// is due.
func passKillNow() time.Time { return time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC) }

// buildPassKillStore writes passKillGames running fake duels, each with a
// game master whose key has an address, all with their first reminder
// (24 hours before the deadline) due at passKillNow.
func buildPassKillStore(t *testing.T, path string) {
	t.Helper()
	judge := &adjudicator.Judge{Games: games()}
	db, err := store.Open(path, store.Options{Due: judge.Due})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	opened := passKillNow().Add(-24 * time.Hour)
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		for i := range passKillGames {
			id := fmt.Sprintf("pk-%04d", i)
			gm := fmt.Sprintf("GM%05d", i)
			if err := tx.PutKey(store.Key{Fingerprint: gm, Kind: "ssh", Address: gm + "@example.org", Added: opened}); err != nil {
				return err
			}
			if err := tx.PutGame(store.Game{ID: id, Kind: "fake", Scenario: "duel", Status: adjudicator.Running, Step: 1,
				GMKey: gm, File: []byte(fmt.Sprintf(loadEvery, id, i)), Created: opened}); err != nil {
				return err
			}
			for _, seat := range []string{"A", "B"} {
				if err := tx.PutSeat(store.Seat{Game: id, Name: seat}); err != nil {
					return err
				}
			}
			if err := tx.PutStep(store.Step{Game: id, Number: 1, Phase: "orders", Status: "open", Opened: opened,
				Deadline: opened.Add(48 * time.Hour), Owing: []string{"A", "B"}, State: []byte(`{}`)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// passKillChild is the killed daemon: it opens the store, says so, and runs
// the scheduler until nothing is due.
func passKillChild(t *testing.T, path string) {
	judge := &adjudicator.Judge{Games: games()}
	db, err := store.Open(path, store.Options{Due: judge.Due})
	if err != nil {
		t.Fatal(err)
	}
	now := passKillNow()
	s := &scheduler{db: db, judge: judge, from: daemontest.JudgeAddress, now: func() time.Time { return now },
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), interval: time.Minute, wake: make(chan struct{}, 1), indexed: true}
	if err := os.WriteFile(path+".ready", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// killed here or before: a daemon waits for the next due time.
	time.Sleep(time.Hour)
}

// passKillCount checks the store at path and returns how many of its games
// had their reminder: a game is reminded when its step says so, and then
// it has exactly one reminder mail to its game master, else none.
func passKillCount(t *testing.T, path string) int {
	t.Helper()
	reminded := 0
	withStore(t, path, func(tx *store.Tx) error {
		mails := map[string]int{}
		for id := uint64(1); ; id++ {
			m, err := tx.Mail(id)
			if errors.Is(err, store.ErrNotFound) {
				break
			} else if err != nil {
				return err
			}
			if m.Kind != adjudicator.MailReminder {
				data, _ := json.Marshal(m)
				t.Errorf("mail %d is not a reminder: %s", id, data)
			}
			mails[m.Game]++
		}
		for i := range passKillGames {
			id := fmt.Sprintf("pk-%04d", i)
			st, err := tx.Step(id, 1)
			if err != nil {
				return err
			}
			want := 0
			if st.Reminded > 0 {
				want = 1
				reminded++
			}
			if st.Reminded > 1 || mails[id] != want {
				t.Errorf("game %s: step reminded %d times, %d reminder mails", id, st.Reminded, mails[id])
			}
		}
		return nil
	})
	return reminded
}
