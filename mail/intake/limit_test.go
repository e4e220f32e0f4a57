package intake

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// sentTx records the mail queued through it; it is the one method of
// adjudicator.Tx the limit calls.
type sentTx struct {
	adjudicator.Tx
	sent []adjudicator.Mail
}

func (s *sentTx) Enqueue(m adjudicator.Mail) error { s.sent = append(s.sent, m); return nil }

// TestReplyLimit: a sender gets at most the limit's answers in any hour
// (counted by address, whatever its case), receipts for accepted orders
// always go, and an hour later answers go again.
func TestReplyLimit(t *testing.T) {
	limit := newRateLimit(3)
	start := time.Date(2025, 3, 3, 19, 0, 0, 0, time.UTC)
	out := &sentTx{}
	queued := false
	send := func(sender string, at time.Time, kind adjudicator.MailKind) {
		lt := &limitedTx{Tx: out, limit: limit, sender: sender, now: at, queued: &queued,
			log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if err := lt.Enqueue(adjudicator.Mail{Kind: kind, To: sender, Subject: "answer", InReplyTo: "m@players.test"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		send("Eve@example.org", start.Add(time.Duration(i)*time.Minute), adjudicator.MailError)
	}
	if len(out.sent) != 3 || !queued {
		t.Fatalf("%d of 5 answers queued in one hour, want 3", len(out.sent))
	}
	send("eve@EXAMPLE.org", start.Add(10*time.Minute), adjudicator.MailError)
	if len(out.sent) != 3 {
		t.Errorf("the same address in other case got a fourth answer")
	}
	send("eve@example.org", start.Add(11*time.Minute), adjudicator.MailReceipt)
	if len(out.sent) != 4 {
		t.Errorf("a receipt was held back by the reply limit")
	}
	send("bob@example.org", start.Add(12*time.Minute), adjudicator.MailError)
	if len(out.sent) != 5 {
		t.Errorf("another sender's answer was held back")
	}
	send("eve@example.org", start.Add(61*time.Minute), adjudicator.MailError)
	if len(out.sent) != 6 {
		t.Errorf("an answer an hour after the first was held back")
	}
	// The reports a sender's orders complete go to every seat and the game
	// master, the sender too, however many there are: they answer nothing.
	for i := range 30 {
		lt := &limitedTx{Tx: out, limit: limit, sender: "sam@example.org", now: start.Add(70 * time.Minute), queued: &queued,
			log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		for _, to := range []string{"sam@example.org", "olga@example.org", "gm@example.org"} {
			if err := lt.Enqueue(adjudicator.Mail{Kind: adjudicator.MailReport, To: to, Subject: fmt.Sprintf("step %d report", i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(out.sent) != 6+90 {
		t.Errorf("%d of 90 reports went out: reports are never held back by a sender's reply limit", len(out.sent)-6)
	}
}
