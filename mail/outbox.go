package mail

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Queued is one mail waiting in the outbox. Raw is the complete message,
// composed when it was queued, so a resend after a crash is byte for byte
// the same mail with the same Message-ID.
type Queued struct {
	ID        uint64
	MessageID string
	From      string // envelope sender
	To        []string
	Raw       []byte
	Attempts  int       // failed attempts so far
	Queued    time.Time // when it was queued
}

// Lane is one of the queues the outbox sends from. Each lane has its own
// loop and its own SMTP connection, so that a mail in one never waits for
// the mails of another.
type Lane string

// The lanes of the judge's outbox (docs/mail.md, "Sending").
const (
	// LaneAnswers: receipts, answers to commands and errors, sent first.
	LaneAnswers Lane = "answers"
	// LaneReports: reports with their maps, reminders, announcements.
	LaneReports Lane = "reports"
)

// Sent records that the SMTP server accepted a mail: when, and the SHA-256
// (hex) of the bytes it accepted.
type Sent struct {
	ID     uint64
	At     time.Time
	Digest string
}

// Queue is the outbox's view of the store's queues of mails to send.
type Queue interface {
	// Due returns up to limit mails of lane due at now, ready to send.
	Due(ctx context.Context, lane Lane, now time.Time, limit int) ([]Queued, error)
	// MarkSent records mails the server accepted, in one commit.
	MarkSent(ctx context.Context, sent []Sent) error
	MarkRetry(ctx context.Context, id uint64, reason string, next time.Time) error
	MarkFailed(ctx context.Context, id uint64, reason string, at time.Time) error
}

// OutboxConfig configures an Outbox.
type OutboxConfig struct {
	Server    Server
	HelloName string        // EHLO name; default "localhost"
	Interval  time.Duration // how often the queue is checked; default 10 s
	Batch     int           // mails per connection; default 50
	// Lanes are the queues sent from, each by its own loop, in the order
	// Drain serves them; default LaneAnswers, LaneReports.
	Lanes  []Lane
	Retry  Backoff       // default 1 min doubling to 1 h
	GiveUp time.Duration // a mail still failing this long after it was queued fails for good; default 4 days
	Now    func() time.Time
	Logger *slog.Logger
	// OnFailure is called after a mail failed for good (a 5xx reply, or
	// GiveUp passed), for example to tell the game master. It may be nil.
	OnFailure func(ctx context.Context, q Queued, reason string)
}

// Outbox sends queued mail over SMTP submission: STARTTLS or implicit TLS,
// AUTH PLAIN, retries with exponential backoff, permanent failures marked
// and reported.
type Outbox struct {
	cfg   OutboxConfig
	queue Queue
	poke  map[Lane]chan struct{}
}

// NewOutbox returns an outbox sending q's mail through cfg.Server.
func NewOutbox(cfg OutboxConfig, q Queue) (*Outbox, error) {
	if err := cfg.Server.check(); err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	if cfg.HelloName == "" {
		cfg.HelloName = "localhost"
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 50
	}
	if cfg.Retry.Base <= 0 {
		cfg.Retry = Backoff{Base: time.Minute, Max: time.Hour}
	}
	if cfg.GiveUp <= 0 {
		cfg.GiveUp = 4 * 24 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if len(cfg.Lanes) == 0 {
		cfg.Lanes = []Lane{LaneAnswers, LaneReports}
	}
	o := &Outbox{cfg: cfg, queue: q, poke: map[Lane]chan struct{}{}}
	for _, l := range cfg.Lanes {
		o.poke[l] = make(chan struct{}, 1)
	}
	return o, nil
}

// Poke asks every lane to look at its queue now, e.g. right after a commit
// that queued mail.
func (o *Outbox) Poke() {
	for _, l := range o.cfg.Lanes {
		o.PokeLane(l)
	}
}

// PokeLane asks lane to look at its queue now.
func (o *Outbox) PokeLane(l Lane) {
	select {
	case o.poke[l] <- struct{}{}:
	default:
	}
}

// Run drains every lane, each in its own loop, until ctx ends.
func (o *Outbox) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, l := range o.cfg.Lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.runLane(ctx, l)
		}()
	}
	wg.Wait()
	return ctx.Err()
}

func (o *Outbox) runLane(ctx context.Context, l Lane) {
	t := time.NewTicker(o.cfg.Interval)
	defer t.Stop()
	for {
		if _, err := o.DrainLane(ctx, l); err != nil && ctx.Err() == nil {
			o.cfg.Logger.WarnContext(ctx, "outbox pass failed", "lane", l, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-o.poke[l]:
		}
	}
}

// Drain sends every mail due now, lane after lane, and returns how many
// were sent. Mails that fail are marked for retry or as failed; an error is
// returned only when a queue itself could not be read or updated.
func (o *Outbox) Drain(ctx context.Context) (int, error) {
	sent := 0
	for _, l := range o.cfg.Lanes {
		n, err := o.DrainLane(ctx, l)
		sent += n
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// DrainLane sends every mail of lane l due now.
func (o *Outbox) DrainLane(ctx context.Context, l Lane) (int, error) {
	sent := 0
	for {
		due, err := o.queue.Due(ctx, l, o.cfg.Now(), o.cfg.Batch)
		if err != nil {
			return sent, fmt.Errorf("outbox: read queue %s: %w", l, err)
		}
		if len(due) == 0 {
			return sent, nil
		}
		n, err := o.session(ctx, due)
		sent += n
		if err != nil || n < len(due) {
			return sent, err
		}
	}
}

// session sends a batch over one connection. It stops at the first mail
// that fails for a reason that is not the mail's own (the server is down):
// the rest stay due.
func (o *Outbox) session(ctx context.Context, due []Queued) (int, error) {
	c, err := o.dial(ctx)
	if err != nil {
		// The server cannot be reached: every mail of the batch waits.
		for _, q := range due {
			if merr := o.failed(ctx, q, err); merr != nil {
				return 0, merr
			}
		}
		return 0, nil
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	defer c.Close()
	// What the server accepted is recorded in one commit at the end of the
	// session (or before a failure is): a crash in between sends those
	// mails again, with the same Message-ID, which mail programs show once.
	var sent []Sent
	marked := 0
	mark := func(ctx context.Context) error {
		if len(sent) == 0 {
			return nil
		}
		if err := o.queue.MarkSent(ctx, sent); err != nil {
			return fmt.Errorf("outbox: mark %d mails sent: %w", len(sent), err)
		}
		marked += len(sent)
		sent = nil
		return nil
	}
	for _, q := range due {
		if ctx.Err() != nil {
			// Record what went before stopping (ctx is done: without it).
			if err := mark(context.WithoutCancel(ctx)); err != nil {
				return marked, err
			}
			return marked, ctx.Err()
		}
		err := o.send(c, q)
		if err == nil {
			sum := sha256.Sum256(q.Raw)
			sent = append(sent, Sent{ID: q.ID, At: o.cfg.Now(), Digest: hex.EncodeToString(sum[:])})
			o.cfg.Logger.InfoContext(ctx, "mail sent", "id", q.ID, "message_id", q.MessageID, "to", strings.Join(q.To, ","))
			continue
		}
		if merr := mark(ctx); merr != nil {
			return marked, merr
		}
		if merr := o.failed(ctx, q, err); merr != nil {
			return marked, merr
		}
		var se *smtp.SMTPError
		if !errors.As(err, &se) {
			return marked, nil // the connection is gone
		}
		if rerr := c.Reset(); rerr != nil {
			return marked, nil
		}
	}
	if err := mark(ctx); err != nil {
		return marked, err
	}
	if err := c.Quit(); err != nil {
		o.cfg.Logger.DebugContext(ctx, "smtp quit", "err", err)
	}
	return marked, nil
}

// failed records a failed attempt: a retry later, or a permanent failure.
func (o *Outbox) failed(ctx context.Context, q Queued, err error) error {
	now := o.cfg.Now()
	reason := err.Error()
	if Temporary(err) && now.Sub(q.Queued) < o.cfg.GiveUp {
		next := now.Add(o.cfg.Retry.Delay(q.Attempts + 1))
		o.cfg.Logger.WarnContext(ctx, "mail not sent, will retry", "id", q.ID, "attempt", q.Attempts+1, "next", next, "err", err)
		if merr := o.queue.MarkRetry(ctx, q.ID, reason, next); merr != nil {
			return fmt.Errorf("outbox: mark %d for retry: %w", q.ID, merr)
		}
		return nil
	}
	if Temporary(err) {
		reason = fmt.Sprintf("gave up after %d attempts over %s: %s", q.Attempts+1, now.Sub(q.Queued).Round(time.Minute), reason)
	}
	o.cfg.Logger.ErrorContext(ctx, "mail failed for good", "id", q.ID, "to", strings.Join(q.To, ","), "reason", reason)
	if merr := o.queue.MarkFailed(ctx, q.ID, reason, now); merr != nil {
		return fmt.Errorf("outbox: mark %d failed: %w", q.ID, merr)
	}
	if o.cfg.OnFailure != nil {
		o.cfg.OnFailure(ctx, q, reason)
	}
	return nil
}

func (o *Outbox) dial(ctx context.Context) (*smtp.Client, error) {
	s := o.cfg.Server
	c, err := s.dialSMTP(ctx, o.cfg.HelloName)
	if err != nil {
		return nil, err
	}
	if err := s.authSMTP(ctx, c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// dialSMTP connects to the SMTP server with the security s names and says
// hello as hello, without logging in.
func (s Server) dialSMTP(ctx context.Context, hello string) (*smtp.Client, error) {
	var c *smtp.Client
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch s.Security {
		case ImplicitTLS:
			c, err = smtp.DialTLS(s.Address, s.tlsConfig())
		case StartTLS:
			c, err = smtp.DialStartTLS(s.Address, s.tlsConfig())
		default:
			c, err = smtp.Dial(s.Address)
		}
	}()
	select {
	case <-done:
	case <-ctx.Done():
		<-done
		if c != nil {
			c.Close()
		}
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("smtp %s: %w: %w", s.Address, errConnection, err)
	}
	c.CommandTimeout = s.timeout()
	c.SubmissionTimeout = s.timeout()
	if err := c.Hello(hello); err != nil {
		c.Close()
		return nil, fmt.Errorf("smtp %s: hello: %w: %v", s.Address, errConnection, err)
	}
	return c, nil
}

// send submits one mail on an open session.
func (o *Outbox) send(c *smtp.Client, q Queued) error {
	if err := c.Mail(q.From, nil); err != nil {
		return fmt.Errorf("smtp MAIL FROM %s: %w", q.From, err)
	}
	var refused []string
	var firstRefusal error
	for _, to := range q.To {
		if err := c.Rcpt(to, nil); err != nil {
			if Temporary(err) {
				return fmt.Errorf("smtp RCPT TO %s: %w", to, err)
			}
			refused = append(refused, to)
			if firstRefusal == nil {
				firstRefusal = fmt.Errorf("smtp RCPT TO %s: %w", to, err)
			}
		}
	}
	if len(refused) == len(q.To) {
		return firstRefusal
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp DATA: %w", err)
	}
	if _, err := io.Copy(w, bytes.NewReader(q.Raw)); err != nil {
		w.Close()
		return fmt.Errorf("smtp DATA: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp DATA: %w", err)
	}
	if len(refused) > 0 && o.cfg.OnFailure != nil {
		// Delivered to the others; the refused addresses are reported.
		o.cfg.OnFailure(context.Background(), Queued{ID: q.ID, MessageID: q.MessageID, From: q.From, To: refused, Queued: q.Queued},
			firstRefusal.Error())
	}
	return nil
}
