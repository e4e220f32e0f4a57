package store_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestArchiveGame: archiving deletes the game's bucket (seats, steps,
// events, observers, press) and its due-time entry in one transaction and
// leaves its tombstone; the outbox mail queued for its seats and its
// receipts stay; the id cannot be used for a new game; a second archive
// and an unknown game are refused.
func TestArchiveGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{Due: dueFromStep})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mailID, receiptID uint64
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for _, id := range []string{"old", "other"} {
			if err := tx.PutGame(store.Game{ID: id, Kind: "fake", Status: "running", Step: 1}); err != nil {
				return err
			}
			if err := tx.PutStep(store.Step{Game: id, Number: 1, Status: "open", Deadline: t0.Add(time.Hour)}); err != nil {
				return err
			}
		}
		if err := tx.PutSeat(store.Seat{Game: "old", Name: "A"}); err != nil {
			return err
		}
		if err := tx.PutObserver(store.Observer{Game: "old", Key: "K", Since: t0}); err != nil {
			return err
		}
		if _, err := tx.AddPress(store.Press{Game: "old", At: t0, Step: 1, Key: "K"}); err != nil {
			return err
		}
		if mailID, err = tx.Enqueue(store.Mail{Kind: "report", Game: "old", To: []string{"a@players.test"}, Subject: "report", Body: []byte("{}"), Queued: t0}); err != nil {
			return err
		}
		receiptID, err = tx.AddReceipt(store.Receipt{MessageID: "<o@players.test>", Game: "old", Seat: "A", Step: 1, At: t0})
		return err
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if _, ok := tx.GameDue("old"); !ok {
			t.Fatal("the running game has no due-time entry to begin with")
		}
		return nil
	})
	tomb := store.Archived{ID: "old", Kind: "fake", Title: "Old", Archived: t0.Add(48 * time.Hour), Steps: 1, DiceHead: "ab", SHA256: "cd", File: "old.json"}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.ArchiveGame(tomb) })
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if _, err := tx.Game("old"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the archived game is still stored: %v", err)
		}
		if _, err := tx.Seats("old"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the archived game's seats are still stored: %v", err)
		}
		if _, ok := tx.GameDue("old"); ok {
			t.Error("the archived game keeps its due-time entry")
		}
		games, _, err := tx.DueGames(t0.Add(24*time.Hour), 0)
		if err != nil || len(games) != 1 || games[0] != "other" {
			t.Errorf("due games after the archive = %v, %v; want only other", games, err)
		}
		a, ok, err := tx.Archived("old")
		if err != nil || !ok || a != tomb {
			t.Errorf("tombstone = %+v %v %v, want %+v", a, ok, err, tomb)
		}
		if as, err := tx.ArchivedGames(); err != nil || len(as) != 1 || tx.ArchivedCount() != 1 {
			t.Errorf("archived games = %v %v (count %d)", as, err, tx.ArchivedCount())
		}
		if m, err := tx.Mail(mailID); err != nil || m.State != store.MailQueued {
			t.Errorf("the mail queued for the game's seat = %+v, %v; want it queued still", m, err)
		}
		if r, err := tx.Receipt(receiptID); err != nil || r.Game != "old" {
			t.Errorf("the game's receipt = %+v, %v; want it kept", r, err)
		}
		if _, err := tx.Game("other"); err != nil {
			t.Errorf("the other game: %v", err)
		}
		return nil
	})
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		return tx.PutGame(store.Game{ID: "old", Kind: "fake", Status: "forming"})
	})
	if !errors.Is(err, store.ErrArchived) {
		t.Errorf("a new game with an archived game's id: %v, want ErrArchived", err)
	}
	if err := db.Update(t.Context(), func(tx *store.Tx) error { return tx.ArchiveGame(tomb) }); !errors.Is(err, store.ErrConflict) {
		t.Errorf("archiving twice: %v, want ErrConflict", err)
	}
	if err := db.Update(t.Context(), func(tx *store.Tx) error { return tx.ArchiveGame(store.Archived{ID: "nope"}) }); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("archiving an unknown game: %v, want ErrNotFound", err)
	}
}
