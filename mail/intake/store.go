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
	// KeysVersion is the version of the keys: it changes with every key
	// added or changed.
	KeysVersion() uint64
	// KeysSince returns the keys added or changed after version v and the
	// current version; ok is false when the store cannot tell (then every
	// key is read).
	KeysSince(v uint64) (keys []Key, now uint64, ok bool, err error)
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
	// RetakeMessage rewrites the disposition of a message taken before (a
	// quarantined message released and then processed).
	RetakeMessage(digest dice.Hash, disposition string) error

	// MarkInFlight marks messages (by digest) as being processed, with
	// others or one alone; InFlightMarks returns how often the judge
	// stopped while processing each, with others and alone (the marks
	// never cleared). ClearInFlight clears a message's marks; the intake
	// clears them with the message's record.
	MarkInFlight(digests []dice.Hash, alone bool, now time.Time) error
	InFlightMarks(digests []dice.Hash) (inBatch, alone []int, err error)
	ClearInFlight(digest dice.Hash) error
	// Quarantine keeps a message set aside with its raw text (the same
	// message, by digest, keeps its record: its tries add up); the others
	// read and update the records (quarantine.go).
	Quarantine(q Quarantined, raw []byte) (Quarantined, error)
	QuarantinedMessages() ([]Quarantined, error)
	QuarantinedMessage(id uint64) (Quarantined, []byte, error)
	PutQuarantined(q Quarantined) error
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

// Quarantined is a message set aside (quarantine.go). State is one of
// "held", "released", "processed", "dropped".
type Quarantined struct {
	ID          uint64
	Digest      dice.Hash
	MessageID   string
	From        string
	Subject     string
	Mailbox     string
	UID         uint32
	Size        int
	At          time.Time
	Reason      string
	Tries       int
	State       string
	Done        time.Time
	Disposition string
}
