package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
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

// newMetrics makes the daemon's metrics, its outbox read from db.
func (m *Main) newMetrics(db *store.DB) *web.Metrics {
	return web.NewMetrics(outboxStats{db}, m.Now, m.Logger)
}

// outboxStats reads the outbox's depth and age from the store (docs/web.md,
// "Metrics").
type outboxStats struct{ db *store.DB }

func (o outboxStats) Outbox(ctx context.Context) (depth int, oldest time.Time, err error) {
	err = o.db.View(ctx, func(tx *store.Tx) error {
		// every queued mail, due or not.
		queued, err := tx.Due(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 0)
		for _, q := range queued {
			if oldest.IsZero() || q.Queued.Before(oldest) {
				oldest = q.Queued
			}
		}
		depth = len(queued)
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
func (m *Main) startWeb(db *store.DB, judge *adjudicator.Judge, from string, metrics *web.Metrics, addr, base, cert, key string, rate float64, burst int) (*webServer, error) {
	var tc *tls.Config
	if cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("web: certificate: %w", err)
		}
		tc = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	srv, err := web.New(web.Config{DB: db, Judge: judge, From: from, BaseURL: base, Rate: rate, Burst: burst,
		Metrics: metrics, Now: m.Now, Logger: m.Logger})
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

// serveWeb sets up the public pages for the daemon d: on loopback for
// --dev (dev), else where the [web] section says; without either, none.
// It prints where to open them.
func (m *Main) serveWeb(d *daemon, cfg *Config, db *store.DB, dev bool) error {
	var w WebConfig
	switch {
	case dev:
		w = WebConfig{Address: "127.0.0.1:0"}
		if cfg.Web != nil {
			w.Rate, w.Burst = cfg.Web.Rate, cfg.Web.Burst
		}
	case cfg.Web != nil:
		w = *cfg.Web
	default:
		return nil
	}
	ws, err := m.startWeb(db, d.judge, cfg.Address, d.metrics, w.Address, w.BaseURL, w.CertFile, w.KeyFile, w.Rate, w.Burst)
	if err != nil {
		return err
	}
	d.web = ws
	m.closers = append(m.closers, ws.l)
	if dev {
		fmt.Fprintf(m.Stdout, "The games' web pages: %s (loopback only)\n", ws.url)
	}
	m.Logger.Info("web pages", "listen", ws.l.Addr().String(), "url", ws.url)
	return nil
}

// demoPages are the demo's web pages, served while it runs.
type demoPages struct {
	url  string // the pages' root; "" when off
	stop func()
}

// demoWeb serves the pages of the demo's store on loopback at addr ("off":
// none) until stop.
func (m *Main) demoWeb(ctx context.Context, d *daemon, db *store.DB, from, addr string) (*demoPages, error) {
	if addr == "off" || addr == "" {
		return &demoPages{stop: func() {}}, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return nil, usagef("--web %s: the demo serves on a loopback address only, such as 127.0.0.1:8080", addr)
	}
	ws, err := m.startWeb(db, d.judge, from, d.metrics, addr, "", "", "", 0, 0)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := ws.run(ctx); err != nil {
			m.Logger.Error("demo web pages", "err", err)
		}
	}()
	return &demoPages{url: ws.url, stop: func() { cancel(); <-done }}, nil
}

// optionalBool is a boolean flag that knows whether it was given.
type optionalBool struct{ v, set bool }

func (b *optionalBool) String() string { return fmt.Sprint(b.v) }
func (b *optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not true or false", s)
	}
	b.v, b.set = v, true
	return nil
}
func (b *optionalBool) IsBoolFlag() bool  { return true }
func (b *optionalBool) get() (bool, bool) { return b.v, b.set }
