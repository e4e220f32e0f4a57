package mailtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/devmail"
)

// ioTimeout bounds one SMTP or IMAP exchange of the harness.
const ioTimeout = 30 * time.Second

// pollInterval is how often WaitFor looks at a folder.
const pollInterval = 100 * time.Millisecond

// submit sends raw over a new SMTP connection to addr, without
// authentication.
func submit(ctx context.Context, addr, from string, to []string, raw []byte) error {
	if err := devmail.Submit(ctx, addr, "mta."+PlayerDomain, from, to, raw); err != nil {
		return fmt.Errorf("mailtest: %w", err)
	}
	return nil
}

// fetchFolder returns the raw messages of a folder in UID order.
func fetchFolder(ctx context.Context, addr, user, password, folder string) ([][]byte, error) {
	msgs, err := devmail.Fetch(ctx, addr, user, password, folder)
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
