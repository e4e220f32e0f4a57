package intake

import (
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// limitedTx holds back answers to a sender who has had too many this hour,
// so that a broken auto-responder cannot make the judge a mail cannon.
// Receipts for accepted orders always go, and so does every mail that is
// not an answer to the sender: the reports and announcements a message
// causes go to every seat and are never the sender's to use up.
type limitedTx struct {
	adjudicator.Tx
	limit  *rateLimit
	sender string
	now    time.Time
	log    *slog.Logger
	queued *bool
}

func (l *limitedTx) Enqueue(m adjudicator.Mail) error {
	answer := m.InReplyTo != "" && strings.EqualFold(m.To, l.sender)
	if answer && m.Kind != adjudicator.MailReceipt && !l.limit.allow(strings.ToLower(l.sender), l.now) {
		l.log.Warn("answer held back: sender over the hourly reply limit", "to", m.To, "subject", m.Subject)
		return nil
	}
	*l.queued = true
	return l.Tx.Enqueue(m)
}

// rateLimit counts answers per sender over a sliding hour.
type rateLimit struct {
	mu    sync.Mutex
	max   int
	sends map[string][]time.Time
}

// newRateLimit allows perHour answers per sender in any hour; zero means 20.
func newRateLimit(perHour int) *rateLimit {
	if perHour == 0 {
		perHour = 20
	}
	return &rateLimit{max: perHour, sends: map[string][]time.Time{}}
}

func (r *rateLimit) allow(sender string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	recent := r.sends[sender][:0]
	for _, t := range r.sends[sender] {
		if now.Sub(t) < time.Hour {
			recent = append(recent, t)
		}
	}
	if len(recent) >= r.max {
		r.sends[sender] = recent
		return false
	}
	r.sends[sender] = append(recent, now)
	return true
}
