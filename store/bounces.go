package store

import (
	"fmt"
	"time"
)

// Bounce is a delivery status notification about a mail the judge sent.
type Bounce struct {
	Seq               uint64    `json:"seq"` // assigned by AddBounce
	OriginalMessageID string    `json:"original_message_id"`
	MailID            uint64    `json:"mail_id,omitempty"` // the outbox mail, when it is known
	Recipient         string    `json:"recipient"`
	Action            string    `json:"action"`
	Status            string    `json:"status"`
	Diagnostic        string    `json:"diagnostic"`
	At                time.Time `json:"at"`
}

// AddBounce records b against the outbox mail it names, if the store has it.
func (tx *Tx) AddBounce(b Bounce) (Bounce, error) {
	if m, err := tx.MailByMessageID(b.OriginalMessageID); err == nil {
		b.MailID = m.ID
		if b.Recipient == "" && len(m.To) == 1 {
			b.Recipient = m.To[0]
		}
	}
	bk := tx.bucket(bBounces)
	seq, err := bk.NextSequence()
	if err == nil {
		b.Seq = seq
		err = putJSON(bk, u64(seq), b)
	}
	if err != nil {
		return b, fmt.Errorf("add bounce for %q: %w", b.OriginalMessageID, err)
	}
	return b, nil
}

// Bounces returns every recorded bounce, oldest first.
func (tx *Tx) Bounces() ([]Bounce, error) {
	out, err := list[Bounce](tx.bucket(bBounces), nil)
	if err != nil {
		return nil, fmt.Errorf("bounces: %w", err)
	}
	return out, nil
}
