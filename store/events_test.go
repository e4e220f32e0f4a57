package store_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestEventsNumberedPerGame(t *testing.T) {
	db := storetest.MustOpen(t)
	putGame(t, db, "g")
	putGame(t, db, "h")
	var want []store.Event
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		added, err := tx.AddEvents("g", 1, []store.Event{
			{Rule: "11.8", Text: "NATO attacks 1708 at 3:1", Data: json.RawMessage(`{"odds":"3:1"}`)},
			{Rule: "12.1", Text: "WP reinforcements arrive", Visible: []string{"WP"}},
		})
		want = append(want, added...)
		if err == nil {
			_, err = tx.AddEvents("g", 2, []store.Event{{Text: "step 2 begins"}})
		}
		return err
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		added, err := tx.AddEvents("g", 1, []store.Event{{Text: "late correction"}})
		want = append(want, added...)
		if err == nil {
			added, err = tx.AddEvents("h", 1, []store.Event{{Text: "other game"}})
			if err == nil && added[0].Seq != 1 {
				t.Errorf("first event of game h has seq %d, want 1", added[0].Seq)
			}
		}
		return err
	})
	for i, seq := range []uint64{1, 2, 4} {
		if want[i].Seq != seq || want[i].Game != "g" || want[i].Step != 1 {
			t.Errorf("added event %d = %+v, want game g step 1 seq %d", i, want[i], seq)
		}
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.Events("g", 1)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Events(g, 1) = %+v, %v\nwant %+v", got, err, want)
		}
		return nil
	})
}
