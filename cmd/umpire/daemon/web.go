package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/web"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
)

// defaultWebAddress is where [web] listens without an address.
const defaultWebAddress = "127.0.0.1:8080"

// check validates the [web] section and makes its file names absolute.
func (w *WebConfig) check(dir string) error {
	if w == nil {
		return nil
	}
	if w.Address == "" {
		w.Address = defaultWebAddress
	}
	if _, _, err := net.SplitHostPort(w.Address); err != nil {
		return fmt.Errorf("web.address %q: want host:port, such as :8443 or 127.0.0.1:8080", w.Address)
	}
	if w.BaseURL != "" {
		u, err := url.Parse(w.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("web.base_url %q: want the pages' public address, such as https://judge.example.org/", w.BaseURL)
		}
	}
	if (w.CertFile == "") != (w.KeyFile == "") {
		return errors.New("web: give both cert_file and key_file to serve HTTPS, or neither")
	}
	for _, p := range []*string{&w.CertFile, &w.KeyFile} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	if w.Rate < 0 || w.Burst < 0 {
		return errors.New("web: rate and burst are not negative")
	}
	return nil
}

// outboxStats reads the outbox's depth and age from the store (docs/web.md,
// "Metrics").
type outboxStats struct{ db *store.DB }

func (o outboxStats) Outbox(ctx context.Context) (depth int, oldest time.Time, err error) {
	err = o.db.View(ctx, func(tx *store.Tx) error {
		// every queued mail, due or not, of every lane, counted without
		// reading them (store.OutboxStats).
		st, err := tx.OutboxStats()
		for _, l := range st.Lanes {
			depth += l.Queued
			if !l.Oldest.IsZero() && (oldest.IsZero() || l.Oldest.Before(oldest)) {
				oldest = l.Oldest
			}
		}
		return err
	})
	return depth, oldest, err
}

// webServer is the public pages, ready to run on a listener.
type webServer struct {
	srv *web.Server
	l   net.Listener
	tls *tls.Config
	url string // where to open them
}

// startWeb listens at addr for the pages of db's games; cert and key, both
// or neither, serve HTTPS. base is the public URL ("" for the address it
// listens at).
func (d *Daemon) startWeb(from, addr, base, cert, key string, rate float64, burst int) (*webServer, error) {
	var tc *tls.Config
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("web: certificate: %w", err)
		}
		tc = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	srv, err := web.New(web.Config{DB: d.db, Judge: d.judge, From: from, BaseURL: base, Rate: rate, Burst: burst,
		Metrics: d.metrics, Now: d.now, Logger: d.log, MapImages: MapImages(d.db)})
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	u := base
	if u == "" {
		scheme := "http"
		if tc != nil {
			scheme = "https"
		}
		host := l.Addr().String()
		if h, p, err := net.SplitHostPort(host); err == nil && (h == "::" || h == "0.0.0.0" || h == "") {
			host = net.JoinHostPort("localhost", p)
		}
		u = scheme + "://" + host + srv.Root()
	}
	return &webServer{srv: srv, l: l, tls: tc, url: u}, nil
}

// run serves until ctx ends.
func (w *webServer) run(ctx context.Context) error { return w.srv.Serve(ctx, w.l, w.tls) }

// observe wires the daemon's parts to the metrics: steps adjudicated and
// mail taken.
func observeJudge(j *adjudicator.Judge, metrics *web.Metrics) {
	j.Adjudicated = func(_ string, _ uint64, took time.Duration) { metrics.Adjudicated(took) }
}

// takenMetrics counts each message taken, and the signatures that did not
// verify.
func takenMetrics(metrics *web.Metrics) func(env *adjudicator.Envelope, d umail.Disposition) {
	return func(env *adjudicator.Envelope, d umail.Disposition) {
		metrics.MailTaken(intake.DispositionName(d))
		switch {
		case env.SignatureProblem != "":
			metrics.VerifyFailed("signature")
		case env.UnknownKey != "":
			metrics.VerifyFailed("unknown_key")
		}
	}
}

// serveWeb sets up the public pages: on loopback for --dev, else where the
// [web] section says; without either, none. For --dev it prints where to
// open them.
func (d *Daemon) serveWeb() error {
	cfg := d.cfg
	var w WebConfig
	switch {
	case cfg.Dev:
		w = WebConfig{Address: "127.0.0.1:0"}
		if cfg.Web != nil {
			w.Rate, w.Burst = cfg.Web.Rate, cfg.Web.Burst
		}
	case cfg.Web != nil:
		w = *cfg.Web
	default:
		return nil
	}
	ws, err := d.startWeb(cfg.Address, w.Address, w.BaseURL, w.CertFile, w.KeyFile, w.Rate, w.Burst)
	if err != nil {
		return err
	}
	d.web = ws
	d.closers = append(d.closers, closedOnce{ws.l})
	if cfg.Dev {
		fmt.Fprintf(cfg.Stdout, "The games' web pages: %s (loopback only)\n", ws.url)
	}
	d.log.Info("web pages", "listen", ws.l.Addr().String(), "url", ws.url)
	return nil
}

// WebURL is where the judge's web pages are, "" when it serves none.
func (d *Daemon) WebURL() string {
	if d.web == nil {
		return ""
	}
	return d.web.url
}

// ServeWeb serves the web pages until ctx ends, for a judge that Once
// runs (Run serves them itself).
func (d *Daemon) ServeWeb(ctx context.Context) error {
	if d.web == nil {
		return nil
	}
	return d.web.run(ctx)
}

// closedOnce closes a listener that serving may have closed already (an
// http.Server's Shutdown closes its listeners): closing it again is not an
// error, so that a judge stopped by a signal exits 0.
type closedOnce struct{ net.Listener }

// Close closes the listener unless it is closed already.
func (l closedOnce) Close() error {
	if err := l.Listener.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
