//go:build integration

package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
)

// withKey is a mail whose body is clear-signed text, with the signer's
// public key attached, as a new player or game master sends it.
func withKey(g *signtest.GPG, fpr, from, id, subject, text string) []byte {
	body := string(g.ClearSign(fpr, []byte(text)))
	var b strings.Builder
	b.WriteString(fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: %s\r\nMIME-Version: 1.0\r\n", from, daemontest.JudgeAddress, id, subject))
	b.WriteString("Content-Type: multipart/mixed; boundary=\"k\"\r\n\r\n--k\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(daemontest.CRLF(body))
	b.WriteString("--k\r\nContent-Type: application/pgp-keys; name=key.asc\r\nContent-Disposition: attachment; filename=key.asc\r\n\r\n")
	b.WriteString(daemontest.CRLF(string(g.Export(fpr))))
	b.WriteString("--k--\r\n")
	return []byte(b.String())
}

// TestLifecycleByMail plays a game from the first mail to a report, all by
// mail through the judge daemon: a game master creates it, two players
// join with their keys attached, the game master starts it, both send
// orders, and the step is adjudicated at once with reports to all.
func TestLifecycleByMail(t *testing.T) {
	st := mailtest.Embedded(t)
	dir := t.TempDir()
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	for _, p := range []string{"gm", "alice", "bob"} {
		st.AddUser(t, p+"@players.test", "pw")
	}
	g := signtest.NewGPG(t)
	gm := g.GenKey("Grace <gm@players.test>")
	alice := g.GenKey("Alice <alice@players.test>")
	bob := g.GenKey("Bob <bob@players.test>")
	cfg := filepath.Join(dir, "umpire.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("store = %q\naddress = %q\n[imap]\naddress = %q\nsecurity = \"none\"\nusername = %q\npassword = %q\n[smtp]\naddress = %q\nsecurity = \"none\"\n",
		filepath.Join(dir, "umpire.db"), daemontest.JudgeAddress, st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr())), 0o600)
	serve := func() {
		t.Helper()
		if code, out, errOut := run(t, "serve", "--once", "--config", cfg); code != exitOK {
			t.Fatalf("serve --once: exit %d\n%s\n%s", code, out, errOut)
		}
	}
	send := func(from, id, raw string) {
		t.Helper()
		st.Submit(t, from, []string{daemontest.JudgeAddress}, []byte(raw))
	}
	inbox := func(who string, n int) string {
		t.Helper()
		return string(joinAll(st.WaitFor(t, who+"@players.test", "pw", "INBOX", n, 10*time.Second)))
	}
	game := "id = \"mail-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[schedule]\nevery = \"72h\"\n"
	send("gm@players.test", "c1", string(withKey(g, gm, "gm@players.test", "c1@players.test", "create", "create\n"+game)))
	serve()
	if got := inbox("gm", 1); !strings.Contains(got, "Game mail-1 (fake, scenario duel) is created") {
		t.Fatalf("the GM's answer to create:\n%s", got)
	}
	send("alice@players.test", "j1", string(withKey(g, alice, "alice@players.test", "j1@players.test", "join", "join mail-1 A\n")))
	send("bob@players.test", "j2", string(withKey(g, bob, "bob@players.test", "j2@players.test", "join", "join mail-1 B\n")))
	serve()
	// one mail for her own join, one for bob's
	if got := inbox("alice", 2); !strings.Contains(got, "now holds seat A of mail-1") || strings.Contains(got, "Seat A of mail-1 is now held") {
		t.Fatalf("alice's answer to join:\n%s", got)
	}
	send("gm@players.test", "s1", string(withKey(g, gm, "gm@players.test", "s1@players.test", "start", "start mail-1\n")))
	serve()
	if got := inbox("bob", 2); !strings.Contains(got, "The game master started mail-1. Step 1 (turn-1) is open") {
		t.Fatalf("bob was not told the game started:\n%s", got)
	}
	send("alice@players.test", "o1", string(withKey(g, alice, "alice@players.test", "o1@players.test", "orders", "game: mail-1\nstep: 1\nseat: A\nroll 2\nend\n")))
	send("bob@players.test", "o2", string(withKey(g, bob, "bob@players.test", "o2@players.test", "orders", "game: mail-1\nstep: 1\nseat: B\nmove A1 0101\nroll 1\nend\n")))
	serve()
	// Bob's order for alice's unit is explained, and his seat waits.
	if b := inbox("bob", 3); !strings.Contains(b, "A1 is not yours") || !strings.Contains(b, "not marked ready") {
		t.Errorf("bob's receipt does not explain the order for alice's unit:\n%s", b)
	}
	send("bob@players.test", "o3", string(withKey(g, bob, "bob@players.test", "o3@players.test", "orders", "game: mail-1\nstep: 1\nseat: B\nroll 1\nend\n")))
	serve()
	a := inbox("alice", 5) // join, bob's join, start, receipt, report
	// the picture the HTML part shows by cid: is a part of the mail with that Content-ID
	if !regexp.MustCompile(`(?i)content-id: *<map-mail-1-step1@umpire>`).MatchString(a) {
		t.Errorf("the report's picture part lacks the Content-ID its HTML refers to")
	}
	for _, want := range []string{"ACCEPTED: orders of seat A", "mail-1: step 1 report (turn-1)", "A rolls", "B rolls", "Step 2 (turn-2). Orders are due",
		"Content-Type: text/html", "Content-Type: image/png", "cid:map-mail-1-step1@umpire"} {
		if !strings.Contains(a, want) {
			t.Errorf("alice's mail lacks %q:\n%s", want, a)
		}
	}
	if b := inbox("bob", 5); !strings.Contains(b, "adjudicated at once") { // join, start, two receipts, report
		t.Errorf("bob's second receipt:\n%s", b)
	}
	if code, out, _ := run(t, "replay", "mail-1", "--config", cfg); code != exitOK || !strings.Contains(out, "1 steps replayed") {
		t.Errorf("replay: exit %d %q", code, out)
	}
	checkRender(t, cfg)
}

// checkRender renders the game's step 1 report for seat A into a folder
// and checks each part; a step not adjudicated is refused.
func checkRender(t *testing.T, cfg string) {
	t.Helper()
	dir := t.TempDir() + "/out/"
	if code, _, errOut := run(t, "render", "mail-1", "--config", cfg, "--seat", "A", "--out", dir); code != exitOK {
		t.Fatalf("render: exit %d: %s", code, errOut)
	}
	text, err := os.ReadFile(dir + "mail-1-step1-A.txt")
	if err != nil || !strings.Contains(string(text), "For seat A") || !strings.Contains(string(text), "A rolls") {
		t.Errorf("rendered text (%v):\n%s", err, text)
	}
	html, err := os.ReadFile(dir + "mail-1-step1-A.html")
	if err != nil || !strings.Contains(string(html), "<h2>WHAT HAPPENED</h2>") {
		t.Errorf("rendered html (%v)", err)
	}
	f, err := os.Open(dir + "mail-1-step1-A.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("rendered picture: %v", err)
	}
	t.Chdir(t.TempDir()) // the picture is written beside
	// without --seat: the game master's report as mailed, of a game with
	// hidden hands: the public view, with the order list
	if code, out, _ := run(t, "render", "mail-1", "--config", cfg, "--step", "1"); code != exitOK || !strings.Contains(out, "mail-1: step 1 report") ||
		!strings.Contains(out, "A: sent for step 1") || !strings.Contains(out, "Game master: you see the public view") || strings.Contains(out, "ORDERS ADJUDICATED") {
		t.Errorf("render to stdout: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat("mail-1-step1.png"); err != nil {
		t.Errorf("render without --out did not write the picture: %v", err)
	}
	if code, _, errOut := run(t, "render", "mail-1", "--config", cfg, "--step", "7"); code != exitUsage || !strings.Contains(errOut, "step 7") {
		t.Errorf("render of a step not played: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "render", "mail-1", "--config", cfg, "--seat", "Z"); code != exitUsage || !strings.Contains(errOut, "no seat") {
		t.Errorf("render for a seat not in the game: exit %d: %s", code, errOut)
	}
}

func joinAll(msgs [][]byte) []byte {
	var out []byte
	for _, m := range msgs {
		out = append(out, m...)
	}
	return out
}
