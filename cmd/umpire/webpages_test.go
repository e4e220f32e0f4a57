package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
)

// TestWebConfig: the [web] section is read and checked; its file names
// are relative to the configuration's folder.
func TestWebConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "umpire.toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	cfg, err := daemon.LoadConfig(write("[web]\naddress = \":8443\"\nbase_url = \"https://judge.example.org/\"\ncert_file = \"web.pem\"\nkey_file = \"web.key\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := cfg.Web; w == nil || w.Address != ":8443" || w.CertFile != filepath.Join(dir, "web.pem") || w.KeyFile != filepath.Join(dir, "web.key") {
		t.Errorf("[web] read as %+v", cfg.Web)
	}
	if cfg, err := daemon.LoadConfig(write("[web]\n")); err != nil || cfg.Web == nil || cfg.Web.Address != "127.0.0.1:8080" {
		t.Errorf("an empty [web]: %+v, %v", cfg.Web, err)
	}
	if cfg, err := daemon.LoadConfig(write("store = \"x.db\"\n")); err != nil || cfg.Web != nil {
		t.Errorf("no [web]: %+v, %v", cfg.Web, err)
	}
	for text, want := range map[string]string{
		"[web]\naddress = \"8080\"\n":                  `web.address "8080"`,
		"[web]\nbase_url = \"judge.example.org\"\n":    `web.base_url "judge.example.org"`,
		"[web]\ncert_file = \"web.pem\"\n":             "both cert_file and key_file",
		"[web]\nport = 8080\n":                         "unknown setting web.port",
		"[web]\nrate = -1\n":                           "not negative",
		"[web]\nbase_url = \"ftp://example.org/x/\"\n": "web.base_url",
	} {
		if _, err := daemon.LoadConfig(write(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want an error mentioning %q", text, err, want)
		}
	}
}

// TestServeDevServesPages: serve --dev prints the URL of the pages on
// loopback and answers there while it runs.
func TestServeDevServesPages(t *testing.T) {
	dir := t.TempDir()
	out := &daemontest.LockedBuffer{}
	m := &Main{Stdin: strings.NewReader(""), Stdout: out, Stderr: io.Discard, Now: time.Now, Getenv: func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- m.Run(ctx, []string{"serve", "--dev", "--store", filepath.Join(dir, "umpire.db")}) }()
	defer func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("serve --dev: exit %d", code)
		}
		m.Close()
	}()
	re := regexp.MustCompile(`web pages: (http://127\.0\.0\.1:\d+/) \(loopback only\)`)
	var url string
	for deadline := time.Now().Add(time.Minute); url == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		out.Mu.Lock()
		if m := re.FindStringSubmatch(out.B.String()); m != nil {
			url = m[1]
		}
		out.Mu.Unlock()
	}
	if url == "" {
		out.Mu.Lock()
		t.Fatalf("serve --dev printed no URL of its pages:\n%s", out.B.String())
	}
	for path, want := range map[string]string{"": "This judge runs no games yet", "healthz": "ok", "metrics": "umpire_outbox_depth 0"} {
		var body []byte
		var err error
		var resp *http.Response
		for range 50 {
			if resp, err = http.Get(url + path); err == nil {
				body, err = io.ReadAll(resp.Body)
				resp.Body.Close()
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil || resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s: %v %v, want %q in:\n%.300s", url+path, err, resp, want, body)
		}
	}
}
