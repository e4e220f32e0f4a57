package store_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

func TestFailedUpdateWritesNothing(t *testing.T) {
	db := storetest.MustOpen(t)
	boom := errors.New("boom")
	err := db.Update(t.Context(), func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "g"}); err != nil {
			return err
		}
		if _, err := tx.ConsumeMessage(store.Consumed{MessageID: "<m@example.org>", Digest: legacy.OrderDigest([]byte("m"))}); err != nil {
			return err
		}
		if _, err := tx.AddOrderFile(store.OrderFile{Game: "g", Step: 1, Seat: "NATO", Signed: []byte("m")}); err != nil {
			return err
		}
		if _, err := tx.AddEvents("g", 1, []store.Event{{Text: "x"}}); err != nil {
			return err
		}
		if _, err := tx.Enqueue(store.Mail{Kind: store.MailReceipt}); err != nil {
			return err
		}
		if _, err := tx.AddReceipt(store.Receipt{MessageID: "<m@example.org>"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if games, err := tx.Games(); err != nil || len(games) != 0 {
			t.Errorf("Games() after a failed Update = %+v, %v", games, err)
		}
		if _, err := tx.Consumed("<m@example.org>"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("message consumed by a failed Update: %v", err)
		}
		if mails, err := tx.Due(t0.Add(time.Hour), 0); err != nil || len(mails) != 0 {
			t.Errorf("mails queued by a failed Update: %+v, %v", mails, err)
		}
		if rs, err := tx.ReceiptsFor("<m@example.org>"); err != nil || len(rs) != 0 {
			t.Errorf("receipts added by a failed Update: %+v, %v", rs, err)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		id, err := tx.Enqueue(store.Mail{Kind: store.MailReceipt})
		if id != 1 {
			t.Errorf("first mail after a failed Update got id %d, want 1", id)
		}
		return err
	})
}

func TestCanceledContextRunsNothing(t *testing.T) {
	db := storetest.MustOpen(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ran := false
	fn := func(*store.Tx) error { ran = true; return nil }
	if err := db.Update(ctx, fn); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("Update with a canceled context: %v, ran %v", err, ran)
	}
	if err := db.View(ctx, fn); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("View with a canceled context: %v, ran %v", err, ran)
	}
}

func TestReopenKeepsRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mid string
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		id, err := tx.Enqueue(store.Mail{Kind: store.MailAnnouncement})
		if err == nil {
			var m store.Mail
			m, err = tx.Mail(id)
			mid = m.MessageID
		}
		if err == nil {
			err = tx.PutGame(store.Game{ID: "g", Title: "Fulda Gap"})
		}
		return err
	})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = store.Open(path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Path() != path || db.SchemaVersion() != store.SchemaVersion {
		t.Errorf("reopened store: path %q version %d", db.Path(), db.SchemaVersion())
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if g, err := tx.Game("g"); err != nil || g.Title != "Fulda Gap" {
			t.Errorf("Game(g) after reopening = %+v, %v", g, err)
		}
		if m, err := tx.Mail(1); err != nil || m.MessageID != mid {
			t.Errorf("mail 1 after reopening = %+v, %v; want Message-ID %s", m, err, mid)
		}
		return nil
	})
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}

func TestOpenInUse(t *testing.T) {
	db := storetest.MustOpen(t)
	start := time.Now()
	second, err := store.Open(db.Path(), store.Options{Timeout: 200 * time.Millisecond})
	if err == nil {
		second.Close()
		t.Fatal("a second Open of a store in use succeeded")
	}
	want := "store " + db.Path() + " is in use by another umpire process"
	if !errors.Is(err, store.ErrInUse) || err.Error() != want {
		t.Errorf("second Open: %v, want %q", err, want)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond { // bbolt polls the lock every 50ms
		t.Errorf("second Open gave up after %v without waiting for the lock", waited)
	}
}

func TestOpenRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	junk := make([]byte, 64<<10)
	if _, err := rand.Read(junk); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	b, err := bbolt.Open(foreign, 0o600, nil)
	if err == nil {
		err = b.Update(func(tx *bbolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	}
	if err == nil {
		err = b.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"random.db": junk, "short.db": []byte("# not a database\n"), "foreign.db": nil} {
		path := filepath.Join(dir, name)
		if content != nil {
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		before, _ := os.ReadFile(path)
		db, err := store.Open(path, store.Options{})
		if err == nil {
			db.Close()
			t.Errorf("Open(%s) succeeded", name)
			continue
		}
		if !errors.Is(err, store.ErrNotStore) || !strings.Contains(err.Error(), path) {
			t.Errorf("Open(%s): %v; want ErrNotStore naming the path", name, err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("Open(%s) changed the file", name)
		}
	}
}
