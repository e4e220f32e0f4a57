//go:build integration

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// shortGame is club-1 with one turn: two order files end it.
const shortGame = "id = \"club-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1\"\n[schedule]\nevery = \"72h\"\n"

// endClubGame plays club-1 (shortGame) to its end by mail.
func (c *club) endClubGame() {
	c.t.Helper()
	c.setup(shortGame)
	c.send("alice", c.signed("alice", "game: club-1\nstep: 1\nseat: A\nroll 2\nend\n", false, ""))
	c.send("bob", c.signed("bob", "game: club-1\nstep: 1\nseat: B\nroll 1\nend\n", false, ""))
	c.serve()
	c.view(func(tx *store.Tx) error {
		if g, err := tx.Game("club-1"); err != nil || g.Status != "ended" {
			c.t.Fatalf("club-1 did not end: %+v %v", g, err)
		}
		return nil
	})
}

// TestArchivedGameByMail: after 'umpire game archive', every mail about
// the game (an order file, the game master's signed command, an observe
// and a press request) is answered that it ended and was archived, with
// its steps and dice head, and whom to ask for its record; the seats and
// the game master were told of the archive.
func TestArchivedGameByMail(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.endClubGame()
	file := filepath.Join(c.dir, "club-1.json")
	code, out, errOut := c.run("game", "archive", "club-1", file)
	if code != exitOK {
		t.Fatalf("archive: exit %d %q %q", code, out, errOut)
	}
	var head string
	c.view(func(tx *store.Tx) error {
		a, ok, err := tx.Archived("club-1")
		if !ok || err != nil {
			t.Fatalf("no tombstone: %v", err)
		}
		head = a.DiceHead
		return nil
	})
	c.send("alice", c.signed("alice", "game: club-1\nstep: 2\nseat: A\nroll 2\nend\n", false, ""))
	c.send("grace", c.signed("grace", "pause club-1\n", false, ""))
	c.send("bob", c.signed("bob", "observe club-1\n", false, ""))
	c.send("bob", c.signed("bob", "press club-1 TO all\nThe marker is late-press.\n", false, ""))
	c.serve()
	archived := "club-1 (fake) ended and was archived on "
	for _, tc := range []struct{ who, what string }{{"alice", "NOT ACCEPTED"}, {"grace", `"pause club-1" was not done`},
		{"bob", `"observe club-1" was not done`}, {"bob", `"press club-1 TO all" was not done`}} {
		if c.count(tc.who, archived, "after 2 steps", head, "ask the operator for the game's export", "umpire replay FILE", tc.what) != 1 {
			t.Errorf("%s's %s about the archived game is not answered that it was archived:\n%s", tc.who, tc.what, strings.Join(c.inbox(tc.who, 0), "\n-----\n"))
		}
	}
	if c.count("alice", "The marker is late-press.") != 0 {
		t.Error("press for the archived game was relayed")
	}
	for _, who := range []string{"grace", "alice", "bob"} {
		if c.count(who, "club-1: archived", "club-1 ended after 2 steps and has been archived") != 1 {
			t.Errorf("%s was not told of the archive:\n%s", who, strings.Join(c.inbox(who, 0), "\n-----\n"))
		}
	}
}

// TestArchiveThroughControlSocket: while 'umpire serve' runs, 'umpire game
// archive' goes to it: the judge writes the file at the absolute path the
// command line gives, checks it and deletes the game, and its outbox sends
// the announcement; 'game show' and 'game archived' show the record; a
// relative path sent straight to the socket is refused.
func TestArchiveThroughControlSocket(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.endClubGame()
	startDaemon(t, c.config)
	sock := daemon.ControlPath(c.store)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
	}
	file := filepath.Join(c.dir, "club-1.json")
	code, out, errOut := c.run("game", "archive", "club-1", file)
	if code != exitOK || !strings.Contains(out, "game club-1 archived to "+file) {
		t.Fatalf("archive through the control socket: exit %d %q %q", code, out, errOut)
	}
	if code, out, errOut := c.run("replay", file); code != exitOK || !strings.Contains(out, "steps replayed") {
		t.Errorf("replay of the file the judge wrote: exit %d %q %q", code, out, errOut)
	}
	if code, out, _ := c.run("game", "show", "club-1"); code != exitOK || !strings.Contains(out, "status archived on") {
		t.Errorf("game show through the socket: exit %d %q", code, out)
	}
	if code, out, _ := c.run("game", "archived"); code != exitOK || !strings.Contains(out, "club-1.json") {
		t.Errorf("game archived through the socket: exit %d %q", code, out)
	}
	if code, _, errOut := c.run("game", "archive", "club-1", filepath.Join(c.dir, "again.json")); code != exitUsage || !strings.Contains(errOut, "was archived on") {
		t.Errorf("a second archive through the socket: exit %d %q", code, errOut)
	}
	var buf strings.Builder
	if code, err := daemon.Call(c.store, []string{"game", "archive", "club-1", "relative.json"}, &buf, &buf); err != nil || code != exitUsage || !strings.Contains(buf.String(), "writes only an absolute path") {
		t.Errorf("a relative path sent to the socket: exit %d %v %q", code, err, buf.String())
	}
	// The announcement goes to every seat and the game master: wait for
	// both mailboxes, not the first to fill.
	told := func() bool {
		return c.count("alice", "club-1: archived") > 0 && c.count("grace", "club-1: archived") > 0
	}
	for deadline := time.Now().Add(30 * time.Second); !told() && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if a, g := c.count("alice", "club-1: archived"), c.count("grace", "club-1: archived"); a != 1 || g != 1 {
		t.Errorf("the running judge sent the archive announcement %d times to alice and %d times to grace, want once each", a, g)
	}
}
