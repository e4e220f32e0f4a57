package intake

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
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
	// Budget bounds the reading of one message (MIME, signature); the
	// rules' work on it has the judge's own (adjudicator.Judge). Its zero
	// value is the default.
	Budget adjudicator.Budget
	// Quarantined, if set, is told of each message set aside, after its
	// commit (the daemon's metrics).
	Quarantined func(id uint64)
	// DKIM, if set, checks the DKIM signature of each message no key
	// signed, for the games that let a mail address hold a seat
	// (dkim.go); nil: such messages are unsigned.
	DKIM *DKIM
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
	keys    keyCache
	budget  adjudicator.Budget
	// quarantined is Config.Quarantined.
	quarantined func(id uint64)
	dkim        *DKIM
}

// New returns the Handler cfg describes.
func New(cfg Config) *Handler {
	h := &Handler{db: cfg.Store, intake: cfg.Intake, address: cfg.Address, from: cfg.From, limits: cfg.Limits,
		now: cfg.Now, log: cfg.Logger, replies: cfg.RepliesPerHour, poke: cfg.Poke, taken: cfg.Taken, wake: cfg.Wake,
		budget: cfg.Budget, quarantined: cfg.Quarantined, dkim: cfg.DKIM}
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

// HandleBatch implements mail.BatchHandler. The messages are first marked
// in flight in the store (quarantine.go), so that a message the judge was
// processing when it stopped is known when it comes again: once, it is
// processed alone; twice, it is set aside unread. The others are read and
// their signatures checked in parallel, each within the message budget,
// then committed in one transaction, each message's decision whole; a
// message whose work runs out of its budget is set aside and the rest
// committed without it.
func (h *Handler) HandleBatch(ctx context.Context, ms []mail.Message) ([]mail.Disposition, error) {
	digests := make([]dice.Hash, len(ms))
	for i := range ms {
		digests[i] = dice.Hash(sha256.Sum256(ms[i].Raw))
	}
	inBatch, alone, err := h.inFlight(ctx, digests)
	if err != nil {
		return nil, err
	}
	ds := make([]mail.Disposition, len(ms))
	for i := 0; i < len(ms); {
		j := i
		for j < len(ms) && inBatch[j]+alone[j] == 0 {
			j++
		}
		switch {
		case j > i:
			// a run of messages never under way at a stop: one batch
			got, err := h.runMarked(ctx, ms[i:j], digests[i:j], nil)
			if err != nil {
				return nil, err
			}
			copy(ds[i:j], got)
			i = j
			continue
		case alone[i] >= StopsToQuarantine:
			if ds[i], err = h.setAside(ctx, ms[i], digests[i], nil, stoppedTwice(alone[i]), nil); err != nil {
				return nil, err
			}
		default:
			h.log.WarnContext(ctx, "processing alone a message the judge stopped while processing", "uid", ms[i].UID,
				"stops_with_others", inBatch[i], "stops_alone", alone[i])
			got, err := h.runMarked(ctx, ms[i:i+1], digests[i:i+1], nil)
			if err != nil {
				return nil, err
			}
			ds[i] = got[0]
		}
		i++
	}
	return ds, nil
}

// run reads and commits messages: in parallel, each read within the
// message budget (a message whose reading runs out of it is set aside);
// then in one transaction, from which a message whose work runs out of its
// budget is taken out and set aside, and the transaction made again
// without it. released holds, by digest, the records of quarantined
// messages being processed again (ProcessReleased).
func (h *Handler) run(ctx context.Context, ms []mail.Message, digests []dice.Hash, released map[dice.Hash]Quarantined) ([]mail.Disposition, error) {
	now := h.now()
	keys, err := h.keyring(ctx)
	if err != nil {
		return nil, fmt.Errorf("read keys: %w", err)
	}
	envs := make([]*adjudicator.Envelope, len(ms))
	updates := make([][]keyUpdate, len(ms))
	unread := make([]error, len(ms)) // reading ran out of its budget
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				envs[i], updates[i], unread[i] = h.read(ms[i], keys, now)
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
		if updated != nil && unread[i] == nil {
			envs[i], updates[i], unread[i] = h.read(ms[i], either{updated, keys}, now)
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
	done := make([]bool, len(ms)) // set aside
	for i, err := range unread {
		if err != nil {
			if ds[i], err = h.setAside(ctx, ms[i], digests[i], nil, err.Error(), released); err != nil {
				return nil, err
			}
			done[i] = true
		}
	}
	for {
		fresh := make([]bool, len(ms))
		queued, acted := false, false
		err = h.db.Update(ctx, func(tx Tx) error {
			queued, acted = false, false
			for i, m := range ms {
				if done[i] {
					continue
				}
				d, isNew, err := h.commit(ctx, tx, m, envs[i], updates[i], digests[i], released, now, &queued, &acted)
				if err != nil {
					var p *poisoned
					if errors.As(err, &p) {
						p.index = i
						return p
					}
					return fmt.Errorf("message uid %d: %w", m.UID, err)
				}
				ds[i], fresh[i] = d, isNew
			}
			return nil
		})
		var p *poisoned
		if errors.As(err, &p) {
			// the transaction was rolled back whole: set that message
			// aside, and commit the others again
			if ds[p.index], err = h.setAside(ctx, ms[p.index], digests[p.index], envs[p.index], p.reason, released); err != nil {
				return nil, err
			}
			done[p.index] = true
			continue
		}
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
}

// commit writes one message's decision: the checkpoint, and either the
// disposition recorded when it was taken before, or intake's effects and
// the record that it was taken (isNew). Its in-flight mark goes in the same
// transaction. A *poisoned error means the message's work ran out of its
// budget (or panicked): the caller rolls the transaction back and sets the
// message aside. A released message (a quarantined one processed again) is
// taken again, its quarantine record marked processed.
func (h *Handler) commit(ctx context.Context, tx Tx, m mail.Message, env *adjudicator.Envelope, updates []keyUpdate, digest dice.Hash,
	released map[dice.Hash]Quarantined, now time.Time, queued, acted *bool) (d mail.Disposition, isNew bool, err error) {
	if err := tx.ClearInFlight(digest); err != nil {
		return 0, false, err
	}
	q, again := released[digest]
	if !again {
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
			// Taken before (a crash between commit and move, or the same
			// mail delivered twice): same folder, no effects again.
			return DispositionOf(rec.Disposition), false, err
		}
	}
	if err := h.updateKeys(ctx, tx, updates, now); err != nil {
		return 0, false, err
	}
	jt := &limitedTx{Tx: tx.Judge(h.from, now), counts: tx, max: h.replies, now: now, log: h.log, queued: queued}
	outcome, err := h.handleGuarded(ctx, jt, env)
	if err != nil {
		return 0, false, err
	}
	*acted = *acted || env.Signed != nil
	d = mail.Processed
	if outcome == adjudicator.Refused {
		d = mail.Rejected
	}
	if again {
		q.State, q.Done, q.Disposition, q.Tries = "processed", now, DispositionName(d), q.Tries+1
		if err := tx.PutQuarantined(q); err != nil {
			return 0, false, err
		}
		return d, true, tx.RetakeMessage(digest, DispositionName(d))
	}
	err = tx.Take(Taken{MessageID: env.MessageID, Digest: digest, Mailbox: m.Mailbox,
		UID: m.UID, At: now, Disposition: DispositionName(d)})
	return d, true, err
}

// handleGuarded is intake's Handle, with a panic in it or work over its
// budget made a *poisoned error.
func (h *Handler) handleGuarded(ctx context.Context, tx adjudicator.Tx, env *adjudicator.Envelope) (o adjudicator.Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			h.log.ErrorContext(ctx, "intake panicked on a message", "panic", r, "stack", string(debug.Stack()))
			err = &poisoned{reason: fmt.Sprintf("the judge failed on it (%v)", r)}
		}
	}()
	o, err = h.intake.Handle(ctx, tx, env)
	var ob *adjudicator.OverBudget
	if errors.As(err, &ob) {
		return o, &poisoned{reason: ob.Error()}
	}
	return o, err
}

// DispositionName is how a disposition is recorded: "processed",
// "rejected" or "quarantined".
func DispositionName(d mail.Disposition) string {
	switch d {
	case mail.Rejected:
		return "rejected"
	case mail.Quarantined:
		return "quarantined"
	}
	return "processed"
}

// DispositionOf reads a recorded disposition back.
func DispositionOf(s string) mail.Disposition {
	switch s {
	case "rejected":
		return mail.Rejected
	case "quarantined":
		return mail.Quarantined
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
