// Package site holds the public web pages of the judge (docs/web.md):
// their html/template files, style sheet and the in-browser dice log
// verifier, embedded, with no build step. The pages work without
// JavaScript; script runs only to verify the dice (with the browser's
// WebCrypto) and behind the copy buttons (copy.js), hidden without it.
// The server (cmd/umpire/web) fills them with the public view of each
// game; this package knows nothing of storage.
package site

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/templates"
)

//go:embed pages/*.html
var pageFiles embed.FS

//go:embed all:assets
var assetFiles embed.FS

// Pages renders the site's pages. Each page template defines "title" and
// "main", and is set in layout.html.
type Pages struct {
	pages  map[string]*template.Template
	assets map[string]Asset
}

// Asset is a static file of the site.
type Asset struct {
	Data        []byte
	ContentType string
	// Version is a short hash of Data: asset URLs carry it, so that they
	// may be cached for good.
	Version string
}

// The pages.
const (
	PageGames  = "games.html"
	PageGame   = "game.html"
	PageStep   = "step.html"
	PageVerify = "verify.html"
	PageError  = "error.html"
)

// New parses the pages and reads the assets.
func New() (*Pages, error) {
	p := &Pages{pages: map[string]*template.Template{}, assets: map[string]Asset{}}
	err := fs.WalkDir(assetFiles, "assets", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFiles.ReadFile(name)
		if err != nil {
			return err
		}
		p.addAsset(strings.TrimPrefix(name, "assets/"), b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("site: assets: %w", err)
	}
	for name, b := range templates.Fonts() {
		p.addAsset("fonts/"+name, b)
	}
	funcs := template.FuncMap{
		"asset":   p.assetPath,
		"stamp":   stamp,
		"short":   short,
		"reading": reading,
		"join":    strings.Join,
		"add":     func(a, b uint64) uint64 { return a + b },
		"sub":     func(a, b uint64) uint64 { return a - b },
	}
	layout, err := pageFiles.ReadFile("pages/layout.html")
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	for _, name := range []string{PageGames, PageGame, PageStep, PageVerify, PageError} {
		b, err := pageFiles.ReadFile("pages/" + name)
		if err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
		t, err := template.New("layout.html").Funcs(funcs).Option("missingkey=error").Parse(string(layout))
		if err == nil {
			_, err = t.New(name).Parse(string(b))
		}
		if err != nil {
			return nil, fmt.Errorf("site: %s: %w", name, err)
		}
		p.pages[name] = t
	}
	return p, nil
}

func (p *Pages) addAsset(name string, b []byte) {
	sum := sha256.Sum256(b)
	ct := "application/octet-stream"
	switch path.Ext(name) {
	case ".css":
		ct = "text/css; charset=utf-8"
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".ttf":
		ct = "font/ttf"
	case ".txt", ".md":
		ct = "text/plain; charset=utf-8"
	case ".svg":
		ct = "image/svg+xml"
	}
	p.assets[name] = Asset{Data: b, ContentType: ct, Version: hex.EncodeToString(sum[:6])}
}

// Asset returns the static file name ("site.css", "fonts/Go-Regular.ttf").
func (p *Pages) Asset(name string) (Asset, bool) {
	a, ok := p.assets[name]
	return a, ok
}

// assetPath is the path of an asset under the site's root, with its
// version.
func (p *Pages) assetPath(root, name string) (string, error) {
	a, ok := p.assets[name]
	if !ok {
		return "", fmt.Errorf("site: no asset %q", name)
	}
	return root + "assets/" + name + "?v=" + a.Version, nil
}

// Render writes page filled with data. data is the page's own value; the
// layout reads Root (the site's path, ending in "/") and Title from it.
func (p *Pages) Render(w io.Writer, page string, data any) error {
	t, ok := p.pages[page]
	if !ok {
		return fmt.Errorf("site: no page %q", page)
	}
	// rendered whole first: a template error never leaves half a page.
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", data); err != nil {
		return fmt.Errorf("site: %s: %w", page, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// stamp writes a time as reports do, in UTC; the zero time is "-".
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
}

// short abbreviates a long hex value (a fingerprint, a hash) to its first
// 12 and last 4 digits; the whole value is in the page's title attribute.
func short(s string) string {
	if len(s) <= 20 {
		return s
	}
	return s[:12] + "…" + s[len(s)-4:]
}
