//go:build linux && (amd64 || arm64)

package daemon

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// loadGames is the number of running games BenchmarkLoadGames stores.
const loadGames = 10000

// loadStart is when the benchmark's games were created (over its first
// hour); loadNow, the benchmark's clock, is before any game's first
// reminder or deadline, so the scheduler pass processes nothing.
var (
	loadStart = time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC) // a Tuesday
	loadNow   = loadStart.Add(2 * time.Hour)
)

// Half the games close their steps every 48 hours, half on a cron schedule
// with a time zone, as game files are written; all remind at 24 and 2
// hours before the deadline.
const (
	loadEvery = `id = %q
game = "fake"
scenario = "duel"
gm = "GM%05d"
[schedule]
every = "48h"
reminders = ["24h", "2h"]
`
	loadCron = `id = %q
game = "fake"
scenario = "duel"
gm = "GM%05d"
[schedule]
cron = "CRON_TZ=Europe/Belgrade 0 20 * * MON,THU"
reminders = ["24h", "2h"]
`
)

// BenchmarkLoadGames measures what a judge restarting with 10,000 running
// games does before it can wait for the next deadline: open the store and
// run one scheduler pass, which computes every game's next reminder or
// deadline (nothing is due, so nothing is processed). The store is built
// once (its games created, joined and started through the adjudicator, each
// with step 1 open) and reused. Targets: under 5 s and under 200 MB
// resident.
//
// "cold" evicts the store file from the page cache before each run (the
// judge starting after a reboot; the host under a VM may still cache it),
// "warm" does not (a restart). Each reports s/op and, read after the pass
// with the store still open: peak-RSS-MB, the process's VmHWM from
// /proc/self/status, reset just before the run (so it is the run's peak,
// with the test binary's own baseline, base-RSS-MB, in it); the resident
// size split into pages of mapped files (the store's mmap, and the binary)
// and anonymous memory (the Go heap and stacks), rss-file-MB and
// rss-anon-MB; heap-inuse-MB and sys-MB from runtime.ReadMemStats; and the
// store file's size. Run it with
//
//	go test -run '^$' -bench LoadGames -benchtime 3x ./cmd/umpire
func BenchmarkLoadGames(b *testing.B) {
	path := filepath.Join(b.TempDir(), "umpire.db")
	t0 := time.Now()
	earliest := buildLoadStore(b, path, loadGames)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("store of %d running games built in %v: %.1f MB", loadGames, time.Since(t0).Round(time.Millisecond), float64(fi.Size())/(1<<20))
	for _, cold := range []bool{true, false} {
		name := map[bool]string{true: "cold", false: "warm"}[cold]
		b.Run(name, func(b *testing.B) { benchLoad(b, path, cold, earliest, fi.Size()) })
	}
}

func benchLoad(b *testing.B, path string, cold bool, earliest time.Time, size int64) {
	b.ReportAllocs()
	ctx := context.Background()
	var took time.Duration
	var peak, base, rssFile, rssAnon, heap, sys uint64
	n := 0
	for b.Loop() {
		b.StopTimer()
		n++
		if cold {
			evict(b, path)
		}
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS(b)
		base = max(base, procStatus(b, "VmRSS"))
		b.StartTimer()

		t0 := time.Now()
		db, err := store.Open(path, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		s := &scheduler{db: db, judge: &adjudicator.Judge{Games: games()}, from: daemontest.JudgeAddress,
			now: func() time.Time { return loadNow }, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			interval: time.Minute, wake: make(chan struct{}, 1)}
		next, err := s.pass(ctx)
		took += time.Since(t0)

		b.StopTimer()
		peak = max(peak, procStatus(b, "VmHWM"))
		rssFile, rssAnon = max(rssFile, procStatus(b, "RssFile")), max(rssAnon, procStatus(b, "RssAnon"))
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap, sys = max(heap, ms.HeapInuse), max(sys, ms.Sys)
		if err != nil {
			b.Fatal(err)
		}
		if !next.Equal(earliest) {
			b.Errorf("the pass says the next thing is due %v, want %v (the earliest first reminder)", next, earliest)
		}
		checkNothingProcessed(b, db)
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(took.Seconds()/float64(n), "s/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(base)/(1<<20), "base-RSS-MB")
	b.ReportMetric(float64(rssFile)/(1<<20), "rss-file-MB")
	b.ReportMetric(float64(rssAnon)/(1<<20), "rss-anon-MB")
	b.ReportMetric(float64(heap)/(1<<20), "heap-inuse-MB")
	b.ReportMetric(float64(sys)/(1<<20), "sys-MB")
	b.ReportMetric(float64(size)/(1<<20), "file-MB")
}

// buildLoadStore creates n running fake duels in a new store at path, many
// per transaction, and returns the earliest time anything is due in them.
// The dice chains are short: their length changes nothing the scheduler
// reads, and the default length would take minutes of hashing to commit.
func buildLoadStore(b *testing.B, path string, n int) time.Time {
	b.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var root uint64
	j := &adjudicator.Judge{Games: games(), ChainLength: 64, NewRoot: func() (dice.Hash, error) {
		root++
		return sha256.Sum256(binary.BigEndian.AppendUint64(nil, root)), nil
	}}
	var earliest time.Time
	const perTx = 500
	for first := 0; first < n; first += perTx {
		err := db.Update(context.Background(), func(stx *store.Tx) error {
			for i := first; i < min(first+perTx, n); i++ {
				created := loadStart.Add(time.Duration(i%60) * time.Minute)
				tx := stx.Judge(daemontest.JudgeAddress, created)
				id := fmt.Sprintf("load-%05d", i)
				text := fmt.Sprintf(loadEvery, id, i)
				if i%2 == 1 {
					text = fmt.Sprintf(loadCron, id, i)
				}
				f, err := adjudicator.ParseGameFile([]byte(text), j.Games)
				if err != nil {
					return err
				}
				if err := j.Create(tx, f, []byte(text), created); err != nil {
					return err
				}
				for _, seat := range f.Seats {
					if err := j.Join(tx, id, seat, fmt.Sprintf("K%05d%s", i, seat)); err != nil {
						return err
					}
				}
				if err := j.Start(tx, id, created); err != nil {
					return err
				}
				at, ok, err := j.Due(tx, id)
				if err != nil || !ok {
					return fmt.Errorf("game %s: nothing due (%v)", id, err)
				}
				if !at.After(loadNow) {
					return fmt.Errorf("game %s is due at %v, before the benchmark's clock", id, at)
				}
				if earliest.IsZero() || at.Before(earliest) {
					earliest = at
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return earliest
}

// checkNothingProcessed checks that every game still has step 1 open with
// no reminder sent, and no mail is queued.
func checkNothingProcessed(b *testing.B, db *store.DB) {
	b.Helper()
	err := db.View(context.Background(), func(tx *store.Tx) error {
		gs, err := tx.Games()
		if err != nil {
			return err
		}
		if len(gs) != loadGames {
			return fmt.Errorf("%d games, want %d", len(gs), loadGames)
		}
		for _, g := range gs {
			if g.Status != adjudicator.Running || g.Step != 1 {
				return fmt.Errorf("game %s is %s at step %d", g.ID, g.Status, g.Step)
			}
		}
		st, err := tx.Step(gs[len(gs)-1].ID, 1)
		if err != nil || st.Status != "open" || st.Reminded != 0 {
			return fmt.Errorf("step 1 of %s: %s, %d reminders (%v)", gs[len(gs)-1].ID, st.Status, st.Reminded, err)
		}
		due, err := tx.Due(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 0)
		if err != nil || len(due) != 0 {
			return fmt.Errorf("%d mails queued (%v)", len(due), err)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// evict drops the file's pages from the page cache (they are clean: bbolt
// syncs every commit), so that the next open reads it from the disk.
func evict(b *testing.B, path string) {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	const fadvDontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, fadvDontNeed, 0, 0); errno != 0 {
		b.Fatalf("fadvise %s: %v", path, errno)
	}
}

// resetPeakRSS sets the process's VmHWM to its current resident size.
func resetPeakRSS(b *testing.B) {
	b.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatalf("reset the peak resident size: %v", err)
	}
}

// procStatus returns a size field of /proc/self/status, in bytes.
func procStatus(b *testing.B, field string) uint64 {
	b.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatalf("%s: %q", field, v)
			}
			return kb << 10
		}
	}
	b.Fatalf("/proc/self/status has no %s", field)
	return 0
}
