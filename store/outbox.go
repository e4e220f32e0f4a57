package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
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
	m.ID = id
	if m.State != MailHeld {
		m.State = MailQueued
	}
	if m.MessageID == "" {
		sum := sha256.Sum256(append(append([]byte("umpire-out\x00"), tx.db.instance...), u64(id)...))
		m.MessageID = fmt.Sprintf("<umpire-out-%d.%s@%s>", id, hex.EncodeToString(sum[:8]), tx.db.host)
	}
	err = putJSON(outbox, u64(id), m)
	if err == nil && m.State == MailHeld {
		var held *bbolt.Bucket
		if held, err = tx.lazyBucket(bHeld); err == nil {
			err = held.Put(u64(id), nil)
		}
	} else if err == nil {
		err = tx.bucket(bQueue).Put(u64(id), nil)
	}
	if err == nil {
		err = tx.bucket(bOutboxIDs).Put(idKey(strings.Trim(m.MessageID, "<>")), u64(id))
	}
	if err != nil {
		return 0, fmt.Errorf("enqueue mail %d: %w", id, err)
	}
	return id, nil
}

// Mail returns mail id.
func (tx *Tx) Mail(id uint64) (Mail, error) {
	var m Mail
	ok, err := getJSON(tx.bucket(bOutbox), u64(id), &m)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("mail %d: %w", id, err)
	}
	return m, nil
}

// Due returns up to limit queued mails whose NextAttempt is not after now,
// by id; limit <= 0 means all.
func (tx *Tx) Due(now time.Time, limit int) ([]Mail, error) {
	var due []Mail
	c := tx.bucket(bQueue).Cursor()
	for k, _ := c.First(); k != nil && (limit <= 0 || len(due) < limit); k, _ = c.Next() {
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
func (tx *Tx) MarkSent(id uint64, at time.Time) error {
	return tx.mark(id, func(m *Mail) { m.State, m.Sent = MailSent, at })
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
	m, err := tx.Mail(id)
	if err == nil && m.State != MailQueued {
		err = fmt.Errorf("mail %d is %s: %w", id, m.State, ErrNotQueued)
	}
	if err != nil {
		return err
	}
	m.Attempts++
	change(&m)
	err = putJSON(tx.bucket(bOutbox), u64(id), m)
	if err == nil && m.State != MailQueued {
		err = tx.bucket(bQueue).Delete(u64(id))
	}
	if err != nil {
		return fmt.Errorf("mark mail %d: %w", id, err)
	}
	return nil
}

// MailByMessageID returns the outbox mail whose Message-ID is messageID
// (with or without angle brackets).
func (tx *Tx) MailByMessageID(messageID string) (Mail, error) {
	id := tx.bucket(bOutboxIDs).Get(idKey(strings.Trim(messageID, "<>")))
	if id == nil {
		return Mail{}, fmt.Errorf("mail with Message-ID %q: %w", messageID, ErrNotFound)
	}
	return tx.Mail(binary.BigEndian.Uint64(id))
}

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
		err = putJSON(tx.bucket(bOutbox), u64(id), m)
	}
	if err == nil {
		err = tx.bucket(bQueue).Put(u64(id), nil)
	}
	if err != nil {
		return m, fmt.Errorf("release mail %d: %w", id, err)
	}
	return m, nil
}
