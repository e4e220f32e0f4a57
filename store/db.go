package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for another process to release the
// file's lock.
const DefaultTimeout = time.Second

// DefaultHost is the host part of the Message-IDs the outbox assigns.
const DefaultHost = "umpire.invalid"

// Options tune Open. The zero value is ready to use.
type Options struct {
	// Timeout is how long to wait for the file lock; zero means DefaultTimeout.
	Timeout time.Duration
	// Host is the host part of assigned Message-IDs; empty means DefaultHost.
	Host string
	// Due says when a game next has work for the scheduler; with it the
	// store keeps the due-time index (due.go), without it the index is
	// marked stale by the first write to a game.
	Due DueFunc

	// migrations replaces the registered migrations; tests use it.
	migrations []migration
}

// DB is an open store file.
type DB struct {
	// bolt is the open file; Compact swaps it for its compacted copy
	// while the store stays in use.
	bolt     atomic.Pointer[bbolt.DB]
	opts     Options
	path     string
	host     string
	instance []byte
	version  uint64
	due      atomic.Pointer[DueFunc]
}

// Tx is a transaction of the store, valid only inside the function given to
// Update or View. Its write methods fail inside View.
type Tx struct {
	tx *bbolt.Tx
	db *DB
	// dirty holds the games whose due time this transaction may have
	// changed (due.go).
	dirty map[string]struct{}
	// records is the chunk of pruned mails' records read last
	// (mailrecords.go).
	records *recordChunk
}

// Open opens the store file at path, creating it if it does not exist, and
// brings its schema up to the current version. It fails with ErrInUse if
// another process holds the file, ErrNotStore if the file is not an umpire
// store and ErrNewerSchema if a newer umpire wrote it.
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Host == "" {
		opts.Host = DefaultHost
	}
	if opts.migrations == nil {
		opts.migrations = migrations()
	}
	b, err := openBolt(path, opts)
	if err != nil {
		return nil, err
	}
	db := &DB{opts: opts, path: path, host: opts.Host}
	db.bolt.Store(b)
	if err := b.Update(func(tx *bbolt.Tx) error { return db.prepare(tx, opts.migrations) }); err != nil {
		_ = b.Close()
		return nil, err
	}
	if opts.Due != nil {
		if err := db.UseDue(context.Background(), opts.Due); err != nil {
			_ = b.Close()
			return nil, err
		}
	}
	return db, nil
}

// openBolt opens the bbolt file at path with the store's options.
func openBolt(path string, opts Options) (*bbolt.DB, error) {
	b, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout: opts.Timeout,
		// Address space reserved up front, so that a growing file is not
		// remapped in the middle of a burst of commits.
		InitialMmapSize: 64 << 20,
		// The free list is written with every commit, so that opening
		// the file reads it instead of every page of the file (at 100,000
		// games, seconds and the whole file resident: BenchmarkDueGames).
		// A file written without it (an older umpire) has its list
		// rebuilt once when opened. Free pages are taken lowest first
		// (the array free list): the map free list takes any run, and at
		// a league's scale split the free runs until the file grew by
		// 80 MB a day with a quarter of it free (docs/operations.md).
		FreelistType: bbolt.FreelistArrayType,
	})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("store %s is %w", path, ErrInUse)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return nil, fmt.Errorf("store %s: %w: %w", path, ErrNotStore, err)
	case err != nil:
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return b, nil
}

// errSwapped: a transaction began on the file Compact has just swapped
// for its copy; it is begun again on the copy.
var errSwapped = errors.New("the store's file was swapped for its compacted copy")

// update runs fn in a bbolt read-write transaction of the store's file.
// Compact swaps the file while it holds the old file's write lock, so a
// writer that gets that lock afterwards finds the file swapped and begins
// again on the copy: no commit goes to the old file after the swap.
func (db *DB) update(fn func(*bbolt.Tx) error) error { return db.onFile(true, fn) }

// view runs fn in a bbolt read transaction of the store's file, begun
// again on the copy when Compact swapped the file before it began.
func (db *DB) view(fn func(*bbolt.Tx) error) error { return db.onFile(false, fn) }

func (db *DB) onFile(writable bool, fn func(*bbolt.Tx) error) error {
	for {
		b := db.bolt.Load()
		begin := b.View
		if writable {
			begin = b.Update
		}
		err := begin(func(tx *bbolt.Tx) error {
			if db.bolt.Load() != b {
				return errSwapped
			}
			return fn(tx)
		})
		if db.bolt.Load() != b && (errors.Is(err, errSwapped) || errors.Is(err, berrors.ErrDatabaseNotOpen)) {
			continue
		}
		return err
	}
}

// Close closes the file and releases its lock.
func (db *DB) Close() error {
	if err := db.bolt.Load().Close(); err != nil {
		return fmt.Errorf("close store %s: %w", db.path, err)
	}
	return nil
}

// Path returns the path the store was opened with.
func (db *DB) Path() string { return db.path }

// SchemaVersion returns the schema version of the open file.
func (db *DB) SchemaVersion() uint64 { return db.version }

// Update runs fn in a read-write transaction, which commits if fn returns nil
// and leaves nothing written otherwise. fn's error is returned as is. ctx is
// checked before the transaction starts.
func (db *DB) Update(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.update(func(tx *bbolt.Tx) error {
		t := &Tx{tx: tx, db: db}
		if err := fn(t); err != nil {
			return err
		}
		return t.reindex()
	})
}

// View runs fn in a read-only transaction. ctx is checked before the
// transaction starts.
func (db *DB) View(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.view(func(tx *bbolt.Tx) error { return fn(&Tx{tx: tx, db: db}) })
}

// Check runs bbolt's consistency check over the whole file and returns every
// problem it finds, joined.
func (db *DB) Check() error {
	return db.view(func(tx *bbolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return fmt.Errorf("store %s: check: %w", db.path, errors.Join(errs...))
		}
		return nil
	})
}
