package intake

import (
	"context"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Store is the storage the intake commits to. Each Update is one
// transaction: on disk whole or not at all.
type Store interface {
	View(ctx context.Context, fn func(Tx) error) error
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is one store transaction as the intake sees it.
type Tx interface {
	// Checkpoint returns how far mailbox has been read; zero if never.
	Checkpoint(mailbox string) (Checkpoint, error)
	PutCheckpoint(Checkpoint) error
	// Taken returns the record of a message taken before with that digest
	// or, failing that, that Message-ID; ok is false if there is none.
	Taken(digest dice.Hash, messageID string) (t Taken, ok bool, err error)
	// Take records that a message has been acted on.
	Take(Taken) error
	// Keys returns every public key the judge knows.
	Keys() ([]Key, error)
	// Judge returns the transaction as the adjudicator sees it; the mail
	// it queues is sent From from and stamped with now.
	Judge(from string, now time.Time) adjudicator.Tx
	// Replies returns the times of the answers counted against who (a
	// key or an address) for the hourly reply limit; PutReplies replaces
	// them.
	Replies(who string) ([]time.Time, error)
	PutReplies(who string, sends []time.Time) error
	// UpdateKey replaces the material of a known key with an update merged
	// from the key's own signatures (signature.MergeKey).
	UpdateKey(fingerprint string, public []byte) error
}

// Checkpoint is how far the judge has read an IMAP mailbox.
type Checkpoint struct {
	Mailbox     string
	UIDValidity uint32
	LastUID     uint32
}

// Taken records an incoming message the judge has acted on.
type Taken struct {
	MessageID string    // may be empty
	Digest    dice.Hash // SHA-256 of the raw message
	Mailbox   string
	UID       uint32
	At        time.Time
	// Disposition is where the message was put ("processed" or
	// "rejected"), so that a message seen again after a crash goes to the
	// same folder.
	Disposition string
}

// Key is a public key the judge knows, as it was given.
type Key struct {
	Fingerprint string
	Public      []byte
}
