package store_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestOrderVersionsAllKept(t *testing.T) {
	db := storetest.MustOpen(t)
	putGame(t, db, "g")
	order := func(step uint64, seat string, n int) store.OrderFile {
		signed := fmt.Appendf(nil, "-----BEGIN SIGNED-----\n%s step %d orders v%d\n", seat, step, n)
		return store.OrderFile{Game: "g", Step: step, Seat: seat, Digest: dice.OrderDigest(signed), Key: "FP-" + seat,
			Signed: signed, Text: string(signed), Received: t0.Add(time.Duration(n) * time.Minute),
			MessageID: fmt.Sprintf("<%s-%d-%d@example.org>", seat, step, n), Status: "accepted"}
	}
	// "A" is a prefix of "AB": their versions must not mix.
	var a1 []store.OrderFile
	for n := 1; n <= 3; n++ {
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			for _, o := range []store.OrderFile{order(1, "AB", n), order(1, "A", n)} {
				if n == 3 && o.Seat == "AB" {
					continue
				}
				v, err := tx.AddOrderFile(o)
				if err != nil {
					return err
				}
				if v != uint64(n) {
					t.Errorf("version of %s's orders #%d = %d", o.Seat, n, v)
				}
				if o.Version = v; o.Seat == "A" {
					a1 = append(a1, o)
				}
			}
			return nil
		})
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		v, err := tx.AddOrderFile(order(2, "A", 1))
		if v != 1 {
			t.Errorf("version of A's first orders for step 2 = %d, want 1", v)
		}
		return err
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.OrderVersions("g", 1, "A")
		if err != nil || !reflect.DeepEqual(got, a1) {
			t.Errorf("OrderVersions(g, 1, A) = %+v, %v\nwant %+v", got, err, a1)
		}
		latest, err := tx.LatestOrders("g", 1)
		if err != nil || len(latest) != 2 {
			t.Fatalf("LatestOrders(g, 1) = %+v, %v; want one file per seat", latest, err)
		}
		ab2 := order(1, "AB", 2)
		ab2.Version = 2
		if !reflect.DeepEqual(latest, []store.OrderFile{a1[2], ab2}) {
			t.Errorf("LatestOrders(g, 1) = %+v\nwant A v3, AB v2", latest)
		}
		latest, err = tx.LatestOrders("g", 2)
		if err != nil || len(latest) != 1 || latest[0].Version != 1 || latest[0].Step != 2 {
			t.Errorf("LatestOrders(g, 2) = %+v, %v; want A v1 of step 2", latest, err)
		}
		none, err := tx.OrderVersions("g", 3, "A")
		if err != nil || len(none) != 0 {
			t.Errorf("OrderVersions of a step without orders = %+v, %v", none, err)
		}
		return nil
	})
}
