package mailtest

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// ioTimeout bounds one SMTP or IMAP exchange of the harness.
const ioTimeout = 30 * time.Second

// pollInterval is how often WaitFor looks at a folder.
const pollInterval = 100 * time.Millisecond

// submit sends raw over a new SMTP connection to addr, without
// authentication.
func submit(ctx context.Context, addr, from string, to []string, raw []byte) error {
	d := net.Dialer{Timeout: ioTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("mailtest: submit: %w", err)
	}
	c := smtp.NewClient(conn)
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	c.CommandTimeout = ioTimeout
	c.SubmissionTimeout = ioTimeout
	if err := c.Hello("mta." + PlayerDomain); err != nil {
		return fmt.Errorf("mailtest: submit: EHLO: %w", err)
	}
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("mailtest: submit: %w", err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("mailtest: submit: QUIT: %w", err)
	}
	return nil
}

// fetchFolder logs in to the IMAP server at addr and returns the raw
// messages of folder in UID order. It opens the folder read-only.
func fetchFolder(ctx context.Context, addr, user, password, folder string) ([][]byte, error) {
	c, err := imapclient.DialInsecure(addr, &imapclient.Options{Dialer: &net.Dialer{Timeout: ioTimeout}})
	if err != nil {
		return nil, fmt.Errorf("mailtest: IMAP: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := c.Login(user, password).Wait(); err != nil {
		return nil, fmt.Errorf("mailtest: IMAP login %s: %w", user, err)
	}
	data, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailtest: IMAP examine %s of %s: %w", folder, user, err)
	}
	var msgs []*imapclient.FetchMessageBuffer
	if data.NumMessages > 0 {
		var seq imap.SeqSet
		seq.AddRange(1, data.NumMessages)
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err = c.Fetch(seq, &imap.FetchOptions{
			UID:         true,
			BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			return nil, fmt.Errorf("mailtest: IMAP fetch %s of %s: %w", folder, user, err)
		}
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	raws := make([][]byte, len(msgs))
	for i, m := range msgs {
		raws[i] = m.FindBodySection(&imap.FetchItemBodySection{})
		if raws[i] == nil {
			return nil, fmt.Errorf("mailtest: IMAP fetch %s of %s: UID %d came without a body", folder, user, m.UID)
		}
	}
	_ = c.Logout().Wait() // the messages are read; a failed goodbye changes nothing
	return raws, nil
}

// mailbox implements Stack.Mailbox for any stack.
func mailbox(t testing.TB, addr, user, password, folder string) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	msgs, err := fetchFolder(ctx, addr, user, password, folder)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// waitFor implements Stack.WaitFor for any stack. IMAP errors (a server
// restarting, a folder not created yet) are retried until the timeout.
func waitFor(t testing.TB, addr, user, password, folder string, n int, timeout time.Duration) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var (
		msgs    [][]byte
		lastErr error
	)
	for {
		msgs, lastErr = fetchFolder(ctx, addr, user, password, folder)
		if lastErr == nil && len(msgs) > n {
			t.Fatalf("mailtest: %s of %s holds %d messages, want %d", folder, user, len(msgs), n)
		}
		if lastErr == nil && len(msgs) == n {
			return msgs
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				t.Fatalf("mailtest: %s of %s: waited %v for %d messages: %v", folder, user, timeout, n, lastErr)
			}
			t.Fatalf("mailtest: %s of %s: waited %v for %d messages, found %d", folder, user, timeout, n, len(msgs))
		case <-time.After(pollInterval):
		}
	}
}
