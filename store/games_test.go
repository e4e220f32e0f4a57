package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// putGame stores a minimal game with id.
func putGame(t *testing.T, db *store.DB, id string) {
	t.Helper()
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.PutGame(store.Game{ID: id, Kind: "wbt"}) })
}

func TestGameRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	b := store.Game{ID: "b", Kind: "wbt", Title: "Fulda", Scenario: "1", Status: "running", GMKey: "FP1",
		Step: 4, Created: t0, Updated: t0.Add(time.Hour), File: []byte("title = \"Fulda\"\n"),
		Options: map[string]string{"deadline": "72h"}}
	a := store.Game{ID: "a", Kind: "wbt", Created: t0}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutGame(b); err != nil {
			return err
		}
		return tx.PutGame(a)
	})
	a.Status = "over"
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.PutGame(a) })
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.Game("b")
		if err != nil || !reflect.DeepEqual(got, b) {
			t.Errorf("Game(b) = %+v, %v; want %+v", got, err, b)
		}
		games, err := tx.Games()
		if err != nil || !reflect.DeepEqual(games, []store.Game{a, b}) {
			t.Errorf("Games() = %+v, %v; want a (replaced) then b", games, err)
		}
		_, err = tx.Game("x")
		if !errors.Is(err, store.ErrNotFound) || err.Error() != `game "x": not found` {
			t.Errorf("Game(x) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}

func TestSeatRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	putGame(t, db, "g")
	wp := store.Seat{Game: "g", Name: "WP", Holders: []store.Holder{
		{Key: "FP1", Address: "old@example.org", From: t0, Until: t0.Add(48 * time.Hour), Reason: "resigned"},
		{Key: "FP2", Address: "new@example.org", From: t0.Add(48 * time.Hour), Reason: "replacement"},
	}}
	nato := store.Seat{Game: "g", Name: "NATO", Holders: []store.Holder{{Key: "FP3", From: t0}}}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutSeat(wp); err != nil {
			return err
		}
		return tx.PutSeat(nato)
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.Seat("g", "WP")
		if err != nil || !reflect.DeepEqual(got, wp) {
			t.Errorf("Seat(WP) = %+v, %v; want %+v", got, err, wp)
		}
		if h, ok := got.Holder(); !ok || h.Key != "FP2" {
			t.Errorf("current holder of WP = %+v, %v; want FP2", h, ok)
		}
		seats, err := tx.Seats("g")
		if err != nil || !reflect.DeepEqual(seats, []store.Seat{nato, wp}) {
			t.Errorf("Seats(g) = %+v, %v; want NATO then WP", seats, err)
		}
		if _, err := tx.Seat("g", "UN"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Seat(UN) error = %v, want ErrNotFound", err)
		}
		return nil
	})
	err := db.Update(t.Context(), func(tx *store.Tx) error { return tx.PutSeat(store.Seat{Game: "nope", Name: "WP"}) })
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PutSeat in a missing game: error = %v, want ErrNotFound", err)
	}
}

func TestSeatHolder(t *testing.T) {
	s := store.Seat{Holders: []store.Holder{{Key: "FP1", Until: t0}}}
	if h, ok := s.Holder(); ok {
		t.Errorf("Holder() of a vacated seat = %+v, true", h)
	}
	s.Holders = append(s.Holders, store.Holder{Key: "FP2", From: t0})
	if h, ok := s.Holder(); !ok || h.Key != "FP2" {
		t.Errorf("Holder() = %+v, %v; want FP2", h, ok)
	}
}

func TestKeyRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	keys := []store.Key{
		{Fingerprint: "AAAA", Kind: "ssh", Public: []byte("ssh-ed25519 AAAAC3Nza"), Address: "a@example.org", Added: t0},
		{Fingerprint: "BBBB", Kind: "openpgp", Public: []byte{0x99, 0x00, 0x0d, 0xff}, Address: "b@example.org", Added: t0},
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutKey(keys[1]); err != nil {
			return err
		}
		return tx.PutKey(keys[0])
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.Key("BBBB")
		if err != nil || !reflect.DeepEqual(got, keys[1]) {
			t.Errorf("Key(BBBB) = %+v, %v; want %+v", got, err, keys[1])
		}
		all, err := tx.Keys()
		if err != nil || !reflect.DeepEqual(all, keys) {
			t.Errorf("Keys() = %+v, %v; want %+v", all, err, keys)
		}
		if _, err := tx.Key("CCCC"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Key(CCCC) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}
