package store

import (
	"crypto/sha256"
	"fmt"
	"time"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Records that guard the judge against replayed and abusive mail. Their
// buckets are made the first time they are written, so stores written
// before them need no migration.
const (
	bCommands = "commands"     // commands/<digest>: Command
	bReplies  = "reply-limits" // reply-limits/<sha256(who)>: Replies
	bHeld     = "held"         // held/<id>: present while outbox mail id is held back
)

// lazyBucket returns the top-level bucket name. A writable transaction
// creates it when missing; a read-only one returns nil, which holds
// nothing.
func (tx *Tx) lazyBucket(name string) (*bbolt.Bucket, error) {
	if b := tx.bucket(name); b != nil || !tx.tx.Writable() {
		return b, nil
	}
	return tx.tx.CreateBucket([]byte(name))
}

// Command is a signed command the judge carried out, by its key and the
// SHA-256 of its signed bytes.
type Command struct {
	Digest  dice.Hash `json:"digest"`
	Game    string    `json:"game,omitempty"`
	Command string    `json:"command"`
	Key     string    `json:"key"`
	At      time.Time `json:"at"`
}

// commandKey is the key of a command's record: one key's signature over
// the same bytes is one command; another key's is another.
func commandKey(key string, d dice.Hash) []byte {
	sum := sha256.Sum256(append(append([]byte(key), 0), d[:]...))
	return sum[:]
}

// PutCommand records a carried-out command. A key's digest is recorded
// once: a second record for it is ErrConflict.
func (tx *Tx) PutCommand(c Command) error {
	b, err := tx.lazyBucket(bCommands)
	k := commandKey(c.Key, c.Digest)
	if err == nil && b.Get(k) != nil {
		err = fmt.Errorf("%w: recorded before", ErrConflict)
	}
	if err == nil {
		err = putJSON(b, k, c)
	}
	if err != nil {
		return fmt.Errorf("put command %s: %w", c.Digest, err)
	}
	return nil
}

// Command returns the record of the command key signed with digest d; ok
// is false when there is none.
func (tx *Tx) Command(key string, d dice.Hash) (c Command, ok bool, err error) {
	b, err := tx.lazyBucket(bCommands)
	if err == nil {
		ok, err = getJSON(b, commandKey(key, d), &c)
	}
	if err != nil {
		return c, false, fmt.Errorf("command %s: %w", d, err)
	}
	return c, ok, nil
}

// Replies are the answers one sender (a key or an address) got in the
// last hour, for the hourly reply limit.
type Replies struct {
	Who   string      `json:"who"`
	Sends []time.Time `json:"sends"`
}

// Replies returns the answers counted against who; none if never.
func (tx *Tx) Replies(who string) ([]time.Time, error) {
	var r Replies
	b, err := tx.lazyBucket(bReplies)
	if err == nil {
		_, err = getJSON(b, idKey(who), &r)
	}
	if err != nil {
		return nil, fmt.Errorf("replies to %q: %w", who, err)
	}
	return r.Sends, nil
}

// PutReplies records the answers counted against who; an empty list
// removes the record.
func (tx *Tx) PutReplies(who string, sends []time.Time) error {
	b, err := tx.lazyBucket(bReplies)
	switch {
	case err != nil:
	case len(sends) == 0:
		err = b.Delete(idKey(who))
	default:
		err = putJSON(b, idKey(who), Replies{Who: who, Sends: sends})
	}
	if err != nil {
		return fmt.Errorf("put replies to %q: %w", who, err)
	}
	return nil
}
