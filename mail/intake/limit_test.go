package intake

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// countTx keeps the reply counts in memory and records the mail queued
// through it: the methods of the store transaction the limit calls. The
// store's own records are tested through the judge daemon in cmd/umpire.
type countTx struct {
	storeTx
	adjudicator.Tx
	counts map[string][]time.Time
	sent   []adjudicator.Mail
}

func (c *countTx) Enqueue(m adjudicator.Mail) error { c.sent = append(c.sent, m); return nil }
func (c *countTx) Replies(who string) ([]time.Time, error) {
	return append([]time.Time(nil), c.counts[who]...), nil
}
func (c *countTx) PutReplies(who string, s []time.Time) error { c.counts[who] = s; return nil }

type storeTx = Tx

// TestReplyLimit: one sender gets at most the limit's answers in any hour,
// counted once per message; what is over the limit is held, not dropped;
// mail without a Limit (reports, announcements, receipts for accepted
// orders) always goes; an hour later answers go again.
func TestReplyLimit(t *testing.T) {
	start := time.Date(2025, 3, 3, 19, 0, 0, 0, time.UTC)
	out := &countTx{counts: map[string][]time.Time{}}
	queued := false
	message := func(at time.Time, ms ...adjudicator.Mail) {
		lt := &limitedTx{Tx: out, counts: out, max: 3, now: at, queued: &queued,
			log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		for _, m := range ms {
			if err := lt.Enqueue(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	answer := adjudicator.Mail{Kind: adjudicator.MailError, To: "eve@example.org", Limit: "address eve@example.org"}
	for i := range 5 {
		message(start.Add(time.Duration(i)*time.Minute), answer)
	}
	held := func() (n int) {
		for _, m := range out.sent {
			if m.Held != "" {
				n++
			}
		}
		return n
	}
	if len(out.sent) != 5 || held() != 2 || !queued {
		t.Fatalf("%d answers, %d held, want 5 with 2 held", len(out.sent), held())
	}
	// A report to every seat and the GM's announcement go, whatever the count.
	message(start.Add(6*time.Minute), adjudicator.Mail{Kind: adjudicator.MailReport, To: "eve@example.org"},
		adjudicator.Mail{Kind: adjudicator.MailAnnouncement, To: "gm@example.org"})
	if held() != 2 {
		t.Errorf("a report or an announcement was held back")
	}
	// One message counts once: a roll's mail to five parties for bob.
	var roll []adjudicator.Mail
	for range 5 {
		roll = append(roll, adjudicator.Mail{Kind: adjudicator.MailAnnouncement, To: "x@example.org", Limit: "key BOB"})
	}
	message(start.Add(7*time.Minute), roll...)
	if got := len(out.counts["key BOB"]); got != 1 || held() != 2 {
		t.Errorf("one message counted %d times against its sender", got)
	}
	// An hour after the first answer, answers go again.
	message(start.Add(61*time.Minute), answer)
	if held() != 2 || out.sent[len(out.sent)-1].Held != "" {
		t.Errorf("an answer an hour after the first was held back")
	}
}
