package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// spaceOf returns the room bucket name takes (zero if it has none).
func spaceOf(t *testing.T, db *store.DB, name string) store.BucketSpace {
	t.Helper()
	space, _, err := db.Space(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range space {
		if b.Name == name {
			return b
		}
	}
	return store.BucketSpace{Name: name}
}

// TestPrunedMailKeepsItsRecord: a pruned mail leaves the outbox; what a
// user or an auditor asks of it (who it went to, what it was, when it was
// queued and sent, the digest of what the server took, its Message-ID) is
// still read by id and by Message-ID, over many mails and chunks, and a
// Message-ID that only looks like one of ours finds nothing.
func TestPrunedMailKeepsItsRecord(t *testing.T) {
	t.Parallel()
	db := storetest.MustOpen(t)
	const n = 300
	sent := t0.Add(time.Hour)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for i := range n {
			m := store.Mail{Kind: store.MailReport, Game: fmt.Sprintf("g%d", i%7), To: []string{fmt.Sprintf("p%d@club.test", i)},
				From: "umpire <judge@club.test>", Subject: fmt.Sprintf("report %d", i), InReplyTo: "<orders@club.test>",
				References: []string{"<a@club.test>", "<orders@club.test>"}, Body: bytes.Repeat([]byte{'x'}, 2000), Queued: t0}
			if i == 5 {
				m.MessageID = "<given-5@club.test>"
			}
			id, err := tx.Enqueue(m)
			if err != nil {
				return err
			}
			if i%10 == 9 {
				if err := tx.MarkFailed(id, "550 no such user", sent); err != nil {
					return err
				}
				continue
			}
			if err := tx.MarkSentDigest(id, sent, fmt.Sprintf("%064x", i)); err != nil {
				return err
			}
		}
		return nil
	})
	before := spaceOf(t, db, "outbox")
	prunedAt := t0.Add(48 * time.Hour)
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		got, more, err := tx.Prune(prunedAt.Add(-24*time.Hour), prunedAt, 0)
		if got != n || more {
			t.Errorf("Prune = %d, %v; want %d, false", got, more, n)
		}
		return err
	})
	if after := spaceOf(t, db, "outbox"); after.Keys != 0 {
		t.Errorf("the outbox still holds %d of %d pruned mails", after.Keys, before.Keys)
	}
	records := spaceOf(t, db, "mail-records")
	if per := records.Pages / n; per > 150 {
		t.Errorf("the records of %d pruned mails take %d bytes of pages, %d a mail; want at most 150", n, records.Pages, per)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		for i := range n {
			id := uint64(i + 1)
			m, err := tx.Mail(id)
			if err != nil {
				t.Fatalf("pruned mail %d: %v", id, err)
			}
			wantState, wantDigest, wantErr := store.MailSent, fmt.Sprintf("%064x", i), ""
			if i%10 == 9 {
				wantState, wantDigest, wantErr = store.MailFailed, "", "550 no such user"
			}
			if m.ID != id || m.Subject != fmt.Sprintf("report %d", i) || len(m.To) != 1 || m.To[0] != fmt.Sprintf("p%d@club.test", i) ||
				m.Game != fmt.Sprintf("g%d", i%7) || m.Kind != store.MailReport || m.From != "umpire <judge@club.test>" ||
				m.InReplyTo != "<orders@club.test>" || m.State != wantState || m.Digest != wantDigest || m.LastError != wantErr ||
				m.Attempts != 1 || !m.Queued.Equal(t0) || !m.Pruned.Equal(prunedAt) || len(m.Body) != 0 || m.Lane != store.LaneAnswers {
				t.Fatalf("pruned mail %d reads %+v", id, m)
			}
			if wantState == store.MailSent && !m.Sent.Equal(sent) || wantState == store.MailFailed && !m.Failed.Equal(sent) {
				t.Fatalf("pruned mail %d: sent %v, failed %v; want %v", id, m.Sent, m.Failed, sent)
			}
			byID, err := tx.MailByMessageID(m.MessageID)
			if err != nil || byID.ID != id {
				t.Fatalf("pruned mail %d by its Message-ID %s: %d, %v", id, m.MessageID, byID.ID, err)
			}
		}
		if m, _ := tx.Mail(6); m.MessageID != "<given-5@club.test>" {
			t.Errorf("a given Message-ID became %s", m.MessageID)
		}
		m7, _ := tx.Mail(7)
		forged := m7.MessageID[:len("<umpire-out-7.")] + "0000000000000000@umpire.invalid>"
		if m, err := tx.MailByMessageID(forged); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a made-up Message-ID %s found mail %d (%v)", forged, m.ID, err)
		}
		if _, err := tx.MailByMessageID("<umpire-out-99999.0000000000000000@umpire.invalid>"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a Message-ID of no mail: %v, want ErrNotFound", err)
		}
		if _, err := tx.Mail(n + 1); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("mail %d was never queued: %v, want ErrNotFound", n+1, err)
		}
		return nil
	})
	// Pruned mail is done: it cannot be marked again or released.
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		if err := tx.MarkSent(1, prunedAt); !errors.Is(err, store.ErrNotQueued) {
			t.Errorf("marking a pruned mail sent again: %v, want ErrNotQueued", err)
		}
		if _, err := tx.Release(1); !errors.Is(err, store.ErrConflict) {
			t.Errorf("releasing a pruned mail: %v, want ErrConflict", err)
		}
		return nil
	})
}

// TestRetentionBoundsTheStore: a judge that sends the same mail every day
// and prunes what is older than the retention keeps a store of the same
// size from day to day once the retention is reached; only the records,
// tens of bytes a mail, grow.
func TestRetentionBoundsTheStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const (
		days      = 30
		perDay    = 400
		retention = 3 * 24 * time.Hour
	)
	// A body of random words: it compresses about as much as a report's.
	rnd := rand.New(rand.NewPCG(1, 2))
	var body []byte
	for len(body) < 3000 {
		body = append(body, []string{"hex", "0412", "moves", "to", "attack", "odds", "3:1", "retreats", "unit", "A1", "B2"}[rnd.IntN(11)]...)
		body = append(body, ' ')
	}
	var sizes []int64
	pruned := 0
	for day := range days {
		now := t0.Add(time.Duration(day) * 24 * time.Hour)
		for batch := range perDay / 100 {
			storetest.MustUpdate(t, db, func(tx *store.Tx) error {
				for i := range 100 {
					at := now.Add(time.Duration(batch*100+i) * time.Minute)
					id, err := tx.Enqueue(store.Mail{Kind: store.MailReport, Game: "g", To: []string{"p@club.test"},
						Subject: fmt.Sprintf("umpire: g step %d", day), Body: body, Queued: at})
					if err != nil {
						return err
					}
					if err := tx.MarkSentDigest(id, at, fmt.Sprintf("%064x", id)); err != nil {
						return err
					}
				}
				return nil
			})
		}
		end := now.Add(24 * time.Hour)
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			n, _, err := tx.Prune(end.Add(-retention), end, 0)
			pruned += n
			return err
		})
		sizes = append(sizes, db.Size())
	}
	atRetention := sizes[int(retention/(24*time.Hour))+1]
	last := sizes[len(sizes)-1]
	records := spaceOf(t, db, "mail-records")
	t.Logf("store size by day, bytes: %v; records of %d pruned mails: %d bytes of pages", sizes, pruned, records.Pages)
	// Past the retention, each day's mail takes the room the day pruned:
	// the file grows only by what stays of a pruned mail.
	after := perDay * (days - int(retention/(24*time.Hour)) - 2)
	if per := (last - atRetention) / int64(after); per > 150 {
		t.Errorf("the store grew from %d bytes when the retention was reached to %d after %d days: %d bytes for each of the %d mails sent since, want at most 150",
			atRetention, last, days, per, after)
	}
	if per := records.Pages / int64(pruned); per > 150 {
		t.Errorf("a pruned mail's record takes %d bytes of pages; want at most 150", per)
	}
	if outbox := spaceOf(t, db, "outbox"); outbox.Keys > perDay*int(retention/(24*time.Hour)) {
		t.Errorf("the outbox holds %d mails, more than the retention's %d", outbox.Keys, perDay*3)
	}
}
