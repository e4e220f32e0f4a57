package daemon

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// TestArchiveAutomatically: with retention.archive_after the judge
// archives a game that ended and rested that long, on its own clock, into
// archive_dir, and tells the game master and the seats by mail; a game
// that rested less stays; a folder it cannot write leaves the game stored,
// logged, and the next pass archives it.
func TestArchiveAutomatically(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "umpire.db")
	ended := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	daemontest.HostGames(t, games(), dbPath, ended, 3, 0, "early")
	daemontest.HostGames(t, games(), dbPath, ended.Add(30*24*time.Hour), 3, 0, "late")
	daemontest.HostGames(t, games(), dbPath, ended, 3, 1, "running")
	archives := filepath.Join(dir, "archives")
	os.WriteFile(archives, []byte("a file where the folder should be"), 0o644)
	conf := filepath.Join(dir, "umpire.toml")
	os.WriteFile(conf, []byte(fmt.Sprintf("store = %q\naddress = %q\n[retention]\narchive_after = \"90d\"\narchive_dir = \"archives\"\n", dbPath, daemontest.JudgeAddress)), 0o644)
	var log bytes.Buffer
	cfg, err := LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Games = games()
	if cfg.Retention.ArchiveAfter.Duration != 90*24*time.Hour || cfg.Retention.ArchiveDir != archives {
		t.Fatalf("retention = %+v", cfg.Retention)
	}
	db, err := store.Open(dbPath, store.Options{Due: cfg.Judge(cfg.Logger).Due})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg.Logger = slog.New(slog.NewTextHandler(&log, nil))
	d := &Daemon{cfg: cfg, db: db, log: cfg.Logger}
	stored := func(id string) bool {
		var ok bool
		db.View(context.Background(), func(tx *store.Tx) error { _, err := tx.Game(id); ok = err == nil; return nil })
		return ok
	}
	pass := func(now time.Time) int {
		t.Helper()
		n, err := d.archiveEnded(context.Background(), now)
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
	if data, err := os.ReadFile(filepath.Join(archives, "early.json")); err != nil {
		t.Errorf("the automatic archive: %v", err)
	} else if x, err := adjudicator.ReadGameExport(bytes.NewReader(data)); err != nil {
		t.Errorf("the automatic archive: %v", err)
	} else if n, err := (&adjudicator.Judge{Games: games()}).ReplayExport(x); err != nil || n != 3 {
		t.Errorf("replay of the automatic archive: %d steps, %v", n, err)
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
