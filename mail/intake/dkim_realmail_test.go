//go:build integration

package intake

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// TestDKIMByRealMail: players' mail signed with DKIM by the real OpenSMTPD
// (filter-dkimsign), as their provider signs it, delivered by the real
// Dovecot, its keys looked up on a DNS server on loopback with Go's own
// resolver. The message the provider signed counts as its From
// address's; one forged, re-signed by another domain, altered on the way,
// l=-limited, or signed without its Message-ID and Date does not, and the
// problem says which.
func TestDKIMByRealMail(t *testing.T) {
	keys := dkimKeys()
	provider, relay := keys[0], keys[1]
	names := mailtest.StartDNS(t, map[string]string{
		"mail._domainkey.players.test": dkimRecord(provider),
		"relay._domainkey.relay.test":  dkimRecord(relay),
	})
	full := []string{"From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"}
	s := mailtest.RealDKIM(t,
		mailtest.DKIMSigner{Domain: "players.test", Selector: "mail", Key: provider, Headers: full}, // 0: the provider
		mailtest.DKIMSigner{Domain: "relay.test", Selector: "relay", Key: relay, Headers: full},     // 1: a forwarder
		mailtest.DKIMSigner{Domain: "players.test", Selector: "mail", Key: provider},                // 2: default headers
	)
	const judge, pw = "judge@umpire.test", "judge-pw"
	s.AddUser(t, judge, pw)
	send := func(via int, id, body string) {
		raw := playerMail("alice@players.test", body)
		raw = bytes.Replace(raw, []byte("<o1@players.test>"), []byte("<"+id+"@players.test>"), 1)
		if via < 0 {
			s.Submit(t, "alice@players.test", []string{judge}, raw)
		} else {
			s.SubmitSigned(t, via, "alice@players.test", []string{judge}, raw)
		}
	}
	send(0, "good", dkimOrders)
	send(1, "resigned", dkimOrders)
	send(2, "uncovered", dkimOrders)
	send(-1, "unsigned", dkimOrders)
	l := signDKIMLength(t, playerMail("alice@players.test", dkimOrders), "players.test", "mail", provider, len("game: club-1\r\n"))
	l = bytes.Replace(l, []byte("end\r\n"), []byte("end\r\ngame: club-1\r\nstep: 1\r\nseat: B\r\npass\r\nend\r\n"), 1)
	s.Submit(t, "alice@players.test", []string{judge}, bytes.Replace(l, []byte("<o1@"), []byte("<limited@"), 1))
	got := s.WaitFor(t, judge, pw, "INBOX", 5, 30*time.Second)

	// What a server on the way, or a forger, makes of the provider's
	// signed mail: the same signature over an altered body, or over a
	// From of someone else.
	var signed []byte
	for _, raw := range got {
		if bytes.Contains(raw, []byte("<good@players.test>")) {
			signed = raw
		}
	}
	if !bytes.Contains(signed, []byte("DKIM-Signature:")) {
		t.Fatalf("the provider's port did not sign:\n%s", signed)
	}
	_, body, _ := bytes.Cut(signed, []byte("\r\n\r\n"))
	signed = mailtest.Resendable(signed)
	altered := bytes.Replace(signed, []byte("roll 2"), []byte("roll 3"), 1)
	forged := bytes.Replace(signed, []byte("From: Alice <alice@players.test>"), []byte("From: Bob <bob@players.test>"), 1)
	for _, raw := range [][]byte{altered, forged} {
		s.Submit(t, "mallory@players.test", []string{judge}, raw)
		got = s.WaitFor(t, judge, pw, "INBOX", len(got)+1, 30*time.Second)
	}

	h := New(Config{Address: judge, DKIM: &DKIM{LookupTXT: names.LookupTXT}})
	want := map[string]string{ // Message-ID: the problem's words, "" for a message that counts
		"good":      "",
		"resigned":  "it is signed by relay.test (DKIM d=relay.test), not by players.test",
		"uncovered": "does not cover its Message-ID header(s)",
		"unsigned":  "it carries no DKIM signature",
		"limited":   "covers only the first 14 bytes of the body (l=14)",
		"altered":   "its body was changed after players.test signed it",
		"forged":    "its DKIM signature by players.test does not verify (signature did not verify",
	}
	seen := map[string]bool{}
	for i, raw := range got {
		msg, err := message.Parse(raw, message.DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		id := strings.TrimSuffix(msg.MessageID, "@players.test")
		switch { // the provider's mail, changed: by its body, or its From
		case id == "good" && strings.Contains(msg.Text, "roll 3"):
			id = "altered"
		case id == "good" && msg.From.Addr == "bob@players.test":
			id = "forged"
		}
		seen[id] = true
		w, ok := want[id]
		if !ok {
			t.Errorf("unexpected message %s", msg.MessageID)
			continue
		}
		env, _ := h.envelope(mail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: raw, Size: int64(len(raw))}, &signature.Keyring{}, time.Now())
		switch {
		case w == "" && (env.DKIM == nil || env.DKIM.Fingerprint != "dkim:alice@players.test" || env.DKIM.Content != dkimOrders ||
			!bytes.Equal(env.DKIM.Signed, body)):
			t.Errorf("%s: DKIM %+v, problem %q; want alice's orders, signed over the body as delivered", id, env.DKIM, env.DKIMProblem)
		case w != "" && (env.DKIM != nil || !strings.Contains(env.DKIMProblem, w)):
			t.Errorf("%s: DKIM %+v, problem %q; want a problem with %q", id, env.DKIM, env.DKIMProblem, w)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("message %s never arrived", id)
		}
	}
}
