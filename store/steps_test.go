package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestStepRoundTrip(t *testing.T) {
	db := storetest.MustOpen(t)
	putGame(t, db, "g")
	putGame(t, db, "empty")
	var steps []store.Step
	for _, n := range []uint64{1, 2, 10, 256} { // 10 and 256 sort after 2 only as numbers
		steps = append(steps, store.Step{Game: "g", Number: n, Phase: "movement", Status: "closed",
			Opened: t0, Deadline: t0.Add(72 * time.Hour), Closed: t0.Add(70 * time.Hour),
			Owing: []string{"NATO"}, Ready: []string{"WP"}, State: []byte{0, 0xff, 'x', byte(n)},
			Digest: legacy.OrderDigest([]byte{byte(n)}), Orders: []dice.Hash{legacy.OrderDigest([]byte("o"))}})
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for _, i := range []int{2, 0, 3, 1} {
			if err := tx.PutStep(steps[i]); err != nil {
				return err
			}
		}
		return nil
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.Step("g", 10)
		if err != nil || !reflect.DeepEqual(got, steps[2]) {
			t.Errorf("Step(g, 10) = %+v, %v; want %+v", got, err, steps[2])
		}
		all, err := tx.Steps("g")
		if err != nil || !reflect.DeepEqual(all, steps) {
			t.Errorf("Steps(g) = %+v, %v; want steps 1, 2, 10, 256", all, err)
		}
		latest, err := tx.LatestStep("g")
		if err != nil || latest.Number != 256 {
			t.Errorf("LatestStep(g) = %d, %v; want 256", latest.Number, err)
		}
		if _, err := tx.Step("g", 3); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Step(g, 3) error = %v, want ErrNotFound", err)
		}
		if _, err := tx.LatestStep("empty"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LatestStep of a game without steps: error = %v, want ErrNotFound", err)
		}
		return nil
	})
}
