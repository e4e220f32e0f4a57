package store

import (
	"fmt"
	"time"
)

// Key is a public key that may sign orders.
type Key struct {
	Fingerprint string    `json:"fingerprint"`
	Kind        string    `json:"kind"` // "openpgp" or "ssh"
	Public      []byte    `json:"public"`
	Address     string    `json:"address"`
	Added       time.Time `json:"added"`
}

// PutKey creates or replaces key k.Fingerprint.
func (tx *Tx) PutKey(k Key) error {
	if err := putJSON(tx.bucket(bKeys), []byte(k.Fingerprint), k); err != nil {
		return fmt.Errorf("put key %q: %w", k.Fingerprint, err)
	}
	return nil
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
