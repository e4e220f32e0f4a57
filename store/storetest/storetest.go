// Package storetest helps tests use a real store file.
package storetest

import (
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/store"
)

// MustOpen opens a new store file in tb.TempDir. When the test ends, it
// closes the store, opens the file again, fails the test if bbolt's
// consistency check finds any problem, and closes it. The test may close the
// store itself.
func MustOpen(tb testing.TB) *store.DB {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
		db, err := store.Open(path, store.Options{})
		if err != nil {
			tb.Errorf("reopen store: %v", err)
			return
		}
		if err := db.Check(); err != nil {
			tb.Error(err)
		}
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}

// MustUpdate runs fn in an Update of db and fails the test if it returns an
// error.
func MustUpdate(tb testing.TB, db *store.DB, fn func(*store.Tx) error) {
	tb.Helper()
	if err := db.Update(tb.Context(), fn); err != nil {
		tb.Fatalf("update: %v", err)
	}
}

// MustView runs fn in a View of db and fails the test if it returns an error.
func MustView(tb testing.TB, db *store.DB, fn func(*store.Tx) error) {
	tb.Helper()
	if err := db.View(tb.Context(), fn); err != nil {
		tb.Fatalf("view: %v", err)
	}
}
