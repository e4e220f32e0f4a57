//go:build integration

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// club is a judge with a game master and two players who sign with the
// real gpg, on a mail stack, for the tests of what hostile or unlucky mail
// does: grace is the game master, alice and bob hold seats A and B of the
// fake game "club-1" once setup has run.
type club struct {
	t      *testing.T
	st     mailtest.Stack
	dir    string
	config string
	store  string
	gpg    *signtest.GPG
	fpr    map[string]string // who -> OpenPGP fingerprint
	n      int
	// pending counts the mails sent to the judge since it last ran.
	pending int
	// boxes are the players' mailboxes (who@players.test, password pw).
	boxes []string
}

// newClub writes the judge's configuration (with extra appended to its
// top-level settings, such as "operator = ..." or a [limits] table) and
// makes the keys; nothing is mailed yet.
func newClub(t *testing.T, st mailtest.Stack, extra string) *club {
	t.Helper()
	c := &club{t: t, st: st, dir: shortTempDir(t), gpg: signtest.NewGPG(t), fpr: map[string]string{},
		boxes: []string{"grace", "alice", "bob", "victim", "ops"}}
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	for _, who := range c.boxes {
		st.AddUser(t, who+"@players.test", "pw")
	}
	for _, who := range []string{"grace", "alice", "bob"} {
		c.fpr[who] = c.gpg.GenKey(strings.ToUpper(who[:1]) + who[1:] + " <" + who + "@players.test>")
	}
	c.store = filepath.Join(c.dir, "umpire.db")
	c.config = filepath.Join(c.dir, "umpire.toml")
	conf := fmt.Sprintf("store = %q\naddress = %q\n%s\n[imap]\naddress = %q\nsecurity = \"none\"\nusername = %q\npassword = %q\npoll = \"200ms\"\n\n[smtp]\naddress = %q\nsecurity = \"none\"\nretry = \"300ms\"\n\n[log]\nlevel = \"warn\"\n",
		c.store, daemontest.JudgeAddress, extra, st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr())
	if err := os.WriteFile(c.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return c
}

// addPlayer gives who a mailbox and an OpenPGP key.
func (c *club) addPlayer(who string) {
	c.t.Helper()
	c.st.AddUser(c.t, who+"@players.test", "pw")
	c.boxes = append(c.boxes, who)
	c.fpr[who] = c.gpg.GenKey(strings.ToUpper(who[:1]) + who[1:] + " <" + who + "@players.test>")
}

// shortTempDir is a temporary folder with a short path: the control socket
// beside the store must fit a Unix socket's path.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ump")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// signed is a mail from who whose body is text clear-signed by who's key
// (with args passed to gpg, such as --digest-algo), with who's public key
// attached when key is set, and extra header lines.
func (c *club) signed(who, text string, key bool, hdr string, gpgArgs ...string) []byte {
	c.t.Helper()
	c.n++
	body := string(c.gpg.Sign(c.fpr[who], []byte(text), gpgArgs...))
	id := fmt.Sprintf("<c%d.%d@players.test>", c.n, time.Now().UnixNano())
	return c.mail(who, id, "umpire", hdr, body, key)
}

// mail composes a mail from who with the body and, when key is set,
// who's public key attached.
func (c *club) mail(who, id, subject, hdr, body string, key bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s@players.test\r\nTo: %s\r\nMessage-ID: %s\r\nSubject: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\n%s",
		who, daemontest.JudgeAddress, id, subject, time.Now().Format(time.RFC1123Z), daemontest.CRLF(hdr))
	if !key {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n" + daemontest.CRLF(body))
		return []byte(b.String())
	}
	b.WriteString("Content-Type: multipart/mixed; boundary=\"k\"\r\n\r\n--k\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(daemontest.CRLF(body))
	b.WriteString("--k\r\nContent-Type: application/pgp-keys; name=key.asc\r\nContent-Disposition: attachment; filename=key.asc\r\n\r\n")
	b.WriteString(daemontest.CRLF(string(c.gpg.Export(c.fpr[who]))))
	b.WriteString("--k--\r\n")
	return []byte(b.String())
}

// send submits raw mail from who to the judge.
func (c *club) send(who string, raw []byte) {
	c.t.Helper()
	c.st.Submit(c.t, who+"@players.test", []string{daemontest.JudgeAddress}, raw)
	c.pending++
}

// serve runs "umpire serve --once" until the judge's INBOX is empty and
// its outbox has nothing due.
func (c *club) serve() {
	c.t.Helper()
	if c.pending > 0 {
		c.st.WaitFor(c.t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", c.pending, 15*time.Second)
		c.pending = 0
	}
	for range 20 {
		code, out, errOut := c.run("serve", "--once")
		if code != exitOK {
			c.t.Fatalf("serve --once: exit %d\n%s\n%s", code, out, errOut)
		}
		if len(c.st.Mailbox(c.t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")) == 0 {
			c.settle()
			return
		}
	}
	c.t.Fatal("the judge's INBOX does not empty")
}

// settle waits until every mail the judge sent is in its recipient's
// INBOX: the MTA delivers after it accepted.
func (c *club) settle() {
	c.t.Helper()
	sent := 0
	c.view(func(tx *store.Tx) error {
		for id := uint64(1); ; id++ {
			m, err := tx.Mail(id)
			if err != nil {
				return nil
			}
			if m.State == store.MailSent {
				sent++
			}
		}
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := 0 // the judge's mails only: a test may put others in a box
		for _, who := range c.boxes {
			for _, raw := range c.st.Mailbox(c.t, who+"@players.test", "pw", "INBOX") {
				if strings.Contains(daemontest.HeaderOf(raw, "From"), daemontest.JudgeAddress) {
					got++
				}
			}
		}
		if got >= sent {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%d of the judge's %d sent mails arrived", got, sent)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// inbox returns the text of every mail in who's INBOX, waiting up to 10 s
// for at least n.
func (c *club) inbox(who string, n int) []string {
	c.t.Helper()
	raws := c.st.Mailbox(c.t, who+"@players.test", "pw", "INBOX")
	for deadline := time.Now().Add(15 * time.Second); len(raws) < n; raws = c.st.Mailbox(c.t, who+"@players.test", "pw", "INBOX") {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s has %d mails, want at least %d", who, len(raws), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	out := make([]string, len(raws))
	for i, raw := range raws {
		out[i] = readable(raw)
	}
	return out
}

// readable is a mail as a person reads it: its header as sent, then its
// subject and text decoded.
func readable(raw []byte) string {
	hdr, _, _ := strings.Cut(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n\n")
	m, err := message.Parse(raw, message.DefaultLimits())
	if err != nil || m == nil {
		return string(raw)
	}
	return hdr + "\n\n" + m.Subject + "\n" + m.Text
}

// count is the number of mails in who's INBOX that hold all of subs.
func (c *club) count(who string, subs ...string) int {
	n := 0
	for _, m := range c.inbox(who, 0) {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(m, s)
		}
		if all {
			n++
		}
	}
	return n
}

// clubGame is the game file of club-1.
const clubGame = "id = \"club-1\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"5\"\n[schedule]\nevery = \"72h\"\n"

// setup creates club-1 by mail, seats alice and bob, and starts it.
func (c *club) setup(game string) {
	c.t.Helper()
	c.send("grace", c.signed("grace", "create\n"+game, true, ""))
	c.serve()
	c.send("alice", c.signed("alice", "join club-1 A\n", true, ""))
	c.send("bob", c.signed("bob", "join club-1 B\n", true, ""))
	c.serve()
	c.send("grace", c.signed("grace", "start club-1\n", false, ""))
	c.serve()
	if got := strings.Join(c.inbox("alice", 0), ""); !strings.Contains(got, "The game master started club-1") {
		c.t.Fatalf("club-1 did not start; alice has:\n%s\ngrace has:\n%s", got, strings.Join(c.inbox("grace", 0), ""))
	}
}

// view runs fn on the judge's store (no judge may be running).
func (c *club) view(fn func(tx *store.Tx) error) {
	c.t.Helper()
	db, err := store.Open(c.store, store.Options{})
	if err != nil {
		c.t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(c.t.Context(), fn); err != nil {
		c.t.Fatal(err)
	}
}

// run runs umpire in-process on the club's judge with the real clock.
func (c *club) run(args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	return runWith(c.t, func(m *Main) { m.Now = time.Now }, append(args, "--config", c.config)...)
}
