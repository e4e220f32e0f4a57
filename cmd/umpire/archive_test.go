package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// hostGames creates the fake duels ids in the store at dbPath, with turns
// turns each, seats them and plays steps steps of each (all of them when
// steps is 0: the games end). Orders come through the judge's intake, as
// mail brings them.
func hostGames(t *testing.T, dbPath string, now time.Time, turns, steps int, ids ...string) {
	t.Helper()
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	j := &adjudicator.Judge{Games: games()}
	in := &adjudicator.Intake{Judge: j}
	for _, id := range ids {
		err := db.Update(context.Background(), func(tx *store.Tx) error {
			jt := tx.Judge(judgeAddress, now)
			data := []byte(fmt.Sprintf("id = %q\ngame = \"fake\"\nscenario = \"duel\"\ntitle = \"Duel %s\"\n[options]\nturns = \"%d\"\n[schedule]\nevery = \"24h\"\n", id, id, turns))
			f, err := adjudicator.ParseGameFile(data, games())
			if err != nil {
				return err
			}
			if err := j.Create(jt, f, data, now); err != nil {
				return err
			}
			for _, seat := range []string{"A", "B"} {
				if err := jt.PutKey(adjudicator.Key{Fingerprint: "K" + seat, Kind: "ssh", Address: strings.ToLower(seat) + "@players.test"}, []byte("K"+seat)); err != nil {
					return err
				}
				if err := j.Join(jt, id, seat, "K"+seat); err != nil {
					return err
				}
			}
			if err := j.Start(jt, id, now); err != nil {
				return err
			}
			for played := 0; steps == 0 || played < steps; played++ {
				g, err := jt.Game(id)
				if err != nil {
					return err
				}
				if g.Status == adjudicator.Ended {
					return nil
				}
				for _, seat := range []string{"A", "B"} {
					text := fmt.Sprintf("game: %s\nstep: %d\nseat: %s\nroll 2\nend\n", id, g.Step, seat)
					env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%d-%s", id, g.Step, seat), Received: now, Text: text,
						Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "K" + seat, Content: text, Signed: []byte(text)}}
					if _, err := in.Handle(context.Background(), jt, env); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
	}
}

// TestGameArchive: an ended game is archived to a file that 'umpire replay'
// and 'umpire verify' accept, and is gone from the store, which keeps its
// record ('game show', 'game archived'); a running game is refused with
// the hint to export it; an existing file is never overwritten; the id
// cannot be used again.
func TestGameArchive(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	now := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	hostGames(t, dbPath, now, 3, 0, "done-1", "done-2")
	hostGames(t, dbPath, now, 3, 1, "live-1")
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
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	now := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 30 {
		ids = append(ids, fmt.Sprintf("g%02d", i))
	}
	hostGames(t, dbPath, now, 8, 0, ids...)
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

// TestArchiveAutomatically: with retention.archive_after the judge
// archives a game that ended and rested that long, on its own clock, into
// archive_dir, and tells the game master and the seats by mail; a game
// that rested less stays; a folder it cannot write leaves the game stored,
// logged, and the next pass archives it.
func TestArchiveAutomatically(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	ended := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	hostGames(t, dbPath, ended, 3, 0, "early")
	hostGames(t, dbPath, ended.Add(30*24*time.Hour), 3, 0, "late")
	hostGames(t, dbPath, ended, 3, 1, "running")
	archives := filepath.Join(dir, "archives")
	os.WriteFile(archives, []byte("a file where the folder should be"), 0o644)
	conf := filepath.Join(dir, "umpire.toml")
	os.WriteFile(conf, []byte(fmt.Sprintf("store = %q\naddress = %q\n[retention]\narchive_after = \"90d\"\narchive_dir = \"archives\"\n", dbPath, judgeAddress)), 0o644)
	var log bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false }, Logger: slog.New(slog.NewTextHandler(&log, nil))}
	cfg, err := m.loadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Retention.ArchiveAfter.Duration != 90*24*time.Hour || cfg.Retention.ArchiveDir != archives {
		t.Fatalf("retention = %+v", cfg.Retention)
	}
	db, err := store.Open(dbPath, store.Options{Due: cfg.judge(m.Logger).Due})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stored := func(id string) bool {
		var ok bool
		db.View(context.Background(), func(tx *store.Tx) error { _, err := tx.Game(id); ok = err == nil; return nil })
		return ok
	}
	pass := func(now time.Time) int {
		t.Helper()
		n, err := archiveEnded(context.Background(), m, cfg, db, now)
		if err != nil {
			t.Fatalf("archive pass at %v: %v", now, err)
		}
		return n
	}
	if n := pass(ended.Add(89 * 24 * time.Hour)); n != 0 || !stored("early") {
		t.Errorf("after 89 days %d games were archived", n)
	}
	// The folder cannot be made: nothing is archived, and the log says so.
	if n := pass(ended.Add(91 * 24 * time.Hour)); n != 0 || !stored("early") || !strings.Contains(log.String(), "archiving ended games failed") {
		t.Errorf("with no folder: %d archived, early stored %v; log:\n%s", n, stored("early"), log.String())
	}
	os.Remove(archives)
	at := ended.Add(91 * 24 * time.Hour)
	if n := pass(at); n != 1 || stored("early") || !stored("late") || !stored("running") {
		t.Errorf("after 91 days: %d archived; early %v late %v running %v stored", n, stored("early"), stored("late"), stored("running"))
	}
	if !strings.Contains(log.String(), "ended game archived") || !strings.Contains(log.String(), "game=early") {
		t.Errorf("the archive is not logged:\n%s", log.String())
	}
	if code, out, errOut := run(t, "replay", filepath.Join(archives, "early.json")); code != exitOK || !strings.Contains(out, "3 steps replayed") {
		t.Errorf("replay of the automatic archive: exit %d %q %q", code, out, errOut)
	}
	var told []string
	db.View(context.Background(), func(tx *store.Tx) error {
		a, ok, _ := tx.Archived("early")
		if !ok || !a.Archived.Equal(at) {
			t.Errorf("tombstone %+v: want archived at the judge's clock %v", a, at)
		}
		for id := uint64(1); ; id++ {
			m, err := tx.Mail(id)
			if err != nil {
				return nil
			}
			if m.Game == "early" && strings.Contains(m.Subject, "archived") && m.State == store.MailQueued {
				told = append(told, strings.Join(m.To, ","))
			}
		}
	})
	if len(told) != 2 { // the seats' keys KA and KB: the fake game's master is nobody
		t.Errorf("the archive announcement went to %v", told)
	}
	if n := pass(ended.Add(121 * 24 * time.Hour)); n != 1 || stored("late") {
		t.Errorf("after late's 90 days: %d archived", n)
	}
}
