//go:build integration

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

func TestKeysCommands(t *testing.T) {
	t.Parallel()
	dbPath := filepath.Join(t.TempDir(), "umpire.db")
	// a mistyped store is not made, with a key nobody will ever use
	if code, _, errOut := run(t, "keys", "server", "--store", dbPath); code != exitUsage || !strings.Contains(errOut, "there is no store") {
		t.Fatalf("keys server of no store: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Fatal("keys server made a store")
	}
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out, errOut := run(t, "keys", "server", "--store", dbPath)
	if code != exitOK || !strings.Contains(out, "BEGIN PGP PUBLIC KEY BLOCK") {
		t.Fatalf("keys server: exit %d %q %q", code, out, errOut)
	}
	pub := out[strings.Index(out, "-----BEGIN"):]
	k, err := signature.ParseKey([]byte(pub))
	if err != nil || !strings.Contains(out, k.Fingerprint) {
		t.Fatalf("the printed key %v does not parse or is not the fingerprint shown", err)
	}
	// The key is made once: asked again, the judge shows the same key.
	if _, again, _ := run(t, "keys", "server", "--store", dbPath); again != out {
		t.Error("keys server showed another key the second time")
	}
	// A game master's key is added and listed.
	g := signtest.NewGPG(t)
	fpr := g.GenKey("Grace GM <gm@players.test>")
	file := filepath.Join(t.TempDir(), "gm.asc")
	os.WriteFile(file, g.Export(fpr), 0o644)
	if code, out, errOut := run(t, "keys", "add", file, "--address", "gm@players.test", "--store", dbPath); code != exitOK || !strings.Contains(out, fpr) {
		t.Errorf("keys add: exit %d %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, "keys", "list", "--store", dbPath); code != exitOK || !strings.Contains(out, fpr) || !strings.Contains(out, "gm@players.test") {
		t.Errorf("keys list: exit %d\n%s", code, out)
	}
	if code, _, errOut := run(t, "keys", "add", "/etc/hostname", "--store", dbPath); code != exitUsage || !strings.Contains(errOut, "malformed") {
		t.Errorf("keys add of a file that is no key: exit %d %q", code, errOut)
	}
}
