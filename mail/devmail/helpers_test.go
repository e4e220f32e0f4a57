package devmail

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Addresses the tests use.
const (
	judge    = "judge@umpire.test"
	judgePW  = "judge-secret"
	alice    = "alice@players.test"
	alicePW  = "alice-secret"
	testWait = 5 * time.Second
)

// logBuffer collects a server's log and shows it when the test fails.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func testLogger(t testing.TB) *slog.Logger {
	var b logBuffer
	t.Cleanup(func() {
		if t.Failed() {
			b.mu.Lock()
			defer b.mu.Unlock()
			t.Logf("devmail log:\n%s", b.buf.String())
		}
	})
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startServer starts a server for umpire.test and players.test with the
// judge's and alice's accounts, closed at the end of the test.
func startServer(t testing.TB) *Server {
	t.Helper()
	s, err := Start(context.Background(), Config{
		Domains:  []string{"umpire.test", "players.test"},
		Accounts: map[string]string{judge: judgePW, alice: alicePW},
		Logger:   testLogger(t),
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dialIMAP logs in and closes the client at the end of the test.
func dialIMAP(t testing.TB, addr, user, password string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, opts)
	if err != nil {
		t.Fatalf("dial IMAP %s: %v", addr, err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatalf("IMAP login %s: %v", user, err)
	}
	return c
}

// sendSMTP submits raw over SMTP, authenticating when auth is not nil.
func sendSMTP(addr string, auth sasl.Client, from string, to []string, raw []byte) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// message returns a small CRLF message with a subject and a body.
func message(from, to, subject, body string) []byte {
	return fmt.Appendf(nil, "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nMessage-ID: <%s@client.test>\r\n\r\n%s\r\n",
		from, to, subject, subject, body)
}

// fetchAll returns the messages of a mailbox, with UID, flags and the raw
// message, in UID order, without setting \Seen.
func fetchAll(t testing.TB, c *imapclient.Client, mailbox string) []*imapclient.FetchMessageBuffer {
	t.Helper()
	data, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatalf("EXAMINE %s: %v", mailbox, err)
	}
	if data.NumMessages == 0 {
		return nil
	}
	var seq imap.SeqSet
	seq.AddRange(1, data.NumMessages)
	msgs, err := c.Fetch(seq, &imap.FetchOptions{
		UID:         true,
		Flags:       true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil {
		t.Fatalf("FETCH %s: %v", mailbox, err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	return msgs
}

// raw is the whole message of a fetched buffer.
func raw(m *imapclient.FetchMessageBuffer) []byte {
	return m.FindBodySection(&imap.FetchItemBodySection{Peek: true})
}

// listening reports whether something accepts connections on addr.
func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
