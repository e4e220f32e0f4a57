package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// dueFromStep is a DueFunc for the tests: a running game is due at its
// current step's deadline.
func dueFromStep(tx adjudicator.Tx, game string) (time.Time, bool, error) {
	g, err := tx.Game(game)
	if err != nil || g.Status != "running" {
		return time.Time{}, false, err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return time.Time{}, false, nil
	}
	return st.Deadline, true, nil
}

// TestDueIndex: the index follows every write to a game's record or its
// step in the same transaction, DueGames returns only what is due, in time
// order, with the next time after it; a store written without the index's
// function is marked stale and rebuilt when opened with it.
func TestDueIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{Due: dueFromStep})
	if err != nil {
		t.Fatal(err)
	}
	put := func(db *store.DB, id string, status string, deadline time.Time) {
		t.Helper()
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			if err := tx.PutGame(store.Game{ID: id, Kind: "fake", Status: status, Step: 1}); err != nil {
				return err
			}
			return tx.PutStep(store.Step{Game: id, Number: 1, Status: "open", Deadline: deadline})
		})
	}
	dueAt := func(db *store.DB, now time.Time, limit int) ([]string, time.Time) {
		t.Helper()
		var games []string
		var next time.Time
		storetest.MustView(t, db, func(tx *store.Tx) (err error) {
			games, next, err = tx.DueGames(now, limit)
			return err
		})
		return games, next
	}
	for i := range 10 {
		put(db, fmt.Sprintf("g%d", i), "running", t0.Add(time.Duration(10-i)*time.Hour))
	}
	put(db, "paused", "paused", t0)
	if got, next := dueAt(db, t0.Add(3*time.Hour), 0); !slices.Equal(got, []string{"g9", "g8", "g7"}) || !next.Equal(t0.Add(4*time.Hour)) {
		t.Errorf("due at +3h: %v, next %v; want g9 g8 g7, next +4h", got, next)
	}
	if got, next := dueAt(db, t0.Add(3*time.Hour), 2); !slices.Equal(got, []string{"g9", "g8"}) || !next.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("due at +3h, 2 at most: %v, next %v", got, next)
	}
	// A deadline moved later, a game paused: the index follows.
	put(db, "g9", "running", t0.Add(20*time.Hour))
	put(db, "g8", "paused", t0.Add(2*time.Hour))
	if got, _ := dueAt(db, t0.Add(3*time.Hour), 0); !slices.Equal(got, []string{"g7"}) {
		t.Errorf("after the changes, due at +3h: %v, want g7", got)
	}
	// A transaction that fails leaves the index as it was.
	err = db.Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.PutStep(store.Step{Game: "g7", Number: 1, Status: "open", Deadline: t0.Add(50 * time.Hour)}); err != nil {
			return err
		}
		return fmt.Errorf("no")
	})
	if err == nil {
		t.Fatal("the failing update did not fail")
	}
	if got, _ := dueAt(db, t0.Add(3*time.Hour), 0); !slices.Equal(got, []string{"g7"}) {
		t.Errorf("after a failed update, due at +3h: %v, want g7", got)
	}
	db.Close()

	// Written without the function: the index is stale, then rebuilt.
	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	put(db, "g0", "running", t0)
	if db.DueIndexed() {
		t.Error("a game written without the due function leaves the index marked complete")
	}
	db.Close()
	db, err = store.Open(path, store.Options{Due: dueFromStep})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.DueIndexed() {
		t.Error("the index was not rebuilt")
	}
	if got, _ := dueAt(db, t0.Add(3*time.Hour), 0); !slices.Equal(got, []string{"g0", "g7"}) {
		t.Errorf("after the rebuild, due at +3h: %v, want g0 g7", got)
	}
}
