package store_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestKeysSince: every key put raises the keyring's version, and a reader
// at an older version gets the keys put since, each once and as stored
// now; the version and its log survive compaction.
func TestKeysSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	put := func(ks ...store.Key) {
		t.Helper()
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			for _, k := range ks {
				if err := tx.PutKey(k); err != nil {
					return err
				}
			}
			return nil
		})
	}
	since := func(v uint64) (fps []string, addr map[string]string, now uint64, ok bool) {
		t.Helper()
		addr = map[string]string{}
		storetest.MustView(t, db, func(tx *store.Tx) error {
			ks, n, o, err := tx.KeysSince(v)
			for _, k := range ks {
				fps = append(fps, k.Fingerprint)
				addr[k.Fingerprint] = k.Address
			}
			now, ok = n, o
			return err
		})
		return fps, addr, now, ok
	}
	_, _, v0, ok := since(0)
	if v0 != 0 || !ok {
		t.Fatalf("a new store's keyring: version %d, ok %v", v0, ok)
	}
	put(store.Key{Fingerprint: "A", Address: "a@x.test"}, store.Key{Fingerprint: "B"})
	_, _, v1, _ := since(0)
	put(store.Key{Fingerprint: "A", Address: "a2@x.test"}, store.Key{Fingerprint: "C"})
	fps, addr, v2, ok := since(v1)
	if !ok || v2 <= v1 || !slices.Equal(fps, []string{"A", "C"}) || addr["A"] != "a2@x.test" {
		t.Errorf("since %d: %v %v version %d ok %v", v1, fps, addr, v2, ok)
	}
	if fps, _, _, ok := since(v0); !ok || !slices.Equal(fps, []string{"A", "B", "C"}) {
		t.Errorf("since %d: %v ok %v, want A B C once each", v0, fps, ok)
	}
	if fps, _, _, ok := since(v2); !ok || len(fps) != 0 {
		t.Errorf("since the current version: %v ok %v", fps, ok)
	}
	if _, _, _, ok := since(v2 + 5); ok {
		t.Errorf("a version the store never had: ok")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Compact(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if fps, _, v, ok := since(v1); !ok || v != v2 || !slices.Equal(fps, []string{"A", "C"}) {
		t.Errorf("after compaction, since %d: %v version %d ok %v", v1, fps, v, ok)
	}
}
