package store_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestReceiptRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	rs := []store.Receipt{
		{MessageID: "<a@example.org>", Game: "g", Seat: "NATO", Step: 3, Digest: legacy.OrderDigest([]byte("a")),
			Echo: "move 1708 1709\n", Problems: []store.Problem{{Line: 2, Text: "no unit in 1810", Hint: "did you mean 1801?"}},
			At: t0, MailID: 5},
		{MessageID: "<b@example.org>", Game: "g", Seat: "WP", Ready: true, At: t0},
		{MessageID: "<a@example.org>", Game: "h", Seat: "NATO", Step: 1, Echo: "pass\n", At: t0},
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for i := range rs {
			id, err := tx.AddReceipt(rs[i])
			if err != nil {
				return err
			}
			if rs[i].ID = id; id != uint64(i+1) {
				t.Errorf("receipt %d got id %d", i, id)
			}
		}
		return nil
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if r, err := tx.Receipt(2); err != nil || !reflect.DeepEqual(r, rs[1]) {
			t.Errorf("Receipt(2) = %+v, %v; want %+v", r, err, rs[1])
		}
		if got, err := tx.ReceiptsFor("<a@example.org>"); err != nil || !reflect.DeepEqual(got, []store.Receipt{rs[0], rs[2]}) {
			t.Errorf("ReceiptsFor(<a@example.org>) = %+v, %v; want receipts 1 and 3", got, err)
		}
		if got, err := tx.ReceiptsFor("<c@example.org>"); err != nil || len(got) != 0 {
			t.Errorf("ReceiptsFor a message without receipts = %+v, %v", got, err)
		}
		if _, err := tx.Receipt(9); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Receipt(9) error = %v, want ErrNotFound", err)
		}
		return nil
	})
}
