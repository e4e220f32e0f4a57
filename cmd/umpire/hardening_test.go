//go:build integration

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// The tests of issue 12: hostile or unlucky mail through the real Dovecot
// and OpenSMTPD, each a finding of a probe that the judge now survives.

// TestReplyLimitNeverDropsReports: forged "help" mails "from" the game
// master use up only the answers to unsigned mail from that address; the
// game master's own process commands, four in an hour, still bring every
// seat its report. Refused orders by the dozen, with a Reply-To aimed at a
// victim, get the limit's answers and no more; the rest is held, listed by
// "umpire mail held", never dropped. The counts survive the judge's
// restarts (each "serve --once" is a new judge).
func TestReplyLimitNeverDropsReports(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "[limits]\nreplies_per_hour = 3\n")
	c.setup(clubGame)
	for batch := range 2 {
		for i := range 10 {
			c.send("grace", c.mail("grace", fmt.Sprintf("<forged-%d-%d@players.test>", batch, i), "help", "", "help\n", false))
		}
		c.serve()
	}
	if n := c.count("grace", "Commands anyone may send"); n != 3 {
		t.Errorf("the address got %d answers to its 20 unsigned mails, want the limit's 3", n)
	}
	for step := 1; step <= 4; step++ {
		c.send("grace", c.signed("grace", fmt.Sprintf("process club-1 %d\n", step), false, ""))
		c.serve()
	}
	for _, who := range []string{"grace", "alice", "bob"} {
		for step := 1; step <= 4; step++ {
			if c.count(who, fmt.Sprintf("club-1: step %d report", step)) != 1 {
				t.Errorf("%s did not get the report of step %d", who, step)
			}
		}
		if c.count(who, "The game master had step 4 of club-1 adjudicated now") != 1 {
			t.Errorf("%s was not told of the fourth process", who)
		}
	}
	// Thirty refused order files signed by alice, answered to a victim.
	for i := range 30 {
		c.send("alice", c.signed("alice", fmt.Sprintf("game: club-1\nstep: 1\nseat: A\n# copy %d\nroll 1\nend\n", i), false, "Reply-To: victim@players.test\r\n"))
	}
	c.serve()
	victim := c.count("victim", "NOT accepted")
	if victim == 0 || victim > 3 {
		t.Errorf("the victim got %d receipts for 30 refused orders, want 1 to 3", victim)
	}
	code, out, errOut := c.run("mail", "held")
	if code != exitOK {
		t.Fatalf("mail held: exit %d: %s", code, errOut)
	}
	if held := strings.Count(out, "[victim@players.test]"); held+victim != 30 {
		t.Errorf("%d answers held and %d sent of 30: some vanished\n%s", held, victim, out)
	}
	if held := strings.Count(out, "[grace@players.test]"); held != 17 {
		t.Errorf("%d answers to the forged mails held, want 17\n%s", held, out)
	}
	// The operator sends one after all.
	id := strings.Fields(strings.Split(out, "\n")[1])[0]
	if code, out, errOut := c.run("mail", "release", id); code != exitOK || !strings.Contains(out, "released") {
		t.Fatalf("mail release %s: exit %d: %s%s", id, code, out, errOut)
	}
	c.serve()
	if n := c.count("grace", "Commands anyone may send"); n != 4 {
		t.Errorf("the released answer did not go: %d help answers", n)
	}
}

// TestRunawayGamesByMail: the game files that ran away are refused at
// create with a reason the game master can act on; and a game whose clock
// runs faster than the judge allows is stopped by the safety brake, its
// game master and the operator told.
func TestRunawayGamesByMail(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "operator = \"ops@players.test\"\n[limits]\nmin_interval = \"1s\"\nsteps_per_hour = 3\n")
	for i, c2 := range []struct{ file, want string }{
		{"id = \"run-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1000000000\"\n[schedule]\nevery = \"1ns\"\n", "allows no less than 1s between deadlines"},
		{"id = \"run-2\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\ncron = \"0 0 30 2 *\"\n", "names no time in the coming year"},
		{"id = \"run-3\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"1000000000\"\n[schedule]\nevery = \"24h\"\n", "want a whole number from 1 to 99"},
	} {
		c.send("grace", c.signed("grace", "create\n"+c2.file, i == 0, ""))
		c.serve()
		if got := c.inbox("grace", i+1)[i]; !strings.Contains(got, "The game was not created") || !strings.Contains(got, c2.want) {
			t.Errorf("create %d: the answer lacks %q:\n%s", i+1, c2.want, got)
		}
	}
	// A game the judge accepts, whose clock then runs one step a second.
	c.setup(strings.Replace(strings.Replace(clubGame, "72h", "1s", 1), "\"5\"", "\"50\"", 1))
	startDaemon(t, c.config)
	for _, who := range []string{"grace", "ops"} {
		deadline := time.Now().Add(20 * time.Second)
		for c.count(who, "paused by the safety brake") == 0 && time.Now().Before(deadline) {
			time.Sleep(200 * time.Millisecond)
		}
		if got := strings.Join(c.inbox(who, 0), "\n"); !strings.Contains(got, "The judge paused club-1") || !strings.Contains(got, "and the judge allows 3") {
			t.Errorf("%s was not told of the brake:\n%s", who, got)
		}
	}
	time.Sleep(2 * time.Second)
	code, out, _ := c.run("game", "show", "club-1")
	if code != exitOK || !strings.Contains(out, "status paused") {
		t.Errorf("game show after the brake: exit %d\n%s", code, out)
	}
	if n := c.count("alice", "club-1: step"); n > 4 {
		t.Errorf("alice got %d reports: the brake let more than 3 clock steps and the one started by hand", n)
	}
}

// TestControlSocket: while the judge runs, the command line lists, shows,
// exports, pauses and resumes games, shows the keys, replays a game and
// compacts the store through the control socket, which only its owner may
// open.
func TestControlSocket(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.setup(clubGame)
	startDaemon(t, c.config)
	sock := daemon.ControlPath(c.store)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatalf("no control socket: %v", err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("control socket %s has mode %v, want a socket 0600", sock, fi.Mode())
	}
	for _, cmd := range []struct {
		args []string
		want string
	}{
		{[]string{"game", "list"}, "club-1"},
		{[]string{"game", "show", "club-1"}, "status running, step 1"},
		{[]string{"game", "export", "club-1"}, `"game":"club-1"`},
		{[]string{"keys", "server"}, "BEGIN PGP PUBLIC KEY BLOCK"},
		{[]string{"keys", "list"}, c.fpr["alice"]},
		{[]string{"replay", "club-1"}, "OK club-1"},
		{[]string{"game", "pause", "club-1"}, "The operator of the judge paused club-1"},
		{[]string{"game", "show", "club-1"}, "status paused"},
		{[]string{"game", "resume", "club-1"}, "The operator of the judge resumed club-1"},
		{[]string{"mail", "held"}, "no mail is held back"},
		{[]string{"store", "stats"}, "lane answers"},
		{[]string{"store", "space"}, "free pages"},
	} {
		code, out, errOut := c.run(cmd.args...)
		if code != exitOK || !strings.Contains(out, cmd.want) {
			t.Errorf("umpire %s: exit %d, output lacks %q:\n%s%s", strings.Join(cmd.args, " "), code, cmd.want, out, errOut)
		}
	}
	if code, _, errOut := c.run("game", "show", "no-such-game"); code != exitUsage || !strings.Contains(errOut, "no-such-game") {
		t.Errorf("game show of a game that does not exist, through the daemon: exit %d: %s", code, errOut)
	}
	// A backup taken through the running judge opens as a store with the
	// game in it.
	backup := filepath.Join(t.TempDir(), "backup.db")
	if code, out, errOut := c.run("store", "backup", backup); code != exitOK || !strings.Contains(out, "backed up to "+backup) {
		t.Errorf("umpire store backup while the judge runs: exit %d:\n%s%s", code, out, errOut)
	}
	if b, err := store.Open(backup, store.Options{}); err != nil {
		t.Errorf("the backup does not open: %v", err)
	} else {
		if err := b.View(t.Context(), func(tx *store.Tx) error { _, err := tx.Game("club-1"); return err }); err != nil {
			t.Errorf("the backup lacks club-1: %v", err)
		}
		b.Close()
	}
	// The judge compacts its store while it runs, and goes on: an order
	// sent afterwards gets its receipt, and the store's file holds it.
	if code, out, errOut := c.run("store", "compact"); code != exitOK || !strings.Contains(out, "compacted in") {
		t.Errorf("umpire store compact while the judge runs: exit %d:\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(c.store + ".pre-compact"); err != nil {
		t.Errorf("compaction kept no old file: %v", err)
	}
	c.send("alice", c.signed("alice", "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n", false, ""))
	deadline = time.Now().Add(20 * time.Second)
	for c.count("alice", "ACCEPTED: orders of seat A") == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if c.count("alice", "ACCEPTED: orders of seat A") != 1 {
		t.Errorf("an order sent after the compaction got no receipt:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
	if code, out, _ := c.run("game", "show", "club-1"); code != exitOK || !strings.Contains(out, "sent: A (v1)") {
		t.Errorf("game show after the compaction does not show alice's order: exit %d\n%s", code, out)
	}
	// The seats hear of the operator's pause and resume.
	deadline = time.Now().Add(10 * time.Second)
	for c.count("alice", "resumed club-1") == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if c.count("alice", "The operator of the judge paused club-1") != 1 || c.count("alice", "The operator of the judge resumed club-1") != 1 {
		t.Errorf("alice was not told of the operator's pause and resume:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
}

// TestSignedCommandsCannotBeReplayed: the game master's signed "process"
// sent again with a new Message-ID is answered "already done" and changes
// nothing; the old form without the step says what to write, and a
// process for a step that is no longer open is refused.
func TestSignedCommandsCannotBeReplayed(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.setup(clubGame)
	process := c.signed("grace", "process club-1 1\n", false, "")
	c.send("grace", process)
	c.serve()
	replay := strings.Replace(string(process), "Message-ID: <", "Message-ID: <replayed-", 1)
	c.send("grace", []byte(replay))
	c.serve()
	if c.count("grace", "This signed command was already carried out on", `"process club-1 1"`) != 1 {
		t.Errorf("the replay was not answered 'already done':\n%s", strings.Join(c.inbox("grace", 0), "\n"))
	}
	c.send("grace", c.signed("grace", "process club-1\n", false, ""))
	c.send("grace", c.signed("grace", "# step 1 again\nprocess club-1 1\n", false, ""))
	c.serve()
	if c.count("grace", "write 'process club-1 2'") != 1 {
		t.Errorf("the old form was not answered with what to write")
	}
	if c.count("grace", "step 1 of club-1 is not open: it was closed on") != 1 {
		t.Errorf("a process for a closed step was not refused")
	}
	c.view(func(tx *store.Tx) error {
		g, err := tx.Game("club-1")
		if g.Step != 2 {
			t.Errorf("the game is at step %d, want 2: a replay or a stale process adjudicated a step", g.Step)
		}
		return err
	})
	if n := c.count("alice", "club-1: step 2 report"); n != 0 {
		t.Errorf("step 2 was adjudicated by a replayed mail")
	}
}

// TestKeysAreUpdated: alice's key expired; her orders are refused with a
// reason, then taken once she sends the renewed key, as the judge asks.
// Bob revokes his key: the revocation certificate, sent unsigned, is
// honoured at once, and orders he signed before are refused. A SHA-1
// signature is refused with a clear answer.
func TestKeysAreUpdated(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.setup(clubGame)
	// Alice's key expires: made to expire in two seconds, as if years
	// passed. Her orders were signed in time, and arrive late.
	c.gpg.Run(nil, "--quick-set-expire", c.fpr["alice"], "seconds=2")
	stale := c.gpg.Export(c.fpr["alice"])
	orders := "game: club-1\nstep: 1\nseat: A\nroll 1\nend\n"
	late := c.signed("alice", orders, false, "")
	time.Sleep(3 * time.Second)
	// The judge must learn of the short expiry first: alice sends it.
	raw := c.mail("alice", "<exp1@players.test>", "key", "", "my key\n", false)
	raw = []byte(strings.Replace(string(raw), "Content-Type: text/plain; charset=utf-8\r\n\r\nmy key\r\n",
		"Content-Type: multipart/mixed; boundary=\"k\"\r\n\r\n--k\r\nContent-Type: text/plain\r\n\r\nmy key\r\n--k\r\nContent-Type: application/pgp-keys\r\nContent-Disposition: attachment; filename=key.asc\r\n\r\n"+daemontest.CRLF(string(stale))+"--k--\r\n", 1))
	c.send("alice", raw)
	c.serve()
	c.send("alice", late)
	c.serve()
	if c.count("alice", "signature not accepted", "has expired") != 1 {
		t.Fatalf("orders signed by the expired key were not refused with the reason:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
	c.gpg.Run(nil, "--quick-set-expire", c.fpr["alice"], "2y")
	c.send("alice", c.signed("alice", orders, true, ""))
	c.serve()
	if c.count("alice", "ACCEPTED: orders of seat A", "The judge took the update of your key", "now expires on") != 1 {
		t.Errorf("the renewed key was not taken:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
	// Bob signs orders, then revokes his key and sends the certificate.
	early := c.signed("bob", "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n", false, "")
	cert := c.gpg.RevocationCert(c.fpr["bob"])
	rev := c.mail("bob", "<rev1@players.test>", "revocation", "", "I lost my key.\n", false)
	rev = []byte(strings.Replace(string(rev), "Content-Type: text/plain; charset=utf-8\r\n\r\nI lost my key.\r\n",
		"Content-Type: multipart/mixed; boundary=\"k\"\r\n\r\n--k\r\nContent-Type: text/plain\r\n\r\nI lost my key.\r\n--k\r\nContent-Type: application/pgp-keys\r\nContent-Disposition: attachment; filename=revoke.asc\r\n\r\n"+daemontest.CRLF(string(cert))+"--k--\r\n", 1))
	c.send("bob", rev)
	c.serve()
	if c.count("bob", "key "+c.fpr["bob"]+" is now revoked") != 1 {
		t.Errorf("bob was not told his revocation was taken:\n%s", strings.Join(c.inbox("bob", 0), "\n"))
	}
	c.send("bob", early)
	c.serve()
	if c.count("bob", "signature not accepted", "revoked") != 1 {
		t.Errorf("orders signed by the revoked key were not refused:\n%s", strings.Join(c.inbox("bob", 0), "\n"))
	}
	c.send("alice", c.signed("alice", "game: club-1\nstep: 1\nseat: A\n# sha1\nroll 1\nend\n", false, "", "--digest-algo", "SHA1"))
	c.serve()
	if c.count("alice", "signature not accepted", "uses SHA-1, which can be forged", "--digest-algo SHA512") != 1 {
		t.Errorf("a SHA-1 signature was not refused with a clear answer")
	}
}

// TestReceiptDespiteBadMessageID: a control character in the Message-ID
// of an order mail once made the receipt impossible to compose, and it was
// lost without a word. The receipt comes, without the reference.
func TestReceiptDespiteBadMessageID(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.setup(clubGame)
	body := string(c.gpg.Sign(c.fpr["alice"], []byte("game: club-1\nstep: 1\nseat: A\nroll 1\nend\n")))
	c.send("alice", c.mail("alice", "<bad\x01id@players.test>", "orders", "", body, false))
	c.serve()
	var receipt string
	for _, m := range c.inbox("alice", 0) {
		if strings.Contains(m, "ACCEPTED: orders of seat A") {
			receipt = m
		}
	}
	if receipt == "" {
		t.Fatalf("no receipt:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
	if strings.Contains(receipt, "In-Reply-To: <bad") {
		t.Errorf("the receipt refers to the bad Message-ID:\n%s", receipt)
	}
}

// TestCreateChecksDataText: a War by Television game file whose map is
// given as text that is no map is refused at create, not at start.
func TestCreateChecksDataText(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	c.send("grace", c.signed("grace", "create\nid = \"wbt-1\"\ngame = \"wbt\"\nscenario = \"demo\"\n[options]\nmap = '''\nthis is no map\n'''\n[schedule]\nevery = \"72h\"\n", true, ""))
	c.serve()
	got := strings.Join(c.inbox("grace", 1), "\n")
	if !strings.Contains(got, "The game was not created") || !strings.Contains(got, "option map") {
		t.Errorf("a bad map text was not refused at create:\n%s", got)
	}
}

// TestCreateRefusesDeepData: a game file sent by mail whose data option
// nests thousands deep (a map 4,000 inline tables deep took 13 s and
// 1.85 GiB to decode), or that names thousands of unknown keys, is
// answered at once, in a few lines, with the line (adjudicator/datafile).
func TestCreateRefusesDeepData(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "")
	deep := "x = " + strings.Repeat("{a = ", 4000) + "1" + strings.Repeat("}", 4000)
	c.send("grace", c.signed("grace", "create\nid = \"wbt-1\"\ngame = \"wbt\"\nscenario = \"demo\"\n[options]\nmap = '''\n"+deep+"\n'''\n[schedule]\nevery = \"72h\"\n", true, ""))
	var unknown strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&unknown, "k%d = {a = {b = 1}}\n", i)
	}
	c.send("grace", c.signed("grace", "create\n"+unknown.String()+clubGame, true, ""))
	c.serve()
	got := c.inbox("grace", 2)
	if len(got) != 2 || !strings.Contains(got[0]+got[1], "option map:1: nested more than 12 deep") {
		t.Errorf("the deep map was not refused with the line:\n%s", strings.Join(got, "\n---\n"))
	}
	if !strings.Contains(got[0]+got[1], "unknown setting k0 (also unknown: k1, k2, k3, k4 and 2995 more)") {
		t.Errorf("the unknown keys were not named in short:\n%s", strings.Join(got, "\n---\n"))
	}
	for _, m := range got {
		if len(m) > 8000 {
			t.Errorf("an answer of %d bytes", len(m))
		}
	}
}

// TestStartWakesTheClock: a game started by mail has its first deadline
// watched at once, not after the scheduler's next minute.
func TestStartWakesTheClock(t *testing.T) {
	t.Parallel()
	c := newClub(t, mailtest.Real(t), "[limits]\nmin_interval = \"1s\"\n")
	startDaemon(t, c.config)
	game := strings.Replace(clubGame, "72h", "3s", 1)
	c.send("grace", c.signed("grace", "create\n"+game, true, ""))
	c.inbox("grace", 1)
	c.send("alice", c.signed("alice", "join club-1 A\n", true, ""))
	c.send("bob", c.signed("bob", "join club-1 B\n", true, ""))
	c.inbox("grace", 3) // created, two seats taken
	c.send("grace", c.signed("grace", "start club-1\n", false, ""))
	started := time.Now()
	for c.count("alice", "club-1: step 1 report") == 0 && time.Since(started) < 30*time.Second {
		time.Sleep(100 * time.Millisecond)
	}
	if took := time.Since(started); took > 20*time.Second {
		t.Errorf("the step due 3 s after start was adjudicated after %v", took.Round(time.Second))
	}
}
