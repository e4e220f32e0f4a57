package store

import (
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Messages the judge could not process, set aside for the operator, and
// the marks that count the crashes a message was being processed at
// (docs/operations.md, "Quarantined mail"). The buckets are made the first
// time they are written.
const (
	bQuarantine        = "quarantine"         // quarantine/<id>: Quarantined
	bQuarantineRaw     = "quarantine-raw"     // quarantine-raw/<id>: the raw message, compressed
	bQuarantineDigests = "quarantine-digests" // quarantine-digests/<digest>: id
	bInFlight          = "intake-inflight"    // intake-inflight/<digest>: InFlight
)

// The states of a quarantined message.
const (
	// QuarantineHeld: set aside, waiting for the operator.
	QuarantineHeld = "held"
	// QuarantineReleased: the operator released it; the judge processes it
	// again, within its budgets, at its next chance.
	QuarantineReleased = "released"
	// QuarantineProcessed: released and then processed.
	QuarantineProcessed = "processed"
	// QuarantineDropped: the operator dropped it; its record stays, its
	// text is gone from the store (the mailbox's copy stays in its folder).
	QuarantineDropped = "dropped"
)

// Quarantined is a message set aside: what the judge could not process,
// with why, kept until the operator releases or drops it.
type Quarantined struct {
	ID        uint64    `json:"id"`
	Digest    dice.Hash `json:"digest"` // SHA-256 of the raw message
	MessageID string    `json:"message_id,omitempty"`
	From      string    `json:"from,omitempty"`
	Subject   string    `json:"subject,omitempty"`
	Mailbox   string    `json:"mailbox,omitempty"`
	UID       uint32    `json:"uid,omitempty"`
	Size      int       `json:"size"`
	At        time.Time `json:"at"` // when it was set aside (last)
	Reason    string    `json:"reason"`
	// Tries is how often the judge tried to process it: at intake, and
	// once after each release.
	Tries int    `json:"tries"`
	State string `json:"state"`
	// Done is when a released message was processed, or the message
	// dropped; Disposition where a processed one went.
	Done        time.Time `json:"done,omitzero"`
	Disposition string    `json:"disposition,omitempty"`
}

// Quarantine sets a message aside with its raw text: a new record, or the
// record of the same message (by digest) set aside again, with its tries
// counted and the new reason. It returns the record.
func (tx *Tx) Quarantine(q Quarantined, raw []byte) (Quarantined, error) {
	records, err := tx.lazyBucket(bQuarantine)
	if err != nil {
		return q, fmt.Errorf("quarantine: %w", err)
	}
	digests, err := tx.lazyBucket(bQuarantineDigests)
	if err != nil {
		return q, fmt.Errorf("quarantine: %w", err)
	}
	raws, err := tx.lazyBucket(bQuarantineRaw)
	if err != nil {
		return q, fmt.Errorf("quarantine: %w", err)
	}
	if id := digests.Get(q.Digest[:]); id != nil {
		var old Quarantined
		if _, err := getJSON(records, id, &old); err != nil {
			return q, fmt.Errorf("quarantine: %w", err)
		}
		q.ID, q.Tries = old.ID, old.Tries+q.Tries
		for _, f := range []struct{ now, was *string }{{&q.MessageID, &old.MessageID}, {&q.From, &old.From},
			{&q.Subject, &old.Subject}, {&q.Mailbox, &old.Mailbox}} {
			if *f.now == "" {
				*f.now = *f.was
			}
		}
		if q.UID == 0 {
			q.UID = old.UID
		}
	} else {
		if q.ID, err = records.NextSequence(); err != nil {
			return q, fmt.Errorf("quarantine: %w", err)
		}
		if err := digests.Put(q.Digest[:], u64(q.ID)); err != nil {
			return q, fmt.Errorf("quarantine: %w", err)
		}
	}
	q.State, q.Size = QuarantineHeld, len(raw)
	if err := putJSON(records, u64(q.ID), q); err != nil {
		return q, fmt.Errorf("quarantine %d: %w", q.ID, err)
	}
	z, _ := deflate(nil, raw)
	if err := raws.Put(u64(q.ID), z); err != nil {
		return q, fmt.Errorf("quarantine %d: %w", q.ID, err)
	}
	return q, nil
}

// QuarantinedMessages lists every message set aside, in the order they
// first were.
func (tx *Tx) QuarantinedMessages() ([]Quarantined, error) {
	b, err := tx.lazyBucket(bQuarantine)
	if err != nil || b == nil {
		return nil, err
	}
	return list[Quarantined](b, nil)
}

// QuarantinedMessage returns quarantined message id and its raw text (nil
// once dropped).
func (tx *Tx) QuarantinedMessage(id uint64) (Quarantined, []byte, error) {
	var q Quarantined
	b, err := tx.lazyBucket(bQuarantine)
	ok := false
	if err == nil && b != nil {
		ok, err = getJSON(b, u64(id), &q)
	}
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return q, nil, fmt.Errorf("quarantined message %d: %w", id, err)
	}
	var raw []byte
	if rb := tx.bucket(bQuarantineRaw); rb != nil {
		if z := rb.Get(u64(id)); z != nil {
			if raw, err = inflate(z); err != nil {
				return q, nil, fmt.Errorf("quarantined message %d: %w", id, err)
			}
		}
	}
	return q, raw, nil
}

// PutQuarantined replaces the record of a quarantined message (its state,
// tries and reason), keeping its text unless it is dropped.
func (tx *Tx) PutQuarantined(q Quarantined) error {
	b, err := tx.lazyBucket(bQuarantine)
	if err == nil && (b == nil || b.Get(u64(q.ID)) == nil) {
		err = ErrNotFound
	}
	if err == nil {
		err = putJSON(b, u64(q.ID), q)
	}
	if err == nil && q.State == QuarantineDropped {
		if rb := tx.bucket(bQuarantineRaw); rb != nil {
			err = rb.Delete(u64(q.ID))
		}
	}
	if err != nil {
		return fmt.Errorf("put quarantined message %d: %w", q.ID, err)
	}
	return nil
}

// InFlight is the mark of a message the judge began to process: it is
// cleared in the transaction that records the message taken, so a mark
// found later means the judge stopped while processing it. Batch counts
// the stops while it was processed with other messages, Alone those while
// it was processed alone.
type InFlight struct {
	Batch int       `json:"batch,omitempty"`
	Alone int       `json:"alone,omitempty"`
	First time.Time `json:"first"`
}

// MarkInFlight marks messages (by digest) as being processed from now,
// together (alone false) or one alone.
func (tx *Tx) MarkInFlight(digests []dice.Hash, alone bool, now time.Time) error {
	b, err := tx.lazyBucket(bInFlight)
	if err != nil {
		return fmt.Errorf("mark in flight: %w", err)
	}
	for _, d := range digests {
		f := InFlight{First: now}
		if _, err := getJSON(b, d[:], &f); err != nil {
			return fmt.Errorf("mark in flight: %w", err)
		}
		if alone {
			f.Alone++
		} else {
			f.Batch++
		}
		if err := putJSON(b, d[:], f); err != nil {
			return fmt.Errorf("mark in flight: %w", err)
		}
	}
	return nil
}

// InFlightMarks returns, for each message (by digest), how often the judge
// stopped while processing it with others (inBatch) and alone (alone):
// the marks never cleared.
func (tx *Tx) InFlightMarks(digests []dice.Hash) (inBatch, alone []int, err error) {
	inBatch, alone = make([]int, len(digests)), make([]int, len(digests))
	b := tx.bucket(bInFlight)
	if b == nil {
		return inBatch, alone, nil
	}
	for i, d := range digests {
		var f InFlight
		if _, err := getJSON(b, d[:], &f); err != nil {
			return nil, nil, fmt.Errorf("in flight: %w", err)
		}
		inBatch[i], alone[i] = f.Batch, f.Alone
	}
	return inBatch, alone, nil
}

// ClearInFlight removes the mark of a message whose processing ended.
func (tx *Tx) ClearInFlight(d dice.Hash) error {
	b := tx.bucket(bInFlight)
	if b == nil || !tx.tx.Writable() {
		return nil
	}
	if err := b.Delete(d[:]); err != nil {
		return fmt.Errorf("clear in flight: %w", err)
	}
	return nil
}

// RetakeMessage rewrites the disposition of a consumed message (a
// quarantined message the operator released and the judge then
// processed).
func (tx *Tx) RetakeMessage(d dice.Hash, disposition string) error {
	b := tx.bucket(bConsumed)
	var c Consumed
	ok, err := getJSON(b, d[:], &c)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err == nil {
		c.Disposition = disposition
		err = putJSON(b, d[:], c)
	}
	if err != nil {
		return fmt.Errorf("retake message %s: %w", d, err)
	}
	return nil
}
