package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Message is one message taken from the mailbox.
type Message struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
	Raw         []byte // the whole message, or only its header when Truncated
	Size        int64  // the message's size on the server
	Truncated   bool   // larger than InboxConfig.MaxSize: Raw is the header only
}

// Disposition says which folder a handled message goes to.
type Disposition int

// The dispositions of a handled message.
const (
	// Processed messages go to the processed folder.
	Processed Disposition = iota
	// Rejected messages (not understood, not answerable) go to the rejected
	// folder. Nothing is ever deleted.
	Rejected
	// Quarantined messages, which the judge could not process (its work on
	// them ran out of its budget, or it stopped twice while processing
	// them), go to the quarantine folder; the handler keeps them for the
	// operator.
	Quarantined
)

// Handler commits what a message means — the consumed record, the mailbox
// checkpoint and the message's effects, in one store transaction — and says
// where the message goes. A message handled before (after a crash between
// the commit and the move) must be recognised and given the same
// disposition without its effects being applied again. An error leaves the
// message in the mailbox to be tried again later.
type Handler interface {
	Handle(ctx context.Context, m Message) (Disposition, error)
}

// BatchHandler is a Handler that can also commit a batch of messages in one
// store transaction, all or none. When HandleBatch fails, the inbox hands
// the batch's messages to Handle one by one, so that one bad message cannot
// hold up the others.
type BatchHandler interface {
	Handler
	HandleBatch(ctx context.Context, ms []Message) ([]Disposition, error)
}

// Checkpoints gives the mailbox checkpoint the handler last committed.
type Checkpoints interface {
	Checkpoint(ctx context.Context, mailbox string) (uidValidity, lastUID uint32, err error)
}

// InboxConfig configures an Inbox.
type InboxConfig struct {
	Server     Server
	Folder     string // default "INBOX"
	Processed  string // default "processed"
	Rejected   string // default "rejected"
	Quarantine string // default "quarantine"
	// KeepInFolder leaves handled messages in Folder, flagged \Seen, instead
	// of moving them; the checkpoint then says where to go on.
	KeepInFolder bool
	// Poll is the interval between checks when the server has no IDLE, and
	// the longest an IDLE lasts before it is renewed; default 1 minute.
	Poll time.Duration
	// MaxSize is the largest message fetched whole; larger ones are handed
	// over header only. Default 2 MiB.
	MaxSize int64
	// Batch is how many messages one FETCH takes; default 200.
	Batch int
	// Reconnect is the wait between connection attempts; default 1 s
	// doubling to 1 min.
	Reconnect Backoff
	// MaxFailures is how often a handler may fail on one message before it
	// is moved to the quarantine folder; default 5.
	MaxFailures int
	Logger      *slog.Logger
}

// Inbox takes messages from an IMAP folder exactly once: it fetches without
// setting \Seen, lets the Handler commit, and only then flags and moves the
// message. It reconnects after any drop.
type Inbox struct {
	cfg      InboxConfig
	handler  Handler
	cps      Checkpoints
	failures map[uint32]int // handler failures per UID in this UIDVALIDITY
	validity uint32
	// renewAt is when the session's access token (OAuth 2.0) is to be
	// refreshed, and the session renewed; zero with a password.
	renewAt time.Time
}

// NewInbox returns an inbox feeding h.
func NewInbox(cfg InboxConfig, h Handler, cps Checkpoints) (*Inbox, error) {
	if err := cfg.Server.check(); err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	if cfg.Folder == "" {
		cfg.Folder = "INBOX"
	}
	if cfg.Processed == "" {
		cfg.Processed = "processed"
	}
	if cfg.Rejected == "" {
		cfg.Rejected = "rejected"
	}
	if cfg.Quarantine == "" {
		cfg.Quarantine = "quarantine"
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Minute
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = 2 << 20
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 200
	}
	if cfg.Reconnect.Base <= 0 {
		cfg.Reconnect = Backoff{Base: time.Second, Max: time.Minute}
	}
	if cfg.MaxFailures <= 0 {
		cfg.MaxFailures = 5
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Inbox{cfg: cfg, handler: h, cps: cps, failures: map[uint32]int{}}, nil
}

// Run takes messages until ctx ends, reconnecting with backoff after any
// error.
func (in *Inbox) Run(ctx context.Context) error {
	fails := 0
	for {
		start := time.Now()
		err := in.session(ctx, false)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, errRenew) {
			in.cfg.Logger.InfoContext(ctx, "imap session renewed before its access token expires")
			fails = 0
			continue
		}
		if time.Since(start) > in.cfg.Reconnect.Max {
			fails = 0
		}
		fails++
		wait := in.cfg.Reconnect.Delay(fails)
		in.cfg.Logger.WarnContext(ctx, "imap session ended, reconnecting", "err", err, "in", wait.Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Once connects, takes every message waiting, and disconnects.
func (in *Inbox) Once(ctx context.Context) error { return in.session(ctx, true) }

func (in *Inbox) session(ctx context.Context, once bool) error {
	news := make(chan struct{}, 1)
	notify := func() {
		select {
		case news <- struct{}{}:
		default:
		}
	}
	c, err := in.dial(ctx, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				notify()
			}
		},
	}})
	if err != nil {
		return err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	for _, f := range []string{in.cfg.Processed, in.cfg.Rejected, in.cfg.Quarantine} {
		if err := c.Create(f, nil).Wait(); err != nil && !alreadyExists(err) {
			return fmt.Errorf("imap create %s: %w", f, err)
		}
	}
	sel, err := c.Select(in.cfg.Folder, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap select %s: %w", in.cfg.Folder, err)
	}
	if sel.UIDValidity != in.validity {
		in.validity, in.failures = sel.UIDValidity, map[uint32]int{}
	}
	idle := c.Caps().Has(imap.CapIdle)
	uidNext := uint32(sel.UIDNext)
	for {
		if err := in.sweep(ctx, c, sel.UIDValidity, uidNext); err != nil {
			return err
		}
		if once {
			return c.Logout().Wait()
		}
		if in.renew() {
			c.Logout().Wait()
			return errRenew
		}
		if err := in.wait(ctx, c, idle, news); err != nil {
			return err
		}
		// The UIDNEXT of the SELECT is stale once mail has arrived and
		// been taken: ask again, or the checkpoint looks ahead of it.
		uidNext = in.uidNext(c)
	}
}

// uidNext asks the server for the folder's UIDNEXT now; 0 when it will not
// say, which skips the check that needs it.
func (in *Inbox) uidNext(c *imapclient.Client) uint32 {
	st, err := c.Status(in.cfg.Folder, &imap.StatusOptions{UIDNext: true}).Wait()
	if err != nil {
		return 0
	}
	return uint32(st.UIDNext)
}

func (in *Inbox) dial(ctx context.Context, opts *imapclient.Options) (*imapclient.Client, error) {
	s := in.cfg.Server
	c, err := s.dialIMAP(opts)
	if err != nil {
		return nil, err
	}
	if in.renewAt, err = s.loginIMAP(ctx, c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// dialIMAP connects to the IMAP server with the security s names, without
// logging in.
func (s Server) dialIMAP(opts *imapclient.Options) (*imapclient.Client, error) {
	opts.TLSConfig = s.tlsConfig()
	var c *imapclient.Client
	var err error
	switch s.Security {
	case ImplicitTLS:
		c, err = imapclient.DialTLS(s.Address, opts)
	case StartTLS:
		c, err = imapclient.DialStartTLS(s.Address, opts)
	default:
		c, err = imapclient.DialInsecure(s.Address, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("imap %s: %w: %w", s.Address, errConnection, err)
	}
	return c, nil
}

// errRenew ends a session whose access token is about to expire: Run logs
// in again at once, with a fresh one.
var errRenew = errors.New("imap: the access token is about to expire")

// renew says whether the session's access token is within its early
// refresh of its expiry: a provider may end a session whose token expired
// (Microsoft 365: "BYE Session invalidated - AccessTokenExpired"), so the
// inbox logs in again before.
func (in *Inbox) renew() bool {
	return !in.renewAt.IsZero() && !time.Now().Before(in.renewAt)
}

// wait returns when the folder may have news: IDLE reported a change, or the
// poll interval passed.
func (in *Inbox) wait(ctx context.Context, c *imapclient.Client, idle bool, news <-chan struct{}) error {
	poll := in.cfg.Poll
	if !in.renewAt.IsZero() {
		// Wake in time to renew the session before its token expires.
		poll = max(min(poll, time.Until(in.renewAt)), 0)
	}
	timer := time.NewTimer(poll)
	defer timer.Stop()
	if !idle {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Closed():
			return fmt.Errorf("imap: %w: server closed the connection", errConnection)
		case <-news:
		case <-timer.C:
		}
		return c.Noop().Wait()
	}
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("imap idle: %w", err)
	}
	select {
	case <-ctx.Done():
	case <-c.Closed():
	case <-news:
	case <-timer.C:
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("imap idle: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("imap idle: %w", err)
	}
	return ctx.Err()
}

// sweep handles every message waiting in the folder, in UID order.
func (in *Inbox) sweep(ctx context.Context, c *imapclient.Client, validity, uidNext uint32) error {
	cpValidity, last, err := in.cps.Checkpoint(ctx, in.cfg.Folder)
	if err != nil {
		return fmt.Errorf("inbox: read checkpoint: %w", err)
	}
	if cpValidity != 0 && cpValidity != validity {
		// The server renumbered the folder: look at everything again; the
		// handler knows each message already taken by its Message-ID and
		// digest.
		in.cfg.Logger.WarnContext(ctx, "UIDVALIDITY changed, re-scanning the folder", "folder", in.cfg.Folder, "was", cpValidity, "now", validity)
		last = 0
	}
	if uidNext != 0 && uidNext <= last {
		// Numbered from scratch under the same UIDVALIDITY (a server that
		// lost its state): trust nothing but the consumed records.
		in.cfg.Logger.WarnContext(ctx, "UIDNEXT is behind the checkpoint, re-scanning the folder", "folder", in.cfg.Folder, "uidnext", uidNext, "checkpoint", last)
		last = 0
	}
	criteria := &imap.SearchCriteria{}
	if in.cfg.KeepInFolder {
		criteria.UID = []imap.UIDSet{{imap.UIDRange{Start: imap.UID(last + 1), Stop: 0}}}
	}
	found, err := c.UIDSearch(criteria, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap search: %w", err)
	}
	var uids []imap.UID
	for _, u := range found.AllUIDs() {
		if !in.cfg.KeepInFolder || uint32(u) > last {
			uids = append(uids, u)
		}
	}
	slices.Sort(uids)
	for len(uids) > 0 {
		// Sizes first (cheap), so that one batch holds at most Batch
		// messages and batchBytes bytes.
		chunk := uids[:min(len(uids), 1000)]
		uids = uids[len(chunk):]
		sizes, err := c.Fetch(imap.UIDSetNum(chunk...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		if err != nil {
			return fmt.Errorf("imap fetch sizes: %w", err)
		}
		slices.SortFunc(sizes, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
		var group []imap.UID
		var bytes int64
		for i, m := range sizes {
			group = append(group, m.UID)
			bytes += min(m.RFC822Size, in.cfg.MaxSize)
			if len(group) == in.cfg.Batch || bytes >= batchBytes || i == len(sizes)-1 {
				if err := in.batch(ctx, c, validity, group); err != nil {
					return err
				}
				group, bytes = nil, 0
			}
		}
	}
	return nil
}

// batchBytes bounds the message bytes one batch fetches.
const batchBytes = 32 << 20

// batch fetches, handles and disposes of a batch of messages. One FETCH
// takes each message's size and its first MaxSize bytes: a message larger
// than that is handed over as its header alone.
func (in *Inbox) batch(ctx context.Context, c *imapclient.Client, validity uint32, uids []imap.UID) error {
	sec := &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Offset: 0, Size: in.cfg.MaxSize}}
	got, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true,
		BodySection: []*imap.FetchItemBodySection{sec}}).Collect()
	if err != nil {
		return fmt.Errorf("imap fetch: %w", err)
	}
	msgs := make([]Message, 0, len(got))
	for _, m := range got {
		raw := m.FindBodySection(sec)
		msg := Message{Mailbox: in.cfg.Folder, UIDValidity: validity, UID: uint32(m.UID), Raw: raw, Size: m.RFC822Size}
		if m.RFC822Size > in.cfg.MaxSize {
			msg.Raw, msg.Truncated = headerOf(raw), true
		}
		msgs = append(msgs, msg)
	}
	slices.SortFunc(msgs, func(a, b Message) int { return int(a.UID) - int(b.UID) })
	sets := map[Disposition]*imap.UIDSet{Processed: {}, Rejected: {}, Quarantined: {}}
	if ds, ok := in.handleBatch(ctx, msgs); ok {
		for i, d := range ds {
			sets[d].AddNum(imap.UID(msgs[i].UID))
		}
		msgs = nil
	}
	var retry error
	for _, m := range msgs {
		d, err := in.handle(ctx, m)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			in.failures[m.UID]++
			if in.failures[m.UID] < in.cfg.MaxFailures {
				// Leave it and those after it; dispose of what was committed,
				// then end the session so that the retry backs off.
				retry = fmt.Errorf("inbox: message uid %d not handled (attempt %d of %d): %w", m.UID, in.failures[m.UID], in.cfg.MaxFailures, err)
				break
			}
			in.cfg.Logger.ErrorContext(ctx, "message keeps failing, quarantined", "uid", m.UID, "err", err, "folder", in.cfg.Quarantine)
			d = Quarantined
		}
		delete(in.failures, m.UID)
		sets[d].AddNum(imap.UID(m.UID))
	}
	for _, d := range []Disposition{Processed, Rejected, Quarantined} {
		if err := in.dispose(c, *sets[d], in.folder(d)); err != nil {
			return err
		}
	}
	return retry
}

// folder is where messages of disposition d go.
func (in *Inbox) folder(d Disposition) string {
	switch d {
	case Rejected:
		return in.cfg.Rejected
	case Quarantined:
		return in.cfg.Quarantine
	}
	return in.cfg.Processed
}

// headerOf returns the header block of a message (up to and including the
// blank line), or all of raw if it has no end of header.
func headerOf(raw []byte) []byte {
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 {
			return raw[:i+len(sep)]
		}
	}
	return raw
}

// handleBatch commits the batch in one transaction when the handler can;
// ok is false when it cannot or failed, and the messages are then handled one
// by one.
func (in *Inbox) handleBatch(ctx context.Context, msgs []Message) (ds []Disposition, ok bool) {
	bh, can := in.handler.(BatchHandler)
	if !can || len(msgs) < 2 {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			in.cfg.Logger.WarnContext(ctx, "batch handler panicked, handling one by one", "panic", r)
			ds, ok = nil, false
		}
	}()
	ds, err := bh.HandleBatch(ctx, msgs)
	if err != nil || len(ds) != len(msgs) {
		in.cfg.Logger.WarnContext(ctx, "batch not committed, handling one by one", "messages", len(msgs), "err", err)
		return nil, false
	}
	return ds, true
}

// handle runs the handler, turning a panic into an error so that one
// poisonous message cannot stop the judge.
func (in *Inbox) handle(ctx context.Context, m Message) (d Disposition, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("handler panicked on uid %d: %v", m.UID, r)
		}
	}()
	return in.handler.Handle(ctx, m)
}

// dispose flags messages \Seen and moves them to folder (or only flags them
// with KeepInFolder).
func (in *Inbox) dispose(c *imapclient.Client, set imap.UIDSet, folder string) error {
	if len(set) == 0 {
		return nil
	}
	seen := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
	if err := c.Store(set, seen, nil).Close(); err != nil {
		return fmt.Errorf("imap store \\Seen: %w", err)
	}
	if in.cfg.KeepInFolder {
		return nil
	}
	if c.Caps().Has(imap.CapMove) {
		if _, err := c.Move(set, folder).Wait(); err != nil {
			return fmt.Errorf("imap move to %s: %w", folder, err)
		}
		return nil
	}
	if _, err := c.Copy(set, folder).Wait(); err != nil {
		return fmt.Errorf("imap copy to %s: %w", folder, err)
	}
	del := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := c.Store(set, del, nil).Close(); err != nil {
		return fmt.Errorf("imap store \\Deleted: %w", err)
	}
	if c.Caps().Has(imap.CapUIDPlus) {
		return c.UIDExpunge(set).Close()
	}
	return c.Expunge().Close()
}

func alreadyExists(err error) bool {
	var ie *imap.Error
	return errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists
}
