package store_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestOrderVersionsAllKept(t *testing.T) {
	db := storetest.MustOpen(t)
	putGame(t, db, "g")
	order := func(step uint64, seat string, n int) store.OrderFile {
		signed := fmt.Appendf(nil, "-----BEGIN SIGNED-----\n%s step %d orders v%d\n", seat, step, n)
		return store.OrderFile{Game: "g", Step: step, Seat: seat, Digest: legacy.OrderDigest(signed), Key: "FP-" + seat,
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

// TestOrderDigestVersion: the digest index finds the version with a digest
// and the newest version without reading order files, and keeps steps and
// seats apart (seat "A" and seat "AB" share a key prefix).
func TestOrderDigestVersion(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "g"}); err != nil {
			return err
		}
		for i := range 300 { // past 255: versions must sort as numbers
			if _, err := tx.AddOrderFile(store.OrderFile{Game: "g", Step: 2, Seat: "A", Digest: legacy.OrderDigest([]byte{byte(i), byte(i >> 8)})}); err != nil {
				return err
			}
		}
		_, err := tx.AddOrderFile(store.OrderFile{Game: "g", Step: 2, Seat: "AB", Digest: legacy.OrderDigest([]byte("ab"))})
		return err
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		cases := []struct {
			seat            string
			step            uint64
			d               dice.Hash
			version, latest uint64
		}{
			{"A", 2, legacy.OrderDigest([]byte{0, 0}), 1, 300},
			{"A", 2, legacy.OrderDigest([]byte{43, 1}), 300, 300},
			{"A", 2, legacy.OrderDigest([]byte("ab")), 0, 300},
			{"AB", 2, legacy.OrderDigest([]byte("ab")), 1, 1},
			{"A", 3, legacy.OrderDigest([]byte{0, 0}), 0, 0},
			{"B", 2, legacy.OrderDigest([]byte{0, 0}), 0, 0},
		}
		for _, c := range cases {
			v, latest, err := tx.OrderDigestVersion("g", c.step, c.seat, c.d)
			if err != nil || v != c.version || latest != c.latest {
				t.Errorf("%s step %d: version %d latest %d (%v); want %d, %d", c.seat, c.step, v, latest, err, c.version, c.latest)
			}
		}
		return nil
	})
}
