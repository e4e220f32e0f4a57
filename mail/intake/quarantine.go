package intake

import (
	"context"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// No single message stops the judge (docs/operations.md, "Quarantined
// mail"). Work on a message runs within a budget of time and memory
// (adjudicator.Budget): reading it here, and what the rules do with it in
// the adjudicator. A message whose work runs out of its budget or panics
// is set aside: kept in the store with why, answered ("your message could
// not be processed; the operator has it"), moved to the quarantine folder,
// and the judge goes on with the next. A message is marked in flight in
// the store before its work begins and the mark is cleared with its
// record, so a crash mid-work (out of memory, kill -9) leaves the mark. A
// stop while many messages were under way says little about any one of
// them: each is then processed alone. A message the judge stopped while
// processing alone StopsToQuarantine times in a row is set aside unread.
// An ordinary crash therefore still ends in each message processed exactly
// once.

// StopsToQuarantine is how many times in a row the judge may stop while
// processing a message alone before the message is set aside unread.
const StopsToQuarantine = 2

func stoppedTwice(n int) string {
	return fmt.Sprintf("the judge stopped %d times in a row while processing it (a crash, a kill or a power cut), so it is not tried again", n)
}

// poisoned is the error of a message whose work ran out of its budget or
// panicked, inside a batch's transaction: the transaction is rolled back
// and the message set aside.
type poisoned struct {
	index  int
	reason string
}

func (p *poisoned) Error() string { return "message set aside: " + p.reason }

// inFlight returns how many times the judge stopped while processing
// each message (by digest) with others, and alone.
func (h *Handler) inFlight(ctx context.Context, digests []dice.Hash) (inBatch, alone []int, err error) {
	err = h.db.View(ctx, func(tx Tx) error {
		inBatch, alone, err = tx.InFlightMarks(digests)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("in flight: %w", err)
	}
	return inBatch, alone, nil
}

// runMarked marks messages in flight, just before they are processed
// together, then runs them: a stop of the judge now counts against these
// messages only. A mark is cleared with the message's record; an error
// (not a stop of the judge) clears the marks left.
func (h *Handler) runMarked(ctx context.Context, ms []mail.Message, digests []dice.Hash, released map[dice.Hash]Quarantined) ([]mail.Disposition, error) {
	err := h.db.Update(ctx, func(tx Tx) error {
		return tx.MarkInFlight(digests, len(digests) == 1, h.now())
	})
	if err != nil {
		return nil, fmt.Errorf("mark in flight: %w", err)
	}
	ds, err := h.run(ctx, ms, digests, released)
	if err != nil {
		h.clearInFlight(ctx, digests)
	}
	return ds, err
}

// clearInFlight clears the marks of messages whose work ended in an error
// (not a stop of the judge), so that trying them again counts no stop.
func (h *Handler) clearInFlight(ctx context.Context, digests []dice.Hash) {
	err := h.db.Update(ctx, func(tx Tx) error {
		for _, d := range digests {
			if err := tx.ClearInFlight(d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		h.log.WarnContext(ctx, "could not clear the in-flight marks of messages that failed", "err", err)
	}
}

// read reads m within the message budget: its envelope and key updates,
// or the *adjudicator.OverBudget error of a reading that ran out of it.
func (h *Handler) read(m mail.Message, keys signature.Keys, now time.Time) (env *adjudicator.Envelope, updates []keyUpdate, err error) {
	err = h.budget.Run("reading the message", func() { env, updates = h.envelope(m, keys, now) })
	if err != nil {
		return nil, nil, err
	}
	return env, updates, nil
}

// headerEnvelope reads only m's header (who sent it, its subject and
// Message-ID, whether it is automatic), for the answer to a message set
// aside unread; nil when even that cannot be read within the budget.
func (h *Handler) headerEnvelope(m mail.Message, now time.Time) *adjudicator.Envelope {
	m.Raw, m.Truncated = headerOf(m.Raw), true
	env, _, err := h.read(m, nil, now)
	if err != nil {
		return nil
	}
	env.TooLarge = false // it is not: only its header was read
	return env
}

// setAside quarantines m with why: in one transaction its record (with
// its raw text), the record that it was taken (to the quarantine folder,
// so that the same message delivered again is not read again), its
// in-flight mark cleared, and the answer to its sender and word to the
// operator (adjudicator.Intake.SetAside). env is the message as read, nil
// when it could not be. A released message set aside again keeps its
// record, counts a try and is not answered again.
func (h *Handler) setAside(ctx context.Context, m mail.Message, digest dice.Hash, env *adjudicator.Envelope, why string,
	released map[dice.Hash]Quarantined) (mail.Disposition, error) {
	now := h.now()
	if env == nil {
		env = h.headerEnvelope(m, now)
	}
	_, again := released[digest]
	queued := false
	var id uint64
	err := h.db.Update(ctx, func(tx Tx) error {
		queued = false
		if err := tx.ClearInFlight(digest); err != nil {
			return err
		}
		if !again {
			cp, err := tx.Checkpoint(m.Mailbox)
			if err != nil {
				return err
			}
			if cp.UIDValidity != m.UIDValidity || m.UID > cp.LastUID {
				if err := tx.PutCheckpoint(Checkpoint{Mailbox: m.Mailbox, UIDValidity: m.UIDValidity, LastUID: m.UID}); err != nil {
					return err
				}
			}
		}
		q := Quarantined{Digest: digest, Mailbox: m.Mailbox, UID: m.UID, At: now, Reason: why, Tries: 1}
		if env != nil {
			q.MessageID, q.From, q.Subject = env.MessageID, env.From, env.Subject
		}
		q, err := tx.Quarantine(q, m.Raw)
		if err != nil {
			return err
		}
		id = q.ID
		if again {
			h.log.ErrorContext(ctx, "released message set aside again", "quarantined", fmt.Sprintf("q%d", q.ID), "tries", q.Tries, "reason", why)
			return nil
		}
		messageID := ""
		if env != nil {
			messageID = env.MessageID
		}
		if err := tx.Take(Taken{MessageID: messageID, Digest: digest, Mailbox: m.Mailbox, UID: m.UID, At: now,
			Disposition: DispositionName(mail.Quarantined)}); err != nil {
			return err
		}
		if env == nil {
			h.log.ErrorContext(ctx, "message set aside; its header could not be read, so its sender is not told", "quarantined", fmt.Sprintf("q%d", q.ID), "reason", why)
			return nil
		}
		jt := &limitedTx{Tx: tx.Judge(h.from, now), counts: tx, max: h.replies, now: now, log: h.log, queued: &queued}
		return h.intake.SetAside(ctx, jt, env, q.ID, why)
	})
	if err != nil {
		return 0, fmt.Errorf("set aside message uid %d: %w", m.UID, err)
	}
	if h.quarantined != nil {
		h.quarantined(id)
	}
	if queued && h.poke != nil {
		h.poke()
	}
	return mail.Quarantined, nil
}

// Released is what became of a quarantined message the operator released.
type Released struct {
	ID          uint64
	Disposition mail.Disposition // Quarantined: set aside again
	Reason      string           // why, when set aside again
}

// ProcessReleased processes every quarantined message the operator
// released, one at a time, as if it had just arrived (within the same
// budgets, and marked in flight), and returns what became of each: taken
// (processed or rejected, and answered), or set aside again.
func (h *Handler) ProcessReleased(ctx context.Context) ([]Released, error) {
	var todo []Quarantined
	err := h.db.View(ctx, func(tx Tx) error {
		qs, err := tx.QuarantinedMessages()
		for _, q := range qs {
			if q.State == "released" {
				todo = append(todo, q)
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("released messages: %w", err)
	}
	var out []Released
	for _, q := range todo {
		var raw []byte
		if err := h.db.View(ctx, func(tx Tx) (err error) { _, raw, err = tx.QuarantinedMessage(q.ID); return err }); err != nil {
			return out, err
		}
		m := mail.Message{Mailbox: q.Mailbox, UID: q.UID, Raw: raw, Size: int64(len(raw))}
		digest := q.Digest
		_, alone, err := h.inFlight(ctx, []dice.Hash{digest})
		if err != nil {
			return out, err
		}
		released := map[dice.Hash]Quarantined{digest: q}
		var d mail.Disposition
		if alone[0] >= StopsToQuarantine {
			d, err = h.setAside(ctx, m, digest, nil, stoppedTwice(alone[0]), released)
		} else {
			var ds []mail.Disposition
			if ds, err = h.runMarked(ctx, []mail.Message{m}, []dice.Hash{digest}, released); err == nil {
				d = ds[0]
			}
		}
		if err != nil {
			return out, err
		}
		r := Released{ID: q.ID, Disposition: d}
		if d == mail.Quarantined {
			_ = h.db.View(ctx, func(tx Tx) error { nq, _, err := tx.QuarantinedMessage(q.ID); r.Reason = nq.Reason; return err })
		}
		h.log.InfoContext(ctx, "released message processed", "quarantined", fmt.Sprintf("q%d", q.ID), "disposition", DispositionName(d))
		out = append(out, r)
	}
	return out, nil
}

// headerOf returns the header block of a raw message (up to its blank
// line), or all of raw when it has none.
func headerOf(raw []byte) []byte {
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] == '\n' && (raw[i+1] == '\n' || raw[i+1] == '\r' && i+2 < len(raw) && raw[i+2] == '\n') {
			return raw[:i+1]
		}
	}
	return raw
}
