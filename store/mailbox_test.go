package store_test

import (
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestCheckpointRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		c, err := tx.Checkpoint("INBOX")
		if err != nil || c != (store.Checkpoint{Mailbox: "INBOX"}) {
			t.Errorf("Checkpoint of an unread mailbox = %+v, %v; want zeros", c, err)
		}
		return tx.PutCheckpoint(store.Checkpoint{Mailbox: "INBOX", UIDValidity: 1700000000, LastUID: 42})
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		c, err := tx.Checkpoint("INBOX")
		if err != nil || c != (store.Checkpoint{Mailbox: "INBOX", UIDValidity: 1700000000, LastUID: 42}) {
			t.Errorf("Checkpoint(INBOX) = %+v, %v", c, err)
		}
		return nil
	})
}

func TestConsumeMessageDedupes(t *testing.T) {
	db := storetest.MustOpen(t)
	raw := func(s string) dice.Hash { return sha256.Sum256([]byte(s)) }
	first := store.Consumed{MessageID: "<a@example.org>", Digest: raw("message a"), Mailbox: "INBOX", UID: 7, At: t0}
	for _, tc := range []struct {
		name    string
		c       store.Consumed
		already bool
	}{
		{"first", first, false},
		{"same message again", first, true},
		{"same Message-ID, other bytes", store.Consumed{MessageID: first.MessageID, Digest: raw("resent a")}, true},
		{"other Message-ID, same bytes", store.Consumed{MessageID: "<b@example.org>", Digest: first.Digest}, true},
		{"no Message-ID", store.Consumed{Digest: raw("message c"), UID: 9}, false},
		{"no Message-ID, same bytes", store.Consumed{Digest: raw("message c"), UID: 10}, true},
		{"new message", store.Consumed{MessageID: "<d@example.org>", Digest: raw("message d")}, false},
	} {
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			already, err := tx.ConsumeMessage(tc.c)
			if already != tc.already {
				t.Errorf("%s: already = %v, want %v", tc.name, already, tc.already)
			}
			return err
		})
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if c, err := tx.Consumed(first.MessageID); err != nil || c != first {
			t.Errorf("Consumed(%s) = %+v, %v; want the first record", first.MessageID, c, err)
		}
		if c, err := tx.Consumed("<b@example.org>"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a refused duplicate was recorded: %+v, %v", c, err)
		}
		if c, err := tx.Consumed("<d@example.org>"); err != nil || c.Digest != raw("message d") {
			t.Errorf("Consumed(<d@example.org>) = %+v, %v", c, err)
		}
		return nil
	})
	err := db.Update(t.Context(), func(tx *store.Tx) error {
		_, err := tx.ConsumeMessage(store.Consumed{MessageID: "<e@example.org>"})
		return err
	})
	if err == nil {
		t.Error("consuming a message without a digest succeeded")
	}
}
