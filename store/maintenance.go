package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole store to w while the store
// stays in use: one read transaction's view, which later commits do not
// change. It returns the bytes written.
func (db *DB) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := db.view(func(tx *bbolt.Tx) (err error) {
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

// Compact rewrites the store at path, which no judge may hold, without its
// free pages: Open, then DB.Compact.
func Compact(path string, opts Options) (CompactResult, error) {
	db, err := Open(path, opts)
	if err != nil {
		return CompactResult{}, err
	}
	res, err := db.Compact(context.Background())
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// errCompacted ends the write transaction Compact holds; nothing was
// written in it.
var errCompacted = errors.New("compacted")

// Compact rewrites the open store without its free pages, with bbolt's
// compaction, and swaps the copy in while the store stays in use. It
// holds the file's write lock throughout, so reads go on and writes wait
// (about 5 seconds for every GB kept: BenchmarkCompact). The copy is
// written beside the file, synced, opened (which takes the copy's file
// lock before its name changes) and checked; the old file is kept as
// path+".pre-compact" and the copy renamed over path. Transactions begun after the swap run on the
// copy, those begun before it end on the old file, which is then closed.
// A failure at any point leaves the store as it was, open and in use.
func (db *DB) Compact(ctx context.Context) (CompactResult, error) {
	res := CompactResult{Kept: db.path + ".pre-compact"}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	next := db.path + ".compact"
	old := db.bolt.Load()
	err := old.Update(func(tx *bbolt.Tx) error {
		if db.bolt.Load() != old {
			return fmt.Errorf("compacted meanwhile by another call")
		}
		res.Before = tx.Size()
		nb, err := db.compactTo(next)
		if err != nil {
			_ = os.Remove(next)
			return err
		}
		if err := nb.View(func(tx *bbolt.Tx) error { res.After = tx.Size(); return nil }); err != nil {
			_ = nb.Close()
			_ = os.Remove(next)
			return err
		}
		_ = os.Remove(res.Kept)
		if err := os.Link(db.path, res.Kept); err != nil {
			_ = nb.Close()
			_ = os.Remove(next)
			return fmt.Errorf("keep the old file: %w", err)
		}
		if err := os.Rename(next, db.path); err != nil {
			_ = nb.Close()
			_ = os.Remove(next)
			_ = os.Remove(res.Kept)
			return err
		}
		db.bolt.Store(nb)
		return errCompacted
	})
	if !errors.Is(err, errCompacted) {
		return res, fmt.Errorf("compact store %s: %w", db.path, err)
	}
	if err := old.Close(); err != nil {
		return res, fmt.Errorf("compact store %s: close the old file: %w", db.path, err)
	}
	if err := syncDir(filepath.Dir(db.path)); err != nil {
		return res, fmt.Errorf("compact store %s: %w", db.path, err)
	}
	return res, nil
}

// compactTo writes a compacted copy of the store's file to next, syncs it,
// and returns it opened and checked.
func (db *DB) compactTo(next string) (*bbolt.DB, error) {
	_ = os.Remove(next)
	// The copy's free list is written (bbolt's default), so that opening
	// it does not read every page.
	dst, err := bbolt.Open(next, 0o600, &bbolt.Options{NoSync: true, FreelistType: bbolt.FreelistArrayType})
	if err != nil {
		return nil, err
	}
	// bbolt.Compact reads in a transaction of its own, which sees what the
	// caller's write transaction holds still: nothing else can commit.
	if err := bbolt.Compact(dst, db.bolt.Load(), 64<<20); err != nil {
		dst.Close()
		return nil, err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return nil, err
	}
	if err := dst.Close(); err != nil {
		return nil, err
	}
	nb, err := openBolt(next, db.opts)
	if err != nil {
		return nil, err
	}
	err = nb.View(func(tx *bbolt.Tx) error {
		if tx.Bucket([]byte(bMeta)) == nil {
			return fmt.Errorf("the copy has no %s bucket", bMeta)
		}
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return fmt.Errorf("the copy fails the check: %w", errors.Join(errs...))
		}
		return nil
	})
	if err != nil {
		_ = nb.Close()
		return nil, err
	}
	return nb, nil
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
	_ = db.view(func(tx *bbolt.Tx) error { n = tx.Size(); return nil })
	return n
}
