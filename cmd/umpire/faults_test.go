//go:build integration

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// startDaemon runs "umpire serve" in-process until the test ends.
func startDaemon(t *testing.T, config string) {
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

// TestMailServersFailing runs the judge while its mail servers misbehave:
// the MTA is down while the orders are taken, and the IMAP server restarts
// under it twice. Every order mail must be taken once, and every receipt
// must arrive once the MTA is back, none twice.
func TestMailServersFailing(t *testing.T) {
	t.Parallel()
	for _, mk := range []func(testing.TB) mailtest.Stack{mailtest.Embedded, mailtest.Real} {
		st := mk(t)
		t.Run(st.Name(), func(t *testing.T) { testMailServersFailing(t, st) })
	}
}

func testMailServersFailing(t *testing.T, st mailtest.Stack) {
	const n = 20
	tb := newTable(t, st)
	conf, err := os.ReadFile(tb.config)
	if err != nil {
		t.Fatal(err)
	}
	conf = append(conf, "retry = \"300ms\"\n[log]\nlevel = \"error\"\n"...)
	if err := os.WriteFile(tb.config, conf, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		st.Submit(t, "alice@players.test", []string{daemontest.JudgeAddress}, tb.clearsigned(fmt.Sprintf("f%d@players.test", i),
			daemontest.Orders("NATO", fmt.Sprintf("# version %d", i), "move US-82AB 1609 1610")))
	}
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", n, 20*time.Second)

	st.StopSMTP(t)
	startDaemon(t, tb.config)
	st.RestartIMAP(t)
	time.Sleep(300 * time.Millisecond)
	st.RestartIMAP(t)
	// All taken while the MTA is down (WaitFor fails on more than n).
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "processed", n, 20*time.Second)
	time.Sleep(time.Second) // the outbox fails and backs off meanwhile
	if got := len(st.Mailbox(t, "alice@players.test", "pw", "INBOX")); got != 0 {
		t.Fatalf("%d receipts arrived with the MTA down", got)
	}
	st.StartSMTP(t)
	receipts := st.WaitFor(t, "alice@players.test", "pw", "INBOX", n, 30*time.Second)
	if got := len(distinct(receipts, "In-Reply-To")); got != n {
		t.Errorf("receipts answer %d distinct mails, want %d", got, n)
	}
	time.Sleep(500 * time.Millisecond)
	if got := len(st.Mailbox(t, "alice@players.test", "pw", "INBOX")); got != n {
		t.Errorf("%d receipts after the wait, want %d (none twice)", got, n)
	}
}

// TestServeDev: "serve --dev" runs the judge on its own mail servers: it
// says where they are, answers a player's "help" mail, and stops cleanly.
func TestServeDev(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var out daemontest.LockedBuffer
	done := make(chan int, 1)
	dbPath := t.TempDir() + "/dev.db"
	go func() {
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: io.Discard, Now: time.Now,
			Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		done <- m.Run(ctx, []string{"serve", "--dev", "--store", dbPath})
		m.Close()
	}()
	var smtpAddr string
	for deadline := time.Now().Add(10 * time.Second); smtpAddr == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out.Mu.Lock()
		for _, l := range strings.Split(out.B.String(), "\n") {
			if a, ok := strings.CutPrefix(strings.TrimSpace(l), "SMTP "); ok {
				smtpAddr = a
			}
		}
		out.Mu.Unlock()
	}
	if smtpAddr == "" {
		t.Fatalf("serve --dev printed no SMTP address:\n%s", out.B.String())
	}
	c, err := smtp.Dial(smtpAddr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("carol@players.test", []string{daemontest.JudgeAddress}, strings.NewReader(
		"From: carol@players.test\r\nTo: judge@umpire.test\r\nMessage-ID: <dev1@players.test>\r\nSubject: help\r\n\r\nhelp\r\n")); err != nil {
		t.Fatal(err)
	}
	c.Close()
	// The answer is queued and sent: the judge's store shows it sent.
	time.Sleep(time.Second)
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve --dev exit %d:\n%s", code, out.B.String())
	}
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(context.Background(), func(tx *store.Tx) error {
		m, err := tx.Mail(1)
		if err != nil || m.To[0] != "carol@players.test" || m.State != "sent" {
			t.Errorf("the answer to carol: %+v, %v", m, err)
		}
		return nil
	})
}
