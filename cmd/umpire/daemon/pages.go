package daemon

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// Pages links each step report to its step's public web page
// (GAME/steps/N under base, the [web] base_url), for the report templates
// (templates.WithPages): nil when the judge has no public address. A game
// kept off the lists (unlisted) gets no link, and neither does a briefing
// or a map of where things stand. A report whose map is not the public
// page's (a seat's own view under fog of war, or drawn on map art the
// pages do not show) is told that the page is the public one: the link
// never puts a seat's own picture on the web, it only points at what the
// pages show anyone.
func Pages(db *store.DB, j *adjudicator.Judge, from, base string, now func() time.Time) templates.Pages {
	if base == "" {
		return nil
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	type key struct {
		game string
		step uint64
	}
	type public struct {
		listed bool
		digest string
	}
	var mu sync.Mutex
	seen := map[key]public{}
	return func(r *adjudicator.Report) (string, bool) {
		if r.Lead != "" || r.Snapshot || r.Step == 0 || r.Game == "" {
			return "", false
		}
		k := key{r.Game, r.Step}
		mu.Lock()
		p, ok := seen[k]
		mu.Unlock()
		if !ok {
			// a short read: not tied to a request's context.
			err := db.View(context.Background(), func(stx *store.Tx) error {
				tx := stx.Judge(from, now())
				g, err := tx.Game(r.Game)
				if err != nil {
					return err
				}
				if p.listed = !adjudicator.Unlisted(g); !p.listed {
					return nil
				}
				spec, err := j.BuildReport(tx, r.Game, r.Step, adjudicator.Spectator)
				if err != nil {
					return err
				}
				if spec.Picture != nil {
					p.digest = templates.PictureDigest(spec.Picture)
				}
				return nil
			})
			if err != nil {
				return "", false
			}
			mu.Lock()
			if len(seen) > 1024 {
				clear(seen)
			}
			seen[k] = p
			mu.Unlock()
		}
		if !p.listed {
			return "", false
		}
		differs := r.Picture != nil && templates.PictureDigest(r.Picture) != p.digest
		return base + "games/" + url.PathEscape(r.Game) + "/steps/" + fmt.Sprint(r.Step), differs
	}
}

// baseURL is the pages' public address, "" when the judge has none (no
// [web] section, or no base_url in it).
func (w *WebConfig) baseURL() string {
	if w == nil {
		return ""
	}
	return w.BaseURL
}
