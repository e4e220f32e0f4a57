//go:build integration

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestMain lets the test binary run as a judge that hosts the stall game
// (a test game whose rules misbehave on cue, fake.Stall): the tests that
// kill the judge start it so, as a process of its own.
func TestMain(m *testing.M) {
	if os.Getenv("UMPIRE_TEST_JUDGE") == "stall" {
		os.Exit(stallJudgeMain())
	}
	os.Exit(m.Run())
}

// stallJudgeMain is main for a judge that hosts the stall game too. With
// UMPIRE_STALL_FIXED set it plays the umpire with the fix: cue lines are
// read as any other line.
func stallJudgeMain() int {
	m := NewMain()
	stall := fake.NewStall()
	stall.Fixed = os.Getenv("UMPIRE_STALL_FIXED") != ""
	stall.Began = func(cue string) { fmt.Fprintf(os.Stderr, "stall game: %s begins\n", cue) }
	m.Games = withStall(stall)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := m.Run(ctx, os.Args[1:])
	stop()
	if err := m.Close(); err != nil && code == 0 {
		code = 1
	}
	return code
}

// withStall is the hosted games and the stall game.
func withStall(stall *fake.Stall) adjudicator.Registry {
	reg := games()
	reg[stall.ID()] = stall
	return reg
}

// stallTable is a stall game's people by mail: a game master and three
// players with their OpenPGP keys, and the judge's configuration.
type stallTable struct {
	st                  mailtest.Stack
	g                   *signtest.GPG
	gm, alice, bob, car string
	config, store       string
	n                   int
}

const stallFile = "id = \"stall-1\"\ngame = \"stall\"\nscenario = \"trio\"\n[schedule]\nevery = \"48h\"\n"

func newStallTable(t *testing.T, st mailtest.Stack, limits string) *stallTable {
	t.Helper()
	dir := t.TempDir()
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	for _, p := range []string{"gm", "alice", "bob", "carol", "ops"} {
		st.AddUser(t, p+"@players.test", "pw")
	}
	tb := &stallTable{st: st, g: signtest.NewGPG(t), store: filepath.Join(dir, "umpire.db"), config: filepath.Join(dir, "umpire.toml")}
	tb.gm = tb.g.GenKey("Grace <gm@players.test>")
	tb.alice = tb.g.GenKey("Alice <alice@players.test>")
	tb.bob = tb.g.GenKey("Bob <bob@players.test>")
	tb.car = tb.g.GenKey("Carol <carol@players.test>")
	conf := fmt.Sprintf("store = %q\naddress = %q\noperator = \"ops@players.test\"\n[imap]\naddress = %q\nsecurity = \"none\"\nusername = %q\npassword = %q\npoll = \"100ms\"\n[smtp]\naddress = %q\nsecurity = \"none\"\n[limits]\n%s\n[log]\nlevel = \"warn\"\n",
		tb.store, daemontest.JudgeAddress, st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr(), limits)
	if err := os.WriteFile(tb.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return tb
}

// send mails text clear-signed by fpr from who@players.test, with the key
// attached when first is set, and returns its Message-ID.
func (tb *stallTable) send(t *testing.T, fpr, who, text string, first bool) string {
	t.Helper()
	tb.n++
	id := fmt.Sprintf("%s-%d@players.test", who, tb.n)
	from := who + "@players.test"
	var raw []byte
	if first {
		raw = withKey(tb.g, fpr, from, id, "to the judge", text)
	} else {
		raw = []byte(daemontest.Header(from, id, "to the judge") + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + daemontest.CRLF(string(tb.g.ClearSign(fpr, []byte(text)))))
	}
	tb.st.Submit(t, from, []string{daemontest.JudgeAddress}, raw)
	return "<" + id + ">"
}

// answer waits for the judge's mail to who that answers the message with
// Message-ID id and contains want, and returns it.
func (tb *stallTable) answer(t *testing.T, who, id, want string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		for _, m := range tb.st.Mailbox(t, who+"@players.test", "pw", "INBOX") {
			if text := readable(m); (id == "" || daemontest.HeaderOf(m, "In-Reply-To") == id) && strings.Contains(text, want) {
				return text
			}
		}
		if time.Now().After(deadline) {
			var got []string
			for _, m := range tb.st.Mailbox(t, who+"@players.test", "pw", "INBOX") {
				got = append(got, daemontest.HeaderOf(m, "Subject"))
			}
			t.Fatalf("no mail to %s answering %s with %q; it has: %q", who, id, want, got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// setUp creates stall-1 by mail, seats the three players and starts it.
func (tb *stallTable) setUp(t *testing.T) {
	t.Helper()
	id := tb.send(t, tb.gm, "gm", "create\n"+stallFile, true)
	tb.answer(t, "gm", id, "is created")
	for who, seat := range map[string]string{"alice": "A", "bob": "B", "carol": "C"} {
		fpr := map[string]string{"alice": tb.alice, "bob": tb.bob, "carol": tb.car}[who]
		id := tb.send(t, fpr, who, "join stall-1 "+seat, true)
		tb.answer(t, who, id, "now holds seat "+seat)
	}
	tb.send(t, tb.gm, "gm", "start stall-1", false)
	tb.answer(t, "gm", "", "The game master started stall-1")
}

func stallOrders(seat string, lines ...string) string {
	return fmt.Sprintf("game: stall-1\nstep: 1\nseat: %s\n%s\nend\n", seat, strings.Join(lines, "\n"))
}

// TestQuarantineByRealMail: a player's orders make the rules hang (the
// stall game's ParseOrders blocks). The judge, running, sets that message
// aside when its budget runs out (limits.message_time), answers its sender
// that the operator has it, tells the operator, files it in the quarantine
// folder, and answers every other sender meanwhile. The operator lists it,
// releases it (it hangs again and is set aside again, counted), and drops
// it; the player's next orders are taken as usual.
func TestQuarantineByRealMail(t *testing.T) {
	t.Parallel()
	for _, mk := range []func(testing.TB) mailtest.Stack{mailtest.Embedded, mailtest.Real} {
		st := mk(t)
		t.Run(st.Name(), func(t *testing.T) { testQuarantineByMail(t, st) })
	}
}

func testQuarantineByMail(t *testing.T, st mailtest.Stack) {
	tb := newStallTable(t, st, "message_time = \"1s\"")
	stall := fake.NewStall()
	t.Cleanup(stall.Release)
	startDaemonWith(t, tb.config, func(m *Main) { m.Games = withStall(stall) })
	tb.setUp(t)

	poison := tb.send(t, tb.alice, "alice", stallOrders("A", "roll 1", "stall"), false)
	bobs := tb.send(t, tb.bob, "bob", stallOrders("B", "roll 2"), false)
	help := "<carol-help@players.test>"
	st.Submit(t, "carol@players.test", []string{daemontest.JudgeAddress}, []byte(daemontest.Header("carol@players.test", "carol-help@players.test", "help")+"\r\nhelp\r\n"))

	tb.answer(t, "bob", bobs, "ACCEPTED: orders of seat B for step 1 of stall-1")
	tb.answer(t, "carol", help, "")
	notice := tb.answer(t, "alice", poison, "Your message could not be processed: reading the orders of A for step 1 of stall-1: took more than 1s.")
	for _, want := range []string{"Nothing in it was acted on", "quarantined as q1"} {
		if !strings.Contains(notice, want) {
			t.Errorf("the notice to alice lacks %q:\n%s", want, notice)
		}
	}
	ops := tb.answer(t, "ops", "", "set it aside as q1")
	for _, want := range []string{"alice@players.test", strings.Trim(poison, "<>"), "release q1", "drop q1"} {
		if !strings.Contains(ops, want) {
			t.Errorf("the operator's notice lacks %q:\n%s", want, ops)
		}
	}
	if q := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "quarantine"); len(q) != 1 || daemontest.HeaderOf(q[0], "Message-ID") != poison {
		t.Errorf("the quarantine folder holds %d messages, want alice's", len(q))
	}

	// The operator, while the judge runs (through its control socket).
	code, out, errOut := run(t, "mail", "quarantined", "--config", tb.config)
	if code != exitOK || !strings.Contains(out, "q1") || !strings.Contains(out, "alice@players.test") || !strings.Contains(out, "held") ||
		!strings.Contains(out, "took more than 1s") {
		t.Errorf("mail quarantined: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = run(t, "mail", "release", "q1", "--config", tb.config)
	if code != exitFail || !strings.Contains(errOut, "q1 could not be processed again and is set aside again: reading the orders of A for step 1 of stall-1: took more than 1s") {
		t.Errorf("mail release q1 of a message that still hangs: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := run(t, "mail", "quarantined", "--config", tb.config); !strings.Contains(out, "held   2") && !strings.Contains(out, "held  2") {
		t.Errorf("after the release, q1 is not held with 2 tries:\n%s", out)
	}
	if code, out, errOut := run(t, "mail", "drop", "q1", "--config", tb.config); code != exitOK || !strings.Contains(out, "q1 dropped") {
		t.Errorf("mail drop q1: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := run(t, "mail", "quarantined", "--config", tb.config); !strings.Contains(out, "dropped") {
		t.Errorf("after the drop:\n%s", out)
	}
	if n := len(tb.st.Mailbox(t, "alice@players.test", "pw", "INBOX")); n == 0 {
		t.Fatal("alice has no mail")
	}
	// Alice's next orders are taken as usual.
	again := tb.send(t, tb.alice, "alice", stallOrders("A", "roll 1"), false)
	tb.answer(t, "alice", again, "ACCEPTED: orders of seat A for step 1 of stall-1")
	// One notice for alice's message: the release did not answer her twice.
	notices := 0
	for _, m := range st.Mailbox(t, "alice@players.test", "pw", "INBOX") {
		if strings.Contains(readable(m), "could not be processed") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("alice got %d notices that her message could not be processed, want 1", notices)
	}
}

// startDaemonWith is startDaemon with setup run on the Main first.
func startDaemonWith(t *testing.T, config string, setup func(*Main)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	var code int
	var out daemontest.LockedBuffer
	go func() {
		defer wg.Done()
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Now: time.Now,
			Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		setup(m)
		code = m.Run(ctx, []string{"serve", "--config", config})
		m.Close()
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		if code != exitOK {
			t.Errorf("serve ended with exit %d:\n%s", code, out.B.String())
		}
	})
}

// TestQuarantineAcrossKill: the judge is killed (kill -9) while the rules
// hang on a player's orders, twice in a row (its budget is an hour, so the
// hang lasts). Started again it sets that message aside unread and answers
// its sender, and takes every other message exactly once. Then the
// operator runs an umpire with the fix and releases the message: it is
// processed once, and its sender gets the receipt.
func TestQuarantineAcrossKill(t *testing.T) {
	t.Parallel()
	for _, mk := range []func(testing.TB) mailtest.Stack{mailtest.Embedded, mailtest.Real} {
		st := mk(t)
		t.Run(st.Name(), func(t *testing.T) { testQuarantineAcrossKill(t, st) })
	}
}

func testQuarantineAcrossKill(t *testing.T, st mailtest.Stack) {
	tb := newStallTable(t, st, "message_time = \"1h\"")
	logPath := filepath.Join(filepath.Dir(tb.config), "judge.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	var judge *exec.Cmd
	start := func(fixed bool) {
		t.Helper()
		judge = exec.Command(os.Args[0], "serve", "--config", tb.config)
		judge.Env = append(os.Environ(), "UMPIRE_TEST_JUDGE=stall")
		if fixed {
			judge.Env = append(judge.Env, "UMPIRE_STALL_FIXED=1")
		}
		judge.Stdout, judge.Stderr = logf, logf
		if err := judge.Start(); err != nil {
			t.Fatal(err)
		}
	}
	stop := func(sig syscall.Signal) {
		judge.Process.Signal(sig)
		judge.Wait()
	}
	defer func() {
		if judge.ProcessState == nil {
			stop(syscall.SIGKILL)
		}
	}()
	// stalls waits until the judge's log says the rules began to hang for
	// the n-th time.
	stalls := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			b, _ := os.ReadFile(logPath)
			if strings.Count(string(b), "stall game: stall begins") >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the rules did not hang a %d. time; the judge's log:\n%s", n, daemontest.Tail(string(b), 30))
			}
		}
	}

	start(false)
	tb.setUp(t)
	poison := tb.send(t, tb.alice, "alice", stallOrders("A", "roll 1", "stall"), false)
	stalls(1)
	stop(syscall.SIGKILL) // mid-parse
	bobs := tb.send(t, tb.bob, "bob", stallOrders("B", "roll 2"), false)
	start(false)
	stalls(2) // the message again, now alone
	stop(syscall.SIGKILL)
	start(false)
	notice := tb.answer(t, "alice", poison, "Your message could not be processed: the judge stopped 2 times in a row while processing it")
	if !strings.Contains(notice, "quarantined as q1") {
		t.Errorf("the notice:\n%s", notice)
	}
	tb.answer(t, "bob", bobs, "ACCEPTED: orders of seat B for step 1 of stall-1")
	if b, _ := os.ReadFile(logPath); strings.Count(string(b), "stall game: stall begins") != 2 {
		t.Errorf("the rules were given the message %d times, want 2 (set aside unread the third)", strings.Count(string(b), "stall game: stall begins"))
	}

	// The operator installs the fix and releases the message, through the
	// running judge's control socket.
	stop(syscall.SIGTERM)
	start(true)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(daemon.ControlPath(tb.store)); err == nil {
			break // the judge runs and listens
		}
		if time.Now().After(deadline) {
			t.Fatal("the judge's control socket did not appear")
		}
	}
	code, out, errOut := run(t, "mail", "release", "q1", "--config", tb.config)
	if code != exitOK || !strings.Contains(out, "q1 processed: processed") {
		t.Errorf("mail release q1: exit %d\n%s%s", code, out, errOut)
	}
	tb.answer(t, "alice", poison, "ACCEPTED: orders of seat A for step 1 of stall-1")
	stop(syscall.SIGTERM)

	// Exactly once: one order file of each, each message answered once
	// with a receipt, and the quarantine record says so.
	if q := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "quarantine"); len(q) != 1 || daemontest.HeaderOf(q[0], "Message-ID") != poison {
		t.Errorf("the quarantine folder holds %d messages, want alice's", len(q))
	}
	if in := st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX"); len(in) != 0 {
		t.Errorf("%d messages left in the judge's INBOX", len(in))
	}
	for who, id := range map[string]string{"alice": poison, "bob": bobs} {
		receipts := 0
		for _, m := range st.Mailbox(t, who+"@players.test", "pw", "INBOX") {
			if daemontest.HeaderOf(m, "In-Reply-To") == id && strings.Contains(readable(m), "ACCEPTED") {
				receipts++
			}
		}
		if receipts != 1 {
			t.Errorf("%s got %d receipts for %s, want 1", who, receipts, id)
		}
	}
	db, err := store.Open(tb.store, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(t.Context(), func(tx *store.Tx) error {
		for _, seat := range []string{"A", "B"} {
			if vs, err := tx.OrderVersions("stall-1", 1, seat); err != nil || len(vs) != 1 {
				t.Errorf("seat %s: %d order versions (%v), want 1", seat, len(vs), err)
			}
		}
		q, _, err := tx.QuarantinedMessage(1)
		if err != nil || q.State != store.QuarantineProcessed || q.Disposition != "processed" || q.Tries != 2 {
			t.Errorf("q1 after the release: %+v %v", q, err)
		}
		return nil
	})
}
