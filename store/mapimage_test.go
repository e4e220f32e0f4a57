package store_test

import (
	"errors"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestMapImage: a game's map image is kept with its record, replaced by
// the next, its record read without its bytes, and a game that has none,
// or does not exist, says so.
func TestMapImage(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "g1", Kind: "fake", Status: "forming"}); err != nil {
			return err
		}
		if err := tx.PutMapImage(store.MapImage{Game: "g1", Digest: "d1", Format: "png", Width: 4, Height: 3, Installed: t0}, []byte("first")); err != nil {
			return err
		}
		return tx.PutMapImage(store.MapImage{Game: "g1", Digest: "d2", Format: "jpeg", Width: 40, Height: 30, Installed: t0}, []byte("second image"))
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		m, ok, err := tx.MapImageInfo("g1")
		if err != nil || !ok || m.Digest != "d2" || m.Format != "jpeg" || m.Width != 40 || m.Height != 30 || m.Bytes != 12 || !m.Installed.Equal(t0) {
			t.Errorf("info %+v %v %v", m, ok, err)
		}
		m, data, ok, err := tx.MapImage("g1")
		if err != nil || !ok || m.Digest != "d2" || string(data) != "second image" {
			t.Errorf("image %+v %q %v %v", m, data, ok, err)
		}
		if _, _, ok, err := tx.MapImage("g2"); ok || !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a game that does not exist: %v %v", ok, err)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		return tx.PutGame(store.Game{ID: "g3", Kind: "fake", Status: "forming"})
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if _, _, ok, err := tx.MapImage("g3"); ok || err != nil {
			t.Errorf("a game without an image: %v %v", ok, err)
		}
		return nil
	})
}
