package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"go.etcd.io/bbolt"
)

// schemaOf reads the schema version stored in the file at path.
func schemaOf(t *testing.T, path string) uint64 {
	t.Helper()
	b, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v uint64
	err = b.View(func(tx *bbolt.Tx) error {
		v = be64(tx.Bucket([]byte(bMeta)).Get([]byte(kSchema)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// newStore creates a store file at version 1 holding game g: the test
// migrations below take it to versions 2 and 3.
func newStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := Open(path, Options{migrations: []migration{}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.SchemaVersion() != 1 || len(migrations()) != SchemaVersion-1 {
		t.Fatalf("new store has version %d with %d migrations; SchemaVersion is %d", db.SchemaVersion(), len(migrations()), SchemaVersion)
	}
	if err := db.Update(context.Background(), func(tx *Tx) error { return tx.PutGame(Game{ID: "g", Title: "old"}) }); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewerSchemaRefused(t *testing.T) {
	path := newStore(t)
	b, err := bbolt.Open(path, 0o600, nil)
	if err == nil {
		err = b.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte(bMeta)).Put([]byte(kSchema), u64(99)) })
	}
	if err == nil {
		err = b.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, Options{})
	want := fmt.Sprintf("store %s has schema version 99; this umpire understands versions up to %d: upgrade umpire before opening it", path, SchemaVersion)
	if !errors.Is(err, ErrNewerSchema) || err.Error() != want {
		t.Errorf("Open of a version 99 store: %v\nwant %s", err, want)
	}
	if v := schemaOf(t, path); v != 99 {
		t.Errorf("refused store now has version %d", v)
	}
}

// testMigrations are the migrations 1 to 2 to 3 of a future umpire: the first
// adds a bucket, the second rewrites every game's title. ran counts their runs.
func testMigrations(ran *int) []migration {
	return []migration{
		func(tx *bbolt.Tx) error {
			*ran++
			b, err := tx.CreateBucket([]byte("archive"))
			if err != nil {
				return err
			}
			return b.Put([]byte("since"), []byte("2"))
		},
		func(tx *bbolt.Tx) error {
			*ran++
			t := &Tx{tx: tx}
			games, err := t.Games()
			for _, g := range games {
				if err == nil {
					g.Title += " (v3)"
					err = t.PutGame(g)
				}
			}
			return err
		},
	}
}

func TestMigrations(t *testing.T) {
	path := newStore(t)
	ran := 0
	db, err := Open(path, Options{migrations: testMigrations(&ran)})
	if err != nil {
		t.Fatal(err)
	}
	if db.SchemaVersion() != 3 || ran != 2 {
		t.Errorf("migrated store has version %d after %d migrations; want 3 after 2", db.SchemaVersion(), ran)
	}
	err = db.View(context.Background(), func(tx *Tx) error {
		g, err := tx.Game("g")
		if g.Title != "old (v3)" || tx.tx.Bucket([]byte("archive")) == nil {
			t.Errorf("after migrating: game %+v, archive bucket %v", g, tx.tx.Bucket([]byte("archive")))
		}
		return err
	})
	if err == nil {
		err = db.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if v := schemaOf(t, path); v != 3 {
		t.Errorf("migrated file has version %d, want 3", v)
	}

	db, err = Open(path, Options{migrations: testMigrations(&ran)})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if ran != 2 {
		t.Errorf("reopening a migrated store ran migrations again (%d runs)", ran)
	}
	_, err = Open(path, Options{})
	if !errors.Is(err, ErrNewerSchema) {
		t.Errorf("the old umpire opened a migrated store: %v", err)
	}

	fresh := filepath.Join(t.TempDir(), "new.db")
	if db, err = Open(fresh, Options{migrations: testMigrations(&ran)}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if v := schemaOf(t, fresh); v != 3 || ran != 2 {
		t.Errorf("a new file was created at version %d after %d migrations; want 3 without migrating", v, ran)
	}
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	path := newStore(t)
	ran := 0
	migs := testMigrations(&ran)
	migs[1] = func(*bbolt.Tx) error { return errors.New("disk on fire") }
	_, err := Open(path, Options{migrations: migs})
	if err == nil || err.Error() != fmt.Sprintf("store %s: migrate schema 2 to 3: disk on fire", path) {
		t.Errorf("Open with a failing migration: %v", err)
	}
	if v := schemaOf(t, path); v != 1 {
		t.Errorf("after a failed migration the file has version %d, want 1", v)
	}
	b, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_ = b.View(func(tx *bbolt.Tx) error {
		if tx.Bucket([]byte("archive")) != nil {
			t.Error("the first migration's bucket survived the failed second one")
		}
		return nil
	})
}
