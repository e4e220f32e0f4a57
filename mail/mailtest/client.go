package mailtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/umpire-pbem/umpire/mail/devmail"
)

// ioTimeout bounds one SMTP or IMAP exchange of the harness.
const ioTimeout = 30 * time.Second

// pollInterval is how often WaitFor counts the messages of a folder. A
// count is one STATUS command on a session WaitFor keeps open, well under a
// millisecond on either stack.
const pollInterval = 10 * time.Millisecond

// submit sends raw over a new SMTP connection to addr, without
// authentication.
func submit(ctx context.Context, addr, from string, to []string, raw []byte) error {
	if err := devmail.Submit(ctx, addr, "mta."+PlayerDomain, from, to, raw); err != nil {
		return fmt.Errorf("mailtest: %w", err)
	}
	return nil
}

// fetchFolder returns the raw messages of a folder in UID order, but the
// first skip.
func fetchFolder(ctx context.Context, addr, user, password, folder string, skip int) ([][]byte, error) {
	msgs, err := devmail.FetchFrom(ctx, addr, user, password, folder, skip)
	if err != nil {
		return nil, fmt.Errorf("mailtest: %w", err)
	}
	return msgs, nil
}

// mailbox implements Stack.Mailbox for any stack.
func mailbox(t testing.TB, addr, user, password, folder string) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	msgs, err := fetchFolder(ctx, addr, user, password, folder, 0)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// count implements Stack.Count for any stack.
func count(t testing.TB, addr, user, password, folder string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	var c counter
	defer c.close()
	n, err := c.count(ctx, addr, user, password, folder)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitFor implements Stack.WaitFor and Stack.WaitForMore for any stack: it
// counts the folder's messages until there are n, then fetches them but
// the first seen. IMAP errors (a server restarting, a folder not created
// yet) are retried until the timeout.
func waitFor(t testing.TB, addr, user, password, folder string, seen, n int, timeout time.Duration) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var (
		c       counter
		got     int
		lastErr error
	)
	defer c.close()
	for {
		got, lastErr = c.count(ctx, addr, user, password, folder)
		if lastErr == nil && got > n {
			t.Fatalf("mailtest: %s of %s holds %d messages, want %d", folder, user, got, n)
		}
		if lastErr == nil && got == n {
			var msgs [][]byte
			msgs, lastErr = fetchFolder(ctx, addr, user, password, folder, seen)
			if lastErr == nil && seen+len(msgs) > n {
				t.Fatalf("mailtest: %s of %s holds %d messages, want %d", folder, user, seen+len(msgs), n)
			}
			if lastErr == nil && seen+len(msgs) == n {
				return msgs
			}
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				t.Fatalf("mailtest: %s of %s: waited %v for %d messages: %v", folder, user, timeout, n, lastErr)
			}
			t.Fatalf("mailtest: %s of %s: waited %v for %d messages, found %d", folder, user, timeout, n, got)
		case <-time.After(pollInterval):
		}
	}
}

// counter counts the messages of a folder over one IMAP session, opened at
// the first count and again after an error.
type counter struct {
	c *imapclient.Client
}

func (c *counter) count(ctx context.Context, addr, user, password, folder string) (int, error) {
	if c.c == nil {
		ic, err := imapclient.DialInsecure(addr, &imapclient.Options{Dialer: &net.Dialer{Timeout: ioTimeout}})
		if err != nil {
			return 0, fmt.Errorf("mailtest: IMAP: %w", err)
		}
		if err := ic.Login(user, password).Wait(); err != nil {
			ic.Close()
			return 0, fmt.Errorf("mailtest: IMAP login %s: %w", user, err)
		}
		c.c = ic
	}
	stop := context.AfterFunc(ctx, func() { c.c.Close() })
	defer stop()
	data, err := c.c.Status(folder, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		if imapErr := (*imap.Error)(nil); !errors.As(err, &imapErr) {
			c.close() // not a NO or BAD: the session is gone, dial again
		}
		return 0, fmt.Errorf("mailtest: IMAP status %s of %s: %w", folder, user, err)
	}
	if data.NumMessages == nil {
		return 0, fmt.Errorf("mailtest: IMAP status %s of %s: no message count", folder, user)
	}
	return int(*data.NumMessages), nil
}

// close ends the session, if any.
func (c *counter) close() {
	if c.c != nil {
		c.c.Close()
		c.c = nil
	}
}
