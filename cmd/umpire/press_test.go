//go:build integration

package main

import (
	"bytes"
	"fmt"
	"mime"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
)

// The tests of issue 21 through the real Dovecot and OpenSMTPD, signing
// with the real gpg: press in each mode reaches exactly its readers' mail
// boxes, grey press hides its sender from the players; an observer of a Per
// Rote game gets each step's public report and never a seat's own part;
// report, history, key and games answer within the reply limit; reports
// verify with gpg as PGP/MIME and by their clear-signed text, and a changed
// HTML part or picture breaks the PGP/MIME signature.

// pressGames are games of three seats (A alice, B bob, C carol) with each
// press setting, by the name of their id.
var pressGames = map[string]string{
	"p-private": "",
	"p-nocopy":  "[press]\ngm_copy = false\n",
	"p-gm":      "[press]\nto = \"gm\"\n",
	"p-all":     "[press]\nto = \"all\"\n",
	"p-grey":    "[press]\ngrey = \"yes\"\n",
	"p-none":    "[press]\nto = \"none\"\n",
}

// talkClub is a club with carol and olga too, and the games of games
// created, their seats A, B (and C) taken by alice, bob (and carol), and
// started; olga observes each game in observe.
func talkClub(t *testing.T, extra string, games map[string]string, observe ...string) *club {
	t.Helper()
	c := newClub(t, mailtest.Real(t), extra)
	c.addPlayer("carol")
	c.addPlayer("olga")
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range games {
			if !yield(id) {
				return
			}
		}
	})
	// A new key is known once the message that brought it is committed:
	// every message of one batch brings it.
	for _, id := range ids {
		c.send("grace", c.signed("grace", "create\n"+games[id], true, ""))
	}
	c.serve()
	for _, id := range ids {
		seats := regexp.MustCompile(`(?m)^# seats (.*)$`).FindStringSubmatch(games[id])
		for i, s := range strings.Fields(seats[1]) {
			p := []string{"alice", "bob", "carol"}[i]
			c.send(p, c.signed(p, fmt.Sprintf("join %s %s\n", id, s), true, ""))
		}
	}
	for _, id := range observe {
		c.send("olga", c.signed("olga", "observe "+id+"\n", true, ""))
	}
	c.serve()
	for _, id := range ids {
		c.send("grace", c.signed("grace", "start "+id+"\n", false, ""))
	}
	c.serve()
	for _, id := range ids {
		if c.countFlat("alice", "The game master started "+id) != 1 {
			t.Fatalf("%s did not start; grace has:\n%s", id, strings.Join(c.inbox("grace", 0), "\n"))
		}
	}
	for _, id := range observe {
		if c.countFlat("olga", "now observes "+id) != 1 {
			t.Fatalf("olga does not observe %s:\n%s", id, strings.Join(c.inbox("olga", 0), "\n"))
		}
	}
	return c
}

// trio is the game file of a fake game of three seats with settings.
func trio(id, settings string) string {
	return fmt.Sprintf("# seats A B C\nid = %q\ngame = \"fake\"\nscenario = \"trio\"\n%s[schedule]\nevery = \"72h\"\n", id, settings)
}

// countFlat is count with every run of blanks and line breaks, in the
// mails and in subs, read as one space: reports wrap their lines.
func (c *club) countFlat(who string, subs ...string) int {
	n := 0
	for _, m := range c.inbox(who, 0) {
		m = flat(m)
		all := true
		for _, s := range subs {
			all = all && strings.Contains(m, flat(s))
		}
		if all {
			n++
		}
	}
	return n
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// mailboxesWith returns who has a mail holding sub, and how many.
func (c *club) mailboxesWith(sub string) map[string]int {
	got := map[string]int{}
	for _, who := range c.boxes {
		if n := c.countFlat(who, sub); n > 0 {
			got[who] = n
		}
	}
	return got
}

// TestPressByRealMail: press in each mode reaches exactly the mailboxes of
// its readers and its sender's answer, and no other; grey press names its
// sender to the game master only; a refused press reaches nobody.
func TestPressByRealMail(t *testing.T) {
	t.Parallel()
	games := map[string]string{}
	for id, settings := range pressGames {
		games[id] = trio(id, settings)
	}
	c := talkClub(t, "", games, "p-private", "p-all", "p-grey")
	cases := []struct {
		from, command, marker string
		readers               []string // besides the sender, who gets its answer
	}{
		{"alice", "press p-private TO B", "private-one", []string{"bob", "grace"}},
		{"alice", "press p-private TO B,C", "private-two", []string{"bob", "carol", "grace"}},
		{"bob", "press p-private TO all", "private-all", []string{"alice", "carol", "grace", "olga"}},
		{"carol", "press p-nocopy TO A", "nocopy-one", []string{"alice"}},
		{"carol", "press p-nocopy TO gm", "nocopy-gm", []string{"grace"}},
		{"bob", "press p-gm TO gm", "gm-only", []string{"grace"}},
		{"bob", "press p-gm TO A", "gm-refused", nil},
		{"alice", "press p-all TO all", "all-only", []string{"bob", "carol", "grace", "olga"}},
		{"alice", "press p-all TO C", "all-refused", nil},
		{"carol", "press p-grey TO all grey", "grey-all", []string{"alice", "bob", "grace", "olga"}},
		{"carol", "press p-none TO gm", "none-refused", nil},
		{"grace", "press p-none TO all", "none-gm-writes", []string{"alice", "bob", "carol"}},
	}
	for _, p := range cases {
		c.send(p.from, c.signed(p.from, p.command+"\nThe marker is "+p.marker+".\n", false, ""))
	}
	c.serve()
	for _, p := range cases {
		got := c.mailboxesWith("The marker is " + p.marker + ".")
		want := map[string]int{p.from: 1}
		for _, r := range p.readers {
			want[r] = 1
		}
		if p.readers == nil {
			want = map[string]int{}
			if c.countFlat(p.from, p.command, "not done") != 1 {
				t.Errorf("%s: %s was not refused", p.from, p.command)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %q reached %v, want %v", p.from, p.command, got, want)
		}
	}
	// Grey press: the players read no sender, in the text or the subject;
	// the game master reads carol's seat.
	for _, who := range []string{"alice", "bob", "olga"} {
		for _, m := range c.inbox(who, 0) {
			if strings.Contains(m, "grey-all") && (strings.Contains(m, "seat C") || !strings.Contains(m, "From: a seat of the game, not named (grey press)")) {
				t.Errorf("%s learns who sent grey press:\n%s", who, m)
			}
		}
	}
	if c.countFlat("grace", "grey-all", "p-grey press (grey) from seat C", "From: seat C (grey press") != 1 {
		t.Errorf("the game master is not told who sent the grey press:\n%s", strings.Join(c.inbox("grace", 0), "\n"))
	}
	if c.countFlat("bob", "private-one", "p-private press from seat A", "From: seat A") != 1 {
		t.Error("white press does not name its sender")
	}
}

// perRote is the game file of the Per Rote game the observer follows.
const perRote = "# seats Russia USA\nid = \"farm-1\"\ngame = \"perrote\"\nscenario = \"demo\"\ntitle = \"The farm at the crossroads, by mail\"\n[schedule]\nevery = \"72h\"\n"

// perRoteOrders is the order file of seat for step k: one hold, marked so
// that it can be found.
func perRoteOrders(seat string, k int) string {
	unit := map[string]string{"Russia": "T1", "USA": "S1"}[seat]
	return fmt.Sprintf("game: farm-1\nstep: %d\nseat: %s\nhold %s\nend\n", k, seat, unit)
}

// TestPublishedOrdersByRealMail: in a Per Rote game whose file sets
// publish_orders, the report of a step that reaches each seat, the game
// master and the observer by real mail shows every seat's orders, Russia's
// before USA's, under its own heading.
func TestPublishedOrdersByRealMail(t *testing.T) {
	t.Parallel()
	c := talkClub(t, "", map[string]string{"farm-1": strings.Replace(perRote, "[schedule]", "publish_orders = true\n[schedule]", 1)}, "farm-1")
	c.send("alice", c.signed("alice", perRoteOrders("Russia", 1), false, ""))
	c.send("bob", c.signed("bob", perRoteOrders("USA", 1), false, ""))
	c.serve()
	for _, who := range []string{"alice", "bob", "grace", "olga"} {
		if c.countFlat(who, "farm-1: step 1 report", "EVERY SEAT'S ORDERS (published: publish_orders) Russia: hold T1 USA: hold S1 NEXT") != 1 {
			t.Errorf("%s's report of step 1 does not publish every seat's orders:\n%s", who, strings.Join(c.inbox(who, 0), "\n"))
		}
	}
}

// TestObserverOfPerRoteByRealMail: olga, who observes a Per Rote game,
// gets the report of each step in the public view: no seat's orders, no
// "your orders" line; the seats get theirs. Then report, history, key and
// games answer correctly, and within the reply limit: what is over it is
// held, never sent and never lost.
func TestObserverOfPerRoteByRealMail(t *testing.T) {
	t.Parallel()
	c := talkClub(t, "[limits]\nreplies_per_hour = 4\n", map[string]string{"farm-1": perRote}, "farm-1")
	for k := 1; k <= 2; k++ {
		c.send("alice", c.signed("alice", perRoteOrders("Russia", k), false, ""))
		c.send("bob", c.signed("bob", perRoteOrders("USA", k), false, ""))
		c.serve()
		subject := fmt.Sprintf("farm-1: step %d report", k)
		for _, who := range []string{"alice", "bob", "grace", "olga"} {
			if c.countFlat(who, subject) != 1 {
				t.Fatalf("%s has %d reports of step %d", who, c.countFlat(who, subject), k)
			}
		}
		for _, m := range c.inbox("olga", 0) {
			if m = flat(m); !strings.Contains(m, subject) {
				continue
			}
			if !strings.Contains(m, "every seat (the public view)") || strings.Contains(m, "ORDERS ADJUDICATED") ||
				strings.Contains(m, "your orders:") || strings.Contains(m, "hold T1") || strings.Contains(m, "hold S1") {
				t.Errorf("the observer's report of step %d is not the public view:\n%s", k, m)
			}
			if !strings.Contains(m, "CHECK THE DICE") || !strings.Contains(m, "Russia: sent for step") {
				t.Errorf("the observer's report lacks the order list everyone may check:\n%s", m)
			}
		}
		if c.countFlat("alice", subject, "ORDERS ADJUDICATED", "hold T1", "your orders: version 1") != 1 || c.countFlat("alice", subject, "hold S1") != 0 {
			t.Errorf("seat Russia's report of step %d lacks its own orders, or shows USA's", k)
		}
	}

	// Looking back. victim asks four unsigned questions and a fifth: the
	// limit is four answers an hour to an address.
	for _, q := range []string{"games", "history farm-1", "key", "report farm-1 1"} {
		c.send("victim", c.mail("victim", fmt.Sprintf("<q-%s@players.test>", strings.Fields(q)[0]), q, "", q+"\n", false))
	}
	c.send("alice", c.signed("alice", "report farm-1 1\n", false, ""))
	c.serve()
	c.send("victim", c.mail("victim", "<q-status@players.test>", "status farm-1", "", "status farm-1\n", false))
	c.serve()
	if c.countFlat("victim", "umpire: games", "farm-1: The farm at the crossroads, by mail (perrote, scenario demo)", "running at step 3, orders due") != 1 {
		t.Errorf("games:\n%s", strings.Join(c.inbox("victim", 0), "\n"))
	}
	if c.countFlat("victim", "umpire: history farm-1", "Step 1 (turn-1): opened", "Closed when every seat was ready and adjudicated", "Step 3 (turn-3)") != 1 {
		t.Errorf("history:\n%s", strings.Join(c.inbox("victim", 0), "\n"))
	}
	if c.countFlat("victim", "the judge's key", "attached to this mail as umpire-judge.asc") != 1 {
		t.Errorf("key:\n%s", strings.Join(c.inbox("victim", 0), "\n"))
	}
	if c.countFlat("victim", "farm-1 step 1 report (sent again)", "every seat (the public view)") != 1 {
		t.Errorf("report to an unsigned asker is not the public view:\n%s", strings.Join(c.inbox("victim", 0), "\n"))
	}
	if c.countFlat("victim", "status farm-1") != 0 {
		t.Error("a fifth answer in the hour went to the same address: the reply limit is four")
	}
	if c.countFlat("alice", "farm-1 step 1 report (sent again)", "seat Russia", "ORDERS ADJUDICATED", "hold T1", "your orders: version 1") != 1 {
		t.Errorf("the signed report is not seat Russia's view:\n%s", strings.Join(c.inbox("alice", 0), "\n"))
	}
	code, out, errOut := c.run("mail", "held")
	if code != exitOK || strings.Count(out, "[victim@players.test]") != 1 || !strings.Contains(out, "status farm-1") {
		t.Errorf("the answer over the limit is not held: exit %d\n%s%s", code, out, errOut)
	}
	// A press counts once against its sender, however many read it, and
	// never against its readers: after the answers to her join and to her
	// report, two of alice's four presses to the USA go, and two are held
	// with their copies; bob's own answers are untouched.
	for i := range 4 {
		c.send("alice", c.signed("alice", fmt.Sprintf("press farm-1 TO USA\nnote %d\n", i), false, ""))
	}
	c.serve()
	for who, want := range map[string]string{"bob": "farm-1 press from seat Russia", "grace": "farm-1 press from seat Russia", "alice": "went to seat USA"} {
		if n := c.countFlat(who, want); n != 2 {
			t.Errorf("%s has %d mails with %q, want 2 of the 4 presses", who, n, want)
		}
	}
	code, out, errOut = c.run("mail", "held")
	for _, who := range []string{"alice", "bob", "grace"} {
		if n := strings.Count(out, "["+who+"@players.test]"); n != 2 || code != exitOK {
			t.Errorf("%d of the presses' mails to %s held, want 2: exit %d\n%s%s", n, who, code, out, errOut)
		}
	}
	c.send("bob", c.signed("bob", "report farm-1 2\n", false, ""))
	c.serve()
	if c.countFlat("bob", "farm-1 step 2 report (sent again)", "seat USA") != 1 {
		t.Error("alice's press used up bob's answers")
	}
	// The key answer's attachment is the key the judge signs with.
	var keyMail []byte
	for _, raw := range c.st.Mailbox(t, "victim@players.test", "pw", "INBOX") {
		if bytes.Contains(raw, []byte("umpire-judge.asc")) {
			keyMail = raw
		}
	}
	m, err := message.Parse(keyMail, message.DefaultLimits())
	if err != nil || len(m.Attachments) != 1 || !bytes.Contains(m.Attachments[0].Data, []byte("BEGIN PGP PUBLIC KEY BLOCK")) {
		t.Fatalf("the key answer has no key attached: %v", err)
	}
	g := newGPGCheck(t, m.Attachments[0].Data)
	g.verifyMIME(keyMail, "the key answer")
}

// TestReportsSignedWholeByRealMail: a report as it arrives verifies with
// gpg --verify as PGP/MIME (the whole mail: text, HTML, picture) and by
// its clear-signed text part; a changed HTML part, or a changed picture,
// no longer verifies.
func TestReportsSignedWholeByRealMail(t *testing.T) {
	t.Parallel()
	c := talkClub(t, "", map[string]string{"farm-1": perRote})
	c.send("grace", c.signed("grace", "process farm-1 1\n", false, ""))
	c.send("bob", c.mail("bob", "<key-please@players.test>", "key", "", "key\n", false))
	c.serve()
	var report, keyMail []byte
	for _, raw := range c.st.Mailbox(t, "bob@players.test", "pw", "INBOX") {
		switch {
		case bytes.Contains(raw, []byte("farm-1 step 1 report")):
			report = raw
		case bytes.Contains(raw, []byte("umpire-judge.asc")):
			keyMail = raw
		}
	}
	if report == nil || keyMail == nil {
		t.Fatalf("bob has no report or no key answer:\n%s", strings.Join(c.inbox("bob", 0), "\n"))
	}
	km, err := message.Parse(keyMail, message.DefaultLimits())
	if err != nil || len(km.Attachments) != 1 {
		t.Fatalf("key answer: %v", err)
	}
	g := newGPGCheck(t, km.Attachments[0].Data)
	part := g.verifyMIME(report, "the report")
	for _, want := range []string{"Content-Type: multipart/related", "Content-Type: text/html", "Content-Type: image/png", "Content-Type: image/svg+xml"} {
		if !bytes.Contains(part, []byte(want)) {
			t.Errorf("the signed part lacks %s", want)
		}
	}
	// The clear-signed text part, as a reader without PGP/MIME saves it.
	m, err := message.Parse(report, message.DefaultLimits())
	if err != nil || !strings.HasPrefix(m.Text, "-----BEGIN PGP SIGNED MESSAGE-----") {
		t.Fatalf("the text part is not clear-signed: %v\n%s", err, m.Text)
	}
	checkReportSVG(t, report, m, false)
	if status, err := g.verify("text.txt", []byte(m.Text)); err != nil {
		t.Errorf("gpg --verify of the clear-signed text part: %v\n%s", err, status)
	}
	// A changed HTML part, a changed picture: BAD signature.
	signed, sig := splitSigned(t, report)
	html := regexp.MustCompile(`Content-Type: text/html[^\r]*\r\n(?:[^\r]+\r\n)*\r\n`).FindIndex(signed)
	png := regexp.MustCompile(`Content-Type: image/png[^\r]*\r\n(?:[^\r]+\r\n)*\r\n`).FindIndex(signed)
	if html == nil || png == nil {
		t.Fatalf("no HTML or picture in the signed part:\n%s", signed)
	}
	for what, at := range map[string]int{"HTML part": html[1] + 20, "picture": png[1] + 40} {
		bad := bytes.Clone(signed)
		bad[at] = map[bool]byte{true: 'B', false: 'A'}[bad[at] == 'A']
		if _, err := g.verifyDetached(bad, sig); err == nil {
			t.Errorf("gpg --verify accepts the report with its %s changed", what)
		}
	}
}

// gpgCheck is a gpg home holding the judge's public key, as a player's.
type gpgCheck struct {
	t    *testing.T
	home string
}

func newGPGCheck(t *testing.T, key []byte) *gpgCheck {
	t.Helper()
	home, err := os.MkdirTemp("", "gpgv")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run()
		os.RemoveAll(home)
	})
	g := &gpgCheck{t: t, home: home}
	if out, err := g.gpg(key, "--import"); err != nil {
		t.Fatalf("gpg --import of the judge's key: %v\n%s", err, out)
	}
	return g
}

// gpg runs gpg in the home, with its status lines, and returns what it
// said.
func (g *gpgCheck) gpg(stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("gpg", append([]string{"--homedir", g.home, "--batch", "--no-tty", "--status-fd", "1"}, args...)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (g *gpgCheck) file(name string, data []byte) string {
	p := filepath.Join(g.home, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		g.t.Fatal(err)
	}
	return p
}

// verify runs gpg --verify on a clear-signed text and wants a good
// signature.
func (g *gpgCheck) verify(name string, data []byte) (string, error) {
	out, err := g.gpg(nil, "--verify", g.file(name, data))
	if err == nil && !strings.Contains(out, "[GNUPG:] GOODSIG") {
		err = fmt.Errorf("no good signature")
	}
	return out, err
}

// verifyDetached runs gpg --verify SIG DATA, as a mail program checks a
// PGP/MIME signature.
func (g *gpgCheck) verifyDetached(data, sig []byte) (string, error) {
	out, err := g.gpg(nil, "--verify", g.file("sig.asc", sig), g.file("part.eml", data))
	if err == nil && !strings.Contains(out, "[GNUPG:] GOODSIG") {
		err = fmt.Errorf("no good signature")
	}
	return out, err
}

// verifyMIME checks raw, a PGP/MIME mail as it arrived, with gpg, and
// returns its signed part.
func (g *gpgCheck) verifyMIME(raw []byte, what string) []byte {
	g.t.Helper()
	signed, sig := splitSigned(g.t, raw)
	if out, err := g.verifyDetached(signed, sig); err != nil {
		g.t.Fatalf("gpg --verify of %s as PGP/MIME: %v\n%s", what, err, out)
	}
	return signed
}

// splitSigned takes a multipart/signed mail apart as RFC 3156 says: the
// bytes of its first part, from its first header line to the line break
// before the next boundary, and the second part's body, the signature.
func splitSigned(t *testing.T, raw []byte) (signed, sig []byte) {
	t.Helper()
	hdr, body, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
	ct := regexp.MustCompile(`(?mi)^Content-Type: (multipart/signed;[^\r]*(?:\r\n[ \t][^\r]*)*)`).FindSubmatch(hdr)
	if ct == nil {
		t.Fatalf("not a multipart/signed mail:\n%s", hdr)
	}
	_, params, err := mime.ParseMediaType(strings.ReplaceAll(string(ct[1]), "\r\n", ""))
	if err != nil || params["protocol"] != "application/pgp-signature" || params["micalg"] != "pgp-sha256" {
		t.Fatalf("Content-Type %q: %v", ct[1], err)
	}
	boundary := params["boundary"]
	delim := []byte("--" + boundary + "\r\n")
	i := bytes.Index(body, delim)
	j := bytes.Index(body, []byte("\r\n--"+boundary+"\r\n"))
	if i < 0 || j < i {
		t.Fatalf("the boundary %q is not where it should be", boundary)
	}
	signed = body[i+len(delim) : j]
	rest := body[j+len("\r\n--"+boundary+"\r\n"):]
	_, sigBody, _ := bytes.Cut(rest, []byte("\r\n\r\n"))
	end := bytes.Index(sigBody, []byte("\r\n--"+boundary+"--"))
	if end < 0 {
		t.Fatal("the signature part is not closed")
	}
	return signed, sigBody[:end]
}
