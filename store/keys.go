package store

import (
	"encoding/binary"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// Key is a public key that may sign orders.
type Key struct {
	Fingerprint string    `json:"fingerprint"`
	Kind        string    `json:"kind"` // "openpgp" or "ssh"
	Public      []byte    `json:"public"`
	Address     string    `json:"address"`
	Added       time.Time `json:"added"`
}

// PutKey creates or replaces key k.Fingerprint. Each put raises the
// keyring's version (KeysVersion) and is logged under it, so that a reader
// that keeps the keys can catch up with KeysSince.
func (tx *Tx) PutKey(k Key) error {
	b := tx.bucket(bKeys)
	if err := putJSON(b, []byte(k.Fingerprint), k); err != nil {
		return fmt.Errorf("put key %q: %w", k.Fingerprint, err)
	}
	v, err := b.NextSequence()
	if err == nil {
		var changes *bbolt.Bucket
		if changes, err = tx.lazyBucket(bKeyChanges); err == nil {
			err = changes.Put(u64(v), []byte(k.Fingerprint))
		}
	}
	if err != nil {
		return fmt.Errorf("put key %q: version: %w", k.Fingerprint, err)
	}
	return nil
}

// KeysVersion is the keyring's version: it changes with every key put.
func (tx *Tx) KeysVersion() uint64 { return tx.bucket(bKeys).Sequence() }

// KeysSince returns the keys put after version v (each once, as stored
// now) and the current version; ok is false when the log of changes does
// not reach back to v (a store written before the log was kept), and the
// reader must read every key.
func (tx *Tx) KeysSince(v uint64) (keys []Key, now uint64, ok bool, err error) {
	now = tx.KeysVersion()
	if v == now {
		return nil, now, true, nil
	}
	if v > now {
		return nil, now, false, nil
	}
	changes := tx.bucket(bKeyChanges)
	if changes == nil {
		return nil, now, false, nil
	}
	c := changes.Cursor()
	seen := map[string]bool{}
	next := v + 1
	for k, fp := c.Seek(u64(v + 1)); k != nil; k, fp = c.Next() {
		if binary.BigEndian.Uint64(k) != next {
			return nil, now, false, nil // a gap: the log does not hold every change
		}
		next++
		if seen[string(fp)] {
			continue
		}
		seen[string(fp)] = true
		key, err := tx.Key(string(fp))
		if err != nil {
			return nil, now, false, fmt.Errorf("keys since %d: %w", v, err)
		}
		keys = append(keys, key)
	}
	if next != now+1 {
		return nil, now, false, nil
	}
	return keys, now, true, nil
}

// Key returns the key with fingerprint fp.
func (tx *Tx) Key(fp string) (Key, error) {
	var k Key
	ok, err := getJSON(tx.bucket(bKeys), []byte(fp), &k)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return k, fmt.Errorf("key %q: %w", fp, err)
	}
	return k, nil
}

// Keys returns every key, sorted by fingerprint.
func (tx *Tx) Keys() ([]Key, error) {
	keys, err := list[Key](tx.bucket(bKeys), nil)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return keys, nil
}
