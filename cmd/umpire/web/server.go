// Package web serves the judge's read-only public pages (docs/web.md): the
// list of games, each game's public view with its map as SVG and its step
// history, the public dice log with a verifier that runs in the browser,
// JSON of every page under /api/, /healthz and /metrics.
//
// It reads the store in read-only transactions and builds every view from
// the adjudicator's public (Spectator) reports, so a game's fog of war
// applies here as in the map mail. The pages themselves (html/template
// files, style sheet, verifier script) are in templates/site. Only GET and
// HEAD are served; every response carries security headers, requests are
// bounded in size and rate per client.
package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
	"github.com/umpire-pbem/umpire/templates/site"
)

// Config configures a Server.
type Config struct {
	DB    *store.DB
	Judge *adjudicator.Judge
	// From is the judge's address, as the adjudicator's transactions take
	// it; nothing here sends mail.
	From string
	// BaseURL is the public URL of the pages ("https://judge.example.org/"
	// or "https://example.org/umpire/"); its path is where the pages live.
	// Empty: "/" on whatever host the request named.
	BaseURL string
	// Rate and Burst bound each client's requests: Rate a second on
	// average, Burst at once. Zero: 10 and 40.
	Rate  float64
	Burst int
	// Metrics, if set, is served at /metrics and counts renderings.
	Metrics *Metrics
	Now     func() time.Time
	Logger  *slog.Logger
	// MapImages finds the game master's map images, for the maps whose
	// game file makes its image public (map_image_public); the public
	// view of any other game carries none to draw. Nil: every map drawn.
	MapImages templates.MapImages
}

// Server is the web server of the public pages.
type Server struct {
	cfg     Config
	root    string // the path of the pages, ending in "/"
	pages   *site.Pages
	limiter *rateLimiter
	log     *slog.Logger
	now     func() time.Time
	handler http.Handler
}

// Limits of a request.
const (
	maxURL    = 4096     // bytes of path and query
	maxHeader = 16 << 10 // bytes of header
)

// New returns the server cfg describes.
func New(cfg Config) (*Server, error) {
	pages, err := site.New()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, pages: pages, root: "/", log: cfg.Logger, now: cfg.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("web: base URL %q: want http(s)://host/path", cfg.BaseURL)
		}
		s.root = strings.TrimSuffix(u.Path, "/") + "/"
	}
	rate, burst := cfg.Rate, cfg.Burst
	if rate <= 0 {
		rate = 10
	}
	if burst <= 0 {
		burst = 40
	}
	s.limiter = newRateLimiter(rate, burst, s.now)
	s.handler = s.routes()
	return s, nil
}

// Root is the path the pages live under, ending in "/".
func (s *Server) Root() string { return s.root }

// Handler is the server's whole HTTP handler: limits, headers and routes.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.gamesPage)
	mux.HandleFunc("GET /games/{id}", s.gameRedirect)
	mux.HandleFunc("GET /games/{id}/{$}", s.gamePage)
	mux.HandleFunc("GET /games/{id}/map.svg", s.mapSVG)
	mux.HandleFunc("GET /games/{id}/steps/{k}", s.stepPage)
	mux.HandleFunc("GET /games/{id}/steps/{k}/map.svg", s.stepSVG)
	mux.HandleFunc("GET /games/{id}/log.json", s.logJSON)
	mux.HandleFunc("GET /games/{id}/verify", s.verifyPage)
	mux.HandleFunc("GET /verify", s.verifyPage)
	mux.HandleFunc("GET /api/games", s.apiGames)
	mux.HandleFunc("GET /api/games/{id}", s.apiGame)
	mux.HandleFunc("GET /api/games/{id}/steps/{k}", s.apiStep)
	mux.HandleFunc("GET /api/games/{id}/log", s.logJSON)
	mux.HandleFunc("GET /assets/{name...}", s.asset)
	mux.HandleFunc("GET /healthz", s.healthz)
	if s.cfg.Metrics != nil {
		mux.Handle("GET /metrics", s.cfg.Metrics.Handler())
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "There is no such page.")
	})
	var h http.Handler = mux
	if s.root != "/" {
		prefix := strings.TrimSuffix(s.root, "/")
		h = http.StripPrefix(prefix, mux)
	}
	return s.guard(h)
}

// guard applies what every request gets: the security headers, the
// method, size and rate limits, and a recovery that turns a panic into a
// 500 logged with its cause.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		w = sw
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("web: a page failed", "path", r.URL.Path, "panic", v)
				if sw.status == 0 {
					s.fail(w, r, http.StatusInternalServerError, "The page could not be made. The operator's log says why.")
				}
			}
			s.cfg.Metrics.request(max(sw.status, 200))
		}()
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"font-src 'self'; connect-src 'self'; worker-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
		if r.TLS != nil {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		switch {
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			h.Set("Allow", "GET, HEAD")
			s.fail(w, r, http.StatusMethodNotAllowed, "These pages are read-only: only GET and HEAD are served. Orders go by signed mail.")
			return
		case r.ContentLength > 0 || len(r.TransferEncoding) > 0:
			s.fail(w, r, http.StatusRequestEntityTooLarge, "A request to these pages carries no body.")
			return
		case len(r.RequestURI) > maxURL:
			s.fail(w, r, http.StatusRequestURITooLong, fmt.Sprintf("The address is longer than %d bytes.", maxURL))
			return
		}
		if ok, wait := s.limiter.allow(clientOf(r)); !ok {
			h.Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
			s.fail(w, r, http.StatusTooManyRequests, "Too many requests from this address: wait a moment and try again.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// clientOf is the address a request's rate is counted under: the peer's
// IP (a proxy in front of the judge is one client unless it is the only
// one; docs/web.md).
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Serve runs the server on l until ctx ends, then shuts it down, letting
// requests under way finish for up to five seconds. With tlsConfig set it
// serves HTTPS.
func (s *Server) Serve(ctx context.Context, l net.Listener, tlsConfig *tls.Config) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      2 * time.Minute, // a long dice log to a slow phone
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    maxHeader,
		TLSConfig:         tlsConfig,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	done := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			done <- srv.ServeTLS(l, "", "")
		} else {
			done <- srv.Serve(l)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}
