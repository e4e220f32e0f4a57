package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
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
	// reports renders queued reports into text, HTML and the map picture;
	// reloaded, once set, replaces it (Daemon.Reload, on SIGHUP).
	reports  *templates.Reports
	reloaded atomic.Pointer[templates.Reports]
	log      *slog.Logger

	// prerender.go: the reports' lane rendered ahead of sending.
	now      func() time.Time
	renderMu sync.Mutex    // one prerender at a time: nothing is drawn twice
	wake     chan struct{} // a commit queued mail
	rendered func()        // called when mails were rendered: pokes the reports' lane
	// metrics, if set, counts mails sent and times report rendering.
	metrics *web.Metrics
}

// Due returns the mails of lane due at now, composed. Reports not rendered
// yet are rendered first (prerender), and every mail whose rendering the
// store keeps is composed from it.
func (q *queue) Due(ctx context.Context, lane umail.Lane, now time.Time, limit int) ([]umail.Queued, error) {
	var due []store.Mail
	if err := q.db.View(ctx, func(tx *store.Tx) (err error) {
		due, err = tx.DueLane(store.Lane(lane), now, limit)
		return err
	}); err != nil {
		return nil, err
	}
	if lane == umail.LaneReports {
		if _, err := q.prerender(ctx, due); err != nil {
			return nil, err
		}
	}
	out := make([]umail.Queued, 0, len(due))
	for _, m := range due {
		var rd *store.Rendered
		var pic templates.Picture
		if err := q.db.View(ctx, func(tx *store.Tx) error {
			r, p, ok, err := tx.RenderedMail(m.ID)
			if ok {
				rd, pic.PNG = &r, bytes.Clone(p)
				if s, ok := tx.PictureSVG(r.Picture); ok && r.SVGFile != "" {
					pic.SVG = bytes.Clone(s)
				}
			}
			return err
		}); err != nil {
			return nil, err
		}
		raw, err := q.compose(m, rd, pic)
		if err != nil {
			// The headers copied from the mail answered are the usual
			// culprits: compose it again without them, so that the player
			// still gets the answer, without the reference.
			q.logf("mail cannot be composed; sending it without the reference to the mail it answers",
				"mail", m.ID, "to", m.To, "subject", m.Subject, "in_reply_to", m.InReplyTo, "err", err)
			bare := m
			bare.InReplyTo, bare.References = "", nil
			raw, err = q.compose(bare, rd, pic)
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

// compose renders a queued mail as MIME: from its rendering rd (with the
// picture pic) when the store keeps one, or from its body. The PNG goes
// inline, for the HTML part to show; the SVG is attached beside it (mail
// clients do not show SVG inline: docs/templates.md). The ids it copies
// from the mail answered (In-Reply-To, References) are kept only when they
// can be written in a header; the subject is cleaned by message.Compose.
func (q *queue) compose(m store.Mail, rd *store.Rendered, pic templates.Picture) ([]byte, error) {
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
	from := q.from
	if from == "" {
		from = m.From
	}
	if rd == nil {
		var err error
		if rd, pic, err = q.render(m, nil, nil, ""); err != nil {
			return nil, err
		}
	}
	var inline []message.Part
	if rd.Picture != "" && pic.PNG != nil {
		inline = append(inline, message.Part{Filename: rd.MapFile, ContentType: "image/png", ContentID: rd.MapCID, Data: pic.PNG})
	}
	// The files an answer attaches (the judge's key) stay in its body: a
	// rendering keeps the text, the HTML and the picture only. A body
	// without them (every report) is not read again.
	var body struct {
		Files []adjudicator.File `json:"files"`
	}
	if bytes.Contains(m.Body, []byte(`"files":`)) {
		if err := json.Unmarshal(m.Body, &body); err != nil {
			return nil, fmt.Errorf("mail %d body: %w", m.ID, err)
		}
	}
	var files []message.Part
	if rd.Picture != "" && rd.SVGFile != "" && pic.SVG != nil {
		files = append(files, message.Part{Filename: rd.SVGFile, ContentType: "image/svg+xml", Data: pic.SVG})
	}
	for _, f := range body.Files {
		files = append(files, message.Part{Filename: f.Name, ContentType: f.Type, Data: f.Data})
	}
	var sign func([]byte) ([]byte, error)
	if q.key != nil && (rd.HTML != "" || len(inline)+len(files) > 0) {
		// More than a text: the whole mail is signed as PGP/MIME, so
		// that the HTML, the picture and the files are covered too; the
		// text inside stays clear-signed for readers without PGP/MIME.
		sign = func(entity []byte) ([]byte, error) { return q.key.DetachSign(entity, m.Queued) }
	}
	var headers map[string]string
	if m.InReplyTo == "" {
		// Reports, reminders and announcements answer no message of the
		// recipient's (RFC 3834 3.1.7).
		headers = map[string]string{"Auto-Submitted": "auto-generated"}
	}
	return message.Compose(message.Outgoing{
		From: from, To: m.To, Subject: m.Subject, MessageID: m.MessageID, InReplyTo: inReplyTo,
		References: refs, Date: m.Queued, Text: rd.Text, HTML: rd.HTML, Inline: inline, Attachments: files, Headers: headers,
		Sign: sign, MICAlg: signature.MICAlg,
	})
}

// render makes what mail m sends: its text, signed, and for a report the
// HTML and the map, from r when it is rendered already (nil: rendered
// here) or, failing that, the plain text: a report is never held back by a
// template.
func (q *queue) render(m store.Mail, r *templates.Rendered, rerr error, digest string) (*store.Rendered, templates.Picture, error) {
	var pic templates.Picture
	var body store.MailBody
	if err := json.Unmarshal(m.Body, &body); err != nil {
		return nil, pic, fmt.Errorf("mail %d body: %w", m.ID, err)
	}
	rd := &store.Rendered{Text: body.Text}
	if rs := q.templates(); body.Report != nil && rs != nil {
		if r == nil && rerr == nil {
			start := time.Now()
			r, rerr = rs.Render(body.Report)
			q.metrics.Rendered("report", time.Since(start))
		}
		if rerr != nil {
			q.logf("report template failed; sending plain text", "mail", m.ID, "err", rerr)
		} else {
			rd.Text, rd.HTML = r.Text, r.HTML
			if r.Map != nil {
				if digest == "" {
					digest = templates.PictureDigest(body.Report.Picture)
				}
				rd.Picture, rd.MapFile, rd.MapCID, pic.PNG = digest, r.MapFile, r.MapCID, r.Map
				if r.SVG != nil {
					rd.SVGFile, pic.SVG = r.SVGFile, r.SVG
				}
			}
		}
	}
	if q.key != nil {
		// Signed as queued: every attempt sends the same bytes.
		signed, err := q.key.ClearSign([]byte(rd.Text), m.Queued)
		if err != nil {
			return nil, pic, fmt.Errorf("mail %d: sign: %w", m.ID, err)
		}
		rd.Text = string(signed)
	}
	return rd, pic, nil
}

// MarkSent records the mails the server accepted in one commit; one
// recorded already (a send repeated after a crash) is left as it is.
func (q *queue) MarkSent(ctx context.Context, sent []umail.Sent) error {
	var kinds []store.MailKind
	err := q.db.Update(ctx, func(tx *store.Tx) error {
		kinds = kinds[:0]
		for _, s := range sent {
			if m, err := tx.Mail(s.ID); err == nil {
				kinds = append(kinds, m.Kind)
			}
			if err := tx.MarkSentDigest(s.ID, s.At, s.Digest); err != nil && !errors.Is(err, store.ErrNotQueued) {
				return err
			}
		}
		return nil
	})
	if err == nil {
		for _, k := range kinds {
			q.metrics.MailSent(string(k))
		}
	}
	return err
}

func (q *queue) MarkRetry(ctx context.Context, id uint64, reason string, next time.Time) error {
	return q.db.Update(ctx, func(tx *store.Tx) error { return tx.MarkRetry(id, reason, next) })
}

func (q *queue) MarkFailed(ctx context.Context, id uint64, reason string, at time.Time) error {
	return q.db.Update(ctx, func(tx *store.Tx) error { return tx.MarkFailed(id, reason, at) })
}

// templates are the report templates in use: those last reread, else those
// the queue was made with.
func (q *queue) templates() *templates.Reports {
	if rs := q.reloaded.Load(); rs != nil {
		return rs
	}
	return q.reports
}
