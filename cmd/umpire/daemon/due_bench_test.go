//go:build linux && (amd64 || arm64)

package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// dueGames is how many games BenchmarkDueGames stores, dueNow how many of
// them are due at its clock.
const (
	dueGames = 100000
	dueNow   = 100
)

// BenchmarkDueGames stores 100,000 running fake duels (game, seats and the
// open step, written directly, many per commit), 100 of which have a
// reminder due at the benchmark's clock, and measures:
//
//   - "pass": one scheduler pass, which reads the due-time index and ticks
//     the 100 due games (each sends its reminder: a step written, in
//     batches of commits);
//   - "find": the index read alone, the part of the pass that grows with
//     the games stored;
//   - "scan": the baseline, what a pass did before the index: read every
//     game and compute its due time (game file parsed every time);
//   - "restart": open the store and run the first pass (nothing due),
//     with the peak resident size (peak-RSS-MB, VmHWM reset before) and the
//     Go heap after it, and the store file's size.
//
// Run it with
//
//	go test -run '^$' -bench DueGames -benchtime 3x ./cmd/umpire
func BenchmarkDueGames(b *testing.B) {
	path := filepath.Join(b.TempDir(), "umpire.db")
	t0 := time.Now()
	now := buildDueStore(b, path)
	fi, _ := os.Stat(path)
	b.Logf("store of %d games built in %v: %.1f MB", dueGames, time.Since(t0).Round(time.Second), float64(fi.Size())/(1<<20))
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	judge := &adjudicator.Judge{Games: games(), Logger: quiet}
	b.Run("find", func(b *testing.B) {
		db, err := store.Open(path, store.Options{Due: judge.Due})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		for b.Loop() {
			var due []string
			db.View(ctx, func(tx *store.Tx) (err error) { due, _, err = tx.DueGames(now, 0); return err })
			if len(due) != dueNow {
				b.Fatalf("%d due, want %d", len(due), dueNow)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		db, err := store.Open(path, store.Options{Due: judge.Due})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		for b.Loop() {
			n := 0
			db.View(ctx, func(tx *store.Tx) error {
				gs, err := tx.Games()
				if err != nil {
					return err
				}
				jt := tx.Judge(daemontest.JudgeAddress, now)
				fresh := &adjudicator.Judge{Games: judge.Games} // no parsed file kept, as before
				for _, g := range gs {
					if at, ok, err := fresh.Due(jt, g.ID); err == nil && ok && !at.After(now) {
						n++
					}
				}
				return nil
			})
			if n != dueNow {
				b.Fatalf("%d due, want %d", n, dueNow)
			}
		}
	})
	b.Run("pass", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			cp := filepath.Join(b.TempDir(), "copy.db")
			copyFile(b, path, cp)
			db, err := store.Open(cp, store.Options{Due: judge.Due})
			if err != nil {
				b.Fatal(err)
			}
			s := &scheduler{db: db, judge: judge, from: daemontest.JudgeAddress, now: func() time.Time { return now }, log: quiet,
				interval: time.Minute, wake: make(chan struct{}, 1), indexed: true}
			b.StartTimer()
			if _, err := s.pass(ctx); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			var due []string
			db.View(ctx, func(tx *store.Tx) (err error) { due, _, err = tx.DueGames(now, 0); return err })
			if len(due) != 0 {
				b.Errorf("after the pass %d games are still due", len(due))
			}
			db.Close()
			b.StartTimer()
		}
	})
	b.Run("restart", func(b *testing.B) {
		var peak, heap uint64
		for b.Loop() {
			b.StopTimer()
			evict(b, path)
			runtime.GC()
			debug.FreeOSMemory()
			resetPeakRSS(b)
			b.StartTimer()
			db, err := store.Open(path, store.Options{Due: judge.Due})
			if err != nil {
				b.Fatal(err)
			}
			s := &scheduler{db: db, judge: judge, from: daemontest.JudgeAddress, now: func() time.Time { return now.Add(-time.Minute) }, log: quiet,
				interval: time.Minute, wake: make(chan struct{}, 1)}
			if _, err := s.pass(ctx); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			peak = max(peak, procStatus(b, "VmHWM"))
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap = max(heap, ms.HeapInuse)
			db.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
		b.ReportMetric(float64(heap)/(1<<20), "heap-inuse-MB")
		b.ReportMetric(float64(fi.Size())/(1<<20), "file-MB")
	})
}

// buildDueStore writes dueGames running fake duels into a new store at
// path and returns the benchmark's clock: the first dueNow games have
// their reminder due then, the others later.
func buildDueStore(b *testing.B, path string) time.Time {
	b.Helper()
	judge := &adjudicator.Judge{Games: games()}
	db, err := store.Open(path, store.Options{Due: judge.Due})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	now := start.Add(24 * time.Hour) // the first reminder of the first dueNow games
	const perTx = 5000
	for first := 0; first < dueGames; first += perTx {
		err := db.Update(context.Background(), func(tx *store.Tx) error {
			for i := first; i < min(first+perTx, dueGames); i++ {
				id := fmt.Sprintf("due-%06d", i)
				file := fmt.Sprintf(loadEvery, id, i)
				opened := start.Add(time.Duration(dueNow+i%5000) * time.Minute)
				if i < dueNow {
					opened = start
				}
				if err := tx.PutGame(store.Game{ID: id, Kind: "fake", Scenario: "duel", Status: adjudicator.Running, Step: 1,
					GMKey: fmt.Sprintf("GM%05d", i), File: []byte(file), Created: start}); err != nil {
					return err
				}
				for _, seat := range []string{"A", "B"} {
					if err := tx.PutSeat(store.Seat{Game: id, Name: seat}); err != nil {
						return err
					}
				}
				if err := tx.PutStep(store.Step{Game: id, Number: 1, Phase: "orders", Status: "open", Opened: opened,
					Deadline: opened.Add(48 * time.Hour), State: []byte(`{}`)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return now
}

func copyFile(b *testing.B, from, to string) {
	b.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		b.Fatal(err)
	}
}
