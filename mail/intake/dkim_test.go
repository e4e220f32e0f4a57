package intake

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/message"
)

// dkimKeys are the RSA keys of the tests' DKIM signers: made once, since
// a 2048-bit key takes a while.
var dkimKeys = sync.OnceValue(func() [2]*rsa.PrivateKey {
	var ks [2]*rsa.PrivateKey
	for i := range ks {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		ks[i] = k
	}
	return ks
})

// dkimRecord is the DNS TXT record that publishes k as a DKIM key.
func dkimRecord(k *rsa.PrivateKey) string { return mailtest.DKIMRecord(k) }

// playerMail is a message from alice at players.test, as her mail program
// writes it, with CRLF line ends.
func playerMail(from, body string) []byte {
	msg := "From: Alice <" + from + ">\r\nTo: judge@umpire.test\r\nSubject: orders\r\n" +
		"Date: Sun, 22 Nov 2026 20:00:00 +0000\r\nMessage-ID: <o1@players.test>\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body
	return []byte(strings.ReplaceAll(strings.ReplaceAll(msg, "\r\n", "\n"), "\n", "\r\n"))
}

const dkimOrders = "game: club-1\nstep: 1\nseat: B\nroll 2\nend\n"

// signDKIM signs raw as domain's selector sel with key k, covering the
// headers named (nil: From, Subject, Date, Message-ID, To), as a mail
// provider does, and returns the message with its DKIM-Signature on top.
func signDKIM(t testing.TB, raw []byte, domain, sel string, k *rsa.PrivateKey, headers []string) []byte {
	t.Helper()
	if headers == nil {
		headers = []string{"From", "Subject", "Date", "Message-ID", "To"}
	}
	var out bytes.Buffer
	if err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: sel, Signer: k,
		HeaderKeys: headers, HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// signDKIMLength signs raw with an l=n signature (mailtest.SignDKIMLength).
func signDKIMLength(t testing.TB, raw []byte, domain, sel string, k *rsa.PrivateKey, n int) []byte {
	t.Helper()
	out, err := mailtest.SignDKIMLength(raw, mailtest.DKIMSigner{Domain: domain, Selector: sel, Key: k}, n)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// txtRecords is a DNS look-up of fixed TXT records.
type txtRecords map[string]string

func (r txtRecords) lookup(_ context.Context, name string) ([]string, error) {
	if v, ok := r[strings.TrimSuffix(name, ".")]; ok {
		return []string{v}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

// TestVerifyDKIM: a message counts as its From address's only when a DKIM
// signature of the From domain (or its organisational domain) verifies,
// covers From, Subject, Date and Message-ID and the whole body; every
// other message is refused with what was wrong and what to do.
func TestVerifyDKIM(t *testing.T) {
	keys := dkimKeys()
	good, other := keys[0], keys[1]
	records := txtRecords{"mail._domainkey.players.test": dkimRecord(good), "relay._domainkey.relay.test": dkimRecord(other)}
	from := "alice@players.test"
	plain := playerMail(from, dkimOrders)
	signed := signDKIM(t, plain, "players.test", "mail", good, nil)
	altered := bytes.Replace(signed, []byte("roll 2"), []byte("roll 3"), 1)
	for _, c := range []struct {
		name   string
		raw    []byte
		lookup func(context.Context, string) ([]string, error)
		want   string // the problem's words; "" for a message that counts
	}{
		{name: "signed by the From domain", raw: signed},
		{name: "signed by the organisational domain of a subdomain address",
			raw: signDKIM(t, playerMail("alice@eu.players.test", dkimOrders), "players.test", "mail", good, nil)},
		{name: "signed with Message-ID in other case", raw: signDKIM(t, plain, "players.test", "mail", good, []string{"from", "subject", "date", "message-id"})},
		{name: "re-signed by a relay after the provider", raw: signDKIM(t, signed, "relay.test", "relay", other, nil)},
		{name: "no signature", raw: plain, want: "it carries no DKIM signature"},
		{name: "forged: signed with another key", raw: signDKIM(t, plain, "players.test", "mail", other, nil),
			want: "its DKIM signature by players.test does not verify (signature did not verify"},
		{name: "re-signed by another domain only", raw: signDKIM(t, plain, "relay.test", "relay", other, nil),
			want: "it is signed by relay.test (DKIM d=relay.test), not by players.test"},
		{name: "body altered", raw: altered, want: "its body was changed after players.test signed it"},
		{name: "l=-limited", raw: signDKIMLength(t, plain, "players.test", "mail", good, 20),
			want: "the DKIM signature of players.test covers only the first 20 bytes of the body (l=20)"},
		{name: "Message-ID and Date not covered", raw: signDKIM(t, plain, "players.test", "mail", good, []string{"From", "Subject", "To"}),
			want: "does not cover its Date, Message-ID header(s)"},
		{name: "a second From on top", raw: append([]byte("From: mallory@players.test\r\n"), signed...),
			want: "it has 2 From headers"},
		{name: "the key cannot be looked up", raw: signed,
			lookup: func(context.Context, string) ([]string, error) {
				return nil, &net.DNSError{Err: "server misbehaving", Name: "mail._domainkey.players.test", IsTemporary: true}
			},
			want: "the judge could not look up players.test's DKIM key (selector mail)"},
		{name: "the look-up times out", raw: signed,
			lookup: func(ctx context.Context, _ string) ([]string, error) { <-ctx.Done(); return nil, ctx.Err() },
			want:   "the judge could not look up players.test's DKIM key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg, err := message.Parse(c.raw, message.DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			d := &DKIM{LookupTXT: records.lookup, Timeout: 200 * time.Millisecond}
			if c.lookup != nil {
				d.LookupTXT = c.lookup
			}
			sig, problem := d.verifyDKIM(c.raw, msg)
			if c.want != "" {
				if sig != nil || !strings.Contains(problem, c.want) {
					t.Errorf("got %+v, problem %q; want a problem with %q", sig, problem, c.want)
				}
				return
			}
			if problem != "" || sig == nil {
				t.Fatalf("refused: %s", problem)
			}
			fromAddr := msg.From.Addr
			if sig.Kind != adjudicator.KindDKIM || sig.Fingerprint != "dkim:"+fromAddr || sig.Content != dkimOrders ||
				!bytes.HasSuffix(c.raw, sig.Signed) || string(sig.Signed) != strings.ReplaceAll(dkimOrders, "\n", "\r\n") {
				t.Errorf("signature %+v, want dkim:%s over the body %q", sig, fromAddr, dkimOrders)
			}
		})
	}
}

// TestEnvelopeDKIM: the handler checks DKIM only when it is configured,
// and only for a message no key signed; the envelope then carries the
// address or the problem for intake to weigh.
func TestEnvelopeDKIM(t *testing.T) {
	good := dkimKeys()[0]
	raw := signDKIM(t, playerMail("alice@players.test", dkimOrders), "players.test", "mail", good, nil)
	m := mail.Message{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw, Size: int64(len(raw))}
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	env, _ := New(Config{Address: "judge@umpire.test"}).envelope(m, corpusKeys(t), now)
	if env.DKIM != nil || env.DKIMProblem != "" || env.Signed != nil {
		t.Errorf("without DKIM configured: DKIM %+v, problem %q, signed %+v; want an unsigned message", env.DKIM, env.DKIMProblem, env.Signed)
	}
	h := New(Config{Address: "judge@umpire.test", DKIM: &DKIM{LookupTXT: txtRecords{"mail._domainkey.players.test": dkimRecord(good)}.lookup}})
	env, _ = h.envelope(m, corpusKeys(t), now)
	if env.DKIM == nil || env.DKIM.Fingerprint != "dkim:alice@players.test" || env.Signed != nil {
		t.Errorf("with DKIM: DKIM %+v (problem %q), signed %+v; want dkim:alice@players.test and no key's signature", env.DKIM, env.DKIMProblem, env.Signed)
	}
	bad := bytes.Replace(raw, []byte("roll 2"), []byte("roll 3"), 1)
	env, _ = h.envelope(mail.Message{Raw: bad, Size: int64(len(bad))}, corpusKeys(t), now)
	if env.DKIM != nil || !strings.Contains(env.DKIMProblem, "body was changed") {
		t.Errorf("altered: DKIM %+v, problem %q", env.DKIM, env.DKIMProblem)
	}
}

// TestBodyOf: the body is what follows the first empty line, CRLF or LF.
func TestBodyOf(t *testing.T) {
	for raw, want := range map[string]string{
		"A: b\r\n\r\nbody\r\n": "body\r\n", "A: b\n\nbody\n\nmore": "body\n\nmore", "A: b\r\n": "", "": "", "\r\nx": "x",
	} {
		if got := string(bodyOf([]byte(raw))); got != want {
			t.Errorf("bodyOf(%q) = %q, want %q", raw, got, want)
		}
	}
}
