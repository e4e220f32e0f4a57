package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestOldPrunedMailMoves: a store an older umpire pruned keeps its emptied
// mails in the outbox; the next prune moves them to their records, where
// they read as before, and leaves the outbox holding only unpruned mail.
func TestOldPrunedMailMoves(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "umpire.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	ctx := context.Background()
	err = db.Update(ctx, func(tx *Tx) error {
		for i := range 3 {
			id, err := tx.Enqueue(Mail{Kind: MailReport, Subject: "report", To: []string{"p@club.test"}, Body: []byte("body"), Queued: t0})
			if err != nil {
				return err
			}
			if err := tx.MarkSentDigest(id, t0, "d"); err != nil {
				return err
			}
			if i < 2 {
				// As an older umpire pruned: the body emptied in place,
				// and the mail gone from done/.
				m, _ := tx.Mail(id)
				m.Body, m.Pruned = nil, t0.Add(time.Hour)
				if err := putJSON(tx.bucket(bOutbox), u64(id), m); err != nil {
					return err
				}
				if err := tx.bucket(bDone).Delete(doneKey(t0, id)); err != nil {
					return err
				}
			}
		}
		return tx.bucket(bMeta).Delete([]byte(kMailRecords))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx *Tx) error {
		n, _, err := tx.Prune(t0, t0.Add(48*time.Hour), 0) // nothing sent before t0
		if n != 0 {
			t.Errorf("pruned %d mails sent at the retention's edge", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(ctx, func(tx *Tx) error {
		if k := tx.bucket(bOutbox).Stats().KeyN; k != 1 {
			t.Errorf("the outbox holds %d mails, want only the unpruned one", k)
		}
		for id := uint64(1); id <= 3; id++ {
			m, err := tx.Mail(id)
			if err != nil || m.Subject != "report" || m.Digest != "d" || (id < 3) != (len(m.Body) == 0) {
				t.Errorf("mail %d after the move: %+v, %v", id, m, err)
			}
			if id < 3 && !m.Pruned.Equal(t0.Add(time.Hour)) {
				t.Errorf("mail %d: pruned %v, want when the older umpire pruned it", id, m.Pruned)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
