//go:build integration

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// TestHiddenHandsByRealMail plays a game with hidden hands (the fake game:
// each seat draws hidden cards from its own dice stream) by real mail, and
// checks what issue 13 asks: before the end, nothing another seat receives
// and nothing in the public log lets it learn a card (every 32-byte value it
// has seen, tried as a key on every commitment of the other seat's cards,
// opens none), while the holder checks its own cards at once with the key
// its reports carry; after the end, umpire verify checks every draw. The
// game master is no holder: its reports and its report command's answer
// name no card and no hex value in them opens one, until the end; a second
// game whose file sets gm_sees_hands = true shows its game master every hand.
func TestHiddenHandsByRealMail(t *testing.T) {
	t.Parallel()
	st := mailtest.Real(t)
	dir := t.TempDir()
	cfg := daemon.DefaultConfig()
	cfg.Games = games()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Store, cfg.Address = filepath.Join(dir, "umpire.db"), daemontest.JudgeAddress
	cfg.IMAP.Address, cfg.IMAP.Security, cfg.IMAP.Username, cfg.IMAP.Password = st.IMAPAddr(), "none", daemontest.JudgeAddress, daemontest.JudgePassword
	cfg.SMTP.Address, cfg.SMTP.Security = st.SMTPAddr(), "none"
	cfg.Limits.RepliesPerHour = 1000
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	db, err := store.Open(cfg.Store, store.Options{Host: "umpire.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	d, err := daemon.New(t.Context(), cfg, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	g, sk := signtest.NewGPG(t), signtest.NewSSH(t)
	gpgPlayer := func(name, addr string) *demo.Player {
		fpr := g.GenKey(name + " <" + addr + ">")
		return &demo.Player{Name: name, Addr: addr, Public: g.Export(fpr),
			ClearSign: func(text []byte) ([]byte, error) { return g.ClearSign(fpr, text), nil }}
	}
	gm, a := gpgPlayer("Grace", "gm@players.test"), gpgPlayer("Ana", "ana@players.test")
	key := sk.GenKey("bo", "ed25519")
	b := &demo.Player{Name: "Bo", Addr: "bo@players.test", Public: key.Public,
		SSHSign: func(content []byte) ([]byte, error) { return sk.Sign(key, "umpire", content), nil }}
	a.Seat, b.Seat = "A", "B"
	everyone := []*demo.Player{gm, a, b}
	for _, p := range everyone {
		st.AddUser(t, p.Addr, "pw")
	}
	tb := &demo.Table{Now: time.Now, DB: db, Judge: d, Address: daemontest.JudgeAddress, Out: filepath.Join(dir, "mail"),
		Submit: func(ctx context.Context, from string, raw []byte) error {
			seen := len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX"))
			st.Submit(t, from, []string{daemontest.JudgeAddress}, raw)
			st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", seen+1, 30*time.Second)
			return nil
		},
		Fetch: func(ctx context.Context, addr string) ([][]byte, error) {
			return st.WaitFor(t, addr, "pw", "INBOX", sentTo(t, db, addr), 30*time.Second), nil
		}}
	ctx := t.Context()
	const id = "hands-1"
	send := func(p *demo.Player, subject, text string) {
		t.Helper()
		if err := tb.Send(ctx, p, subject, text); err != nil {
			t.Fatal(err)
		}
	}
	send(gm, "create", "create\nid = \""+id+"\"\ngame = \"fake\"\nscenario = \"duel\"\n[options]\nturns = \"2\"\n[schedule]\nevery = \"72h\"\n")
	mustRound(t, tb, everyone)
	send(a, "join", "join "+id+" A\n")
	send(b, "join", "join "+id+" B\n")
	mustRound(t, tb, everyone)
	send(gm, "start", "start "+id+"\n")
	mustRound(t, tb, everyone)

	publicLog := func() []byte {
		var buf bytes.Buffer
		if err := db.View(ctx, func(tx *store.Tx) error { _, err := tx.WriteDiceLog(id, &buf); return err }); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	for step := 1; step <= 2; step++ {
		for _, p := range []*demo.Player{a, b} {
			send(p, "orders", fmt.Sprintf("game: %s\nstep: %d\nseat: %s\nsecret\nroll 1\nend\n", id, step, p.Seat))
		}
		mustRound(t, tb, everyone)
		if step == 2 {
			break // the game has ended: its root is public
		}
		// the game master asks for the report of step 1 again, signed: the
		// answer is its own view
		send(gm, "report", "report "+id+" 1\n")
		if got := mustRound(t, tb, []*demo.Player{gm}); len(got[gm]) != 1 || !bytes.Contains(plainPart(t, got[gm][0]), []byte("the public view")) {
			t.Errorf("the game master's report again does not say it is the public view")
		}
		log := publicLog()
		gmDir := filepath.Join(dir, "mail", gm.Dir())
		gmSeen := hexSeen(t, gmDir, log)
		for _, holder := range []*demo.Player{a, b} {
			if n := openedBy(t, log, "hand-"+strings.ToLower(holder.Seat), gmSeen); n != 0 {
				t.Errorf("step %d: %d of %s's cards open with what the game master has seen", step, n, holder.Seat)
			}
		}
		reports := 0
		for _, f := range mailTexts(t, gmDir) {
			if heldCard.MatchString(f) || strings.Contains(f, "hand-a:") || strings.Contains(f, "hand-b:") {
				t.Errorf("step %d: the game master's mail names a held card or a stream key:\n%s", step, f)
			}
			if strings.Contains(f, "WHAT HAPPENED") {
				reports++
			}
		}
		if reports < 2 { // the step's report (text and HTML) and the report again
			t.Errorf("step %d: only %d of the game master's mails are reports: the check above saw nothing", step, reports)
		}
		for _, p := range []struct{ reader, holder *demo.Player }{{b, a}, {a, b}} {
			seen := hexSeen(t, filepath.Join(dir, "mail", p.reader.Dir()), log)
			if n := openedBy(t, log, "hand-"+strings.ToLower(p.holder.Seat), seen); n != 0 {
				t.Errorf("step %d: %d of %s's cards open with what %s has seen", step, n, p.holder.Seat, p.reader.Seat)
			}
			for _, f := range mailTexts(t, filepath.Join(dir, "mail", p.reader.Dir())) {
				if strings.Contains(f, p.holder.Seat+" draws card") {
					t.Errorf("step %d: %s's mail tells %s's card", step, p.reader.Seat, p.holder.Seat)
				}
			}
		}
		// The same search over the holder's own mail finds its card: the
		// search works, and only the holder has the key.
		if n := openedBy(t, log, "hand-a", hexSeen(t, filepath.Join(dir, "mail", "a"), log)); n != 1 {
			t.Errorf("step %d: A's own mail opens %d of its cards, want its one card", step, n)
		}
		// The public log verifies with every hidden card sealed.
		res, err := dice.VerifyStream(bytes.NewReader(log), dice.VerifyOptions{})
		if err != nil || !res.OK() || res.Sealed != 2 || res.Ended {
			t.Fatalf("step %d: the public log: %v %+v", step, err, res)
		}
		// A checks its own card at once with the key of its report.
		rep := latest(t, filepath.Join(dir, "mail", "a"), "step-1-report.txt")
		k := regexp.MustCompile(`verify --key 1:hand-a:KEY LOG\s+([0-9a-f]{64})`).FindStringSubmatch(rep)
		hand := regexp.MustCompile(`YOUR HAND[^\n]*\n\s+- card (\d)`).FindStringSubmatch(rep)
		if k == nil || hand == nil {
			t.Fatalf("A's report has no key or hand:\n%s", rep)
		}
		logPath := filepath.Join(dir, "log-running.json")
		os.WriteFile(logPath, log, 0o644)
		code, out, errOut := run(t, "verify", "--key", "1:hand-a:"+k[1], logPath)
		card, _ := strconv.Atoi(hand[1])
		if code != exitOK || !strings.Contains(out, fmt.Sprintf("Your stream hand-a, step 1, draw 1 (chit 9): [%d]", card-1)) {
			t.Errorf("A's check of its own card %d: exit %d\n%s%s", card, code, out, errOut)
		}
	}
	// After the end every shuffle and deal is checked.
	logPath := filepath.Join(dir, "log-ended.json")
	os.WriteFile(logPath, publicLog(), 0o644)
	code, out, errOut := run(t, "verify", "--json", logPath)
	if code != exitOK || !strings.Contains(out, `"ended": true`) || !strings.Contains(out, `"sealed": 0`) || !strings.Contains(out, `"rederived": 8`) {
		t.Errorf("verify after the end: exit %d\n%s%s", code, out, errOut)
	}
	// and the game master's report of the last step, after the end, shows
	// every hand
	if rep := latest(t, filepath.Join(dir, "mail", "gm"), id+"-step-2-report.txt"); !strings.Contains(rep, "A: card ") || !strings.Contains(rep, "B: card ") {
		t.Errorf("the game master's report after the end shows no hands:\n%s", rep)
	}

	// A game whose file sets gm_sees_hands = true: its game master sees
	// every hand before the end, and is told so.
	const id2 = "hands-2"
	send(gm, "create", "create\nid = \""+id2+"\"\ngame = \"fake\"\nscenario = \"duel\"\ngm_sees_hands = true\n[options]\nturns = \"2\"\n[schedule]\nevery = \"72h\"\n")
	mustRound(t, tb, everyone)
	send(a, "join", "join "+id2+" A\n")
	send(b, "join", "join "+id2+" B\n")
	mustRound(t, tb, everyone)
	send(gm, "start", "start "+id2+"\n")
	mustRound(t, tb, everyone)
	for _, p := range []*demo.Player{a, b} {
		send(p, "orders", fmt.Sprintf("game: %s\nstep: 1\nseat: %s\nsecret\nend\n", id2, p.Seat))
	}
	mustRound(t, tb, everyone)
	gmRep := latest(t, filepath.Join(dir, "mail", "gm"), id2+"-step-1-report.txt")
	for _, p := range []*demo.Player{a, b} {
		own := latest(t, filepath.Join(dir, "mail", p.Dir()), id2+"-step-1-report.txt")
		card := regexp.MustCompile(`YOUR HAND[^\n]*\n\s+- (card \d)`).FindStringSubmatch(own)
		if card == nil {
			t.Fatalf("%s's report has no hand:\n%s", p.Seat, own)
		}
		if !strings.Contains(gmRep, p.Seat+": "+card[1]) {
			t.Errorf("with gm_sees_hands the game master's report lacks %s's %s:\n%s", p.Seat, card[1], gmRep)
		}
	}
	if !strings.Contains(gmRep, "gm_sees_hands = true") {
		t.Errorf("the game master's report does not say it shows every hand:\n%s", gmRep)
	}
}

var hexRE = regexp.MustCompile(`[0-9a-f]{64}`)

// heldCard matches a fake-game card as its holder is told it: in a hand
// ("card 7", "A: card 7"), a private event ("A draws card 7") or shown.
var heldCard = regexp.MustCompile(`card [1-9]|cards: \[`)

// hexSeen is every 32-byte hex value in the mail saved under dir and in
// the public log: everything a seat could try as a key.
func hexSeen(t *testing.T, dir string, log []byte) []dice.Hash {
	t.Helper()
	var out []dice.Hash
	add := func(b []byte) {
		for _, s := range hexRE.FindAll(b, -1) {
			h, _ := dice.ParseHash(string(s))
			out = append(out, h)
		}
	}
	add(log)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		add(b)
	}
	if len(out) < 10 {
		t.Fatalf("only %d hex values seen under %s", len(out), dir)
	}
	return out
}

// openedBy counts the draws of stream in log whose commitment some key in
// keys opens with some value a chit of 9 could have.
func openedBy(t *testing.T, log []byte, stream string, keys []dice.Hash) int {
	t.Helper()
	x, err := dice.ParseExport(log)
	if err != nil {
		t.Fatal(err)
	}
	n, draws := 0, 0
	for _, r := range x.Records {
		if r.Type != dice.TypeDraw || r.Draw.Stream != stream {
			continue
		}
		draws++
		d := *r.Draw
	search:
		for v := int64(0); v < 9; v++ {
			d.Values = []int64{v}
			for _, k := range keys {
				if d.Commit(k) == d.Commitment {
					n++
					break search
				}
			}
		}
	}
	if draws == 0 {
		t.Fatalf("no draws of %s in the log", stream)
	}
	return n
}

func mailTexts(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			continue
		}
		b, _ := os.ReadFile(f)
		out = append(out, string(b))
	}
	return out
}

func latest(t *testing.T, dir, suffix string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
	if len(files) == 0 {
		t.Fatalf("no %s under %s", suffix, dir)
	}
	b, _ := os.ReadFile(files[len(files)-1])
	return string(b)
}
