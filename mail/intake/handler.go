package intake

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/message"
)

// Config configures a Handler.
type Config struct {
	Store  Store
	Intake *adjudicator.Intake // what a message means
	// Address is the judge's own address: mail that comes back from it is
	// automatic and never answered.
	Address string
	From    string         // the From header of the judge's mail
	Limits  message.Limits // zero: message.DefaultLimits()
	// RepliesPerHour is how many answers one sender gets in an hour;
	// receipts for accepted orders always go. Zero means 20.
	RepliesPerHour int
	Now            func() time.Time // default time.Now
	Logger         *slog.Logger     // default: discard
	// Poke, if set, is called after a commit that queued mail: it wakes
	// the outbox.
	Poke func()
}

// Handler takes each message from the inbox, reads and checks it, and
// commits what it means in one store transaction. It is the mail.Handler,
// mail.BatchHandler and mail.Checkpoints of the inbox.
type Handler struct {
	db      Store
	intake  *adjudicator.Intake
	address string
	from    string
	limits  message.Limits
	now     func() time.Time
	log     *slog.Logger
	replies *rateLimit
	poke    func()
}

// New returns the Handler cfg describes.
func New(cfg Config) *Handler {
	h := &Handler{db: cfg.Store, intake: cfg.Intake, address: cfg.Address, from: cfg.From, limits: cfg.Limits,
		now: cfg.Now, log: cfg.Logger, replies: newRateLimit(cfg.RepliesPerHour), poke: cfg.Poke}
	if h.intake == nil {
		h.intake = &adjudicator.Intake{}
	}
	if h.limits == (message.Limits{}) {
		h.limits = message.DefaultLimits()
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.log == nil {
		h.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return h
}

// Limits returns the limits the handler reads messages within.
func (h *Handler) Limits() message.Limits { return h.limits }

// Checkpoint implements mail.Checkpoints.
func (h *Handler) Checkpoint(ctx context.Context, mailbox string) (uint32, uint32, error) {
	var cp Checkpoint
	err := h.db.View(ctx, func(tx Tx) (err error) {
		cp, err = tx.Checkpoint(mailbox)
		return err
	})
	return cp.UIDValidity, cp.LastUID, err
}

// Handle implements mail.Handler.
func (h *Handler) Handle(ctx context.Context, m mail.Message) (mail.Disposition, error) {
	ds, err := h.HandleBatch(ctx, []mail.Message{m})
	if err != nil {
		return 0, err
	}
	return ds[0], nil
}

// HandleBatch implements mail.BatchHandler: the messages are read and their
// signatures checked in parallel, then committed in one transaction, each
// message's decision whole.
func (h *Handler) HandleBatch(ctx context.Context, ms []mail.Message) ([]mail.Disposition, error) {
	now := h.now()
	keys, err := h.keyring(ctx)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	envs := make([]*adjudicator.Envelope, len(ms))
	digests := make([]dice.Hash, len(ms))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				digests[i] = dice.Hash(sha256.Sum256(ms[i].Raw))
				envs[i] = h.envelope(ms[i], keys, now)
			}
		}()
	}
	for i := range ms {
		work <- i
	}
	close(work)
	wg.Wait()

	ds := make([]mail.Disposition, len(ms))
	queued := false
	err = h.db.Update(ctx, func(tx Tx) error {
		queued = false
		for i, m := range ms {
			d, err := h.commit(ctx, tx, m, envs[i], digests[i], now, &queued)
			if err != nil {
				return fmt.Errorf("message uid %d: %w", m.UID, err)
			}
			ds[i] = d
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	if queued && h.poke != nil {
		h.poke()
	}
	return ds, nil
}

// commit writes one message's decision: the checkpoint, and either the
// disposition recorded when it was taken before, or intake's effects and
// the record that it was taken.
func (h *Handler) commit(ctx context.Context, tx Tx, m mail.Message, env *adjudicator.Envelope, digest dice.Hash, now time.Time, queued *bool) (mail.Disposition, error) {
	cp, err := tx.Checkpoint(m.Mailbox)
	if err != nil {
		return 0, err
	}
	if cp.UIDValidity != m.UIDValidity || m.UID > cp.LastUID {
		if err := tx.PutCheckpoint(Checkpoint{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}); err != nil {
			return 0, err
		}
	}
	if rec, ok, err := tx.Taken(digest, env.MessageID); err != nil || ok {
		// Taken before (a crash between commit and move, or the same mail
		// delivered twice): same folder, no effects again.
		return DispositionOf(rec.Disposition), err
	}
	jt := &limitedTx{Tx: tx.Judge(h.from, now), limit: h.replies, sender: env.From, now: now, log: h.log, queued: queued}
	outcome, err := h.intake.Handle(ctx, jt, env)
	if err != nil {
		return 0, err
	}
	d := mail.Processed
	if outcome == adjudicator.Refused {
		d = mail.Rejected
	}
	err = tx.Take(Taken{MessageID: env.MessageID, Digest: digest, Mailbox: m.Mailbox,
		UID: m.UID, At: now, Disposition: DispositionName(d)})
	return d, err
}

// DispositionName is how a disposition is recorded: "processed" or
// "rejected".
func DispositionName(d mail.Disposition) string {
	if d == mail.Rejected {
		return "rejected"
	}
	return "processed"
}

// DispositionOf reads a recorded disposition back.
func DispositionOf(s string) mail.Disposition {
	if s == "rejected" {
		return mail.Rejected
	}
	return mail.Processed
}
