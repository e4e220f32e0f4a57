package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Backup writes a consistent copy of the whole store to w while the store
// stays in use: one read transaction's view, which later commits do not
// change. It returns the bytes written.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := db.bolt.View(func(tx *bbolt.Tx) (err error) {
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("back up store %s: %w", db.path, err)
	}
	return n, nil
}

// BackupFile writes a consistent copy of the store to path, through a
// temporary file beside it that is synced and then renamed, so that path
// holds either a whole copy or what it held before.
func (db *DB) BackupFile(ctx context.Context, path string) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("back up store: %w", err)
	}
	defer os.Remove(tmp.Name())
	n, err := db.Backup(ctx, tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		return 0, fmt.Errorf("back up store to %s: %w", path, err)
	}
	return n, nil
}

// CompactResult says what Compact did.
type CompactResult struct {
	Before, After int64  // file sizes in bytes
	Kept          string // the file as it was before, kept beside it
}

// Compact rewrites the store at path without its free pages, with bbolt's
// compaction, and swaps the copy in: it holds the store's lock throughout
// (no judge may run on it), writes the copy beside it, syncs it, opens it
// and runs the consistency check on it, keeps the old file as
// path+".pre-compact", and renames the copy over path. A failure at any
// point leaves path as it was.
func Compact(path string, opts Options) (CompactResult, error) {
	var res CompactResult
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	src, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: opts.Timeout, FreelistType: bbolt.FreelistMapType, NoFreelistSync: true})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return res, fmt.Errorf("store %s is %w", path, ErrInUse)
	case err != nil:
		return res, fmt.Errorf("compact store %s: %w", path, err)
	}
	defer src.Close()
	if err := src.View(func(tx *bbolt.Tx) error {
		if tx.Bucket([]byte(bMeta)) == nil {
			return fmt.Errorf("store %s: %w", path, ErrNotStore)
		}
		res.Before = tx.Size()
		return nil
	}); err != nil {
		return res, err
	}
	next := path + ".compact"
	_ = os.Remove(next)
	fail := func(err error) (CompactResult, error) {
		_ = os.Remove(next)
		return res, fmt.Errorf("compact store %s: %w", path, err)
	}
	dst, err := bbolt.Open(next, 0o600, &bbolt.Options{NoSync: true, FreelistType: bbolt.FreelistMapType, NoFreelistSync: true})
	if err != nil {
		return fail(err)
	}
	if err := bbolt.Compact(dst, src, 64<<20); err != nil {
		dst.Close()
		return fail(err)
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return fail(err)
	}
	if err := dst.Close(); err != nil {
		return fail(err)
	}
	check, err := Open(next, Options{Timeout: opts.Timeout, migrations: opts.migrations})
	if err != nil {
		return fail(err)
	}
	err = check.Check()
	if cerr := check.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	fi, err := os.Stat(next)
	if err != nil {
		return fail(err)
	}
	res.After, res.Kept = fi.Size(), path+".pre-compact"
	_ = os.Remove(res.Kept)
	if err := os.Link(path, res.Kept); err != nil {
		return fail(fmt.Errorf("keep the old file: %w", err))
	}
	if err := os.Rename(next, path); err != nil {
		_ = os.Remove(res.Kept)
		return fail(err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return res, fmt.Errorf("compact store %s: %w", path, err)
	}
	return res, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Size returns the store file's size in bytes.
func (db *DB) Size() int64 {
	var n int64
	_ = db.bolt.View(func(tx *bbolt.Tx) error { n = tx.Size(); return nil })
	return n
}
