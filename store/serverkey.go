package store

import "fmt"

const kServerKey = "server-key"

// ServerKey returns the judge's private signing key (armored), or nil if
// none is stored yet. Like the dice secrets, it is never exported.
func (tx *Tx) ServerKey() ([]byte, error) {
	v := tx.bucket(bMeta).Get([]byte(kServerKey))
	if v == nil {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

// PutServerKey stores the judge's private signing key. It is written once:
// replacing it would make every signed receipt unverifiable.
func (tx *Tx) PutServerKey(key []byte) error {
	if old := tx.bucket(bMeta).Get([]byte(kServerKey)); old != nil {
		return fmt.Errorf("put server key: %w: the judge has a key already", ErrConflict)
	}
	if err := tx.bucket(bMeta).Put([]byte(kServerKey), key); err != nil {
		return fmt.Errorf("put server key: %w", err)
	}
	return nil
}
