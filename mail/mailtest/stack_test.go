package mailtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// The accounts of the tests: the judge and four players, each player used
// by one subtest so that mailbox counts do not depend on subtest order.
const (
	judge    = "judge@" + JudgeDomain
	alice    = "alice@" + PlayerDomain
	bob      = "bob@" + PlayerDomain
	carol    = "carol@" + PlayerDomain
	dave     = "dave@" + PlayerDomain
	password = "secret-pw"
	waitTime = 20 * time.Second
)

// message is a CRLF message with an 8-bit body.
func message(from, to, subject string) (raw, body []byte) {
	body = fmt.Appendf(nil, "Orders for %s:\r\nA1 -> B2 (Überquerung)\r\n\r\n-- \r\n%s\r\n", subject, from)
	raw = fmt.Appendf(nil, "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <%s.%d@%s>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n%s",
		from, to, subject, subject, time.Now().UnixNano(), PlayerDomain, body)
	return raw, body
}

// checkBody fails unless got is one message whose body is want and whose
// header names subject. MTAs add header fields, so headers are not compared.
func checkBody(t *testing.T, got [][]byte, subject string, want []byte) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%d messages, want 1", len(got))
	}
	header, body, ok := bytes.Cut(got[0], []byte("\r\n\r\n"))
	if !ok {
		t.Fatalf("message without a header/body separator:\n%s", got[0])
	}
	if !bytes.Contains(header, []byte("Subject: "+subject+"\r\n")) {
		t.Errorf("header lacks Subject %q:\n%s", subject, header)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("body changed in transit:\ngot  %q\nwant %q", body, want)
	}
}

// TestStacks runs the same mail exchanges and faults on both stacks. They run
// one after the other: while one stack has stopped a listener, the other
// must not be starting servers that might take the freed port.
func TestStacks(t *testing.T) {
	for _, kind := range []struct {
		name  string
		start func(testing.TB) Stack
	}{{"embedded", Embedded}, {"real", Real}} {
		t.Run(kind.name, func(t *testing.T) {
			s := kind.start(t)
			if s.Name() != kind.name {
				t.Errorf("Name() = %q, want %q", s.Name(), kind.name)
			}
			for _, user := range []string{judge, alice, bob, carol, dave} {
				s.AddUser(t, user, password)
			}

			t.Run("player to judge", func(t *testing.T) {
				raw, body := message(alice, judge, "turn-1")
				s.Submit(t, alice, []string{judge}, raw)
				checkBody(t, s.WaitFor(t, judge, password, "INBOX", 1, waitTime), "turn-1", body)
			})

			t.Run("judge to player", func(t *testing.T) {
				raw, body := message(judge, alice, "receipt-1")
				s.Submit(t, judge, []string{alice}, raw)
				checkBody(t, s.WaitFor(t, alice, password, "INBOX", 1, waitTime), "receipt-1", body)
			})

			t.Run("MTA outage", func(t *testing.T) {
				addr := s.SMTPAddr()
				raw, body := message(bob, carol, "outage")
				s.StopSMTP(t)
				ctx, cancel := context.WithTimeout(context.Background(), waitTime)
				defer cancel()
				err := submit(ctx, addr, bob, []string{carol}, raw)
				if !errors.Is(err, syscall.ECONNREFUSED) {
					t.Fatalf("submit while the MTA is down: err = %v, want connection refused", err)
				}
				s.StartSMTP(t)
				if s.SMTPAddr() != addr {
					t.Fatalf("SMTPAddr moved from %s to %s", addr, s.SMTPAddr())
				}
				s.Submit(t, bob, []string{carol}, raw)
				checkBody(t, s.WaitFor(t, carol, password, "INBOX", 1, waitTime), "outage", body)
			})

			t.Run("IMAP restart", func(t *testing.T) {
				raw, body := message(alice, dave, "restart")
				s.Submit(t, alice, []string{dave}, raw)
				s.WaitFor(t, dave, password, "INBOX", 1, waitTime)

				c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if err := c.Login(dave, password).Wait(); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
					t.Fatal(err)
				}
				addr := s.IMAPAddr()
				s.RestartIMAP(t)
				if s.IMAPAddr() != addr {
					t.Fatalf("IMAPAddr moved from %s to %s", addr, s.IMAPAddr())
				}
				select {
				case <-c.Closed():
				case <-time.After(waitTime):
					if err := c.Noop().Wait(); err == nil {
						t.Fatal("an IMAP connection survived RestartIMAP")
					}
				}
				checkBody(t, s.Mailbox(t, dave, password, "INBOX"), "restart", body)
			})
		})
	}
}

// TestRealLeavesNothingBehind checks that a Real stack's processes and
// folder are gone once its test has ended.
func TestRealLeavesNothingBehind(t *testing.T) {
	var (
		dir    string
		groups []int
	)
	t.Run("stack", func(t *testing.T) {
		r := Real(t).(*realStack)
		dir = r.dir
		groups = []int{r.dovecot.proc.cmd.Process.Pid, r.smtpd.proc.cmd.Process.Pid}
		r.AddUser(t, judge, password)
		raw, _ := message(alice, judge, "cleanup")
		r.Submit(t, alice, []string{judge}, raw)
		r.WaitFor(t, judge, password, "INBOX", 1, waitTime)
	})
	if dir == "" {
		t.Skip("no real stack here")
	}
	for _, pgid := range groups {
		if groupAlive(pgid) {
			t.Errorf("process group %d still alive after the test", pgid)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still exists after the test (err %v)", dir, err)
	}
	// The stack's OpenSMTPD had a private control socket: nothing of it
	// remains on the machine's.
	if _, err := os.Stat(filepath.Join(dir, "run", "smtpd.sock")); err == nil {
		t.Error("the stack's control socket outlived the test")
	}
}

// TestRealBesideOtherOpenSMTPDs runs two real stacks at once while an
// OpenSMTPD of the machine (the system's, or one this test starts in the
// machine's own runtime: /run/smtpd.sock and /var/spool/smtpd) runs too.
// Each stack delivers its own mail, and the machine's OpenSMTPD is still
// there, untouched, afterwards.
func TestRealBesideOtherOpenSMTPDs(t *testing.T) {
	checkSystem(t)
	const machineSocket = "/run/smtpd.sock"
	var machine *process
	if !socketLive(machineSocket) {
		dir := t.TempDir()
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "smtpd.conf")
		text := fmt.Sprintf("listen on 127.0.0.1 port %d\naction \"local\" mbox\nmatch from any for domain \"machine.invalid\" action \"local\"\n", port)
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		machine, err = startProcess("machine opensmtpd", filepath.Join(dir, "smtpd.log"), smtpdBin, "-d", "-f", conf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { machine.stop() }) // this test started it
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		if err := waitGreeting(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), "220", machine.done); err != nil {
			b, _ := os.ReadFile(filepath.Join(dir, "smtpd.log"))
			t.Fatalf("the machine's OpenSMTPD did not start: %v\n%s", err, b)
		}
		for !socketLive(machineSocket) {
			select {
			case <-ctx.Done():
				t.Fatal("the machine's OpenSMTPD has no control socket")
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	stacks := make([]Stack, 2)
	for i := range stacks {
		stacks[i] = Real(t)
		stacks[i].AddUser(t, judge, password)
	}
	for i, s := range stacks {
		raw, body := message(alice, judge, fmt.Sprintf("beside-%d", i))
		s.Submit(t, alice, []string{judge}, raw)
		checkBody(t, s.WaitFor(t, judge, password, "INBOX", 1, waitTime), fmt.Sprintf("beside-%d", i), body)
	}
	if !socketLive(machineSocket) {
		t.Error("the machine's OpenSMTPD no longer answers on its control socket")
	}
	if machine != nil {
		select {
		case <-machine.done:
			t.Error("the machine's OpenSMTPD exited while the stacks ran")
		default:
		}
	}
}

// socketLive reports whether something answers on a unix socket.
func socketLive(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
