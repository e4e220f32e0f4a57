package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// prerenderBatch is how many mails one prerender takes: a few dozen
// reports keep every core busy, and one commit keeps them all.
const prerenderBatch = 64

// Wake tells the renderer that a commit queued mail.
func (q *queue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Run renders the reports' lane ahead of its sending until ctx ends, so
// that the lane's SMTP connection is never idle while maps are drawn: it
// takes the due mails not rendered yet, renders them with every core, keeps
// them in the store, and pokes the lane.
func (q *queue) Run(ctx context.Context) error {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		n, err := q.renderAhead(ctx)
		if err != nil && ctx.Err() == nil {
			q.logf("rendering reports failed", "err", err)
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-q.wake:
		case <-t.C:
		}
	}
}

// renderAhead renders one batch of the reports' lane and returns how many
// mails it rendered.
func (q *queue) renderAhead(ctx context.Context) (int, error) {
	var due []store.Mail
	if err := q.db.View(ctx, func(tx *store.Tx) (err error) {
		due, err = tx.DueUnrendered(q.now(), prerenderBatch)
		return err
	}); err != nil || len(due) == 0 {
		return 0, err
	}
	n, err := q.prerender(ctx, due)
	if n > 0 && q.rendered != nil {
		q.rendered()
	}
	return n, err
}

// prerender renders the mails of ms that the store does not keep rendered
// yet and keeps them (store/rendered.go): each distinct picture is drawn
// once, by a pool of every core, and a picture the store keeps already
// (for another mail of the same step) is not drawn again. It returns how
// many mails it rendered.
func (q *queue) prerender(ctx context.Context, ms []store.Mail) (int, error) {
	q.renderMu.Lock()
	defer q.renderMu.Unlock()
	rs := q.templates() // one batch, one set of templates
	var todo []store.Mail
	var reports []*adjudicator.Report
	var at []int // index in reports of todo[i]'s report, or -1
	if err := q.db.View(ctx, func(tx *store.Tx) error {
		for _, m := range ms {
			if tx.IsRendered(m.ID) {
				continue
			}
			if now, err := tx.Mail(m.ID); err != nil || now.State != store.MailQueued {
				continue // sent meanwhile
			}
			var body store.MailBody
			if err := json.Unmarshal(m.Body, &body); err != nil {
				return fmt.Errorf("mail %d body: %w", m.ID, err)
			}
			todo = append(todo, m)
			if body.Report != nil && rs != nil {
				at = append(at, len(reports))
				reports = append(reports, body.Report)
			} else {
				at = append(at, -1)
			}
		}
		return nil
	}); err != nil || len(todo) == 0 {
		return 0, err
	}
	batch := &templates.Batch{}
	if len(reports) > 0 {
		known := func(digest string) templates.Picture {
			var pic templates.Picture
			_ = q.db.View(ctx, func(tx *store.Tx) error {
				if p, ok := tx.Picture(digest); ok {
					pic.PNG = append([]byte(nil), p...)
				}
				if s, ok := tx.PictureSVG(digest); ok {
					pic.SVG = append([]byte(nil), s...)
				}
				return nil
			})
			return pic
		}
		var err error
		start := time.Now()
		if batch, err = rs.RenderBatch(ctx, reports, known, 0); err != nil {
			return 0, err
		}
		each := time.Since(start) / time.Duration(len(reports))
		for range reports {
			q.metrics.Rendered("report", each)
		}
	}
	type done struct {
		rd  *store.Rendered
		pic templates.Picture
	}
	out := make([]done, len(todo))
	for i, m := range todo {
		var r *templates.Rendered
		var rerr error
		digest := ""
		if k := at[i]; k >= 0 {
			r, rerr, digest = batch.Rendered[k], batch.Errs[k], batch.Pictures[k]
		}
		rd, pic, err := q.render(m, r, rerr, digest)
		if err != nil {
			// Left unrendered: composing it at send time says why.
			q.logf("mail cannot be rendered", "mail", m.ID, "err", err)
			continue
		}
		out[i] = done{rd, pic}
	}
	n := 0
	err := q.db.Update(ctx, func(tx *store.Tx) error {
		n = 0
		for i, m := range todo {
			if out[i].rd == nil {
				continue
			}
			if err := tx.PutRendered(m.ID, *out[i].rd, out[i].pic.PNG, out[i].pic.SVG); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
