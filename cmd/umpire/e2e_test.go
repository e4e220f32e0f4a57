//go:build integration

package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
	"github.com/umpire-pbem/umpire/store"
)

// table is a judge with a running game and two players holding seats:
// alice (gpg) as NATO and bob (ssh) as Serb.
type table struct {
	st      mailtest.Stack
	dir     string
	config  string
	store   string
	gpg     *signtest.GPG
	ssh     *signtest.SSH
	alice   string // gpg fingerprint
	bob     signtest.SSHKey
	players []string
}

func newTable(t *testing.T, st mailtest.Stack) *table {
	t.Helper()
	tb := &table{st: st, dir: t.TempDir(), gpg: signtest.NewGPG(t), ssh: signtest.NewSSH(t)}
	tb.players = []string{"alice@players.test", "bob@players.test", "carol@players.test", "dave@players.test"}
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	for _, p := range tb.players {
		st.AddUser(t, p, "pw")
	}
	tb.alice = tb.gpg.GenKey("Alice <alice@players.test>")
	tb.bob = tb.ssh.GenKey("bob", "ed25519")
	tb.store = filepath.Join(tb.dir, "umpire.db")
	db, err := store.Open(tb.store, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	alicePub, err := signature.ParseKey(tb.gpg.Export(tb.alice))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = db.Update(t.Context(), func(tx *store.Tx) error {
		if err := tx.PutGame(store.Game{ID: "club-kosovo-3", Kind: "wbt", Title: "Kosovo by mail", Status: "running", Step: 7}); err != nil {
			return err
		}
		for _, k := range []store.Key{
			{Fingerprint: alicePub.Fingerprint, Kind: "openpgp", Public: tb.gpg.Export(tb.alice), Address: "alice@players.test", Added: now},
			{Fingerprint: tb.bob.Fingerprint, Kind: "ssh", Public: tb.bob.Public, Address: "bob@players.test", Added: now},
		} {
			if err := tx.PutKey(k); err != nil {
				return err
			}
		}
		for seat, key := range map[string]string{"NATO": alicePub.Fingerprint, "Serb": tb.bob.Fingerprint} {
			if err := tx.PutSeat(store.Seat{Game: "club-kosovo-3", Name: seat, Holders: []store.Holder{{Key: key, From: now}}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	tb.config = filepath.Join(tb.dir, "umpire.toml")
	conf := fmt.Sprintf("store = %q\naddress = %q\n\n[imap]\naddress = %q\nsecurity = \"none\"\nusername = %q\npassword = %q\npoll = \"200ms\"\n\n[smtp]\naddress = %q\nsecurity = \"none\"\n",
		tb.store, daemontest.JudgeAddress, st.IMAPAddr(), daemontest.JudgeAddress, daemontest.JudgePassword, st.SMTPAddr())
	if err := os.WriteFile(tb.config, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return tb
}

// clearsigned is alice's mail: a clear-signed order file as the body.
func (tb *table) clearsigned(id string, text string) []byte {
	body := tb.gpg.ClearSign(tb.alice, []byte(text))
	return []byte(daemontest.Header("Alice <alice@players.test>", id, "my orders") + "Content-Type: text/plain; charset=utf-8\r\n\r\n" + daemontest.CRLF(string(body)))
}

// sshAttached is bob's mail: orders.txt and orders.txt.sig attached, as a
// mail program sends them.
func (tb *table) sshAttached(id string, text string) []byte {
	sig := tb.ssh.Sign(tb.bob, "umpire", []byte(text))
	var b strings.Builder
	b.WriteString(daemontest.Header("bob@players.test", id, "Serb orders"))
	b.WriteString("Content-Type: multipart/mixed; boundary=\"XyZ\"\r\n\r\nThis is a multi-part message.\r\n")
	b.WriteString("--XyZ\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nOrders attached.\r\n")
	b.WriteString("--XyZ\r\nContent-Type: text/plain; charset=utf-8; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	b.WriteString(base64Lines([]byte(text)))
	b.WriteString("--XyZ\r\nContent-Type: application/octet-stream; name=orders.txt.sig\r\nContent-Disposition: attachment; filename=orders.txt.sig\r\n\r\n")
	b.WriteString(daemontest.CRLF(string(sig)))
	b.WriteString("--XyZ--\r\n")
	return []byte(b.String())
}

func base64Lines(b []byte) string {
	enc := make([]byte, base64Len(len(b)))
	base64Std.Encode(enc, b)
	var out strings.Builder
	for len(enc) > 76 {
		out.Write(enc[:76])
		out.WriteString("\r\n")
		enc = enc[76:]
	}
	out.Write(enc)
	out.WriteString("\r\n")
	return out.String()
}

// serveOnce runs "umpire serve --once" until the judge's INBOX is empty.
func (tb *table) serveOnce(t *testing.T) {
	t.Helper()
	for range 20 {
		code, out, errOut := run(t, "serve", "--once", "--config", tb.config)
		if code != exitOK {
			t.Fatalf("serve --once: exit %d\n%s\n%s", code, out, errOut)
		}
		if len(tb.st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX")) == 0 {
			return
		}
	}
	t.Fatal("the judge's INBOX does not empty")
}

func TestEndToEnd(t *testing.T) {
	t.Parallel()
	for _, mk := range []func(testing.TB) mailtest.Stack{mailtest.Embedded, mailtest.Real} {
		st := mk(t)
		t.Run(st.Name(), func(t *testing.T) { testEndToEnd(t, st) })
	}
}

func testEndToEnd(t *testing.T, st mailtest.Stack) {
	tb := newTable(t, st)
	natoOrders := daemontest.Orders("NATO", "attack 1708 from 1607 1709 with US-1AD US-3ID", "move US-82AB 1609 1610 1711")
	serbOrders := daemontest.Orders("Serb", "move SRB-252 1810 1709")
	st.Submit(t, "alice@players.test", []string{daemontest.JudgeAddress}, tb.clearsigned("a1@players.test", natoOrders))
	st.Submit(t, "bob@players.test", []string{daemontest.JudgeAddress}, tb.sshAttached("b1@players.test", serbOrders))
	st.Submit(t, "carol@players.test", []string{daemontest.JudgeAddress}, []byte(daemontest.Header("carol@players.test", "c1@players.test", "orders")+"\r\n"+daemontest.CRLF(natoOrders)))
	st.Submit(t, "dave@players.test", []string{daemontest.JudgeAddress}, []byte(daemontest.Header("dave@players.test", "d1@players.test", "Out of office")+
		"Auto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n"))
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", 4, 20*time.Second)

	tb.serveOnce(t)

	alice := st.WaitFor(t, "alice@players.test", "pw", "INBOX", 1, 20*time.Second)[0]
	for _, want := range []string{"ACCEPTED: orders of seat NATO for step 7 of club-kosovo-3, version 1", "attack 1708 from 1607 1709 with US-1AD US-3ID"} {
		if !bytes.Contains(alice, []byte(want)) {
			t.Errorf("alice's receipt lacks %q:\n%s", want, alice)
		}
	}
	if daemontest.HeaderOf(alice, "In-Reply-To") != "<a1@players.test>" || !strings.Contains(daemontest.HeaderOf(alice, "From"), daemontest.JudgeAddress) ||
		daemontest.HeaderOf(alice, "Auto-Submitted") != "auto-replied" {
		t.Errorf("alice's receipt headers: In-Reply-To %q, From %q, Auto-Submitted %q", daemontest.HeaderOf(alice, "In-Reply-To"), daemontest.HeaderOf(alice, "From"), daemontest.HeaderOf(alice, "Auto-Submitted"))
	}
	// The receipt is signed by the judge's key.
	code, keyOut, _ := run(t, "keys", "server", "--store", tb.store)
	if code != exitOK {
		t.Fatal("keys server failed")
	}
	serverPub, err := signature.ParseKey([]byte(keyOut[strings.Index(keyOut, "-----BEGIN"):]))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := message.Parse(alice, message.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := signature.NewKeyring(serverPub)
	if v, err := signature.VerifyInline(parsed.RawText, keys); err != nil || v.Fingerprint != serverPub.Fingerprint {
		t.Errorf("alice's receipt does not verify with the judge's key: %v", err)
	}
	bob := st.WaitFor(t, "bob@players.test", "pw", "INBOX", 1, 20*time.Second)[0]
	if !bytes.Contains(bob, []byte("ACCEPTED: orders of seat Serb")) || !bytes.Contains(bob, []byte("ssh key "+tb.bob.Fingerprint)) {
		t.Errorf("bob's receipt:\n%s", bob)
	}
	carol := st.WaitFor(t, "carol@players.test", "pw", "INBOX", 1, 20*time.Second)[0]
	if !bytes.Contains(carol, []byte("not signed")) {
		t.Errorf("carol's answer:\n%s", carol)
	}
	if got := st.Mailbox(t, "dave@players.test", "pw", "INBOX"); len(got) != 0 {
		t.Errorf("the auto-reply was answered: %s", got[0])
	}
	if p, r := len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "processed")), len(st.Mailbox(t, daemontest.JudgeAddress, daemontest.JudgePassword, "rejected")); p != 3 || r != 1 {
		t.Errorf("processed %d, rejected %d; want 3 and 1 (carol's unsigned mail)", p, r)
	}

	// Another pass changes nothing: no message taken twice, no mail sent twice.
	tb.serveOnce(t)
	time.Sleep(300 * time.Millisecond)
	for _, p := range tb.players[:3] {
		if n := len(st.Mailbox(t, p, "pw", "INBOX")); n != 1 {
			t.Errorf("%s has %d answers, want 1", p, n)
		}
	}
	db, err := store.Open(tb.store, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(t.Context(), func(tx *store.Tx) error {
		latest, err := tx.LatestOrders("club-kosovo-3", 7)
		if err != nil || len(latest) != 2 {
			t.Errorf("stored orders: %d, %v", len(latest), err)
		}
		for _, o := range latest {
			want := map[string]string{"NATO": natoOrders, "Serb": serbOrders}[o.Seat]
			if !strings.Contains(strings.ReplaceAll(o.Text, "\r\n", "\n"), strings.TrimSuffix(want, "\n")) {
				t.Errorf("%s's stored text %q", o.Seat, o.Text)
			}
		}
		return nil
	})
}

// TestUnsignedFromThunderbirdByRealMail: an order file a player forgot to
// sign in Thunderbird (plain text, format=flowed, a long comment line
// soft-wrapped, Thunderbird's User-Agent), sent through the real OpenSMTPD
// and Dovecot, is answered with the section of docs/signing.md for
// Thunderbird; nothing is stored.
func TestUnsignedFromThunderbirdByRealMail(t *testing.T) {
	t.Parallel()
	st := mailtest.Real(t)
	tb := newTable(t, st)
	body := "game: club-kosovo-3\r\nstep: 7\r\nseat: NATO\r\n" +
		"# the airborne goes first, before the armour crosses the river at dawn, \r\n" +
		"so that the bridge is held\r\n" +
		"move US-82AB 1609 1610 1711\r\nend\r\n"
	raw := "Message-ID: <6a1f0c2e-8f3b-4c1e-9a77-2b1f0d9e4c11@players.test>\r\n" +
		"Date: Sun, 22 Nov 2026 20:00:00 +0100\r\nMIME-Version: 1.0\r\n" +
		"User-Agent: Mozilla Thunderbird\r\nContent-Language: en-US\r\n" +
		"To: " + daemontest.JudgeAddress + "\r\nFrom: Carol <carol@players.test>\r\nSubject: NATO orders\r\n" +
		"Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\n" + body
	st.Submit(t, "carol@players.test", []string{daemontest.JudgeAddress}, []byte(raw))
	st.WaitFor(t, daemontest.JudgeAddress, daemontest.JudgePassword, "INBOX", 1, 20*time.Second)

	tb.serveOnce(t)

	answer := st.WaitFor(t, "carol@players.test", "pw", "INBOX", 1, 20*time.Second)[0]
	parsed, err := message.Parse(answer, message.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"is not signed", "Your mail seems to come from Thunderbird:", "docs/signing.md#thunderbird says how to make a key"} {
		if !strings.Contains(parsed.Text, want) {
			t.Errorf("carol's answer lacks %q:\n%s", want, parsed.Text)
		}
	}
	if !strings.Contains(parsed.Subject, "orders must be signed") || parsed.InReplyTo != "6a1f0c2e-8f3b-4c1e-9a77-2b1f0d9e4c11@players.test" {
		t.Errorf("carol's answer: subject %q, in reply to %q", parsed.Subject, parsed.InReplyTo)
	}
	db, err := store.Open(tb.store, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(t.Context(), func(tx *store.Tx) error {
		if latest, err := tx.LatestOrders("club-kosovo-3", 7); err != nil || len(latest) != 0 {
			t.Errorf("stored orders: %d, %v", len(latest), err)
		}
		return nil
	})
}

var base64Std = base64.StdEncoding

func base64Len(n int) int { return base64Std.EncodedLen(n) }
