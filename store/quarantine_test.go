package store_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestQuarantineKeepsTheMessage: a message set aside is kept whole with
// its record; set aside again (after a release) it keeps its id and counts
// its tries; dropped, its record stays and its text goes.
func TestQuarantineKeepsTheMessage(t *testing.T) {
	db := storetest.MustOpen(t)
	raw := bytes.Repeat([]byte("From: alice@players.test\r\n\r\nstall\r\n"), 500)
	d := dice.Hash(sha256.Sum256(raw))
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		q, err := tx.Quarantine(store.Quarantined{Digest: d, From: "alice@players.test", Reason: "took more than 5s", At: now, Tries: 1}, raw)
		if err != nil || q.ID != 1 || q.State != store.QuarantineHeld || q.Size != len(raw) {
			t.Errorf("first: %+v %v", q, err)
		}
		other := []byte("another")
		if q, err := tx.Quarantine(store.Quarantined{Digest: sha256.Sum256(other), Reason: "x", Tries: 1}, other); err != nil || q.ID != 2 {
			t.Errorf("second: %+v %v", q, err)
		}
		q.State = store.QuarantineReleased
		if err := tx.PutQuarantined(q); err != nil {
			return err
		}
		again, err := tx.Quarantine(store.Quarantined{Digest: d, Reason: "took more than 5s again", At: now.Add(time.Hour), Tries: 1}, raw)
		if err != nil || again.ID != 1 || again.Tries != 2 || again.State != store.QuarantineHeld {
			t.Errorf("set aside again: %+v %v", again, err)
		}
		return nil
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		q, got, err := tx.QuarantinedMessage(1)
		if err != nil || !bytes.Equal(got, raw) || q.Reason != "took more than 5s again" {
			t.Errorf("kept: %+v, %d bytes, %v", q, len(got), err)
		}
		all, err := tx.QuarantinedMessages()
		if err != nil || len(all) != 2 || all[0].ID != 1 || all[1].ID != 2 {
			t.Errorf("listed: %+v %v", all, err)
		}
		if _, _, err := tx.QuarantinedMessage(9); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("q9: %v", err)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		q, _, _ := tx.QuarantinedMessage(1)
		q.State, q.Done = store.QuarantineDropped, now
		return tx.PutQuarantined(q)
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		q, got, err := tx.QuarantinedMessage(1)
		if err != nil || got != nil || q.State != store.QuarantineDropped || q.From != "alice@players.test" {
			t.Errorf("dropped: %+v, %d bytes, %v", q, len(got), err)
		}
		return nil
	})
}

// TestInFlightMarks: marks count the stops with others and alone until
// cleared.
func TestInFlightMarks(t *testing.T) {
	db := storetest.MustOpen(t)
	a, b := dice.Hash(sha256.Sum256([]byte("a"))), dice.Hash(sha256.Sum256([]byte("b")))
	now := time.Now()
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.MarkInFlight([]dice.Hash{a, b}, false, now); err != nil {
			return err
		}
		if err := tx.MarkInFlight([]dice.Hash{a}, true, now); err != nil {
			return err
		}
		return tx.ClearInFlight(b)
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		inBatch, alone, err := tx.InFlightMarks([]dice.Hash{a, b})
		if err != nil || inBatch[0] != 1 || alone[0] != 1 || inBatch[1] != 0 || alone[1] != 0 {
			t.Errorf("marks %v %v %v", inBatch, alone, err)
		}
		return nil
	})
}
