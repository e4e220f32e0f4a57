package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// ids returns the ids of mails.
func ids(mails []store.Mail) []uint64 {
	out := []uint64{}
	for _, m := range mails {
		out = append(out, m.ID)
	}
	return out
}

func TestEnqueueAssignsStableMessageIDs(t *testing.T) {
	messageID := func(db *store.DB) string {
		var m store.Mail
		storetest.MustUpdate(t, db, func(tx *store.Tx) error {
			id, err := tx.Enqueue(store.Mail{Kind: store.MailReceipt, To: []string{"p@example.org"}})
			if err == nil {
				m, err = tx.Mail(id)
			}
			return err
		})
		return m.MessageID
	}
	form := regexp.MustCompile(`^<umpire-out-(\d+)\.([0-9a-f]{16})@([a-z.]+)>$`)
	db := storetest.MustOpen(t)
	a, b := form.FindStringSubmatch(messageID(db)), form.FindStringSubmatch(messageID(db))
	if a == nil || b == nil || a[1] != "1" || b[1] != "2" || a[2] == b[2] || a[3] != "umpire.invalid" {
		t.Fatalf("assigned Message-IDs %q and %q, want <umpire-out-ID.PART@umpire.invalid>", a, b)
	}

	path := filepath.Join(t.TempDir(), "other.db")
	other, err := store.Open(path, store.Options{Host: "judge.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c := form.FindStringSubmatch(messageID(other))
	if c == nil || c[1] != "1" || c[2] == a[2] || c[3] != "judge.example.org" {
		t.Errorf("mail 1 of another store has Message-ID %q (first store's: %q); want its own part and host", c, a)
	}

	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		id, err := tx.Enqueue(store.Mail{MessageID: "<given@example.org>"})
		if err == nil {
			var m store.Mail
			if m, err = tx.Mail(id); m.MessageID != "<given@example.org>" {
				t.Errorf("given Message-ID replaced by %q", m.MessageID)
			}
		}
		return err
	})
}

func TestOutboxDueAndMarks(t *testing.T) {
	db := storetest.MustOpen(t)
	now := t0
	queued := []store.Mail{
		{Kind: store.MailReceipt, Game: "g", To: []string{"nato@example.org"}, From: "judge@example.org",
			Subject: "Receipt", InReplyTo: "<o1@example.org>", References: []string{"<o1@example.org>"},
			Body: []byte("Your orders were accepted.\r\n"), Queued: now},
		{Kind: store.MailReminder, Subject: "later", NextAttempt: now.Add(time.Hour), Queued: now},
		{Kind: store.MailReport, Subject: "report", NextAttempt: now.Add(-time.Minute), Queued: now},
	}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for i := range queued {
			id, err := tx.Enqueue(queued[i])
			if err != nil {
				return err
			}
			m, err := tx.Mail(id)
			if err != nil {
				return err
			}
			queued[i].ID, queued[i].MessageID, queued[i].State, queued[i].Lane = id, m.MessageID, store.MailQueued, []store.Lane{store.LaneAnswers, store.LaneReports, store.LaneReports}[i]
			if !reflect.DeepEqual(m, queued[i]) {
				t.Errorf("Mail(%d) = %+v\nwant %+v", id, m, queued[i])
			}
		}
		return nil
	})
	due := func(at time.Time, limit int) []uint64 {
		var mails []store.Mail
		storetest.MustView(t, db, func(tx *store.Tx) (err error) {
			mails, err = tx.Due(at, limit)
			return err
		})
		return ids(mails)
	}
	mail := func(id uint64) store.Mail {
		var m store.Mail
		storetest.MustView(t, db, func(tx *store.Tx) (err error) {
			m, err = tx.Mail(id)
			return err
		})
		return m
	}
	mark := func(f func(*store.Tx) error) error { return db.Update(t.Context(), f) }

	if got := due(now, 0); !reflect.DeepEqual(got, []uint64{1, 3}) {
		t.Errorf("Due(now) = %v, want [1 3]", got)
	}
	if got := due(now, 1); !reflect.DeepEqual(got, []uint64{1}) {
		t.Errorf("Due(now, 1) = %v, want [1]", got)
	}

	sentAt := now.Add(time.Second)
	if err := mark(func(tx *store.Tx) error { return tx.MarkSent(1, sentAt) }); err != nil {
		t.Fatal(err)
	}
	if got := due(now.Add(24*time.Hour), 0); !reflect.DeepEqual(got, []uint64{2, 3}) {
		t.Errorf("Due after MarkSent(1) = %v, want [2 3]", got)
	}
	if m := mail(1); m.State != store.MailSent || !m.Sent.Equal(sentAt) || m.Attempts != 1 {
		t.Errorf("sent mail = %+v", m)
	}
	if err := mark(func(tx *store.Tx) error { return tx.MarkSent(1, sentAt) }); !errors.Is(err, store.ErrNotQueued) {
		t.Errorf("MarkSent of a sent mail: error = %v, want ErrNotQueued", err)
	}

	retry := now.Add(10 * time.Minute)
	if err := mark(func(tx *store.Tx) error { return tx.MarkRetry(3, "421 try later", retry) }); err != nil {
		t.Fatal(err)
	}
	if got := due(now, 0); len(got) != 0 {
		t.Errorf("Due(now) after MarkRetry(3) = %v, want none", got)
	}
	if got := due(retry, 0); !reflect.DeepEqual(got, []uint64{3}) {
		t.Errorf("Due(retry time) = %v, want [3]", got)
	}
	if m := mail(3); m.State != store.MailQueued || m.Attempts != 1 || m.LastError != "421 try later" || !m.NextAttempt.Equal(retry) {
		t.Errorf("retried mail = %+v", m)
	}

	failedAt := retry.Add(time.Second)
	if err := mark(func(tx *store.Tx) error { return tx.MarkFailed(3, "550 no such user", failedAt) }); err != nil {
		t.Fatal(err)
	}
	if got := due(now.Add(24*time.Hour), 0); !reflect.DeepEqual(got, []uint64{2}) {
		t.Errorf("Due after MarkFailed(3) = %v, want [2]", got)
	}
	if m := mail(3); m.State != store.MailFailed || m.Attempts != 2 || m.LastError != "550 no such user" || !m.Failed.Equal(failedAt) {
		t.Errorf("failed mail = %+v", m)
	}
	if err := mark(func(tx *store.Tx) error { return tx.MarkRetry(3, "x", now) }); !errors.Is(err, store.ErrNotQueued) {
		t.Errorf("MarkRetry of a failed mail: error = %v, want ErrNotQueued", err)
	}
	if err := mark(func(tx *store.Tx) error { return tx.MarkSent(99, now) }); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("MarkSent(99): error = %v, want ErrNotFound", err)
	}
}

// TestBodiesKeptCompressed: a report's body and rendering are kept
// compressed, so a report of several kilobytes takes less than a page of
// the file, and read back byte for byte through every change of state: a
// retry, a hold and its release, the rendering, the send.
func TestBodiesKeptCompressed(t *testing.T) {
	t.Parallel()
	db := storetest.MustOpen(t)
	var body []byte
	for i := 0; len(body) < 6000; i++ {
		body = fmt.Appendf(body, `{"unit":"A%d","hex":"%04d","result":"retreats %d hexes"},`, i, i*37%4000, i%3)
	}
	text := strings.Repeat("Situation report: the front holds at 0412.\n", 150)
	const n = 200
	var ids []uint64
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		for i := range n {
			m := store.Mail{Kind: store.MailReport, Subject: "report", Body: body, Queued: t0}
			if i == 0 {
				m.State = store.MailHeld
			}
			id, err := tx.Enqueue(m)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		if _, err := tx.Release(ids[0]); err != nil {
			return err
		}
		if err := tx.MarkRetry(ids[1], "451 later", t0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.PutRendered(ids[2], store.Rendered{Text: text, HTML: "<pre>" + text + "</pre>"}, nil, nil)
	})
	if outbox := spaceOf(t, db, "outbox"); outbox.Pages >= n*4096 {
		t.Errorf("%d reports of %d bytes take %d bytes of pages: a page or more each", n, len(body), outbox.Pages)
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		for _, id := range ids[:3] {
			m, err := tx.Mail(id)
			if err != nil || !bytes.Equal(m.Body, body) || m.State != store.MailQueued {
				t.Errorf("mail %d reads back %d bytes, %s, %v; want its %d bytes, queued", id, len(m.Body), m.State, err, len(body))
			}
		}
		r, _, ok, err := tx.RenderedMail(ids[2])
		if err != nil || !ok || r.Text != text || r.HTML != "<pre>"+text+"</pre>" {
			t.Errorf("the rendering reads back %d bytes of text, %v, %v", len(r.Text), ok, err)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.MarkSentDigest(ids[1], t0.Add(time.Hour), "d") })
	storetest.MustView(t, db, func(tx *store.Tx) error {
		m, err := tx.Mail(ids[1])
		if err != nil || !bytes.Equal(m.Body, body) || m.State != store.MailSent || m.Attempts != 2 || m.LastError != "451 later" {
			t.Errorf("after a retry and the send: %d bytes, %s, %d attempts, %q, %v", len(m.Body), m.State, m.Attempts, m.LastError, err)
		}
		return nil
	})
}
