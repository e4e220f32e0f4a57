//go:build integration

package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/devmail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestKillDuringIntake kills the judge with SIGKILL at random points while
// 200 signed order mails arrive, again and again, and checks afterwards that
// every mail was taken exactly once, every receipt was sent (a duplicate only
// with the same Message-ID), and no mail is left outside the processed
// folder (none rejected, none set aside). UMPIRE_KILL_RUNS sets the number of runs (default 30 on
// the embedded mail servers, plus 3 on the real ones); UMPIRE_KILL_SEED
// repeats a run.
func TestKillDuringIntake(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kill -9 runs take a minute")
	}
	bin := daemontest.UmpireBinary(t)
	runs := 30
	if s := os.Getenv("UMPIRE_KILL_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("UMPIRE_KILL_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (UMPIRE_KILL_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	// One player, 200 distinct signed order files, made once.
	proto := newTable(t, mailtest.Embedded(t))
	const n = 200
	mails := make([][]byte, n)
	for i := range mails {
		mails[i] = proto.clearsigned(fmt.Sprintf("k%d@players.test", i),
			daemontest.Orders("NATO", fmt.Sprintf("# order file %d", i), fmt.Sprintf("move US-82AB 16%02d 1610", i%100)))
	}
	template, err := os.ReadFile(proto.store)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []func(testing.TB) mailtest.Stack{mailtest.Embedded}
	for r := 0; r < runs+3; r++ {
		mk := kinds[0]
		if r >= runs {
			mk = mailtest.Real
		}
		t.Run(fmt.Sprintf("run%02d", r), func(t *testing.T) {
			killRun(t, bin, mk(t), proto, template, mails, rng)
		})
		if t.Failed() {
			return
		}
	}
}

func killRun(t *testing.T, bin string, st mailtest.Stack, proto *table, template []byte, mails [][]byte, rng *rand.Rand) {
	dir := t.TempDir()
	db := filepath.Join(dir, "umpire.db")
	if err := os.WriteFile(db, template, 0o600); err != nil {
		t.Fatal(err)
	}
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	st.AddUser(t, "alice@players.test", "pw")
	start, _, logf := killableJudge(t, bin, dir, db, st, "")

	// The mails arrive over about a second while the judge is killed.
	submitted := make(chan struct{})
	sender := &goroutineTB{TB: t}
	pace := rand.New(rand.NewPCG(rng.Uint64(), 1))
	go func() {
		defer close(submitted)
		for i, m := range mails {
			st.Submit(sender, "alice@players.test", []string{daemontest.JudgeAddress}, m)
			if i%20 == 0 {
				time.Sleep(time.Duration(pace.IntN(100)) * time.Millisecond)
			}
		}
	}()
	// Each kill after the first waits until the judge has filed a message
	// since it started: a message being processed alone at two kills in a
	// row is set aside as poison (mail/intake, quarantine.go), which these
	// kills, ordinary crashes, must not look like.
	filed := func() int { // -1 before the folder is made
		ms, err := devmail.Fetch(t.Context(), st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, "processed")
		if err != nil {
			return -1
		}
		return len(ms)
	}
	kills := 0
	for ; kills < 4; kills++ {
		before := filed()
		cmd := start()
		for deadline := time.Now().Add(20 * time.Second); kills > 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if now := filed(); now > before || now == len(mails) {
				break
			}
		}
		time.Sleep(time.Duration(rng.IntN(700)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
	}
	<-submitted
	for _, e := range sender.errs {
		t.Error(e)
	}
	// The last judge runs undisturbed until all is done.
	cmd := start()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	n := len(mails)
	deadline := time.Now().Add(90 * time.Second)
	var receipts [][]byte
	for time.Now().Before(deadline) {
		receipts = st.Mailbox(t, "alice@players.test", "pw", "INBOX")
		if len(distinct(receipts, "In-Reply-To")) >= n && len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")) == 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	logf.Seek(0, io.SeekStart)
	logText, _ := io.ReadAll(logf)

	inbox := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")
	processed := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "processed")
	rejected := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "rejected")
	quarantined := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "quarantine")
	if len(inbox) != 0 || len(processed) != n || len(rejected) != 0 || len(quarantined) != 0 {
		t.Errorf("INBOX %d, processed %d, rejected %d, quarantine %d; want 0, %d, 0, 0", len(inbox), len(processed), len(rejected), len(quarantined), n)
	}
	if got := len(distinct(processed, "Message-ID")); got != n {
		t.Errorf("processed holds %d distinct messages, want %d", got, n)
	}
	// Every order mail answered; any duplicate is the same mail resent.
	byReply := map[string]map[string]bool{}
	for _, r := range receipts {
		irt := daemontest.HeaderOf(r, "In-Reply-To")
		if byReply[irt] == nil {
			byReply[irt] = map[string]bool{}
		}
		byReply[irt][daemontest.HeaderOf(r, "Message-ID")] = true
		if !strings.Contains(string(r), "ACCEPTED: orders of seat NATO") {
			t.Errorf("a receipt did not accept its orders:\n%s", r)
			break
		}
	}
	if len(byReply) != n {
		t.Errorf("receipts answer %d mails, want %d", len(byReply), n)
	}
	for irt, ids := range byReply {
		if len(ids) != 1 {
			t.Errorf("the mail %s was answered by %d different receipts", irt, len(ids))
		}
	}
	// The store applied each order file once: n versions, n Message-IDs.
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	s, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Errorf("store check: %v", err)
	}
	s.View(t.Context(), func(tx *store.Tx) error {
		vs, err := tx.OrderVersions("club-kosovo-3", 7, "NATO")
		ids := map[string]bool{}
		for _, v := range vs {
			ids[v.MessageID] = true
		}
		if err != nil || len(vs) != n || len(ids) != n {
			t.Errorf("%d order versions from %d messages, want %d (%v)", len(vs), len(ids), n, err)
		}
		return nil
	})
	if t.Failed() {
		t.Logf("after %d kills; daemon log:\n%s", kills, daemontest.Tail(string(logText), 40))
	} else {
		dups := len(receipts) - len(byReply)
		t.Logf("%d mails after %d kills: %d receipts, %d resent with the same Message-ID", n, kills, len(receipts), dups)
	}
}

// goroutineTB is the testing.TB of a goroutine that is not the test's:
// failures are recorded for the test to report, and a fatal one ends only
// that goroutine.
type goroutineTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (g *goroutineTB) Helper() {}

func (g *goroutineTB) Errorf(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.errs = append(g.errs, fmt.Sprintf(format, args...))
}

func (g *goroutineTB) Fatalf(format string, args ...any) {
	g.Errorf(format, args...)
	runtime.Goexit()
}

func (g *goroutineTB) Fatal(args ...any) { g.Fatalf("%s", fmt.Sprint(args...)) }

func distinct(msgs [][]byte, header string) map[string]bool {
	out := map[string]bool{}
	for _, m := range msgs {
		out[daemontest.HeaderOf(m, header)] = true
	}
	return out
}

// killableJudge writes a judge's configuration for the store db on st into
// dir (smtp holds extra [smtp] settings) and returns a function that starts
// "umpire serve" as a process of its own, to be killed, its output going to
// the returned log; and the configuration's path.
func killableJudge(t *testing.T, bin, dir, db string, st mailtest.Stack, smtp string) (start func() *exec.Cmd, cfg string, logf *os.File) {
	t.Helper()
	cfg = filepath.Join(dir, "umpire.toml")
	conf := fmt.Sprintf("store = %q\naddress = %q\n\n[imap]\naddress = %q\nsecurity = \"none\"\nusername = %q\npassword = %q\npoll = \"100ms\"\n\n[smtp]\naddress = %q\nsecurity = \"none\"\n%s\n[log]\nlevel = \"warn\"\n",
		db, daemontest.JudgeAddress, st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr(), smtp)
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "daemon.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	start = func() *exec.Cmd {
		cmd := exec.Command(bin, "serve", "--config", cfg)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	return start, cfg, logf
}
