//go:build integration

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// The order files TestClientsByRealMail mails in every client's shape:
// turns of a hosted 1995 game and a hosted 1914 game whose lines run past
// the 72 columns of Thunderbird's flowed text and the 78 of Gmail's plain
// text mode. %d is the open step; each file is legal in it, whatever the
// dice of the set-up made of the map.
const (
	clientsNATO = "game: balkan-95\nstep: %d\nseat: NATO\n" +
		"# turn 1, NATO: the air script is the one we agreed, then the activation queue, long lines and all\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"air US-F117 gs\n" +
		"me UK-4AB 2816 attack 2915 bid 3 gs US-F117 advance   # the queue begins: an ME with ground support\n" +
		"move US-1-3ID 1912 2013 if US-1-3ID fresh and 2013 empty else move US-1-3ID 1912 if 1912 empty else skip\n" +
		"pa HR-5GB 3007 if 3007 enemy else skip\n" +
		"ask\nend\n"
	clientsSerb = "game: sms-1914\nstep: %d\nseat: Serb\n" +
		"# GT 5, the Serbian Player Turn: Timok-I falls back along the Morava while the cavalry screens the river\n" +
		"move Timok-I 26.11 25.11 25.10 else 25.11 24.11 else 26.11 26.12 else 26.11 25.12 nofm\n" +
		"move Dunav-I 29.11 29.10 else 29.11 nofm   # the Danube division closes up behind Beograd tonight\n" +
		"defend intense if odds<=2:1      # only when the odds are poor\n" +
		"defend intense if attacker\n" +
		"end\n"
	// clientsShort keeps every line under 78 columns, as a player writing
	// in Gmail's plain text mode must, with a run of two blanks.
	clientsShort = "game: balkan-95\nstep: %d\nseat: NATO\n" +
		"air US-F16 suppression if enemy patrol >= 2 else patrol\n" +
		"pa HR-5GB 3007  if 3007 enemy else skip   # two blanks kept\n" +
		"end\n"
	// clientsRS is bob's file, signed with ssh-keygen in a terminal.
	clientsRS = "game: balkan-95\nstep: %d\nseat: RS\n" +
		"air SR-MIG29 suppression if enemy patrol >= 2 else patrol\n" +
		"sm SR-453 3208 3107 if SR-453 fresh and 3107 empty else sm SR-453 3208 if 3208 empty else skip\n" +
		"move SR-SRP3 3007 if 3007 empty else skip   # hold the line whatever NATO sends across the river tonight\n" +
		"end\n"
)

// TestClientsByRealMail mails one order file in each shape of the clients
// corpus (mailtest.ClientShapes: Thunderbird, Apple Mail, Outlook, Gmail
// with Mailvelope, K-9, FairEmail, Proton Mail, mutt, ssh-keygen in a
// terminal, replies), signed by the real gpg and ssh-keygen over the text
// as that client hands it to them, from the player's address through the
// real OpenSMTPD to the judge's Dovecot mailbox, for a hosted 1995 game
// and a hosted 1914 game, in one batch. Each player reads the answers back
// over IMAP: every message is answered once; each shape the judge must
// read is accepted with exactly the orders intended (the receipt's
// "Understood" echo is what the game's rules make of the file as
// written, with no problem); the two it cannot read (an HTML-only
// message whose displayed text lost the signed blanks, a line Gmail
// hard-wrapped) are refused with what to change.
func TestClientsByRealMail(t *testing.T) {
	t.Parallel()
	st := mailtest.Real(t)
	dir := shortTempDir(t)
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

	// Grace is the game master; alice signs with gpg, bob with ssh-keygen.
	g, sk := signtest.NewGPG(t), signtest.NewSSH(t)
	graceKey, aliceKey, bobKey := g.GenKey("Grace <grace@players.test>"), g.GenKey("Alice <alice@players.test>"), sk.GenKey("bob", "ed25519")
	grace := &demo.Player{Name: "Grace", Addr: "grace@players.test", Public: g.Export(graceKey),
		ClearSign: func(text []byte) ([]byte, error) { return g.ClearSign(graceKey, text), nil }}
	alice := &demo.Player{Name: "Alice", Addr: "alice@players.test", Public: g.Export(aliceKey),
		ClearSign: func(text []byte) ([]byte, error) { return g.ClearSign(aliceKey, text), nil }}
	bob := &demo.Player{Name: "bob", Addr: "bob@players.test", Public: bobKey.Public,
		SSHSign: func(content []byte) ([]byte, error) { return sk.Sign(bobKey, "umpire", content), nil }}
	everyone := []*demo.Player{grace, alice, bob}
	for _, p := range everyone {
		st.AddUser(t, p.Addr, "pw")
	}
	tb := &demo.Table{Now: time.Now, DB: db, Judge: d, Address: daemontest.JudgeAddress,
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
	send := func(p *demo.Player, subject, text string) {
		t.Helper()
		if err := tb.Send(ctx, p, subject, text); err != nil {
			t.Fatal(err)
		}
	}

	// The two games, created, joined and started by mail as clubs do;
	// steps close at their deadline only (early = false), so that all the
	// batch's files land in the same open step.
	// (A key the judge has not seen yet goes with a player's first mail,
	// which the judge must have taken before the next: one round each.)
	for _, c := range [][2]string{{"balkan-95", "pcs1995"}, {"sms-1914", "sms1914"}} {
		send(grace, "create", fmt.Sprintf("create\nid = %q\ngame = %q\nscenario = \"demo\"\n[schedule]\nevery = \"72h\"\nearly = false\n", c[0], c[1]))
		mustRound(t, tb, everyone)
	}
	send(alice, "join", "join balkan-95 NATO\n")
	send(bob, "join", "join balkan-95 RS\n")
	mustRound(t, tb, everyone)
	send(alice, "join", "join sms-1914 Serb\n")
	send(bob, "join", "join sms-1914 AH\n")
	mustRound(t, tb, everyone)
	send(grace, "start", "start balkan-95\n")
	send(grace, "start", "start sms-1914\n")
	mustRound(t, tb, everyone)
	// The 1995 set-up (12.0) closes on the game master's word, every unit
	// in its set-up hex: turn 1's activation queues are the step open.
	send(grace, "process", "process balkan-95 1\n")
	mustRound(t, tb, everyone)
	open := map[string]adjudicator.StepRecord{}
	for game, phase := range map[string]string{"balkan-95": "turn 1: reinforcements, air commitment and activation queues", "sms-1914": "Serbia Player Turn"} {
		step, over, err := tb.State(ctx, game)
		if err != nil || over || !strings.Contains(step.Phase, phase) {
			t.Fatalf("%s: step %d %q (over %v, %v), want the step of %q; grace has:\n%s", game, step.Number, step.Phase, over, err, phase, readableAll(grace.Received))
		}
		open[game] = step
	}
	nato, serb := open["balkan-95"].Number, open["sms-1914"].Number
	orders := mailtest.ClientOrders{Long1995: fmt.Sprintf(clientsNATO, nato), Long1914: fmt.Sprintf(clientsSerb, serb),
		Short: fmt.Sprintf(clientsShort, nato), SSH: fmt.Sprintf(clientsRS, nato)}

	// What each file must be read to: the game's rules over its order lines
	// as written, in the step open, with no problem.
	reg := games()
	understood := map[mailtest.OrdersKind]string{}
	for _, k := range []mailtest.OrdersKind{mailtest.Long1995, mailtest.Long1914, mailtest.ShortLines, mailtest.SSHFile} {
		of, problems := adjudicator.ParseOrderFile(orders.Text(k))
		if len(problems) != 0 {
			t.Fatalf("the test's order file has problems %+v:\n%s", problems, orders.Text(k))
		}
		step, _, _ := tb.State(ctx, of.Game)
		rules, _ := reg.Get(map[string]string{"balkan-95": "pcs1995", "sms-1914": "sms1914"}[of.Game])
		canon, problems := rules.ParseOrders(step.State, of.Seat, of.Orders)
		if len(problems) != 0 || len(canon) != len(of.Orders) {
			t.Fatalf("the rules read the test's order file to %q with problems %+v:\n%s", canon, problems, orders.Text(k))
		}
		understood[k] = fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\nend\n", of.Game, of.Step, of.Seat, strings.Join(canon, "\n"))
	}

	// The report a reply quotes is the last one alice had.
	report := "Report: balkan-95\n"
	for _, raw := range alice.Received {
		if m, err := message.Parse(raw, message.DefaultLimits()); err == nil && strings.Contains(m.Subject, "balkan-95") && strings.Contains(m.Subject, "report") {
			report = m.Text
		}
	}
	micalg := func(sig []byte) string {
		packets := string(g.Run(sig, "--list-packets"))
		for n, name := range map[string]string{"8": "pgp-sha256", "9": "pgp-sha384", "10": "pgp-sha512", "11": "pgp-sha224", "2": "pgp-sha1"} {
			if strings.Contains(packets, "digest algo "+n+",") {
				return name
			}
		}
		t.Fatalf("no digest algorithm in\n%s", packets)
		return ""
	}
	now := time.Now()
	mail := mailtest.ClientMail{
		Signer: mailtest.ClientSigner{
			ClearSign:   func(text []byte) []byte { return g.ClearSign(aliceKey, text) },
			DetachSign:  func(data []byte) []byte { return g.DetachSign(aliceKey, data, true) },
			Micalg:      micalg,
			PublicKey:   g.Export(aliceKey),
			Fingerprint: aliceKey,
			SSHSign:     func(content []byte) []byte { return sk.Sign(bobKey, "umpire", content) },
		},
		From: "Alice <alice@players.test>", SSHFrom: "bob <bob@players.test>", To: "Umpire <" + daemontest.JudgeAddress + ">",
		// the header fields as the client writes them; the MTA adds the rest
		Header: func(from, subject, id string) string {
			return "From: " + from + "\nTo: Umpire <" + daemontest.JudgeAddress + ">\nSubject: " + subject + "\nDate: " + now.Format(time.RFC1123Z) + "\nMessage-ID: <" + id + ">\n"
		},
		Report: report,
	}

	// One batch: every shape's message, each its own order file (a comment
	// names the shape, so that no two sign the same bytes, which the judge
	// takes for one file sent twice).
	shapes := mailtest.ClientShapes()
	ids := map[string]mailtest.ClientShape{}
	var order []string // the Message-IDs in the shapes' order
	inbox := len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX"))
	for _, s := range shapes {
		m := mail
		m.Orders = orders
		for _, k := range []mailtest.OrdersKind{mailtest.Long1995, mailtest.Long1914, mailtest.ShortLines, mailtest.SSHFile} {
			m.Orders = withComment(m.Orders, k, "# sent as "+strings.TrimSuffix(s.Name, ".eml")+"\n")
		}
		raw := s.Mail(m)
		parsed, err := message.Parse(raw, message.DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		ids[parsed.MessageID] = s
		order = append(order, parsed.MessageID)
		from := alice.Addr
		if s.Uses == mailtest.SSHFile {
			from = bob.Addr
		}
		st.Submit(t, from, []string{daemontest.JudgeAddress}, raw)
	}
	if len(ids) != len(shapes) || len(shapes) < 19 {
		t.Fatalf("%d shapes, %d Message-IDs", len(shapes), len(ids))
	}
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", inbox+len(shapes), 60*time.Second)
	got := mustRound(t, tb, everyone)
	if n := len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")); n != 0 {
		t.Fatalf("%d messages are left in the judge's INBOX", n)
	}

	// Every message answered once, in reply to it.
	answers := map[string][]*message.Message{}
	for _, p := range []*demo.Player{alice, bob} {
		for _, raw := range got[p] {
			m, err := message.Parse(raw, message.DefaultLimits())
			if err != nil {
				t.Fatalf("%s cannot read an answer: %v\n%s", p.Addr, err, raw)
			}
			if s, ok := ids[m.InReplyTo]; ok {
				if want := map[bool]string{true: bob.Addr, false: alice.Addr}[s.Uses == mailtest.SSHFile]; p.Addr != want {
					t.Errorf("the answer to %s went to %s, not %s", s.Name, p.Addr, want)
				}
			}
			answers[m.InReplyTo] = append(answers[m.InReplyTo], m)
		}
	}
	for _, id := range order {
		s := ids[id]
		t.Run(strings.TrimSuffix(s.Name, ".eml"), func(t *testing.T) {
			if len(answers[id]) != 1 {
				t.Fatalf("%d answers to <%s> (%s), want 1", len(answers[id]), id, s.Note)
			}
			a := answers[id][0].Text
			if s.Refused != "" {
				if strings.Contains(a, "ACCEPTED:") || !strings.Contains(a, s.Refused) {
					t.Errorf("the answer (%s) does not refuse it saying %q:\n%s", s.Note, s.Refused, a)
				}
				return
			}
			of, _ := adjudicator.ParseOrderFile(orders.Text(s.Uses))
			if !strings.Contains(a, fmt.Sprintf("ACCEPTED: orders of seat %s for step %d of %s,", of.Seat, of.Step, of.Game)) || strings.Contains(a, "Problems:") {
				t.Fatalf("not accepted without problems (%s):\n%s", s.Note, a)
			}
			echo, numbered := understoodIn(a)
			if echo != understood[s.Uses] {
				t.Errorf("the receipt understood (%s):\n%s\nwant:\n%s", s.Note, echo, understood[s.Uses])
			}
			if of, _ := adjudicator.ParseOrderFile(orders.Text(s.Uses)); numbered != len(of.Orders) {
				t.Errorf("the receipt (%s) numbers %d of the %d orders it understood:\n%s", s.Note, numbered, len(of.Orders), a)
			}
		})
	}
}

// withComment puts a comment line below the header of o's file of kind k.
func withComment(o mailtest.ClientOrders, k mailtest.OrdersKind, comment string) mailtest.ClientOrders {
	add := func(s string) string {
		i := strings.Index(s, "\nseat: ")
		j := i + 1 + strings.IndexByte(s[i+1:], '\n') + 1
		return s[:j] + comment + s[j:]
	}
	switch k {
	case mailtest.Long1995:
		o.Long1995 = add(o.Long1995)
	case mailtest.Long1914:
		o.Long1914 = add(o.Long1914)
	case mailtest.ShortLines:
		o.Short = add(o.Short)
	default:
		o.SSH = add(o.SSH)
	}
	return o
}

// understoodIn is the order file a receipt's "Understood:" block echoes,
// unindented, without the line number each order ends with, and how many
// orders name their line.
func understoodIn(receipt string) (string, int) {
	_, rest, ok := strings.Cut(receipt, "\nUnderstood:\n")
	if !ok {
		return "", 0
	}
	var b strings.Builder
	numbered := 0
	// the end of an understood order naming its line: "  # line 4" after
	// padding, or "; line 4" after the order's own comment
	lineNumber := regexp.MustCompile(`(\s+# |; )line \d+$`)
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		if m := lineNumber.FindStringIndex(l); m != nil {
			l, numbered = l[:m[0]], numbered+1
		}
		b.WriteString(strings.TrimPrefix(l, "  ") + "\n")
		if l == "  end" {
			break
		}
	}
	return b.String(), numbered
}

// readableAll is mails as a person reads them, one after the other.
func readableAll(raws [][]byte) string {
	out := make([]string, len(raws))
	for i, raw := range raws {
		out[i] = readable(raw)
	}
	return strings.Join(out, "\n----\n")
}
