package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/web"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// queue is the store's outbox as mail.Outbox reads it. Mails are composed
// into MIME when they are taken, from what was queued; the Message-ID and
// Date come from the queued record, so every attempt sends the same mail.
type queue struct {
	db   *store.DB
	from string // the From header: "umpire <judge@example.org>"
	// key clear-signs the text of every mail, so that players can check
	// with gpg that a receipt or report came from the judge; nil sends
	// unsigned text.
	key *signature.ServerKey
	// reports renders queued reports into text, HTML and the map picture.
	reports *templates.Reports
	log     *slog.Logger
	// metrics, if set, counts mails sent and times report rendering.
	metrics *web.Metrics
}

func (q *queue) Due(ctx context.Context, now time.Time, limit int) ([]umail.Queued, error) {
	var due []store.Mail
	if err := q.db.View(ctx, func(tx *store.Tx) (err error) {
		due, err = tx.Due(now, limit)
		return err
	}); err != nil {
		return nil, err
	}
	out := make([]umail.Queued, 0, len(due))
	for _, m := range due {
		raw, err := q.compose(m)
		if err != nil {
			// The headers copied from the mail answered are the usual
			// culprits: compose it again without them, so that the player
			// still gets the answer, without the reference.
			q.logf("mail cannot be composed; sending it without the reference to the mail it answers",
				"mail", m.ID, "to", m.To, "subject", m.Subject, "in_reply_to", m.InReplyTo, "err", err)
			bare := m
			bare.InReplyTo, bare.References = "", nil
			raw, err = q.compose(bare)
		}
		if err != nil {
			// A mail that cannot be composed never will be: fail it now
			// rather than block the queue, and say why.
			q.logf("mail cannot be composed; it is given up", "mail", m.ID, "to", m.To, "subject", m.Subject, "err", err)
			if ferr := q.MarkFailed(ctx, m.ID, "cannot compose: "+err.Error(), now); ferr != nil {
				return nil, ferr
			}
			continue
		}
		env, _ := mail.ParseAddress(m.From)
		sender := m.From
		if env != nil {
			sender = env.Address
		}
		out = append(out, umail.Queued{ID: m.ID, MessageID: m.MessageID, From: sender, To: m.To, Raw: raw,
			Attempts: m.Attempts, Queued: m.Queued})
	}
	return out, nil
}

func (q *queue) logf(msg string, args ...any) {
	if q.log != nil {
		q.log.Error(msg, args...)
	}
}

// compose renders a queued mail as MIME. The ids it copies from the mail
// answered (In-Reply-To, References) are kept only when they can be
// written in a header; the subject is cleaned by message.Compose.
func (q *queue) compose(m store.Mail) ([]byte, error) {
	inReplyTo := strings.Trim(m.InReplyTo, "<>")
	if !message.MsgIDOK(inReplyTo) {
		inReplyTo = ""
	}
	var refs []string
	for _, r := range m.References {
		if r = strings.Trim(r, "<>"); message.MsgIDOK(r) {
			refs = append(refs, r)
		}
	}
	var body store.MailBody
	if err := json.Unmarshal(m.Body, &body); err != nil {
		return nil, fmt.Errorf("mail %d body: %w", m.ID, err)
	}
	from := q.from
	if from == "" {
		from = m.From
	}
	text := body.Text
	var htmlPart string
	var inline []message.Part
	if body.Report != nil && q.reports != nil {
		// A report that cannot be rendered goes out as its plain text:
		// a report is never held back by a template.
		start := time.Now()
		r, err := q.reports.Render(body.Report)
		q.metrics.Rendered("report", time.Since(start))
		if err != nil {
			if q.log != nil {
				q.log.Error("report template failed; sending plain text", "mail", m.ID, "err", err)
			}
		} else {
			text, htmlPart = r.Text, r.HTML
			if r.Map != nil {
				inline = append(inline, message.Part{Filename: r.MapFile, ContentType: "image/png", ContentID: r.MapCID, Data: r.Map})
			}
		}
	}
	if q.key != nil {
		// Signed as queued: every attempt sends the same bytes.
		signed, err := q.key.ClearSign([]byte(text), m.Queued)
		if err != nil {
			return nil, fmt.Errorf("mail %d: sign: %w", m.ID, err)
		}
		text = string(signed)
	}
	var headers map[string]string
	if m.InReplyTo == "" {
		// Reports, reminders and announcements answer no message of the
		// recipient's (RFC 3834 3.1.7).
		headers = map[string]string{"Auto-Submitted": "auto-generated"}
	}
	return message.Compose(message.Outgoing{
		From: from, To: m.To, Subject: m.Subject, MessageID: m.MessageID, InReplyTo: inReplyTo,
		References: refs, Date: m.Queued, Text: text, HTML: htmlPart, Inline: inline, Headers: headers,
	})
}

func (q *queue) MarkSent(ctx context.Context, id uint64, at time.Time) error {
	var kind store.MailKind
	err := q.db.Update(ctx, func(tx *store.Tx) error {
		if m, err := tx.Mail(id); err == nil {
			kind = m.Kind
		}
		return tx.MarkSent(id, at)
	})
	if err == nil {
		q.metrics.MailSent(string(kind))
	}
	return err
}

func (q *queue) MarkRetry(ctx context.Context, id uint64, reason string, next time.Time) error {
	return q.db.Update(ctx, func(tx *store.Tx) error { return tx.MarkRetry(id, reason, next) })
}

func (q *queue) MarkFailed(ctx context.Context, id uint64, reason string, at time.Time) error {
	return q.db.Update(ctx, func(tx *store.Tx) error { return tx.MarkFailed(id, reason, at) })
}
