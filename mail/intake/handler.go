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
	"github.com/umpire-pbem/umpire/mail/signature"
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
	// RepliesPerHour is how many answers one sender (a verified key, or
	// the address of unsigned mail) gets in an hour; reports,
	// announcements and receipts for accepted orders always go. Zero
	// means DefaultRepliesPerHour.
	RepliesPerHour int
	Now            func() time.Time // default time.Now
	Logger         *slog.Logger     // default: discard
	// Poke, if set, is called after a commit that queued mail: it wakes
	// the outbox.
	Poke func()
	// Taken, if set, is told of each message newly taken, after its
	// commit: how it was read (env) and where it was filed (the daemon's
	// metrics).
	Taken func(env *adjudicator.Envelope, d mail.Disposition)
	// Wake, if set, is called after a commit that acted on a new message:
	// it wakes the games' clocks, which a start, a resume or an extension
	// changed.
	Wake func()
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
	replies int
	poke    func()
	taken   func(env *adjudicator.Envelope, d mail.Disposition)
	wake    func()
}

// New returns the Handler cfg describes.
func New(cfg Config) *Handler {
	h := &Handler{db: cfg.Store, intake: cfg.Intake, address: cfg.Address, from: cfg.From, limits: cfg.Limits,
		now: cfg.Now, log: cfg.Logger, replies: cfg.RepliesPerHour, poke: cfg.Poke, taken: cfg.Taken, wake: cfg.Wake}
	if h.replies <= 0 {
		h.replies = DefaultRepliesPerHour
	}
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
	updates := make([][]keyUpdate, len(ms))
	digests := make([]dice.Hash, len(ms))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				digests[i] = dice.Hash(sha256.Sum256(ms[i].Raw))
				envs[i], updates[i] = h.envelope(ms[i], keys, now)
			}
		}()
	}
	for i := range ms {
		work <- i
	}
	close(work)
	wg.Wait()
	// A key's update (a renewal, a revocation) holds at once: the
	// messages after it in the batch are read again with it.
	var updated *signature.Keyring
	for i := range ms {
		if updated != nil {
			envs[i], updates[i] = h.envelope(ms[i], either{updated, keys}, now)
		}
		for _, u := range updates[i] {
			if updated == nil {
				updated = &signature.Keyring{}
			}
			if err := updated.Add(u.Merged); err != nil {
				h.log.WarnContext(ctx, "updated key refused", "fingerprint", u.Fingerprint, "err", err)
			}
		}
	}

	ds := make([]mail.Disposition, len(ms))
	fresh := make([]bool, len(ms))
	queued, acted := false, false
	err = h.db.Update(ctx, func(tx Tx) error {
		queued, acted = false, false
		for i, m := range ms {
			d, isNew, err := h.commit(ctx, tx, m, envs[i], updates[i], digests[i], now, &queued, &acted)
			if err != nil {
				return fmt.Errorf("message uid %d: %w", m.UID, err)
			}
			ds[i], fresh[i] = d, isNew
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	if queued && h.poke != nil {
		h.poke()
	}
	if acted && h.wake != nil {
		h.wake()
	}
	if h.taken != nil {
		for i := range ms {
			if fresh[i] {
				h.taken(envs[i], ds[i])
			}
		}
	}
	return ds, nil
}

// commit writes one message's decision: the checkpoint, and either the
// disposition recorded when it was taken before, or intake's effects and
// the record that it was taken (isNew).
func (h *Handler) commit(ctx context.Context, tx Tx, m mail.Message, env *adjudicator.Envelope, updates []keyUpdate, digest dice.Hash, now time.Time, queued, acted *bool) (d mail.Disposition, isNew bool, err error) {
	cp, err := tx.Checkpoint(m.Mailbox)
	if err != nil {
		return 0, false, err
	}
	if cp.UIDValidity != m.UIDValidity || m.UID > cp.LastUID {
		if err := tx.PutCheckpoint(Checkpoint{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}); err != nil {
			return 0, false, err
		}
	}
	if rec, ok, err := tx.Taken(digest, env.MessageID); err != nil || ok {
		// Taken before (a crash between commit and move, or the same mail
		// delivered twice): same folder, no effects again.
		return DispositionOf(rec.Disposition), false, err
	}
	if err := h.updateKeys(ctx, tx, updates, now); err != nil {
		return 0, false, err
	}
	jt := &limitedTx{Tx: tx.Judge(h.from, now), counts: tx, max: h.replies, now: now, log: h.log, queued: queued}
	outcome, err := h.intake.Handle(ctx, jt, env)
	if err != nil {
		return 0, false, err
	}
	*acted = *acted || env.Signed != nil
	d = mail.Processed
	if outcome == adjudicator.Refused {
		d = mail.Rejected
	}
	err = tx.Take(Taken{MessageID: env.MessageID, Digest: digest, Mailbox: m.Mailbox,
		UID: m.UID, At: now, Disposition: DispositionName(d)})
	return d, true, err
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

// updateKeys merges the updates of known keys a message brought into the
// stored keys, each from the copy stored now: an update taken from an
// earlier message of the batch is kept.
func (h *Handler) updateKeys(ctx context.Context, tx Tx, updates []keyUpdate, now time.Time) error {
	if len(updates) == 0 {
		return nil
	}
	keys, err := tx.Keys()
	if err != nil {
		return err
	}
	for _, u := range updates {
		for _, k := range keys {
			if k.Fingerprint != u.Fingerprint {
				continue
			}
			old, err := signature.ParseKey(k.Public)
			if err != nil {
				return fmt.Errorf("stored key %s: %w", k.Fingerprint, err)
			}
			merged, changed, err := signature.MergeKey(old, u.Raw, now)
			if err != nil || changed == "" {
				continue // the update is in the store already
			}
			if err := tx.UpdateKey(k.Fingerprint, merged.Public); err != nil {
				return err
			}
			h.log.InfoContext(ctx, "key updated", "fingerprint", k.Fingerprint, "change", changed)
		}
	}
	return nil
}
