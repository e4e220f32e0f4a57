package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// u64 returns n as an 8-byte big-endian key, which sorts numerically.
func u64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// appendString appends s with a 4-byte length prefix, so that a key holding
// it is unambiguous whatever bytes s has.
func appendString(b []byte, s string) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}

// bucket returns the top-level bucket name, which every store has.
func (tx *Tx) bucket(name string) *bbolt.Bucket { return tx.tx.Bucket([]byte(name)) }

// putJSON stores v as JSON under key.
func putJSON(b *bbolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// getJSON decodes the record under key into v, compressed (putZJSON) or
// not, and reports whether there is one. A nil bucket holds nothing.
func getJSON(b *bbolt.Bucket, key []byte, v any) (bool, error) {
	if b == nil {
		return false, nil
	}
	data := b.Get(key)
	if data == nil {
		return false, nil
	}
	if bytes.HasPrefix(data, zMagic) {
		var err error
		if data, err = inflate(data[len(zMagic):]); err != nil {
			return true, fmt.Errorf("decode record %x: %w", key, err)
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("decode record %x: %w", key, err)
	}
	return true, nil
}

// list decodes every record whose key starts with prefix, in key order.
func list[T any](b *bbolt.Bucket, prefix []byte) ([]T, error) {
	var out []T
	if b == nil {
		return out, nil
	}
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var r T
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, fmt.Errorf("decode record %x: %w", k, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// be64 reads an 8-byte big-endian key.
func be64(k []byte) uint64 { return binary.BigEndian.Uint64(k) }

// idKey returns the key of a Message-ID: its SHA-256, as a Message-ID comes
// from a mail header and may be longer than a bbolt key.
func idKey(messageID string) []byte {
	sum := sha256.Sum256([]byte(messageID))
	return sum[:]
}
