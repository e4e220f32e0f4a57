package store

import (
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Checkpoint is how far the judge has read an IMAP mailbox.
type Checkpoint struct {
	Mailbox     string `json:"mailbox"`
	UIDValidity uint32 `json:"uid_validity"`
	LastUID     uint32 `json:"last_uid"`
}

// Consumed records an incoming message the judge has acted on.
type Consumed struct {
	MessageID string    `json:"message_id"` // may be empty
	Digest    dice.Hash `json:"digest"`     // SHA-256 of the raw message
	Mailbox   string    `json:"mailbox"`
	UID       uint32    `json:"uid"`
	At        time.Time `json:"at"`
	// Disposition is where the message was put ("processed" or
	// "rejected"), so that a message seen again after a crash goes to the
	// same folder.
	Disposition string `json:"disposition,omitempty"`
}

// PutCheckpoint stores the checkpoint of c.Mailbox.
func (tx *Tx) PutCheckpoint(c Checkpoint) error {
	if err := putJSON(tx.bucket(bMailboxes), []byte(c.Mailbox), c); err != nil {
		return fmt.Errorf("put checkpoint of mailbox %q: %w", c.Mailbox, err)
	}
	return nil
}

// Checkpoint returns the checkpoint of mailbox; if there is none, its
// UIDValidity and LastUID are zero.
func (tx *Tx) Checkpoint(mailbox string) (Checkpoint, error) {
	c := Checkpoint{Mailbox: mailbox}
	if _, err := getJSON(tx.bucket(bMailboxes), []byte(mailbox), &c); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint of mailbox %q: %w", mailbox, err)
	}
	return c, nil
}

// ConsumeMessage records that message c has been acted on. If a message with
// the same Message-ID or the same digest was consumed before, it writes
// nothing and reports already: the message must not be acted on again.
func (tx *Tx) ConsumeMessage(c Consumed) (already bool, err error) {
	if c.Digest.IsZero() {
		return false, fmt.Errorf("consume message %q: no digest", c.MessageID)
	}
	byDigest, byID := tx.bucket(bConsumed), tx.bucket(bMessageIDs)
	if byDigest.Get(c.Digest[:]) != nil || (c.MessageID != "" && byID.Get(idKey(c.MessageID)) != nil) {
		return true, nil
	}
	err = putJSON(byDigest, c.Digest[:], c)
	if err == nil && c.MessageID != "" {
		err = byID.Put(idKey(c.MessageID), c.Digest[:])
	}
	if err != nil {
		return false, fmt.Errorf("consume message %q: %w", c.MessageID, err)
	}
	return false, nil
}

// Consumed returns the record of the consumed message with messageID.
func (tx *Tx) Consumed(messageID string) (Consumed, error) {
	var c Consumed
	ok := false
	var err error
	if digest := tx.bucket(bMessageIDs).Get(idKey(messageID)); digest != nil {
		ok, err = getJSON(tx.bucket(bConsumed), digest, &c)
	}
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("consumed message %q: %w", messageID, err)
	}
	return c, nil
}

// ConsumedRecord returns the record of a consumed message with that digest
// or, failing that, that Message-ID; ok is false if there is none.
func (tx *Tx) ConsumedRecord(digest dice.Hash, messageID string) (c Consumed, ok bool, err error) {
	key := tx.bucket(bConsumed).Get(digest[:])
	if key == nil && messageID != "" {
		if d := tx.bucket(bMessageIDs).Get(idKey(messageID)); d != nil {
			ok, err = getJSON(tx.bucket(bConsumed), d, &c)
			return c, ok, err
		}
		return c, false, nil
	}
	if key == nil {
		return c, false, nil
	}
	ok, err = getJSON(tx.bucket(bConsumed), digest[:], &c)
	return c, ok, err
}
