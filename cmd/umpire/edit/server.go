package edit

// This file is the editor's web server: the page and its assets, the scan,
// and the document's API (read, check, save), on loopback only.

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

//go:embed assets
var assets embed.FS

// maxBody bounds a request: two files of the judge's largest (datafile
// MaxSize, 2 MiB) as JSON, with room.
const maxBody = 16 << 20

// Config is what the editor edits and with what.
type Config struct {
	// Game is the game's rules; its New checks the files, as create does.
	Game     adjudicator.Rules
	Scenario string
	// MapPath is the map file; CountersPath the counter file ("": the
	// game's demo counters check the map, and are not edited).
	MapPath, CountersPath string
	Scan                  *Scan // nil: no scan
	// Hexes are a VASSAL board's hex centres by name (ReadModule): a
	// hex map without an alignment is aligned on them.
	Hexes map[string][2]float64
	// NewGrid is the grid of a new hex map (ParseSize, or a VASSAL
	// board's, Module.Grid); nil: ten by ten hexes. A map file that
	// exists has its own grid, and NewGrid is refused with it.
	NewGrid *GridSpec
	Logger  *slog.Logger
}

// Server serves the editor.
type Server struct {
	cfg     Config
	mu      sync.Mutex // holds doc and the files
	doc     *Document
	handler http.Handler
}

// New reads the files (or starts new ones) and makes the server.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	w, h := 0, 0
	if cfg.Scan != nil {
		w, h = cfg.Scan.Width, cfg.Scan.Height
	}
	doc, err := load(cfg.Game.ID(), cfg.MapPath, cfg.CountersPath, cfg.NewGrid, w, h)
	if err != nil {
		return nil, err
	}
	if doc.Hex != nil && doc.Hex.Scan == nil && len(cfg.Hexes) > 0 {
		if geo, err := doc.Hex.geometry(cfg.MapPath); err == nil {
			doc.Hex.Scan = alignFrom(geo, cfg.Hexes)
		}
	}
	s := &Server{cfg: cfg, doc: doc}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /assets/{name}", s.asset)
	mux.HandleFunc("GET /scan", s.scan)
	mux.HandleFunc("GET /api/document", s.document)
	mux.HandleFunc("POST /api/check", s.checkDoc)
	mux.HandleFunc("POST /api/save", s.save)
	s.handler = s.guard(mux)
	return s, nil
}

// Handler is the editor's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// guard sets the page's security headers and refuses requests from
// anywhere but the editor's own page: another site's page in the same
// browser must not read or write the game master's files.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "+
			"connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" {
			http.Error(w, "the editor answers on loopback only", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost {
			if r.Header.Get("Content-Type") != "application/json" || (r.Header.Get("Sec-Fetch-Site") != "" && r.Header.Get("Sec-Fetch-Site") != "same-origin") {
				http.Error(w, "the editor takes requests from its own page only", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	b, err := assets.ReadFile("assets/editor.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(b)
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	b, err := assets.ReadFile("assets/" + name)
	if err != nil || name == "editor.html" {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	_, _ = w.Write(b)
}

func (s *Server) scan(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Scan == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", s.cfg.Scan.Type)
	_, _ = w.Write(s.cfg.Scan.Data)
}

// Opened is what the page starts from: the document, the files, the scan
// and the judge's answer for the document as read.
type Opened struct {
	Document     *Document `json:"document"`
	Title        string    `json:"title"`
	MapFile      string    `json:"map_file"`
	CountersFile string    `json:"counters_file,omitempty"`
	Scan         *ScanInfo `json:"scan,omitempty"`
	Check        *Result   `json:"check"`
}

// ScanInfo is the scan's size; the page loads it from /scan.
type ScanInfo struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

func (s *Server) document(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	doc := s.doc
	s.mu.Unlock()
	o := Opened{Document: doc, Title: s.cfg.Game.Title(), MapFile: s.cfg.MapPath, CountersFile: s.cfg.CountersPath, Check: s.check(doc)}
	if s.cfg.Scan != nil {
		o.Scan = &ScanInfo{Width: s.cfg.Scan.Width, Height: s.cfg.Scan.Height}
	}
	writeJSON(w, o)
}

// readDoc reads a posted document, of the game being edited.
func (s *Server) readDoc(w http.ResponseWriter, r *http.Request) (*Document, bool) {
	var doc Document
	if err := json.NewDecoder(r.Body).Decode(&doc); err != nil {
		http.Error(w, "edit: the document does not read: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	if doc.Game != s.doc.Game || doc.Format != s.doc.Format || (doc.Hex == nil) == (doc.Network == nil) ||
		(doc.Counters == nil) != (s.cfg.CountersPath == "") {
		http.Error(w, "edit: the document is not this editor's", http.StatusBadRequest)
		return nil, false
	}
	return &doc, true
}

func (s *Server) checkDoc(w http.ResponseWriter, r *http.Request) {
	doc, ok := s.readDoc(w, r)
	if !ok {
		return
	}
	writeJSON(w, s.check(doc))
}

// Saved is a save's answer: the files written and the judge's check of
// them (a file the judge refuses is saved too: work in progress).
type Saved struct {
	Saved []string `json:"saved"`
	At    string   `json:"at"`
	Check *Result  `json:"check"`
}

func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	doc, ok := s.readDoc(w, r)
	if !ok {
		return
	}
	res := s.check(doc)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Saved{Check: res}
	if err := writeFile(s.cfg.MapPath, []byte(res.MapText)); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	out.Saved = append(out.Saved, s.cfg.MapPath)
	if doc.Counters != nil {
		if err := writeFile(s.cfg.CountersPath, []byte(res.CountersText)); err != nil {
			http.Error(w, fmt.Sprintf("%s saved; %v", s.cfg.MapPath, err), http.StatusInternalServerError)
			return
		}
		out.Saved = append(out.Saved, s.cfg.CountersPath)
	}
	s.doc = doc
	out.At = time.Now().Format("15:04:05")
	s.cfg.Logger.Info("edit: saved", "files", out.Saved, "accepted", res.OK)
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Serve runs the editor on l until ctx ends.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: time.Minute, IdleTimeout: time.Minute,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
