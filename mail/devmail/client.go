package devmail

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// ioTimeout bounds one exchange of the client side.
const ioTimeout = 30 * time.Second

// Submit sends raw over a new SMTP connection to addr without
// authentication or TLS, greeting as hello: a player of the dev servers (or
// of any loopback test server) sending mail.
func Submit(ctx context.Context, addr, hello, from string, to []string, raw []byte) error {
	d := net.Dialer{Timeout: ioTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	c := smtp.NewClient(conn)
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	c.CommandTimeout = ioTimeout
	c.SubmissionTimeout = ioTimeout
	if err := c.Hello(hello); err != nil {
		return fmt.Errorf("submit: EHLO: %w", err)
	}
	if err := c.SendMail(from, to, bytes.NewReader(raw)); err != nil {
		return fmt.Errorf("submit: %w", err)
	}
	if err := c.Quit(); err != nil {
		return fmt.Errorf("submit: QUIT: %w", err)
	}
	return nil
}

// Fetch logs in to the IMAP server at addr without TLS and returns the raw
// messages of folder in UID order, opening it read-only: a player of the
// dev servers reading mail. A message another session expunges while it is
// fetched comes without a body (Dovecot): the folder is read again, up to
// five times, so that what is returned is the folder at one moment.
func Fetch(ctx context.Context, addr, user, password, folder string) ([][]byte, error) {
	return FetchFrom(ctx, addr, user, password, folder, 0)
}

// FetchFrom is Fetch without the first skip messages of the folder: a
// reader that keeps what it has read asks only for what is new.
func FetchFrom(ctx context.Context, addr, user, password, folder string, skip int) ([][]byte, error) {
	skip = max(skip, 0)
	var err error
	for range 5 {
		var raws [][]byte
		var changing bool
		if raws, changing, err = fetchOnce(ctx, addr, user, password, folder, skip); err == nil && !changing {
			return raws, nil
		}
		if err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil, fmt.Errorf("IMAP fetch %s of %s: messages kept coming without their bodies (expunged while fetched?)", folder, user)
}

// fetchOnce is one reading of folder for Fetch; changing is set when a
// message came without its body.
func fetchOnce(ctx context.Context, addr, user, password, folder string, skip int) (raws [][]byte, changing bool, err error) {
	c, err := imapclient.DialInsecure(addr, &imapclient.Options{Dialer: &net.Dialer{Timeout: ioTimeout}})
	if err != nil {
		return nil, false, fmt.Errorf("IMAP: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := c.Login(user, password).Wait(); err != nil {
		return nil, false, fmt.Errorf("IMAP login %s: %w", user, err)
	}
	data, err := c.Select(folder, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, false, fmt.Errorf("IMAP examine %s of %s: %w", folder, user, err)
	}
	var msgs []*imapclient.FetchMessageBuffer
	if int(data.NumMessages) > skip {
		var seq imap.SeqSet
		seq.AddRange(uint32(skip)+1, data.NumMessages)
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err = c.Fetch(seq, &imap.FetchOptions{
			UID:         true,
			BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			return nil, false, fmt.Errorf("IMAP fetch %s of %s: %w", folder, user, err)
		}
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	raws = make([][]byte, len(msgs))
	for i, m := range msgs {
		if raws[i] = m.FindBodySection(&imap.FetchItemBodySection{}); raws[i] == nil {
			return nil, true, nil
		}
	}
	_ = c.Logout().Wait() // the messages are read; a failed goodbye changes nothing
	return raws, false, nil
}
