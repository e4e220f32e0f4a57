package intake

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// DefaultRepliesPerHour is how many answers one sender gets in an hour
// when the configuration says nothing.
const DefaultRepliesPerHour = 20

// limitedTx holds back answers to a sender who has had too many this hour,
// so that nobody can make the judge a mail cannon: not a broken
// auto-responder, not someone sending refused orders by the hundred with
// a Reply-To aimed at a victim. Only answers to the sender count (the
// adjudicator marks them with Mail.Limit): the verified key of a signed
// message, the address of an unsigned one. Reports, announcements and
// receipts for accepted orders always go.
//
// The count is kept in the store, in the transaction that handles the
// message, so it survives a restart and a crash rolls it back with the
// rest. One message counts once against each sender, however many mails it
// causes (a witnessed roll mails every party). What is held back is logged
// and kept in the store, marked held, for the operator (umpire mail held).
type limitedTx struct {
	adjudicator.Tx
	counts  Tx // the same transaction, as the intake sees it
	max     int
	now     time.Time
	log     *slog.Logger
	queued  *bool
	decided map[string]bool // per sender: this message's answers go
}

func (l *limitedTx) Enqueue(m adjudicator.Mail) error {
	if m.Limit != "" {
		ok, err := l.allow(m.Limit)
		if err != nil {
			return err
		}
		if !ok {
			m.Held = fmt.Sprintf("held back: %s had %d answers in the last hour (limits.replies_per_hour)", m.Limit, l.max)
			l.log.Warn("answer held back: sender over the hourly reply limit", "counted", m.Limit, "to", m.To,
				"subject", m.Subject, "limit", l.max)
			return l.Tx.Enqueue(m)
		}
	}
	*l.queued = true
	return l.Tx.Enqueue(m)
}

// allow reports whether who may have an answer now, and counts it once
// for the message being handled.
func (l *limitedTx) allow(who string) (bool, error) {
	if ok, seen := l.decided[who]; seen {
		return ok, nil
	}
	sends, err := l.counts.Replies(who)
	if err != nil {
		return false, err
	}
	recent := sends[:0]
	for _, t := range sends {
		if l.now.Sub(t) < time.Hour && !t.After(l.now) {
			recent = append(recent, t)
		}
	}
	ok := len(recent) < l.max
	if ok {
		recent = append(recent, l.now)
	}
	if l.decided == nil {
		l.decided = map[string]bool{}
	}
	l.decided[who] = ok
	return ok, l.counts.PutReplies(who, recent)
}
