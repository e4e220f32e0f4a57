package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// TestGameArchive: an ended game is archived to a file that 'umpire replay'
// and 'umpire verify' accept, and is gone from the store, which keeps its
// record ('game show', 'game archived'); a running game is refused with
// the hint to export it; an existing file is never overwritten; the id
// cannot be used again.
func TestGameArchive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	now := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	daemontest.HostGames(t, games(), dbPath, now, 3, 0, "done-1", "done-2")
	daemontest.HostGames(t, games(), dbPath, now, 3, 1, "live-1")
	file := filepath.Join(dir, "done-1.json")

	code, out, errOut := run(t, "game", "archive", "live-1", filepath.Join(dir, "live-1.json"), "--store", dbPath)
	if code != exitUsage || !strings.Contains(errOut, "game live-1 is running (step 2): only an ended game can be archived; 'umpire game export live-1' writes a copy without removing it") {
		t.Errorf("archive of a running game: exit %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "live-1.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("archive of a running game wrote a file: %v", err)
	}

	// An existing file is kept, and so is the game.
	other := filepath.Join(dir, "done-2.json")
	os.WriteFile(other, []byte("my notes\n"), 0o644)
	if code, _, errOut := run(t, "game", "archive", "done-2", other, "--store", dbPath); code != exitUsage || !strings.Contains(errOut, "exists: an archive never replaces a file") {
		t.Errorf("archive onto an existing file: exit %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(other); string(b) != "my notes\n" {
		t.Errorf("the existing file was overwritten: %q", b)
	}
	if code, out, _ := run(t, "game", "show", "done-2", "--store", dbPath); code != exitOK || !strings.Contains(out, "status ended") {
		t.Errorf("done-2 after a refused archive: exit %d %q", code, out)
	}

	_, export, _ := run(t, "game", "export", "done-1", "--store", dbPath)
	code, out, errOut = run(t, "game", "archive", "done-1", file, "--store", dbPath)
	if code != exitOK || !strings.Contains(out, "game done-1 archived to "+file+" (4 steps") {
		t.Fatalf("archive: exit %d %q %q", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != export {
		t.Errorf("the archive is not what 'game export' printed")
	}
	sum := sha256.Sum256(data)
	if !strings.Contains(out, hex.EncodeToString(sum[:])) {
		t.Errorf("the archive's digest is not the file's: %q", out)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".done-1.json*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	if code, out, errOut := run(t, "replay", file); code != exitOK || !strings.Contains(out, "OK "+file+" (game done-1): 3 steps replayed") {
		t.Errorf("replay of the archive: exit %d %q %q", code, out, errOut)
	}
	if code, out, errOut := run(t, "verify", file); code != exitOK || !strings.Contains(out, "OK "+file+" (the dice log of game export done-1") {
		t.Errorf("verify of the archive: exit %d %q %q", code, out, errOut)
	}

	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(context.Background(), func(tx *store.Tx) error {
		if _, err := tx.Game("done-1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("done-1 is still stored: %v", err)
		}
		if _, ok := tx.GameDue("done-1"); ok {
			t.Error("done-1 keeps a due-time entry")
		}
		a, ok, err := tx.Archived("done-1")
		if err != nil || !ok || a.SHA256 != hex.EncodeToString(sum[:]) || a.File != "done-1.json" || a.Steps != 4 || a.DiceHead == "" || !a.Archived.Equal(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)) {
			t.Errorf("tombstone %+v %v %v", a, ok, err)
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	code, out, _ = run(t, "game", "show", "done-1", "--store", dbPath)
	for _, want := range []string{"done-1: Duel done-1 (fake, scenario duel)", "status archived on 2026-11-01 12:00 UTC after 4 steps", "file done-1.json", "SHA-256 " + hex.EncodeToString(sum[:])} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("game show of the archived game lacks %q: exit %d\n%s", want, code, out)
		}
	}
	if code, out, _ := run(t, "game", "list", "--store", dbPath); code != exitOK || strings.Contains(out, "done-1") || !strings.Contains(out, "done-2") ||
		!strings.Contains(out, "(and 1 game archived: 'umpire game archived' lists them)") {
		t.Errorf("game list after the archive: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "game", "archived", "--store", dbPath); code != exitOK || !strings.Contains(out, "done-1") || !strings.Contains(out, "done-1.json") || strings.Contains(out, "done-2") {
		t.Errorf("game archived: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"game", "archive", "done-1", filepath.Join(dir, "again.json")}, {"game", "export", "done-1"}, {"replay", "done-1"}} {
		if code, _, errOut := run(t, append(args, "--store", dbPath)...); code != exitUsage || !strings.Contains(errOut, "archived on 2026-11-01") {
			t.Errorf("umpire %s of the archived game: exit %d %q", strings.Join(args, " "), code, errOut)
		}
	}
	gameFile := filepath.Join(dir, "new.toml")
	os.WriteFile(gameFile, []byte("id = \"done-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\nevery = \"24h\"\n"), 0o644)
	if code, _, errOut := run(t, "game", "new", gameFile, "--store", dbPath); code == exitOK || !strings.Contains(errOut, `a game "done-1" was archived on 1 Nov 2026`) || !strings.Contains(errOut, "another id") {
		t.Errorf("game new with the archived id: exit %d %q", code, errOut)
	}
}

// TestArchiveFreesSpace: archiving many ended games frees their pages:
// 'umpire store space' shows the games bucket shrink to almost nothing and
// the free pages grow by about what it held.
func TestArchiveFreesSpace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	now := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 30 {
		ids = append(ids, fmt.Sprintf("g%02d", i))
	}
	daemontest.HostGames(t, games(), dbPath, now, 8, 0, ids...)
	space := func() (games, free int64) {
		t.Helper()
		db, err := store.Open(dbPath, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		bs, free, err := db.Space(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if b.Name == "games" {
				games = b.Pages
			}
		}
		return games, free
	}
	before, freeBefore := space()
	if before < 30*4096 {
		t.Fatalf("the 30 games take %d bytes of pages: too few to measure", before)
	}
	for _, id := range ids {
		if code, _, errOut := run(t, "game", "archive", id, filepath.Join(dir, id+".json"), "--store", dbPath); code != exitOK {
			t.Fatalf("archive %s: exit %d %q", id, code, errOut)
		}
	}
	after, freeAfter := space()
	if after > before/10 || freeAfter-freeBefore < before/2 {
		t.Errorf("games bucket %d -> %d bytes, free pages %d -> %d: the archived games' pages were not freed", before, after, freeBefore, freeAfter)
	}
	code, out, _ := run(t, "store", "space", "--store", dbPath)
	if code != exitOK || !strings.Contains(out, "archived") {
		t.Errorf("store space does not show the archived bucket: exit %d\n%s", code, out)
	}
	t.Logf("30 ended games of 8 steps: games bucket %d -> %d bytes of pages, free pages %d -> %d", before, after, freeBefore, freeAfter)
}
