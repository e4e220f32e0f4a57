package message

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseCorpus parses a corpus file and fails on an error.
func parseCorpus(t *testing.T, name string) *Message {
	t.Helper()
	m, err := Parse(readCorpusFile(t, name), DefaultLimits())
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return m
}

// hasProblem reports whether some problem mentions every one of words.
func hasProblem(m *Message, words ...string) bool {
	for _, p := range m.Problems {
		all := true
		for _, w := range words {
			all = all && strings.Contains(p, w)
		}
		if all {
			return true
		}
	}
	return false
}

// TestParseCorpusDetails checks what a player would notice in individual
// corpus messages: the right text, the right letters, the problems told.
func TestParseCorpusDetails(t *testing.T) {
	for _, c := range []struct {
		file  string
		check func(t *testing.T, m *Message)
	}{
		{"orders-clearsigned.eml", func(t *testing.T, m *Message) {
			if m.MessageID != "a1@players.test" || m.From != (Address{"Alice", "alice@players.test"}) || m.Subject != "orders" {
				t.Errorf("header: id %q from %+v subject %q", m.MessageID, m.From, m.Subject)
			}
			if m.Date.UTC().Format("2006-01-02 15:04") != "2025-03-03 18:12" {
				t.Errorf("Date %v", m.Date)
			}
			if m.ReturnPath != "<alice@players.test>" || len(m.To) != 1 || m.To[0].Addr != "judge@umpire.test" {
				t.Errorf("Return-Path %q To %+v", m.ReturnPath, m.To)
			}
		}},
		{"orders-duplicate-message-id.eml", func(t *testing.T, m *Message) {
			if m.MessageID != "a15@players.test" || !hasProblem(m, "2 Message-ID") {
				t.Errorf("MessageID %q problems %q: want the first id and a problem", m.MessageID, m.Problems)
			}
		}},
		{"orders-missing-message-id.eml", func(t *testing.T, m *Message) {
			if m.MessageID != "" {
				t.Errorf("MessageID %q, want empty", m.MessageID)
			}
		}},
		{"orders-encoded-subject.eml", func(t *testing.T, m *Message) {
			// RFC 2047 section 6.2: blanks between adjacent encoded words go.
			if m.Subject != "Befehle für Zug 7- grüße" {
				t.Errorf("Subject %q", m.Subject)
			}
		}},
		{"orders-footer-quoted.eml", func(t *testing.T, m *Message) {
			if m.InReplyTo != "umpire-out-6.abc@umpire.test" || len(m.References) != 1 {
				t.Errorf("In-Reply-To %q References %q", m.InReplyTo, m.References)
			}
			if !strings.HasPrefix(m.Text, "Hi judge,\n") || !strings.Contains(m.Text, "\n> -----BEGIN PGP SIGNED MESSAGE-----\n") {
				t.Errorf("Text %q: want the greeting and the quoted report kept", m.Text)
			}
		}},
		{"orders-cp1252-quotes.eml", func(t *testing.T, m *Message) {
			if !strings.Contains(m.Text, "# “hold” the bridge – don’t retreat\n") || !bytes.Contains(m.RawText, []byte("\x93hold\x94")) {
				t.Errorf("Text %q RawText %q: want UTF-8 text and Windows-1252 raw bytes", m.Text, m.RawText)
			}
		}},
		{"orders-8bit-no-cte.eml", func(t *testing.T, m *Message) {
			if !strings.Contains(m.Text, "# Müller’s Brücke hält") || len(m.Problems) > 0 {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"orders-bare-cr.eml", func(t *testing.T, m *Message) {
			if m.Subject != "orders" || !strings.Contains(m.Text, "\ngame: club-kosovo-3\nstep: 7\n") {
				t.Errorf("Subject %q Text %q", m.Subject, m.Text)
			}
		}},
		{"orders-base64-oddities.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Text, "-----BEGIN PGP SIGNED MESSAGE-----\n") || !strings.HasSuffix(m.Text, "-----END PGP SIGNATURE-----\n") || len(m.Problems) > 0 {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"orders-html-alternative.eml", func(t *testing.T, m *Message) {
			if m.HTMLOnly || !strings.HasPrefix(m.Text, "-----BEGIN PGP SIGNED MESSAGE-----") || len(m.Attachments) != 0 {
				t.Errorf("HTMLOnly %v Text %q attachments %d: want the plain alternative only", m.HTMLOnly, m.Text, len(m.Attachments))
			}
		}},
		{"orders-pgpmime-attachment.eml", func(t *testing.T, m *Message) {
			s := m.Signed
			if s.Micalg != "pgp-sha256" || s.Inner.Text != "Orders attached.\n" || len(s.Inner.Attachments) != 1 ||
				string(s.Inner.Attachments[0].Data) != aliceOrders {
				t.Errorf("Signed %+v", s)
			}
			if !bytes.HasPrefix(s.Part, []byte("Content-Type: multipart/mixed;")) || !bytes.HasSuffix(s.Part, []byte("--------------inner0Kq7--\r\n")) {
				t.Errorf("Part %q", s.Part)
			}
			for _, a := range m.Attachments {
				if a.ContentType == "application/pgp-signature" {
					t.Error("the PGP/MIME signature is listed as an attachment")
				}
			}
			if m.Text != "Orders attached.\n" || len(m.Attachments) != 1 || m.Attachments[0].Filename != "orders.txt" {
				t.Errorf("outer Text %q attachments %+v: want the signed part's content", m.Text, m.Attachments)
			}
		}},
		{"orders-pgpmime-lf.eml", func(t *testing.T, m *Message) {
			if bytes.Contains(bytes.ReplaceAll(m.Signed.Part, []byte("\r\n"), nil), []byte("\n")) {
				t.Errorf("Part %q has bare LF", m.Signed.Part)
			}
		}},
		{"orders-forwarded-rfc822.eml", func(t *testing.T, m *Message) {
			if len(m.Forwarded) != 1 || m.Forwarded[0].From.Addr != "alice@work.players.test" || m.Forwarded[0].MessageID != "a7-original@work.players.test" {
				t.Fatalf("Forwarded %+v", m.Forwarded)
			}
			if len(m.Attachments) != 1 || m.Attachments[0].ContentType != "message/rfc822" || m.Attachments[0].Filename != "orders.eml" {
				t.Errorf("attachments %+v", m.Attachments)
			}
		}},
		{"orders-detached-binary-sig.eml", func(t *testing.T, m *Message) {
			if len(m.Attachments) != 2 || string(m.Attachments[0].Data) != aliceOrders || m.Attachments[1].Data[0]&0x80 == 0 {
				t.Errorf("attachments %+v: want orders.txt as sent and a binary OpenPGP packet", m.Attachments)
			}
		}},
		{"unsigned-latin1-as-utf8.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Text, "Grüße aus München,\n") || !hasProblem(m, "marked as UTF-8") {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"unsigned-utf8-as-latin1.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Text, "Grüße aus München,\n") || !hasProblem(m, "ISO-8859-1", "UTF-8") {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"unsigned-unknown-charset.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Text, "Qapla’!\n") || !hasProblem(m, `"x-klingon"`) {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"unsigned-nul-bytes.eml", func(t *testing.T, m *Message) {
			if strings.ContainsRune(m.Text, 0) || !strings.HasPrefix(m.Text, "game: club-kosovo-3\n") || !hasProblem(m, "NUL") {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
			if strings.ContainsRune(m.Subject, 0) || !strings.HasPrefix(m.Subject, "orders") {
				t.Errorf("Subject %q", m.Subject)
			}
		}},
		{"unsigned-truncated-base64.eml", func(t *testing.T, m *Message) {
			full := strings.Repeat(aliceOrders, 4)
			if len(m.Attachments) != 1 {
				t.Fatalf("attachments %+v", m.Attachments)
			}
			got := string(m.Attachments[0].Data)
			if got == "" || len(got) >= len(full) || !strings.HasPrefix(full, got) || !hasProblem(m, "cut short") {
				t.Errorf("attachment %q problems %q: want a prefix of the file and a problem", got, m.Problems)
			}
		}},
		{"unsigned-broken-encoded-words.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Subject, "Orders fü") || m.From.Addr != "carol@players.test" || m.From.Name != "Caröl" {
				t.Errorf("Subject %q From %+v", m.Subject, m.From)
			}
		}},
		{"unsigned-100k-subject.eml", func(t *testing.T, m *Message) {
			if len(m.Subject) > MaxSubject || !strings.HasPrefix(m.Subject, "orders step seven") || !hasProblem(m, "subject line") {
				t.Errorf("Subject of %d bytes, problems %q", len(m.Subject), m.Problems)
			}
		}},
		{"unsigned-no-separator.eml", func(t *testing.T, m *Message) {
			if !strings.HasPrefix(m.Text, "Hello judge, here are my orders.\ngame: club-kosovo-3\n") || !hasProblem(m, "empty line") {
				t.Errorf("Text %q problems %q", m.Text, m.Problems)
			}
		}},
		{"unsigned-no-body.eml", func(t *testing.T, m *Message) {
			if m.Text != "" || m.From.Addr != "carol@players.test" {
				t.Errorf("Text %q From %+v", m.Text, m.From)
			}
		}},
		{"unsigned-attachment-only.eml", func(t *testing.T, m *Message) {
			if m.Text != "" || len(m.Attachments) != 1 || m.Attachments[0].Filename != "orders.txt" {
				t.Errorf("Text %q attachments %+v", m.Text, m.Attachments)
			}
		}},
		{"html-only.eml", func(t *testing.T, m *Message) {
			if m.HTMLText != "game: club-kosovo-3\n\nstep: 7\n\nseat: NATO\n\nattack 1708 from 1607 1709 with US-1AD US-3ID\n\nend" {
				t.Errorf("HTMLText %q", m.HTMLText)
			}
		}},
		{"html-only-alternative.eml", func(t *testing.T, m *Message) {
			if m.HTMLText != "move US-82AB 1609 – 1610" {
				t.Errorf("HTMLText %q", m.HTMLText)
			}
		}},
		{"command-map-cp1252.eml", func(t *testing.T, m *Message) {
			if m.Text != "map club-kosovo-3\n\nThanks – I’d like the “big” map.\n" {
				t.Errorf("Text %q", m.Text)
			}
		}},
		{"command-log-encoded-subject.eml", func(t *testing.T, m *Message) {
			if m.Subject != "log club-kosovo-3" {
				t.Errorf("Subject %q", m.Subject)
			}
		}},
		{"bounce-rfc3464.eml", func(t *testing.T, m *Message) {
			r := m.Report
			if r.Legacy || r.Status != "5.1.1" || r.FinalRecipient != "bob@players.test" || r.OriginalRecipient != "bob@players.test" ||
				r.ReportingMTA != "mx.players.test" || !strings.HasPrefix(r.DiagnosticCode, "550 5.1.1 <bob@players.test>: Recipient address rejected:") ||
				r.OriginalMessageID != "umpire-out-7.abc@umpire.test" {
				t.Errorf("Report %+v", r)
			}
		}},
		{"bounce-rfc3464-message-rfc822.eml", func(t *testing.T, m *Message) {
			r := m.Report
			if len(r.Recipients) != 2 || r.Recipients[0].Action != "delayed" || r.FinalRecipient != "dan@players.test" ||
				r.Status != "5.2.2" || r.OriginalMessageID != "umpire-out-8.def@umpire.test" {
				t.Errorf("Report %+v: want the failed recipient of two", r)
			}
			if len(m.Forwarded) != 0 || len(m.Attachments) != 0 {
				t.Errorf("the returned message is listed as forwarded or attached")
			}
		}},
		{"bounce-legacy-mailer-daemon.eml", func(t *testing.T, m *Message) {
			r := m.Report
			if !r.Legacy || r.FinalRecipient != "carol@players.test" || r.OriginalMessageID != "umpire-out-9.def@umpire.test" ||
				r.DiagnosticCode != "Sorry, no mailbox here by that name. (#5.1.1)" {
				t.Errorf("Report %+v", r)
			}
		}},
		{"auto-read-receipt.eml", func(t *testing.T, m *Message) {
			if m.ReportType != "disposition-notification" || m.Report != nil {
				t.Errorf("ReportType %q Report %+v", m.ReportType, m.Report)
			}
		}},
		{"encrypted-pgpmime.eml", func(t *testing.T, m *Message) {
			if !m.Encrypted || m.Signed != nil {
				t.Errorf("Encrypted %v Signed %v", m.Encrypted, m.Signed)
			}
		}},
	} {
		t.Run(c.file, func(t *testing.T) { c.check(t, parseCorpus(t, c.file)) })
	}
}

// signedMessage is a PGP/MIME message with LF endings whose delimiters
// have trailing blanks, whose preamble and epilogue hold text, and whose
// signed part holds lines that start like a delimiter but are not one.
const signedMessage = `From: alice@players.test
Content-Type: multipart/signed; protocol="application/pgp-signature";
	micalg=PGP-SHA256; boundary="b1"

preamble --b1 is not a delimiter here
--b1 	
Content-Type: text/plain

--b1x is text
 --b1
last line
--b1
Content-Type: application/pgp-signature

-----BEGIN PGP SIGNATURE-----
sig
-----END PGP SIGNATURE-----
--b1--  
epilogue
--b1
not a part
`

// TestParseSignedPartExactBytes checks the RFC 1847/3156 rules for the
// signed part: from the first byte of its header to the line break before
// the next delimiter, excluded, with every bare LF made CRLF.
func TestParseSignedPartExactBytes(t *testing.T) {
	want := "Content-Type: text/plain\r\n\r\n--b1x is text\r\n --b1\r\nlast line"
	for _, c := range []struct{ name, raw string }{
		{"LF", signedMessage},
		{"CRLF", strings.ReplaceAll(signedMessage, "\n", "\r\n")},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.raw), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Signed == nil {
				t.Fatal("no Signed")
			}
			if string(m.Signed.Part) != want {
				t.Errorf("Part\n%q\nwant\n%q", m.Signed.Part, want)
			}
			if got := strings.ReplaceAll(string(m.Signed.Signature), "\r\n", "\n"); got != "-----BEGIN PGP SIGNATURE-----\nsig\n-----END PGP SIGNATURE-----" {
				t.Errorf("Signature %q", got)
			}
			if m.Signed.Protocol != "application/pgp-signature" || m.Signed.Micalg != "pgp-sha256" {
				t.Errorf("Protocol %q Micalg %q", m.Signed.Protocol, m.Signed.Micalg)
			}
			if m.Text != "--b1x is text\n --b1\nlast line" || m.Signed.Inner.Text != m.Text {
				t.Errorf("Text %q Inner.Text %q", m.Text, m.Signed.Inner.Text)
			}
		})
	}
}

// TestParseSignedWithoutHeaderOrClose covers a signed part with an empty
// header and a message cut before the close delimiter.
func TestParseSignedWithoutHeaderOrClose(t *testing.T) {
	raw := "From: a@players.test\r\nContent-Type: multipart/signed; boundary=q\r\n\r\n--q\r\n\r\norders\r\n--q\r\n\r\nSIG\r\n"
	m, err := Parse([]byte(raw), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Signed == nil || string(m.Signed.Part) != "\r\norders" || string(m.Signed.Signature) != "SIG\r\n" {
		t.Fatalf("Signed %+v", m.Signed)
	}
	if m.Text != "orders" || !hasProblem(m, "closing boundary") {
		t.Errorf("Text %q problems %q", m.Text, m.Problems)
	}
}

func TestSplitMultipart(t *testing.T) {
	for _, c := range []struct {
		name, body string
		parts      []string
		closed     bool
	}{
		{"simple", "--b\r\none\r\n--b\r\ntwo\r\n--b--\r\n", []string{"one", "two"}, true},
		{"at end without line break", "--b\none\n--b--", []string{"one"}, true},
		{"empty part", "--b\r\n--b\r\nx\r\n--b--", []string{"", "x"}, true},
		{"part keeps its own blank last line", "--b\r\none\r\n\r\n--b--", []string{"one\r\n"}, true},
		{"longer boundary is text", "--b\r\n--bb\r\n--b-\r\n--b--", []string{"--bb\r\n--b-"}, true},
		{"mid-line boundary is text", "--b\r\nx--b\r\n--b--", []string{"x--b"}, true},
		{"no close", "--b\r\none\r\n--b\r\ntwo\r\n", []string{"one", "two\r\n"}, false},
		{"no delimiter", "just text --b\r\n", nil, false},
		{"at most the limit", strings.Repeat("--b\r\nx\r\n", 20), strings.Split(strings.Repeat("x,", 10), ",")[:10], false},
	} {
		t.Run(c.name, func(t *testing.T) {
			parts, closed := splitMultipart([]byte(c.body), "b", 10)
			var got []string
			for _, p := range parts {
				got = append(got, string(p))
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.parts) || closed != c.closed {
				t.Errorf("got %q closed %v, want %q closed %v", got, closed, c.parts, c.closed)
			}
		})
	}
}

// nestedMultipart returns a message of levels multiparts, one inside the
// other, with a text part at depth levels.
func nestedMultipart(levels int) []byte {
	return []byte("From: carol@players.test\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b0\n\n" + mailtest.Nested(levels))
}

func TestParseLimits(t *testing.T) {
	lim := Limits{MaxMessage: 4000, MaxAttachment: 100, MaxDepth: 3, MaxParts: 6}
	attach := func(n int) []byte {
		return []byte("From: carol@players.test\nContent-Type: multipart/mixed; boundary=x\n\n--x\n\nhi\n--x\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" +
			mailtest.Base64(bytes.Repeat([]byte{7}, n), 76) + "--x--\n")
	}
	if _, err := Parse(attach(100), lim); err != nil {
		t.Errorf("an attachment at the limit: %v", err)
	}
	_, err := Parse(attach(101), lim)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitAttachment || le.Size != 101 || le.Max != 100 {
		t.Errorf("an attachment over the limit: %v (%+v)", err, le)
	}
	if _, err := Parse(nestedMultipart(3), lim); err != nil { // text at depth 3
		t.Errorf("nesting at the limit: %v", err)
	}
	m, err := Parse(nestedMultipart(4), lim)
	if !errors.Is(err, ErrTooDeep) || m.From.Addr != "carol@players.test" {
		t.Errorf("nesting over the limit: %v, From %q", err, m.From.Addr)
	}
	parts := func(n int) []byte {
		return []byte("From: carol@players.test\nContent-Type: multipart/mixed; boundary=x\n\n" + strings.Repeat("--x\n\np\n", n) + "--x--\n")
	}
	if _, err := Parse(parts(5), lim); err != nil {
		t.Errorf("parts at the limit (5 and the multipart): %v", err)
	}
	if _, err := Parse(parts(6), lim); !errors.As(err, &le) || le.Limit != LimitParts {
		t.Errorf("parts over the limit: %v", err)
	}
	big := append([]byte("From: Carol <carol@players.test>\nMessage-ID: <big@players.test>\n\n"), bytes.Repeat([]byte("x"), 4000)...)
	if _, err := Parse(big[:4000], Limits{MaxMessage: 4000, MaxAttachment: 4000}); err != nil {
		t.Errorf("a message at the limit: %v", err)
	}
	m, err = Parse(big, Limits{MaxMessage: 4000, MaxAttachment: 4000})
	if !errors.As(err, &le) || le.Limit != LimitMessage || le.Size != int64(len(big)) {
		t.Errorf("a message over the limit: %v", err)
	}
	if m.From.Addr != "carol@players.test" || m.MessageID != "big@players.test" || m.Size != len(big) {
		t.Errorf("the header of a message over the limit was not read: %+v", m)
	}
	if got := le.Error(); got != "message too large: the message is 4.0 KB; the judge accepts at most 3.9 KB" {
		t.Errorf("error text %q", got)
	}
}

// TestParseZeroLimitsMeanDefaults makes sure a zero Limits is not "no
// limits".
func TestParseZeroLimitsMeanDefaults(t *testing.T) {
	if _, err := Parse(nestedMultipart(11), Limits{}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("Parse with zero Limits: %v, want ErrTooDeep at the default depth", err)
	}
}

func TestParseMalformed(t *testing.T) {
	for _, raw := range []string{"", "\r\n\r\nbody", " indented: x\n\nbody", "no header here\n\nbody", "\x00\x01\x02"} {
		m, err := Parse([]byte(raw), DefaultLimits())
		if !errors.Is(err, ErrMalformed) || m == nil {
			t.Errorf("Parse(%q): %v, %v; want ErrMalformed and a Message", raw, m, err)
		}
	}
}

func TestParseBodyChoice(t *testing.T) {
	for _, c := range []struct {
		name, raw, text string
		html            bool
		attachments     int
	}{
		{"no content type is plain text", "From: a@b.test\n\nhello\n", "hello\n", false, 0},
		{"plain preferred over html in alternative, whatever the order",
			"Content-Type: multipart/alternative; boundary=a\n\n--a\nContent-Type: text/plain\n\nplain\n--a\nContent-Type: text/html\n\n<b>html</b>\n--a--\n",
			"plain", false, 0},
		{"html alternative with related images loses to plain",
			"Content-Type: multipart/alternative; boundary=a\n\n--a\nContent-Type: multipart/related; boundary=r\n\n--r\nContent-Type: text/html\n\n<b>x</b>\n--r\nContent-Type: image/png\n\nPNG\n--r--\n--a\nContent-Type: text/plain\n\nplain\n--a--\n",
			"plain", false, 0},
		{"inline text after the body is an attachment",
			"Content-Type: multipart/mixed; boundary=m\n\n--m\nContent-Type: text/plain\n\nfirst\n--m\nContent-Type: text/plain\n\nsecond\n--m--\n",
			"first", false, 1},
		{"a named text part is an attachment even first",
			"Content-Type: multipart/mixed; boundary=m\n\n--m\nContent-Type: text/plain; name=orders.txt\n\nfile\n--m\nContent-Type: text/plain\n\nbody\n--m--\n",
			"body", false, 1},
		{"html only", "Content-Type: text/html\n\n<p>a &amp; b</p>", "", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.raw), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != c.text || m.HTMLOnly != c.html || len(m.Attachments) != c.attachments {
				t.Errorf("Text %q HTMLOnly %v attachments %+v; want %q %v %d", m.Text, m.HTMLOnly, m.Attachments, c.text, c.html, c.attachments)
			}
		})
	}
}

func TestParseFilenames(t *testing.T) {
	raw := "Content-Type: multipart/mixed; boundary=m\n\n--m\n\nbody\n" +
		"--m\nContent-Disposition: attachment; filename=\"../../etc/passwd\"\n\nx\n" +
		"--m\nContent-Disposition: attachment; filename*=UTF-8''Befehle%20f%C3%BCr%20Zug%207.txt\n\nx\n" +
		"--m\nContent-Type: text/plain; name=\"=?utf-8?q?C:\\\\orders_=C3=A9.txt?=\"\n\nx\n" +
		"--m--\n"
	m, err := Parse([]byte(raw), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range m.Attachments {
		names = append(names, a.Filename)
	}
	if want := []string{"passwd", "Befehle für Zug 7.txt", "orders é.txt"}; fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("file names %q, want %q", names, want)
	}
}

func TestParseHeaderInjectionIsDefused(t *testing.T) {
	raw := "From: =?utf-8?q?Eve=0D=0ABcc=3A_all=40players=2Etest?= <eve@players.test>\n" +
		"Subject: =?utf-8?q?hi=0D=0ABcc=3A_all=40players=2Etest?=\n\nx"
	m, err := Parse([]byte(raw), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(m.Subject+m.From.Name, "\r\n") {
		t.Errorf("Subject %q From %q hold a line break", m.Subject, m.From.Name)
	}
}

func TestToUTF8(t *testing.T) {
	for _, c := range []struct {
		in, label, want string
		problem         bool
	}{
		{"caf\xc3\xa9", "utf-8", "café", false},
		{"caf\xe9", "utf-8", "café", true},
		{"caf\xe9", "", "café", true},
		{"caf\xe9", "ISO-8859-1", "café", false},
		// 0x80 is no letter in Latin-9 (golang.org/x/text reads it as U+FFFD);
		// 0xA4 is its euro sign, where Windows-1252 has it at 0x80.
		{"\x80 \xa4", "iso-8859-15", "\uFFFD €", false},
		{"\x80 \xa4", "windows-1252", "€ ¤", false},
		{"\x93q\x94", "cp1252", "“q”", false},
		{"caf\xc3\xa9", "latin1", "café", true},
		// Outlook's curly quotes under a Latin-1 label: read as Windows-1252,
		// as WHATWG says and mail readers do.
		{"\x93Ost\x94 \x96 caf\xe9", "iso-8859-1", "“Ost” – café", false},
		{"\x80 \xa4", "Latin-9", "\uFFFD €", false}, // the IANA alias
		{"caf\xe9", "US-ASCII", "café", true},
		{"\xf0\xd2\xc9\xcb\xc1\xda", "koi8-r", "Приказ", false}, // through go-message's charset package
		{"plain", "x-unknown", "plain", false},
		{"caf\xe9", "x-unknown", "café", true},
	} {
		got, problem := toUTF8([]byte(c.in), c.label, "the text")
		if got != c.want || (problem != "") != c.problem {
			t.Errorf("toUTF8(%q, %q) = %q, %q; want %q, problem %v", c.in, c.label, got, problem, c.want, c.problem)
		}
		if !utf8.ValidString(got) {
			t.Errorf("toUTF8(%q, %q) is not UTF-8", c.in, c.label)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"<p>a</p><p>b</p>", "a\n\nb"},
		{"x<br>y<BR/>z", "x\ny\nz"},
		{"<head><title>t</title></head><script>alert(1)</script><STYLE>p{}</STYLE>body", "body"},
		{"a <!-- hidden --> b &lt;c&gt; &amp;&nbsp;d", "a  b <c> & d"},
		{"<td>1</td><td>2</td>", "1 2"},
		{"unterminated <b", "unterminated <b"},
		{"<script>never closed", ""},
		// A tokenizer, not a search for '>': attributes may hold one.
		{`<a title="1>2" href='x'>link</a> <img alt=">">`, "link"},
		{"<p class=order>attack &#x31;708</p>", "attack 1708"},
	} {
		if got := htmlToText(c.in); got != c.want {
			t.Errorf("htmlToText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseDeliveryStatus(t *testing.T) {
	d := parseDeliveryStatus([]byte("Reporting-MTA: dns; mx.example\n\n\nFinal-Recipient: RFC822; <x@players.test>\nAction: Delivered\nStatus: 2.0.0\n\nFinal-Recipient: rfc822;y@players.test\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: X-Postfix; host said\n"))
	if d == nil || len(d.Recipients) != 2 || d.FinalRecipient != "y@players.test" || d.DiagnosticCode != "host said" ||
		d.Recipients[0].FinalRecipient != "x@players.test" || d.Recipients[0].Action != "delivered" || d.ReportingMTA != "mx.example" {
		t.Errorf("parseDeliveryStatus = %+v", d)
	}
	if d := parseDeliveryStatus([]byte("Reporting-MTA: dns; mx.example\n")); d != nil {
		t.Errorf("a report without recipients gave %+v", d)
	}
}

// TestParseNestedMessageCountsTowardLimits checks that parts inside an
// attached message count toward the same limits.
func TestParseNestedMessageCountsTowardLimits(t *testing.T) {
	inner := "Content-Type: multipart/mixed; boundary=i\n\n" + strings.Repeat("--i\n\np\n", 5) + "--i--\n"
	raw := "Content-Type: multipart/mixed; boundary=o\n\n--o\n\nbody\n--o\nContent-Type: message/rfc822\n\n" + inner + "\n--o--\n"
	if _, err := Parse([]byte(raw), Limits{MaxParts: 8}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Parse: %v, want the part limit to hold across the attached message", err)
	}
	if _, err := Parse([]byte(raw), Limits{MaxParts: 10}); err != nil {
		t.Errorf("Parse under the limit: %v", err)
	}
}

// TestParseSignedInsideMixed covers a PGP/MIME part that a mailing list
// wrapped in multipart/mixed to add a footer: the raw bytes come through
// go-message's multipart reader and must be the same.
func TestParseSignedInsideMixed(t *testing.T) {
	raw := "From: alice@players.test\nContent-Type: multipart/mixed; boundary=outer\n\n" +
		"--outer\nContent-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=inner\n\n" +
		"--inner\nContent-Type: text/plain\n\norders\n\n--inner\nContent-Type: application/pgp-signature\n\nSIG\n--inner--\n" +
		"\n--outer\nContent-Type: text/plain\n\n-- list footer\n--outer--\n"
	for _, c := range []struct{ name, raw string }{{"LF", raw}, {"CRLF", strings.ReplaceAll(raw, "\n", "\r\n")}} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse([]byte(c.raw), DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Signed == nil || string(m.Signed.Part) != "Content-Type: text/plain\r\n\r\norders\r\n" {
				t.Fatalf("Signed %+v", m.Signed)
			}
			if m.Text != "orders\n" || len(m.Attachments) != 1 || m.Attachments[0].Text() != "-- list footer" {
				t.Errorf("Text %q attachments %+v", m.Text, m.Attachments)
			}
		})
	}
}

// TestParseOtherCharsets: charsets beyond the Latin ones are converted too
// (a Polish player's ISO-8859-2 mail, a Russian one's KOI8-R).
func TestParseOtherCharsets(t *testing.T) {
	cases := []struct {
		charset string
		body    []byte
		want    string
	}{
		{"iso-8859-2", []byte{'P', 'o', 'z', 'n', 0xb1, 0xf1}, "Poznąń"},
		{"koi8-r", []byte{0xf0, 0xd2, 0xc9, 0xcb, 0xc1, 0xda}, "Приказ"},
	}
	for _, c := range cases {
		raw := append([]byte("From: p@players.test\r\nMessage-ID: <cs@players.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset="+c.charset+"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"), c.body...)
		m, err := Parse(append(raw, "\r\n"...), DefaultLimits())
		if err != nil {
			t.Fatalf("%s: %v", c.charset, err)
		}
		if strings.TrimSpace(m.Text) != c.want {
			t.Errorf("%s body = %q, want %q (problems %v)", c.charset, m.Text, c.want, m.Problems)
		}
	}
}
