package web

import (
	"encoding/json"
	"net/http"

	"github.com/umpire-pbem/umpire/store"
)

// The JSON of each page, for tools (docs/web.md, "API"): the same views
// the pages show.

func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	h.Set("Access-Control-Allow-Origin", "*")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	var gs []GameSummary
	if !s.view(w, r, func(tx *store.Tx) (err error) { gs, err = s.games(tx); return err }) {
		return
	}
	s.writeJSON(w, map[string]any{"games": gs})
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	var g *GameView
	if !s.view(w, r, func(tx *store.Tx) (err error) { g, err = s.game(tx, r.PathValue("id"), false); return err }) {
		return
	}
	s.writeJSON(w, g)
}

func (s *Server) apiStep(w http.ResponseWriter, r *http.Request) {
	k := stepNumber(r)
	var st *StepView
	ok := s.view(w, r, func(tx *store.Tx) error {
		id := r.PathValue("id")
		if k == 0 || !validID(id) {
			return errNoGame
		}
		if _, err := tx.Game(id); err != nil {
			return errNoGame
		}
		var err error
		st, err = s.step(tx, id, k, false)
		return err
	})
	if !ok {
		return
	}
	s.writeJSON(w, st)
}
