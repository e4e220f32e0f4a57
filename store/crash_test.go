//go:build integration

package store_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// The crash test runs the test binary again as a child that makes decisions
// in a store until the parent kills it with SIGKILL: an integration test
// (go test -tags integration; bash .ci/run sets it).
const (
	crashDBEnv   = "UMPIRE_STORE_CRASH_DB"   // the child's store file
	crashFromEnv = "UMPIRE_STORE_CRASH_FROM" // the child's first decision
	crashSeedEnv = "UMPIRE_STORE_CRASH_SEED" // repeats a run of TestCrashSafety
	crashKills   = 60
)

// crashMessage returns the raw incoming message of decision i: mostly small,
// sometimes large enough to need overflow pages.
func crashMessage(i uint64) []byte {
	n := 64 + int(i*7919%2048)
	if i%13 == 0 {
		n = 20000 + int(i%5000)
	}
	line := fmt.Appendf(nil, "orders of decision %d\n", i)
	return bytes.Repeat(line, n/len(line)+1)[:n]
}

func crashMessageID(i uint64) string { return fmt.Sprintf("<crash-%d@example.org>", i) }

// decide writes decision i as the judge does with an order mail: consume the
// message, keep the order file, note an event, queue the receipt mail, record
// the receipt and move the mailbox checkpoint. It also marks the previous
// decision's mail sent, which rewrites and deletes records.
func decide(tx *store.Tx, i uint64) error {
	raw := crashMessage(i)
	digest := sha256.Sum256(raw)
	id := crashMessageID(i)
	already, err := tx.ConsumeMessage(store.Consumed{MessageID: id, Digest: digest, Mailbox: "INBOX", UID: uint32(i), At: t0})
	if err != nil || already {
		return fmt.Errorf("decision %d: consume: already %v, %v", i, already, err)
	}
	v, err := tx.AddOrderFile(store.OrderFile{Game: "g", Step: 1, Seat: "NATO", Digest: digest, Signed: raw, MessageID: id, Received: t0})
	if err != nil || v != i {
		return fmt.Errorf("decision %d: order file version %d, %v", i, v, err)
	}
	if _, err := tx.AddEvents("g", 1, []store.Event{{Text: fmt.Sprintf("decision %d", i)}}); err != nil {
		return err
	}
	mail, err := tx.Enqueue(store.Mail{Kind: store.MailReceipt, Game: "g", Subject: fmt.Sprintf("decision %d", i), InReplyTo: id, Body: raw[:64]})
	if err != nil {
		return err
	}
	if _, err := tx.AddReceipt(store.Receipt{MessageID: id, Game: "g", Seat: "NATO", Step: 1, Digest: digest, MailID: mail}); err != nil {
		return err
	}
	if i > 1 {
		if err := tx.MarkSent(i-1, t0); err != nil {
			return err
		}
	}
	return tx.PutCheckpoint(store.Checkpoint{Mailbox: "INBOX", UIDValidity: 1, LastUID: uint32(i)})
}

// TestCrashChild is the child of TestCrashSafety. It makes decisions from
// $UMPIRE_STORE_CRASH_FROM on, printing "committed N" after each Update
// returns, until it is killed (or, orphaned, for 30 seconds).
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashDBEnv)
	if path == "" {
		t.Skip("run by TestCrashSafety")
	}
	from, err := strconv.ParseUint(os.Getenv(crashFromEnv), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("open")
	for i, start := from, time.Now(); time.Since(start) < 30*time.Second; i++ {
		if err := db.Update(t.Context(), func(tx *store.Tx) error { return decide(tx, i) }); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("committed %d\n", i)
	}
}

func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills a child process 60 times")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(crashSeedEnv); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (set %s to repeat)", seed, crashSeedEnv)
	rng := rand.New(rand.NewPCG(seed, 0))

	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err == nil {
		err = db.Update(t.Context(), func(tx *store.Tx) error { return tx.PutGame(store.Game{ID: "g", Kind: "wbt"}) })
	}
	if err == nil {
		err = db.Close()
	}
	if err != nil {
		t.Fatal(err)
	}

	present := uint64(0)
	for kill := range crashKills {
		// A quarter of the kills come blind, up to 20ms after starting the
		// child, which takes some 15ms to open the store; the rest come a
		// random time after it has opened it, half within 10ms, half later.
		blind, delay := false, time.Duration(0)
		switch r := rng.IntN(4); {
		case r == 0:
			blind, delay = true, time.Duration(rng.IntN(20000))*time.Microsecond
		case r < 3:
			delay = time.Duration(rng.IntN(10000)) * time.Microsecond
		default:
			delay = time.Duration(10+rng.IntN(290)) * time.Millisecond
		}
		reported := runCrashChild(t, path, present+1, blind, delay)
		got := checkDecisions(t, path)
		if got < reported || got < present {
			t.Fatalf("kill %d (blind %v after %v): %d decisions present, but %d were before and the child reported %d committed",
				kill, blind, delay, got, present, reported)
		}
		present = got
	}
	t.Logf("%d decisions survived %d kills", present, crashKills)
}

// runCrashChild runs the child from decision from, kills it after delay
// (counted from its start if blind, else from its opening the store) and
// returns the last decision it reported committed.
func runCrashChild(t *testing.T, path string, from uint64, blind bool, delay time.Duration) uint64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashDBEnv+"="+path, crashFromEnv+"="+strconv.FormatUint(from, 10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { _ = cmd.Process.Kill() }
	if blind {
		time.AfterFunc(delay, kill)
	}
	reported := from - 1
	var other []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if line == "open" {
			if !blind {
				time.AfterFunc(delay, kill)
			}
			continue
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(line, "committed "), 10, 64)
		if err != nil || n != reported+1 {
			other = append(other, line)
			continue
		}
		reported = n
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL || len(other) > 0 {
		t.Fatalf("child from decision %d ended with %v\nunexpected output: %s\nstderr: %s", from, err, strings.Join(other, "\n"), stderr.Bytes())
	}
	return reported
}

// checkDecisions opens the store a killed child left, checks the file and
// returns how many decisions it holds, failing the test unless they are
// decisions 1 to N, each with every record it wrote.
func checkDecisions(t *testing.T, path string) uint64 {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("after kill: %v", err)
	}
	var n uint64
	err = db.View(t.Context(), func(tx *store.Tx) error {
		orders, err := tx.OrderVersions("g", 1, "NATO")
		if err != nil {
			return err
		}
		n = uint64(len(orders))
		events, err := tx.Events("g", 1)
		if err != nil {
			return err
		}
		due, err := tx.Due(t0.Add(time.Hour), 0)
		if err != nil {
			return err
		}
		cp, err := tx.Checkpoint("INBOX")
		if err != nil {
			return err
		}
		if uint64(len(events)) != n || uint64(cp.LastUID) != n || (n > 0 && (len(due) != 1 || due[0].ID != n)) {
			return fmt.Errorf("%d order files, %d events, mails %v due, checkpoint at %d: a decision is incomplete",
				n, len(events), ids(due), cp.LastUID)
		}
		for i := uint64(1); i <= n+1; i++ {
			id := crashMessageID(i)
			c, cerr := tx.Consumed(id)
			m, merr := tx.Mail(i)
			receipts, err := tx.ReceiptsFor(id)
			if err != nil {
				return err
			}
			if i == n+1 {
				if !errors.Is(cerr, store.ErrNotFound) || !errors.Is(merr, store.ErrNotFound) || len(receipts) != 0 {
					return fmt.Errorf("decision %d is partly present: consumed %v, mail %v, %d receipts", i, cerr == nil, merr == nil, len(receipts))
				}
				break
			}
			raw := crashMessage(i)
			o, e := orders[i-1], events[i-1]
			if cerr != nil || c.Digest != sha256.Sum256(raw) || c.UID != uint32(i) {
				return fmt.Errorf("decision %d: consumed %+v, %v", i, c, cerr)
			}
			if o.Version != i || o.MessageID != id || !bytes.Equal(o.Signed, raw) {
				return fmt.Errorf("decision %d: order file version %d %s with %d bytes", i, o.Version, o.MessageID, len(o.Signed))
			}
			if e.Seq != i || e.Text != fmt.Sprintf("decision %d", i) {
				return fmt.Errorf("decision %d: event %+v", i, e)
			}
			if sent := i < n; merr != nil || m.InReplyTo != id || !bytes.Equal(m.Body, raw[:64]) || (m.State == store.MailSent) != sent {
				return fmt.Errorf("decision %d: mail %+v, %v; want it sent: %v", i, m, merr, sent)
			}
			if len(receipts) != 1 || receipts[0].MailID != i || receipts[0].Digest != c.Digest {
				return fmt.Errorf("decision %d: receipts %+v", i, receipts)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("after kill: %v", err)
	}
	return n
}
