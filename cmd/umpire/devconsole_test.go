//go:build integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/devmail"
)

// TestServeDevConsole walks serve --dev as a developer does: the console
// (not the log) says how to mail the judge, with a line to paste that
// works as printed (python3, then swaks), and prints each player mailbox
// with its password as it is made, so the judge's answer can be read over
// IMAP with what the console said and nothing else.
func TestServeDevConsole(t *testing.T) {
	bin := daemontest.UmpireBinary(t)
	dir := t.TempDir()
	outPath, logPath := filepath.Join(dir, "console.txt"), filepath.Join(dir, "serve.log")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "serve", "--dev", "--store", filepath.Join(dir, "umpire.db"))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	console := func() string { b, _ := os.ReadFile(outPath); return string(b) }
	// waitFor returns the first submatch of re in the console once it is
	// there.
	waitFor := func(what string, re *regexp.Regexp) string {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if m := re.FindStringSubmatch(console()); m != nil {
				return m[1]
			}
			if time.Now().After(deadline) {
				logText, _ := os.ReadFile(logPath)
				t.Fatalf("the console does not show %s within a minute:\n%s\nlog:\n%s", what, console(), logText)
			}
		}
	}
	imapAddr := waitFor("the IMAP address", regexp.MustCompile(`(?m)^  IMAP (\S+)$`))
	pasteLine := waitFor("a line to paste", regexp.MustCompile(`paste:\n  (python3 .*)\n`))
	swaksLine := waitFor("a swaks line", regexp.MustCompile(`with swaks:\n  (swaks .*)\n`))

	// The order file the lines mail: unsigned, so the judge answers with
	// how to sign it.
	orders := "game: club-1\nstep: 1\nseat: A\nmove A1 B2\nend\n"
	if err := os.WriteFile(filepath.Join(dir, "orders.txt.asc"), []byte(orders), 0o644); err != nil {
		t.Fatal(err)
	}
	paste := func(line string) {
		t.Helper()
		sh := exec.Command("sh", "-c", line)
		sh.Dir = dir
		if b, err := sh.CombinedOutput(); err != nil {
			t.Fatalf("the pasted line failed: %v\n%s\n%s", err, line, b)
		}
	}
	paste(pasteLine)
	password := waitFor("alice's mailbox", regexp.MustCompile(`(?m)^Mailbox alice@players\.test made: IMAP user alice@players\.test, password (\S+)$`))
	inbox := func(n int) [][]byte {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			msgs, err := devmail.Fetch(t.Context(), imapAddr, "alice@players.test", password, "INBOX")
			if err == nil && len(msgs) >= n {
				return msgs
			}
			if time.Now().After(deadline) {
				t.Fatalf("alice's INBOX holds %d answers, want %d (err %v)\nconsole:\n%s", len(msgs), n, err, console())
			}
		}
	}
	msgs := inbox(1)
	if !strings.Contains(string(msgs[0]), "not signed") {
		t.Errorf("the answer to the pasted python3 line is not the unsigned-orders answer:\n%s", msgs[0])
	}
	paste(swaksLine)
	if msgs := inbox(2); !strings.Contains(string(msgs[1]), "not signed") {
		t.Errorf("the answer to the pasted swaks line is not the unsigned-orders answer:\n%s", msgs[1])
	}
	if n := strings.Count(console(), "Mailbox alice@players.test made"); n != 1 {
		t.Errorf("the console announces alice's mailbox %d times, want once:\n%s", n, console())
	}
}
