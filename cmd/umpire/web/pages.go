package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates/site"
)

// page is what the layout of every page reads.
type page struct {
	Root  string
	Title string
}

type gamesPage struct {
	page
	Games []GameSummary
}

type gamePage struct {
	page
	Game *GameView
}

type stepPage struct {
	page
	Game       GameSummary
	Step       *StepView
	Steps      []StepLink
	Prev, Next uint64
}

type verifyPage struct {
	page
	Game    string
	LogURL  string
	LogName string
}

type errorPage struct {
	page
	Status  int
	Heading string
	Message string
}

// render writes a page; a failure to render is a 500.
func (s *Server) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	start := time.Now()
	var buf bytes.Buffer
	if err := s.pages.Render(&buf, name, data); err != nil {
		s.internal(w, r, err)
		return
	}
	s.cfg.Metrics.Rendered("page", time.Since(start))
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.Write(buf.Bytes())
}

// fail answers with an error page (or JSON under /api/).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if isAPI(r) {
		h.Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]any{"error": msg, "status": status})
		return
	}
	var buf bytes.Buffer
	err := s.pages.Render(&buf, site.PageError, errorPage{page: page{Root: s.root}, Status: status, Heading: http.StatusText(status), Message: msg})
	if err != nil {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintln(w, msg)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func isAPI(r *http.Request) bool {
	p := r.URL.Path
	return len(p) >= 5 && p[:5] == "/api/"
}

// internal answers a failure of the judge's own (a store that cannot be
// read, a report that cannot be built): 500, logged with its cause.
func (s *Server) internal(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("web: a page failed", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError, "The page could not be made. The operator's log says why.")
}

// view runs fn in a read transaction and answers its failure: a game or
// step that does not exist is a 404, anything else a 500.
func (s *Server) view(w http.ResponseWriter, r *http.Request, fn func(tx *store.Tx) error) bool {
	err := s.cfg.DB.View(r.Context(), fn)
	switch {
	case err == nil:
		return true
	case errors.Is(err, errNoGame):
		if note, ok := s.archived(r); ok {
			s.fail(w, r, http.StatusGone, note)
			return false
		}
		s.fail(w, r, http.StatusNotFound, "There is no such game or step on this judge.")
	default:
		s.internal(w, r, err)
	}
	return false
}

// archived says that the game of the request's path was archived (umpire
// game archive): 410 Gone, not 404, for a game that was here.
func (s *Server) archived(r *http.Request) (string, bool) {
	id := r.PathValue("id")
	if !validID(id) {
		return "", false
	}
	var note string
	var ok bool
	_ = s.cfg.DB.View(r.Context(), func(tx *store.Tx) error {
		var a adjudicator.ArchivedGame
		if a, ok, _ = s.jt(tx).Archived(id); ok {
			note = adjudicator.ArchivedNote(a)
			note = strings.ToUpper(note[:1]) + note[1:] + "."
		}
		return nil
	})
	return note, ok
}

// stepNumber reads the {k} of a path: a step number, or 0.
func stepNumber(r *http.Request) uint64 {
	k, err := strconv.ParseUint(r.PathValue("k"), 10, 64)
	if err != nil || k > dice.MaxChainLength {
		return 0
	}
	return k
}

func (s *Server) gamesPage(w http.ResponseWriter, r *http.Request) {
	var gs []GameSummary
	if !s.view(w, r, func(tx *store.Tx) (err error) { gs, err = s.games(tx); return err }) {
		return
	}
	s.render(w, r, site.PageGames, gamesPage{page: page{Root: s.root, Title: "Games"}, Games: gs})
}

func (s *Server) gameRedirect(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		s.fail(w, r, http.StatusNotFound, "There is no such game on this judge.")
		return
	}
	http.Redirect(w, r, s.root+"games/"+id+"/", http.StatusMovedPermanently)
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	var g *GameView
	if !s.view(w, r, func(tx *store.Tx) (err error) { g, err = s.game(tx, r.PathValue("id"), true); return err }) {
		return
	}
	s.render(w, r, site.PageGame, gamePage{page: page{Root: s.root, Title: g.ID}, Game: g})
}

func (s *Server) stepPage(w http.ResponseWriter, r *http.Request) {
	k := stepNumber(r)
	var g *GameView
	var st *StepView
	ok := s.view(w, r, func(tx *store.Tx) (err error) {
		if k == 0 {
			return errNoGame
		}
		if g, err = s.game(tx, r.PathValue("id"), false); err != nil {
			return err
		}
		st, err = s.step(tx, g.ID, k, true)
		return err
	})
	if !ok {
		return
	}
	p := stepPage{page: page{Root: s.root}, Game: g.GameSummary, Step: st}
	for _, l := range g.Steps {
		l.Current = l.N == k
		p.Steps = append(p.Steps, l)
		if l.N < k {
			p.Prev = l.N
		}
		if l.N > k && p.Next == 0 {
			p.Next = l.N
		}
	}
	s.render(w, r, site.PageStep, p)
}

func (s *Server) mapSVG(w http.ResponseWriter, r *http.Request) {
	var g *GameView
	if !s.view(w, r, func(tx *store.Tx) (err error) { g, err = s.game(tx, r.PathValue("id"), false); return err }) {
		return
	}
	if g.picture == nil {
		s.fail(w, r, http.StatusNotFound, "This game has no map yet.")
		return
	}
	s.writeSVG(w, r, g.picture)
}

func (s *Server) stepSVG(w http.ResponseWriter, r *http.Request) {
	k := stepNumber(r)
	var st *StepView
	ok := s.view(w, r, func(tx *store.Tx) error {
		id := r.PathValue("id")
		if k == 0 || !validID(id) {
			return errNoGame
		}
		if _, err := tx.Game(id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return errNoGame
			}
			return err
		}
		var err error
		st, err = s.step(tx, id, k, false)
		return err
	})
	if !ok {
		return
	}
	if st.picture == nil {
		s.fail(w, r, http.StatusNotFound, "This step has no map.")
		return
	}
	s.writeSVG(w, r, st.picture)
}

func (s *Server) writeSVG(w http.ResponseWriter, r *http.Request, p *board.Picture) {
	start := time.Now()
	var buf bytes.Buffer
	if err := s.renderSVG(*p, &buf); err != nil {
		s.internal(w, r, err)
		return
	}
	s.cfg.Metrics.Rendered("svg", time.Since(start))
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(buf.Bytes())
}

// logJSON serves the public dice log: the same export `log GAME` mails.
func (s *Server) logJSON(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var buf bytes.Buffer
	ok := s.view(w, r, func(tx *store.Tx) error {
		if !validID(id) {
			return errNoGame
		}
		_, err := adjudicator.WritePublicLog(s.jt(tx), id, &buf)
		if errors.Is(err, store.ErrNotFound) {
			return errNoGame
		}
		return err
	})
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+"-log.json"))
	h.Set("Cache-Control", "no-cache")
	h.Set("Access-Control-Allow-Origin", "*")
	w.Write(buf.Bytes())
}

func (s *Server) verifyPage(w http.ResponseWriter, r *http.Request) {
	p := verifyPage{page: page{Root: s.root, Title: "Verify"}}
	if id := r.PathValue("id"); id != "" {
		ok := s.view(w, r, func(tx *store.Tx) error {
			if !validID(id) {
				return errNoGame
			}
			if _, err := tx.Game(id); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return errNoGame
				}
				return err
			}
			return nil
		})
		if !ok {
			return
		}
		p.Game, p.LogURL, p.LogName = id, s.root+"games/"+id+"/log.json", id+"-log.json"
	}
	s.render(w, r, site.PageVerify, p)
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	a, ok := s.pages.Asset(r.PathValue("name"))
	if !ok {
		s.fail(w, r, http.StatusNotFound, "There is no such file.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	if r.URL.Query().Get("v") == a.Version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	h.Set("ETag", `"`+a.Version+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.Data))
}

// healthz says whether the judge can read its store.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := s.cfg.DB.View(r.Context(), func(tx *store.Tx) error { _, err := tx.Games(); return err }); err != nil {
		s.log.Error("web: health check: the store cannot be read", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "the store cannot be read")
		return
	}
	fmt.Fprintln(w, "ok")
}
