package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

const fakeGameFile = `id = "cli-1"
game = "fake"
scenario = "duel"
title = "A duel by mail"
[schedule]
every = "24h"
`

func TestGameCommands(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "game.toml")
	dbPath := filepath.Join(dir, "umpire.db")
	os.WriteFile(file, []byte(fakeGameFile), 0o644)
	if code, out, errOut := run(t, "game", "new", file, "--store", dbPath); code != exitOK || !strings.Contains(out, "game cli-1 created (fake, scenario duel, seats A, B)") {
		t.Fatalf("game new: exit %d %q %q", code, out, errOut)
	}
	if code, _, errOut := run(t, "game", "new", file, "--store", dbPath); code != exitFail || !strings.Contains(errOut, `a game "cli-1" exists already`) {
		t.Errorf("game new twice: exit %d %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte(strings.Replace(fakeGameFile, `"duel"`, `"melee"`, 1)), 0o644)
	if code, _, errOut := run(t, "game", "new", bad, "--store", dbPath); code != exitUsage || !strings.Contains(errOut, `no scenario "melee"`) {
		t.Errorf("game new with a bad scenario: exit %d %q", code, errOut)
	}

	// Players join and play two steps (by the judge, as mail would).
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j := &adjudicator.Judge{Games: games()}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	in := &adjudicator.Intake{Judge: j}
	err = db.Update(context.Background(), func(tx *store.Tx) error {
		jt := tx.Judge(daemontest.JudgeAddress, now)
		for _, seat := range []string{"A", "B"} {
			if err := j.Join(jt, "cli-1", seat, "K"+seat); err != nil {
				return err
			}
		}
		if err := j.Start(jt, "cli-1", now); err != nil {
			return err
		}
		for step := 1; step <= 2; step++ {
			for _, seat := range []string{"A", "B"} {
				text := "game: cli-1\nstep: " + string(rune('0'+step)) + "\nseat: " + seat + "\nroll 2\nend\n"
				env := &adjudicator.Envelope{MessageID: seat + string(rune('0'+step)), Received: now, Text: text,
					Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "K" + seat, Content: text, Signed: []byte(text)}}
				if _, err := in.Handle(context.Background(), jt, env); err != nil {
					return err
				}
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, "game", "list", "--store", dbPath)
	if code != exitOK || !strings.Contains(out, "cli-1") || !strings.Contains(out, "running") {
		t.Errorf("game list: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "game", "show", "cli-1", "--store", dbPath)
	for _, want := range []string{"status running, step 3", "A          KA", "step 3 (turn-3): orders due from A, B", "dice commitments: open"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("game show lacks %q:\n%s", want, out)
		}
	}
	if code, out, errOut := run(t, "replay", "cli-1", "--store", dbPath); code != exitOK || !strings.Contains(out, "OK cli-1: 2 steps replayed") {
		t.Errorf("replay: exit %d %q %q", code, out, errOut)
	}
	// Exported, the game replays away from the store.
	code, out, errOut := run(t, "game", "export", "cli-1", "--store", dbPath)
	exported := filepath.Join(dir, "cli-1.json")
	os.WriteFile(exported, []byte(out), 0o644)
	if code != exitOK {
		t.Fatalf("game export: exit %d", code)
	}
	// the fake game has hidden hands: the operator is told the export of
	// the running game holds them
	if !strings.Contains(errOut, "cli-1 has hidden hands and has not ended: this export holds every seat's hand") {
		t.Errorf("game export of a running game with hidden hands does not warn: %q", errOut)
	}
	if code, out, errOut := run(t, "replay", exported); code != exitOK || !strings.Contains(out, "2 steps replayed; every state and every die is as exported") {
		t.Errorf("replay of the export: exit %d %q %q", code, out, errOut)
	}
	if code, _, errOut := run(t, "replay", file); code != exitUsage || !strings.Contains(errOut, "not an umpire game export") {
		t.Errorf("replay of a game file: exit %d %q", code, errOut)
	}
	if code, _, errOut := run(t, "replay", "nope", "--store", dbPath); code != exitUsage || !strings.Contains(errOut, `there is no game "nope"`) {
		t.Errorf("replay of no game: exit %d %q", code, errOut)
	}
}
