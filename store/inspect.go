package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Inspection is what Inspect read of a store file.
type Inspection struct {
	// Schema is the file's schema version, and Current the version this
	// umpire writes: a file with Schema < Current is migrated when it is
	// next opened, one with Schema > Current is refused.
	Schema, Current uint64
	// ServerKey is the judge's private signing key (armored), nil when the
	// judge has made none yet.
	ServerKey []byte
}

// Inspect reads the store file at path without changing it or making it:
// it opens the file read-only, sharing its lock with other readers. It
// fails with ErrInUse while a judge has the file open (after timeout,
// DefaultTimeout when zero), ErrNotStore when it is no umpire store, and
// with the file system's error (fs.ErrNotExist, fs.ErrPermission) when
// the file cannot be read.
func Inspect(path string, timeout time.Duration) (Inspection, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	in := Inspection{Current: uint64(len(migrations())) + 1}
	b, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return in, fmt.Errorf("store %s is %w", path, ErrInUse)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return in, fmt.Errorf("store %s: %w: %w", path, ErrNotStore, err)
	case err != nil:
		return in, fmt.Errorf("open store %s: %w", path, err)
	}
	defer b.Close()
	err = b.View(func(tx *bbolt.Tx) error {
		meta := tx.Bucket([]byte(bMeta))
		if meta == nil {
			return fmt.Errorf("store %s: %w: no %q bucket", path, ErrNotStore, bMeta)
		}
		if v := meta.Get([]byte(kSchema)); len(v) == 8 {
			in.Schema = binary.BigEndian.Uint64(v)
		}
		if in.Schema == 0 {
			return fmt.Errorf("store %s: %w: no schema version", path, ErrNotStore)
		}
		if k := meta.Get([]byte(kServerKey)); k != nil {
			in.ServerKey = append([]byte(nil), k...)
		}
		return nil
	})
	return in, err
}
