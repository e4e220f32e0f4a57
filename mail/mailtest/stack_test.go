package mailtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	erin     = "erin@" + PlayerDomain
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

// stackKind is a kind of Stack TestStacks runs on.
type stackKind struct {
	name  string
	start func(testing.TB) Stack
}

// stackKinds are the stacks TestStacks runs on; real_test.go, built with
// the integration tag, adds the real one.
var stackKinds = []stackKind{{"embedded", Embedded}}

// TestStacks runs the same mail exchanges and faults on both stacks. They run
// one after the other: while one stack has stopped a listener, the other
// must not be starting servers that might take the freed port.
func TestStacks(t *testing.T) {
	for _, kind := range stackKinds {
		t.Run(kind.name, func(t *testing.T) {
			s := kind.start(t)
			if s.Name() != kind.name {
				t.Errorf("Name() = %q, want %q", s.Name(), kind.name)
			}
			for _, user := range []string{judge, alice, bob, carol, dave, erin} {
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

			t.Run("only new mail", func(t *testing.T) {
				raw1, body1 := message(judge, erin, "report-1")
				s.Submit(t, judge, []string{erin}, raw1)
				checkBody(t, s.WaitForMore(t, erin, password, "INBOX", 0, 1, waitTime), "report-1", body1)
				raw2, body2 := message(judge, erin, "report-2")
				s.Submit(t, judge, []string{erin}, raw2)
				checkBody(t, s.WaitForMore(t, erin, password, "INBOX", 1, 2, waitTime), "report-2", body2)
				if n := s.Count(t, erin, password, "INBOX"); n != 2 {
					t.Errorf("Count = %d, want 2", n)
				}
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
