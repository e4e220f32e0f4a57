package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestLanes: receipts and answers wait in their own lane, reports and the
// judge's other mail in theirs; each lane is read apart.
func TestLanes(t *testing.T) {
	db := storetest.MustOpen(t)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for _, m := range []store.Mail{
			{Kind: store.MailReport, Subject: "report 1", Queued: t0},
			{Kind: store.MailReceipt, Subject: "receipt", InReplyTo: "<o@x>", Queued: t0},
			{Kind: store.MailAnnouncement, Subject: "answer to a command", InReplyTo: "<c@x>", Queued: t0},
			{Kind: store.MailReminder, Subject: "reminder", Queued: t0},
		} {
			if _, err := tx.Enqueue(m); err != nil {
				return err
			}
		}
		return nil
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		answers, err := tx.DueLane(store.LaneAnswers, t0, 0)
		if err != nil {
			return err
		}
		reports, err := tx.DueLane(store.LaneReports, t0, 0)
		if err != nil {
			return err
		}
		if len(answers) != 2 || answers[0].Subject != "receipt" || answers[1].Subject != "answer to a command" {
			t.Errorf("answers' lane: %v", subjects(answers))
		}
		if len(reports) != 2 || reports[0].Subject != "report 1" || reports[1].Subject != "reminder" {
			t.Errorf("reports' lane: %v", subjects(reports))
		}
		all, err := tx.Due(t0, 0)
		if err != nil || len(all) != 4 || all[0].Subject != "report 1" || all[1].Subject != "receipt" {
			t.Errorf("Due: %v (%v), want every lane by id", subjects(all), err)
		}
		return nil
	})
}

func subjects(ms []store.Mail) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject)
	}
	return out
}

// TestRenderedAndPruned: a rendered report keeps its bytes while queued,
// one picture shared by the mails that show it; sending forgets the
// rendering (the picture goes with its last mail); pruning empties the
// bodies of mails sent before the retention and keeps their records,
// Message-IDs and digests; queued mail is never pruned.
func TestRenderedAndPruned(t *testing.T) {
	db := storetest.MustOpen(t)
	png := bytes.Repeat([]byte{0x89, 'P'}, 1000)
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	var ids []uint64
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for range 3 {
			id, err := tx.Enqueue(store.Mail{Kind: store.MailReport, Subject: "report", Body: []byte(`{"text":"big body"}`), Queued: t0})
			if err != nil {
				return err
			}
			ids = append(ids, id)
			if err := tx.PutRendered(id, store.Rendered{Text: "signed text", Picture: "pic1", MapFile: "m.png", SVGFile: "m.svg"}, png, svg); err != nil {
				return err
			}
		}
		return nil
	})
	stats := func() store.OutboxStats {
		var st store.OutboxStats
		storetest.MustView(t, db, func(tx *store.Tx) (err error) { st, err = tx.OutboxStats(); return err })
		return st
	}
	if st := stats(); st.Rendered != 3 || st.Pictures != 1 || st.Lanes[store.LaneReports].Queued != 3 || !st.Lanes[store.LaneReports].Oldest.Equal(t0) {
		t.Errorf("stats with 3 rendered reports: %+v", st)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		r, p, ok, err := tx.RenderedMail(ids[2])
		if err != nil || !ok || r.Text != "signed text" || !bytes.Equal(p, png) {
			t.Errorf("RenderedMail = %+v, %d bytes, %v, %v", r, len(p), ok, err)
		}
		if s, ok := tx.PictureSVG(r.Picture); !ok || r.SVGFile != "m.svg" || !bytes.Equal(s, svg) {
			t.Errorf("PictureSVG(%q) = %q, %v; SVGFile %q", r.Picture, s, ok, r.SVGFile)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.MarkSentDigest(ids[0], t0.Add(time.Hour), "d0"); err != nil {
			return err
		}
		return tx.MarkSentDigest(ids[1], t0.Add(48*time.Hour), "d1")
	})
	if st := stats(); st.Rendered != 1 || st.Pictures != 1 {
		t.Errorf("after two sends: %+v, want 1 rendered, the picture kept", st)
	}
	// Retention of 24 hours, at t0+49h: mail 0 is pruned, mail 1 not yet,
	// mail 2 (queued) never.
	now := t0.Add(49 * time.Hour)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		n, more, err := tx.Prune(now.Add(-24*time.Hour), now, 0)
		if err != nil || n != 1 || more {
			t.Errorf("Prune = %d, %v, %v; want 1, false", n, more, err)
		}
		return err
	})
	storetest.MustView(t, db, func(tx *store.Tx) error {
		m0, _ := tx.Mail(ids[0])
		m1, _ := tx.Mail(ids[1])
		m2, _ := tx.Mail(ids[2])
		if len(m0.Body) != 0 || !m0.Pruned.Equal(now) || m0.Digest != "d0" || m0.State != store.MailSent || m0.MessageID == "" {
			t.Errorf("pruned mail: %+v", m0)
		}
		if byID, err := tx.MailByMessageID(m0.MessageID); err != nil || byID.ID != ids[0] {
			t.Errorf("a pruned mail is no longer found by its Message-ID: %v", err)
		}
		if len(m1.Body) == 0 || len(m2.Body) == 0 {
			t.Error("a mail within the retention, or queued, lost its body")
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.MarkFailed(ids[2], "550 no", t0.Add(50*time.Hour)) })
	if st := stats(); st.Rendered != 0 || st.Pictures != 0 {
		t.Errorf("with nothing queued: %+v, want no rendering and no picture kept", st)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		if _, ok := tx.PictureSVG("pic1"); ok {
			t.Error("the picture's SVG is kept with no mail queued")
		}
		if _, ok := tx.Picture("pic1"); ok {
			t.Error("the picture's PNG is kept with no mail queued")
		}
		return nil
	})
}

// TestBackupAndCompact: a backup taken while the store is open and being
// written opens as a store holding what was committed; compaction refuses
// a store in use, and otherwise shrinks a store whose mail was pruned,
// keeps the old file and leaves a store that passes the check.
func TestBackupAndCompact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.Repeat([]byte("x"), 30000)
	sendReports(t, db, body)
	backup := filepath.Join(dir, "backup.db")
	if _, err := db.BackupFile(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Compact(path, store.Options{Timeout: 50 * time.Millisecond}); !errors.Is(err, store.ErrInUse) {
		t.Errorf("compacting a store in use: %v, want ErrInUse", err)
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		_, _, err := tx.Prune(t0.Add(time.Hour), t0.Add(time.Hour), 0)
		return err
	})
	db.Close()

	b, err := store.Open(backup, store.Options{})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	storetest.MustView(t, b, func(tx *store.Tx) error {
		m, err := tx.Mail(1000)
		if err != nil || len(m.Body) != len(body) {
			t.Errorf("mail 1000 in the backup: %d bytes, %v", len(m.Body), err)
		}
		return nil
	})
	if err := b.Check(); err != nil {
		t.Error(err)
	}
	b.Close()

	res, err := store.Compact(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.After*4 > res.Before {
		t.Errorf("compaction of a pruned store: %d -> %d bytes, want less than a quarter", res.Before, res.After)
	}
	if _, err := os.Stat(res.Kept); err != nil {
		t.Errorf("the old file is not kept: %v", err)
	}
	c, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(); err != nil {
		t.Error(err)
	}
	storetest.MustView(t, c, func(tx *store.Tx) error {
		m, err := tx.Mail(1000)
		if err != nil || m.State != store.MailSent || !m.Pruned.Equal(t0.Add(time.Hour)) {
			t.Errorf("mail 1000 after compaction: %+v, %v", m, err)
		}
		return nil
	})
}

// TestCompactWhileInUse: the judge compacts its own open store while
// mail is being queued and read. Nothing written before, during or after
// the swap is lost, the file at the store's path is the small copy, and
// what is written after the swap is in that file, not in the one kept.
func TestCompactWhileInUse(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	body := make([]byte, 20000)
	for i := range body {
		body[i] = byte(rnd.Uint32())
	}
	sendReports(t, db, body)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		_, _, err := tx.Prune(t0.Add(time.Hour), t0.Add(time.Hour), 0)
		return err
	})

	// A writer queues mail and a reader reads it back throughout.
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var written []uint64 // the mail of subject "receipt N" has id written[N]
	var errs []error
	wg.Go(func() {
		for ctx.Err() == nil {
			var id uint64
			subject := fmt.Sprintf("receipt %d", len(snapshot(&mu, &written)))
			err := db.Update(context.Background(), func(tx *store.Tx) (err error) {
				id, err = tx.Enqueue(store.Mail{Kind: store.MailReceipt, Subject: subject, Body: body[:700], Queued: t0})
				return err
			})
			mu.Lock()
			if err != nil {
				errs = append(errs, err)
			} else {
				written = append(written, id)
			}
			mu.Unlock()
		}
	})
	wg.Go(func() {
		for ctx.Err() == nil {
			err := db.View(context.Background(), func(tx *store.Tx) error {
				_, err := tx.Mail(1)
				return err
			})
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}
	})
	for len(snapshot(&mu, &written)) < 20 {
		time.Sleep(time.Millisecond)
	}
	res, err := db.Compact(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	during := len(snapshot(&mu, &written))
	for len(snapshot(&mu, &written)) < during+20 {
		time.Sleep(time.Millisecond)
	}
	stop()
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("transactions failed around the compaction: %v", errs)
	}
	if res.After*4 > res.Before {
		t.Errorf("compaction of a pruned store in use: %d -> %d bytes, want less than a quarter", res.Before, res.After)
	}
	if _, err := os.Stat(res.Kept); err != nil {
		t.Errorf("the old file is not kept: %v", err)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	c, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	storetest.MustView(t, c, func(tx *store.Tx) error {
		for n, id := range written {
			if m, err := tx.Mail(id); err != nil || m.Subject != fmt.Sprintf("receipt %d", n) || !bytes.Equal(m.Body, body[:700]) {
				t.Fatalf("receipt %d (mail %d), queued around the compaction, is not in the store's file: %q, %v", n, id, m.Subject, err)
			}
		}
		m, err := tx.Mail(1000)
		if err != nil || m.State != store.MailSent || !m.Pruned.Equal(t0.Add(time.Hour)) {
			t.Errorf("mail 1000 after compaction: %+v, %v", m, err)
		}
		return nil
	})
	t.Logf("%d mails queued around the compaction (%d before it ended); %d -> %d bytes", len(written), during, res.Before, res.After)
}

// sendReports queues 1,000 reports of body and marks them sent at t0, 50
// to a commit.
func sendReports(t *testing.T, db *store.DB, body []byte) {
	for range 20 {
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			for range 50 {
				id, err := tx.Enqueue(store.Mail{Kind: store.MailReport, Body: body, Queued: t0})
				if err != nil {
					return err
				}
				if err := tx.MarkSent(id, t0); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

func snapshot(mu *sync.Mutex, s *[]uint64) []uint64 {
	mu.Lock()
	defer mu.Unlock()
	return *s
}
