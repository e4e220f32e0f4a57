package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// playedStore makes a store holding the fake game cli-1 with two steps
// adjudicated, and returns its path.
func playedStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "game.toml")
	dbPath := filepath.Join(dir, "umpire.db")
	os.WriteFile(file, []byte(fakeGameFile), 0o644)
	if code, _, errOut := run(t, "game", "new", file, "--store", dbPath); code != exitOK {
		t.Fatalf("game new: exit %d %s", code, errOut)
	}
	db, err := store.Open(dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
				text := "game: cli-1\nstep: " + strconv.Itoa(step) + "\nseat: " + seat + "\nroll 2\nend\n"
				env := &adjudicator.Envelope{MessageID: seat + strconv.Itoa(step), Received: now, Text: text,
					Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: "K" + seat, Content: text, Signed: []byte(text)}}
				if _, err := in.Handle(context.Background(), jt, env); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dbPath
}

// TestCommandLineTable runs every command with no arguments, --help, a
// name that does not exist and an unknown flag, and checks the exit status
// and the first line it prints (on standard output for 0, standard error
// otherwise). Nothing may panic.
func TestCommandLineTable(t *testing.T) {
	db := playedStore(t)
	missing := filepath.Join(t.TempDir(), "typo.db")
	const bogus = "flag provided but not defined: -bogus"
	cases := []struct {
		args  []string
		code  int
		first string // a prefix of the first line
	}{
		{nil, exitUsage, "umpire: a play-by-email judge"},
		{[]string{"help"}, exitOK, "umpire: a play-by-email judge"},
		{[]string{"help", "help"}, exitOK, "umpire: a play-by-email judge"},
		{[]string{"help", "--help"}, exitOK, "umpire: a play-by-email judge"},
		{[]string{"help", "-h"}, exitOK, "umpire: a play-by-email judge"},
		{[]string{"--help", "--help"}, exitOK, "umpire: a play-by-email judge"},
		{[]string{"help", "render"}, exitOK, "Usage: umpire render GAME"},
		{[]string{"help", "render", "--help"}, exitOK, "Usage: umpire render GAME"},
		{[]string{"--help", "keys"}, exitOK, "Usage: umpire keys"},
		{[]string{"help", "frobnicate"}, exitUsage, `umpire help: no command "frobnicate": the commands are serve, demo, game`},
		{[]string{"help", "game", "keys"}, exitUsage, "umpire help: one command at a time"},
		{[]string{"frobnicate"}, exitUsage, `umpire: unknown command "frobnicate": the commands are serve, demo`},
		{[]string{"--bogus"}, exitUsage, "umpire: flag --bogus comes after a command"},

		{[]string{"serve"}, exitUsage, "umpire serve: no configuration file was found (looked for --config FILE, $UMPIRE_CONFIG and ./umpire.toml)"},
		{[]string{"serve", "--help"}, exitOK, "Usage: umpire serve"},
		{[]string{"serve", "extra"}, exitUsage, "umpire serve: takes no arguments"},
		{[]string{"serve", "--bogus"}, exitUsage, "umpire serve: " + bogus},
		{[]string{"serve", "--dev", "--once"}, exitUsage, "umpire serve: --dev and --once do not go together"},

		{[]string{"demo", "--help"}, exitOK, "Usage: umpire demo"},
		{[]string{"demo", "extra"}, exitUsage, "umpire demo: takes no arguments"},
		{[]string{"demo", "--bogus"}, exitUsage, "umpire demo: " + bogus},
		{[]string{"demo", "--turns", "-1"}, exitUsage, "umpire demo: --turns -1: from 1 to 50, or 0"},

		{[]string{"game"}, exitUsage, "umpire game: want a subcommand: new FILE, list, show ID, export ID, pause ID, resume ID, archive ID FILE, archived or image ID FILE"},
		{[]string{"game", "--help"}, exitOK, "Usage: umpire game new FILE"},
		{[]string{"game", "show", "nope", "--store", db}, exitUsage, `umpire game: there is no game "nope" in ` + db + ": its games are cli-1"},
		{[]string{"game", "export", "nope", "--store", db}, exitUsage, `umpire game: there is no game "nope" in ` + db + ": its games are cli-1"},
		{[]string{"game", "show", "--store", db}, exitUsage, "umpire game: game show takes one argument, not 0: umpire game show ID"},
		{[]string{"game", "list", "--store", missing}, exitUsage, "umpire game: there is no store " + missing + " (--store)"},
		{[]string{"game", "delete"}, exitUsage, `umpire game: unknown subcommand "delete": want new FILE, list, show ID, export ID, pause ID, resume ID, archive ID FILE, archived or image ID FILE`},
		{[]string{"game", "--bogus"}, exitUsage, "umpire game: " + bogus},

		{[]string{"verify"}, exitUsage, "umpire verify: want one FILE argument, got 0"},
		{[]string{"verify", "--help"}, exitOK, "Usage: umpire verify"},
		{[]string{"verify", "nope.json"}, exitUsage, "umpire verify: open nope.json: no such file"},
		{[]string{"verify", "--json", "nope.json"}, exitUsage, "umpire verify: open nope.json: no such file"},
		{[]string{"verify", "--bogus"}, exitUsage, "umpire verify: " + bogus},

		{[]string{"replay"}, exitUsage, "umpire replay: want one GAME or FILE argument"},
		{[]string{"replay", "--help"}, exitOK, "Usage: umpire replay"},
		{[]string{"replay", "nope", "--store", db}, exitUsage, `umpire replay: there is no game "nope" in ` + db + ", and no file of that name: its games are cli-1"},
		{[]string{"replay", "nope.json"}, exitUsage, "umpire replay: nope.json: no such file"},
		{[]string{"replay", "cli-1", "--store", missing}, exitUsage, "umpire replay: there is no store " + missing},
		{[]string{"replay", "--bogus"}, exitUsage, "umpire replay: " + bogus},

		{[]string{"resolve"}, exitOK, ""},
		{[]string{"resolve", "--help"}, exitOK, "Usage: umpire resolve"},
		{[]string{"resolve", "nope"}, exitUsage, `umpire resolve: game "nope": unknown; the games are`},
		{[]string{"resolve", "wbt", "nope"}, exitUsage, `umpire resolve: procedure "nope": unknown in wbt`},
		{[]string{"resolve", "--bogus"}, exitUsage, "umpire resolve: " + bogus},

		{[]string{"render"}, exitUsage, "umpire render: render takes one game id, not 0 arguments"},
		{[]string{"render", "--help"}, exitOK, "Usage: umpire render"},
		{[]string{"render", "nope", "--store", db}, exitUsage, `umpire render: there is no game "nope" in ` + db + ": its games are cli-1"},
		{[]string{"render", "cli-1", "--seat", "C", "--store", db}, exitUsage, `umpire render: game cli-1 has no seat "C": its seats are A, B`},
		{[]string{"render", "cli-1", "--step", "9", "--store", db}, exitUsage, "umpire render: game cli-1 has no adjudicated step 9: its steps are 1 to 2"},
		{[]string{"render", "cli-1", "--store", missing}, exitUsage, "umpire render: there is no store " + missing},
		{[]string{"render", "--bogus"}, exitUsage, "umpire render: " + bogus},

		{[]string{"keys"}, exitUsage, "umpire keys: want a subcommand: server, list or add"},
		{[]string{"keys", "--help"}, exitOK, "Usage: umpire keys"},
		{[]string{"keys", "frob"}, exitUsage, "umpire keys: want keys server, keys list or keys add FILE --address ADDR"},
		{[]string{"keys", "list", "--store", missing}, exitUsage, "umpire keys: there is no store " + missing},
		{[]string{"keys", "server", "--store", missing}, exitUsage, "umpire keys: there is no store " + missing},
		{[]string{"keys", "--bogus"}, exitUsage, "umpire keys: " + bogus},

		{[]string{"check", "--help"}, exitOK, "Usage: umpire check"},
		{[]string{"check", "extra"}, exitUsage, "umpire check: takes no arguments but --mail's address"},
		{[]string{"check", "--mail", "ops@example.org", "extra"}, exitUsage, "umpire check: takes no arguments but --mail's address"},
		{[]string{"check", "--bogus"}, exitUsage, "umpire check: " + bogus},

		{[]string{"version"}, exitOK, "umpire "},
		{[]string{"version", "--help"}, exitOK, "Usage: umpire version"},
		{[]string{"version", "extra"}, exitUsage, "umpire version: takes no arguments"},
		{[]string{"version", "--bogus"}, exitUsage, "umpire version: " + bogus},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			text := out
			if c.code != exitOK {
				text = errOut
			}
			first, _, _ := strings.Cut(text, "\n")
			if code != c.code || !strings.HasPrefix(first, c.first) {
				t.Errorf("umpire %s: exit %d, first line %q; want %d and %q\nstdout %s\nstderr %s", strings.Join(c.args, " "), code, first, c.code, c.first, out, errOut)
			}
			if strings.Contains(out+errOut, "panic") || strings.Contains(out+errOut, "goroutine ") {
				t.Errorf("umpire %s panicked:\n%s%s", strings.Join(c.args, " "), out, errOut)
			}
		})
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a read-only command made the store %s", missing)
	}
	// verify --json prints JSON on standard output whatever happens.
	_, out, _ := run(t, "verify", "--json", "nope.json")
	if !strings.Contains(out, `"ok": false`) || !strings.Contains(out, `"error": "open nope.json`) {
		t.Errorf("verify --json of a missing file: %q", out)
	}
	// A seat is found whatever its case.
	if code, out, errOut := run(t, "render", "cli-1", "--seat", "a", "--step", "1", "--store", db, "--out", filepath.Join(t.TempDir(), "r.txt")); code != exitOK {
		t.Errorf("render --seat a: exit %d %s %s", code, out, errOut)
	}
}

// TestOfflineCommandsNeedNoMailSecrets: a configuration whose password and
// CA files are not on this machine serves the offline commands; only serve
// reads them.
func TestOfflineCommandsNeedNoMailSecrets(t *testing.T) {
	db := playedStore(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "umpire.toml")
	os.WriteFile(cfg, []byte("store = \""+db+"\"\naddress = \"judge@example.org\"\n[imap]\naddress = \"imap.example.org:993\"\n"+
		"password_file = \"imap.secret\"\nca_file = \"ca.pem\"\n[smtp]\naddress = \"smtp.example.org:587\"\npassword_file = \"smtp.secret\"\n"), 0o644)
	for _, args := range [][]string{{"game", "list"}, {"game", "show", "cli-1"}, {"keys", "list"}, {"replay", "cli-1"},
		{"render", "cli-1", "--out", filepath.Join(dir, "r.txt")}} {
		if code, _, errOut := run(t, append(args, "--config", cfg)...); code != exitOK {
			t.Errorf("%s with secrets not on this machine: exit %d %s", strings.Join(args, " "), code, errOut)
		}
	}
	code, _, errOut := run(t, "serve", "--once", "--config", cfg)
	if code != exitUsage || !strings.Contains(errOut, "imap.ca_file") || !strings.Contains(errOut, "no such file") {
		t.Errorf("serve without its password file: exit %d %s", code, errOut)
	}
}
