package store

import (
	"bytes"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Receipt is the judge's answer to an incoming order mail.
type Receipt struct {
	ID        uint64    `json:"id"`         // assigned by AddReceipt
	MessageID string    `json:"message_id"` // of the incoming mail
	Game      string    `json:"game"`
	Seat      string    `json:"seat"`
	Step      uint64    `json:"step"`
	Digest    dice.Hash `json:"digest"` // of the order file
	Echo      string    `json:"echo"`   // the orders in canonical form
	Problems  []Problem `json:"problems"`
	Ready     bool      `json:"ready"`
	At        time.Time `json:"at"`
	MailID    uint64    `json:"mail_id"` // the outbox mail that carries it
}

// Problem is something wrong with one line of an order file.
type Problem struct {
	Line int    `json:"line"`
	Text string `json:"text"`
	Hint string `json:"hint"`
}

// AddReceipt stores r and returns the id it was given.
func (tx *Tx) AddReceipt(r Receipt) (uint64, error) {
	receipts := tx.bucket(bReceipts)
	id, err := receipts.NextSequence()
	if err == nil {
		r.ID = id
		err = putJSON(receipts, u64(id), r)
	}
	if err == nil {
		err = tx.bucket(bReceiptIndex).Put(append(idKey(r.MessageID), u64(id)...), nil)
	}
	if err != nil {
		return 0, fmt.Errorf("add receipt for %q: %w", r.MessageID, err)
	}
	return id, nil
}

// Receipt returns receipt id.
func (tx *Tx) Receipt(id uint64) (Receipt, error) {
	var r Receipt
	ok, err := getJSON(tx.bucket(bReceipts), u64(id), &r)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("receipt %d: %w", id, err)
	}
	return r, nil
}

// ReceiptsFor returns the receipts for the incoming mail messageID, by id.
func (tx *Tx) ReceiptsFor(messageID string) ([]Receipt, error) {
	var out []Receipt
	prefix := idKey(messageID)
	c := tx.bucket(bReceiptIndex).Cursor()
	for k, _ := c.Seek(prefix); bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		r, err := tx.Receipt(be64(k[len(prefix):]))
		if err != nil {
			return nil, fmt.Errorf("receipts for %q: %w", messageID, err)
		}
		out = append(out, r)
	}
	return out, nil
}
