package store

import (
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestEndedGames: the index of ended games holds each game from the
// commit that first stored it ended, with that time, whatever is written
// to it later; a game stored running again leaves it, an archived game
// too; and a store written before the index was kept has it built once,
// by the first EndedGames.
func TestEndedGames(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "umpire.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ctx := t.Context()
	put := func(id, status string, at time.Time) {
		t.Helper()
		if err := db.Update(ctx, func(tx *Tx) error {
			return tx.PutGame(Game{ID: id, Kind: "fake", Status: status, Updated: at})
		}); err != nil {
			t.Fatal(err)
		}
	}
	ended := func(before time.Time) []string {
		t.Helper()
		gs, err := db.EndedGames(ctx, before)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range gs {
			ids = append(ids, g.ID+"@"+g.Ended.Sub(t0).String())
		}
		return ids
	}
	put("running", "running", t0)
	put("b", "running", t0)
	put("b", "ended", t0.Add(time.Hour))
	put("c", "ended", t0.Add(2*time.Hour))
	put("c", "ended", t0.Add(50*time.Hour)) // a press after the end: still ended at 2h
	put("d", "ended", t0.Add(time.Hour))
	put("d", "running", t0.Add(3*time.Hour)) // not ended after all
	if got, want := ended(t0.Add(90*time.Minute)), []string{"b@1h0m0s"}; !slices.Equal(got, want) {
		t.Errorf("ended 90 min after t0: %v, want %v", got, want)
	}
	if got, want := ended(t0.Add(100*time.Hour)), []string{"b@1h0m0s", "c@2h0m0s"}; !slices.Equal(got, want) {
		t.Errorf("ended 100 h after t0: %v, want %v", got, want)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.ArchiveGame(Archived{ID: "b", Archived: t0.Add(100 * time.Hour)}) }); err != nil {
		t.Fatal(err)
	}
	if got, want := ended(t0.Add(100*time.Hour)), []string{"c@2h0m0s"}; !slices.Equal(got, want) {
		t.Errorf("after b was archived: %v, want %v", got, want)
	}

	// As a store written before the index: no index, no mark.
	if err := db.Update(ctx, func(tx *Tx) error {
		if err := tx.tx.DeleteBucket([]byte(bEnded)); err != nil {
			return err
		}
		return tx.bucket(bMeta).Delete([]byte(kEndedIndex))
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := ended(t0.Add(100*time.Hour)), []string{"c@50h0m0s"}; !slices.Equal(got, want) {
		t.Errorf("an index built from an older store: %v, want %v (the time of the last write: the first is not known)", got, want)
	}
}
