package store

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// MailKind says why a mail is sent: the adjudicator's kinds.
type MailKind = adjudicator.MailKind

// The kinds of mail.
const (
	MailReceipt      = adjudicator.MailReceipt
	MailReport       = adjudicator.MailReport
	MailReminder     = adjudicator.MailReminder
	MailError        = adjudicator.MailError
	MailAnnouncement = adjudicator.MailAnnouncement
	MailPress        = adjudicator.MailPress
)

// MailState is where a mail is in the outbox.
type MailState string

// The states of a mail. Only queued mails are sent.
const (
	MailQueued MailState = "queued"
	MailSent   MailState = "sent"
	MailFailed MailState = "failed"
	// MailHeld is a mail held back (the hourly reply limit): kept for the
	// operator, never sent unless released.
	MailHeld MailState = "held"
)

// Mail is a message in the outbox.
type Mail struct {
	ID          uint64    `json:"id"`         // assigned by Enqueue
	MessageID   string    `json:"message_id"` // stable across retries; assigned by Enqueue if empty
	Kind        MailKind  `json:"kind"`
	Game        string    `json:"game"`
	To          []string  `json:"to"`
	From        string    `json:"from"`
	Subject     string    `json:"subject"`
	InReplyTo   string    `json:"in_reply_to"`
	References  []string  `json:"references"`
	Body        []byte    `json:"body"` // the rendered message or its template data, opaque to the store
	State       MailState `json:"state"`
	Attempts    int       `json:"attempts"`
	NextAttempt time.Time `json:"next_attempt"` // zero means at once
	LastError   string    `json:"last_error"`
	Queued      time.Time `json:"queued"`
	Sent        time.Time `json:"sent"`
	Failed      time.Time `json:"failed"` // when it was given up
	// Lane is the queue the mail waits in: LaneAnswers or LaneReports
	// (set by Enqueue).
	Lane Lane `json:"lane,omitempty"`
	// Digest is the SHA-256 (hex) of the bytes the SMTP server accepted;
	// it stays when the body is pruned.
	Digest string `json:"digest,omitempty"`
	// Pruned is when the mail was pruned (retention.go): it has left the
	// outbox for its record, read without Body and References, which stays
	// for exactly-once and audit.
	Pruned time.Time `json:"pruned,omitzero"`
}

// Lane is one of the outbox's queues. Each is sent by its own loop over
// its own SMTP connection, so that answers never wait behind reports.
type Lane string

// The lanes.
const (
	// LaneAnswers holds what answers a message (receipts, refusals,
	// answers to commands) and the judge's errors: small text mails, sent
	// first and at once.
	LaneAnswers Lane = "answers"
	// LaneReports holds what the judge sends on its own: situation reports
	// with their maps, reminders, announcements and close notices.
	LaneReports Lane = "reports"
)

// Lanes are the lanes, in the order they are served.
var Lanes = []Lane{LaneAnswers, LaneReports}

// laneOf says which lane m waits in: an answer to a message, a receipt or
// an error goes first; everything else waits with the reports.
func laneOf(m Mail) Lane {
	if m.InReplyTo != "" || m.Kind == MailReceipt || m.Kind == MailError {
		return LaneAnswers
	}
	return LaneReports
}

// queueBucket is the bucket of lane's queue: the answers' is the queue
// every store has (and where mail queued before lanes waits), the reports'
// is made when first written.
func (tx *Tx) queueBucket(lane Lane) (*bbolt.Bucket, error) {
	if lane == LaneReports {
		return tx.lazyBucket(bQueueReports)
	}
	return tx.bucket(bQueue), nil
}

// queueValue is a queue entry's value: when the mail is next due, so that
// Due skips a mail that waits for a retry without reading it.
func queueValue(next time.Time) []byte {
	if next.IsZero() {
		return nil
	}
	return u64(uint64(next.UnixNano()))
}

// Enqueue queues m and returns the id it was given. A mail without a
// Message-ID gets "<umpire-out-ID.PART@HOST>", where PART is derived from the
// id and the store's instance id, so it never changes. A mail whose State is
// MailHeld is kept, held back, instead of queued (its LastError says why).
func (tx *Tx) Enqueue(m Mail) (uint64, error) {
	outbox := tx.bucket(bOutbox)
	id, err := outbox.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("enqueue mail: %w", err)
	}
	m.ID, m.Lane = id, laneOf(m)
	if m.State != MailHeld {
		m.State = MailQueued
	}
	given := m.MessageID != ""
	if !given {
		sum := sha256.Sum256(append(append([]byte("umpire-out\x00"), tx.db.instance...), u64(id)...))
		m.MessageID = fmt.Sprintf("<%s%d.%s@%s>", ownPrefix, id, hex.EncodeToString(sum[:8]), tx.db.host)
	}
	err = putMail(outbox, m)
	if err == nil && m.State == MailHeld {
		var held *bbolt.Bucket
		if held, err = tx.lazyBucket(bHeld); err == nil {
			err = held.Put(u64(id), nil)
		}
	} else if err == nil {
		var q *bbolt.Bucket
		if q, err = tx.queueBucket(m.Lane); err == nil {
			err = q.Put(u64(id), queueValue(m.NextAttempt))
		}
	}
	if err == nil && given {
		// A Message-ID the store assigned names its mail's id, so only a
		// given one needs the index.
		err = tx.bucket(bOutboxIDs).Put(idKey(strings.Trim(m.MessageID, "<>")), u64(id))
	}
	if err != nil {
		return 0, fmt.Errorf("enqueue mail %d: %w", id, err)
	}
	return id, nil
}

// Mail returns mail id: from the outbox, or its record once pruned (with
// no body and no References).
func (tx *Tx) Mail(id uint64) (Mail, error) {
	m, ok, err := getMail(tx.bucket(bOutbox), id)
	if err == nil && !ok {
		m, ok, err = tx.prunedMail(id)
	}
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("mail %d: %w", id, err)
	}
	return m, nil
}

// Due returns up to limit queued mails whose NextAttempt is not after now,
// of every lane, by id; limit <= 0 means all. (The outbox reads each lane
// apart, with DueLane.)
func (tx *Tx) Due(now time.Time, limit int) ([]Mail, error) {
	var due []Mail
	for _, lane := range Lanes {
		more, err := tx.DueLane(lane, now, limit)
		if err != nil {
			return nil, err
		}
		due = append(due, more...)
	}
	slices.SortFunc(due, func(a, b Mail) int { return cmp.Compare(a.ID, b.ID) })
	if limit > 0 && len(due) > limit {
		due = due[:limit]
	}
	return due, nil
}

// DueLane returns up to limit queued mails of lane whose NextAttempt is not
// after now, by id; limit <= 0 means all. A mail waiting for a retry is
// skipped without being read.
func (tx *Tx) DueLane(lane Lane, now time.Time, limit int) ([]Mail, error) {
	var due []Mail
	q, err := tx.queueBucket(lane)
	if err != nil || q == nil {
		return nil, err
	}
	c := q.Cursor()
	for k, v := c.First(); k != nil && (limit <= 0 || len(due) < limit); k, v = c.Next() {
		if len(v) == 8 && time.Unix(0, int64(be64(v))).After(now) {
			continue
		}
		m, err := tx.Mail(be64(k))
		if err != nil {
			return nil, fmt.Errorf("due mail: %w", err)
		}
		if !m.NextAttempt.After(now) {
			due = append(due, m)
		}
	}
	return due, nil
}

// MarkSent records that queued mail id was sent at at; it is not due again.
func (tx *Tx) MarkSent(id uint64, at time.Time) error { return tx.MarkSentDigest(id, at, "") }

// MarkSentDigest is MarkSent recording also the SHA-256 of the bytes sent,
// which stays when the body is pruned.
func (tx *Tx) MarkSentDigest(id uint64, at time.Time, digest string) error {
	return tx.mark(id, func(m *Mail) { m.State, m.Sent, m.Digest = MailSent, at, digest })
}

// MarkRetry records a failed attempt to send queued mail id, which stays
// queued until next.
func (tx *Tx) MarkRetry(id uint64, errText string, next time.Time) error {
	return tx.mark(id, func(m *Mail) { m.LastError, m.NextAttempt = errText, next })
}

// MarkFailed records a last failed attempt to send queued mail id at at; it
// is given up and not due again.
func (tx *Tx) MarkFailed(id uint64, errText string, at time.Time) error {
	return tx.mark(id, func(m *Mail) { m.State, m.LastError, m.Failed = MailFailed, errText, at })
}

// mark counts an attempt to send queued mail id and applies change to it.
func (tx *Tx) mark(id uint64, change func(*Mail)) error {
	// The record as kept: its body stays compressed as it is.
	rec, ok, err := getRecord(tx.bucket(bOutbox), id)
	if err == nil && !ok {
		var pruned Mail
		if pruned, ok, err = tx.prunedMail(id); err == nil && ok {
			err = fmt.Errorf("mail %d is %s: %w", id, pruned.State, ErrNotQueued)
		} else if err == nil {
			err = fmt.Errorf("mail %d: %w", id, ErrNotFound)
		}
	}
	m := &rec.Mail
	if err == nil && m.State != MailQueued {
		err = fmt.Errorf("mail %d is %s: %w", id, m.State, ErrNotQueued)
	}
	if err != nil {
		return err
	}
	m.Attempts++
	change(m)
	err = putJSON(tx.bucket(bOutbox), u64(id), rec)
	var q *bbolt.Bucket
	if err == nil {
		q, err = tx.queueBucket(m.Lane)
	}
	if err == nil && q.Get(u64(id)) == nil {
		q, err = tx.bucket(bQueue), nil // queued before lanes
	}
	switch {
	case err != nil:
	case m.State == MailQueued:
		err = q.Put(u64(id), queueValue(m.NextAttempt))
	default:
		if err = q.Delete(u64(id)); err == nil {
			err = tx.indexDone(*m)
		}
	}
	if err != nil {
		return fmt.Errorf("mark mail %d: %w", id, err)
	}
	return nil
}

// MailByMessageID returns the outbox mail whose Message-ID is messageID
// (with or without angle brackets).
func (tx *Tx) MailByMessageID(messageID string) (Mail, error) {
	want := strings.Trim(messageID, "<>")
	if id := tx.bucket(bOutboxIDs).Get(idKey(want)); id != nil {
		return tx.Mail(binary.BigEndian.Uint64(id))
	}
	// "<umpire-out-ID.PART@HOST>": the mail is ID if its Message-ID is
	// this one.
	if rest, ok := strings.CutPrefix(want, ownPrefix); ok {
		digits, _, _ := strings.Cut(rest, ".")
		if id, err := strconv.ParseUint(digits, 10, 64); err == nil {
			m, err := tx.Mail(id)
			if err == nil && strings.Trim(m.MessageID, "<>") == want {
				return m, nil
			}
			if err != nil && !errors.Is(err, ErrNotFound) {
				return Mail{}, err
			}
		}
	}
	return Mail{}, fmt.Errorf("mail with Message-ID %q: %w", messageID, ErrNotFound)
}

// ownPrefix begins the Message-IDs the store assigns.
const ownPrefix = "umpire-out-"

// Held returns the mails held back, oldest first.
func (tx *Tx) Held() ([]Mail, error) {
	held, err := tx.lazyBucket(bHeld)
	if err != nil || held == nil {
		return nil, err
	}
	var out []Mail
	c := held.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		m, err := tx.Mail(be64(k))
		if err != nil {
			return nil, fmt.Errorf("held mail: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}

// Release queues held mail id to be sent now, with its Message-ID and
// content as they were held.
func (tx *Tx) Release(id uint64) (Mail, error) {
	m, err := tx.Mail(id)
	if err == nil && m.State != MailHeld {
		err = fmt.Errorf("mail %d is %s, not held: %w", id, m.State, ErrConflict)
	}
	if err != nil {
		return m, err
	}
	m.State, m.NextAttempt = MailQueued, time.Time{}
	held, err := tx.lazyBucket(bHeld)
	if err == nil {
		err = held.Delete(u64(id))
	}
	if err == nil {
		err = putMail(tx.bucket(bOutbox), m)
	}
	var q *bbolt.Bucket
	if err == nil {
		q, err = tx.queueBucket(m.Lane)
	}
	if err == nil {
		err = q.Put(u64(id), nil)
	}
	if err != nil {
		return m, fmt.Errorf("release mail %d: %w", id, err)
	}
	return m, nil
}
