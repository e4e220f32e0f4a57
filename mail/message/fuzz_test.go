package message

import (
	"bytes"
	"errors"
	"net/mail"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse feeds Parse hostile bytes, seeded with the corpus. Parse must
// not panic, must return a Message, must fail only with its documented
// errors, and whatever it returns must be safe to show and to quote.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.eml"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(signedMessage))
	f.Add(nestedMultipart(12))
	f.Add([]byte("Content-Type: message/rfc822\n\nContent-Type: message/rfc822\n\nFrom: a@b\n\nx"))
	f.Add([]byte("Content-Type: text/plain; charset=x\nContent-Transfer-Encoding: quoted-printable\n\n=\x00=ZZ=\n=4"))
	small := Limits{MaxMessage: 16 << 10, MaxAttachment: 1 << 10, MaxDepth: 3, MaxParts: 10}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, lim := range []Limits{DefaultLimits(), small} {
			m, err := Parse(raw, lim)
			checkParsed(t, raw, lim, m, err)
			again, err2 := Parse(raw, lim)
			if !reflect.DeepEqual(m, again) || (err == nil) != (err2 == nil) {
				t.Fatal("two parses of the same bytes differ")
			}
			Automatic(m, []string{"judge@umpire.test"})
		}
	})
}

// checkParsed checks what Parse must guarantee for any input.
func checkParsed(t *testing.T, raw []byte, lim Limits, m *Message, err error) {
	t.Helper()
	if m == nil {
		t.Fatal("nil Message")
	}
	if m.Size != len(raw) {
		t.Errorf("Size %d, want %d", m.Size, len(raw))
	}
	if err != nil {
		n := 0
		for _, s := range []error{ErrTooLarge, ErrTooDeep, ErrMalformed} {
			if errors.Is(err, s) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("error %v wraps %d sentinels, want 1", err, n)
		}
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("Parse panicked: %v", err)
		}
	}
	checkMessage(t, lim, m)
}

// checkMessage checks the fields of a parsed Message, and of the messages
// inside it.
func checkMessage(t *testing.T, lim Limits, m *Message) {
	t.Helper()
	for name, s := range map[string]string{"Text": m.Text, "HTMLText": m.HTMLText, "Subject": m.Subject, "From": m.From.String(), "MessageID": m.MessageID} {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			t.Fatalf("%s %q is not UTF-8 without NUL", name, s)
		}
	}
	for name, s := range map[string]string{"Subject": m.Subject, "From": m.From.String(), "MessageID": m.MessageID, "InReplyTo": m.InReplyTo} {
		if strings.ContainsFunc(s, isControl) {
			t.Fatalf("%s %q holds control characters", name, s)
		}
	}
	if len(m.Subject) > MaxSubject {
		t.Fatalf("Subject of %d bytes", len(m.Subject))
	}
	if len(m.Attachments) > lim.MaxParts {
		t.Fatalf("%d attachments, over the part limit", len(m.Attachments))
	}
	for _, a := range m.Attachments {
		if int64(len(a.Data)) > lim.MaxAttachment || strings.ContainsAny(a.Filename, "/\\\r\n\x00") {
			t.Fatalf("attachment %q of %d bytes", a.Filename, len(a.Data))
		}
	}
	if int64(len(m.RawText)) > lim.MaxAttachment {
		t.Fatalf("RawText of %d bytes", len(m.RawText))
	}
	if m.Signed != nil {
		if bytes.Contains(bytes.ReplaceAll(m.Signed.Part, []byte("\r\n"), nil), []byte("\n")) {
			t.Fatalf("Signed.Part %q has a bare LF", m.Signed.Part)
		}
		checkMessage(t, lim, m.Signed.Inner)
	}
	for _, p := range m.Problems {
		if p == "" || !utf8.ValidString(p) {
			t.Fatalf("problem %q", p)
		}
	}
	for _, f := range m.Forwarded {
		checkMessage(t, lim, f)
	}
}

// FuzzComposeRoundTrip composes mails from arbitrary text and parses them
// back: what the judge sends must arrive as it was meant.
func FuzzComposeRoundTrip(f *testing.F) {
	f.Add("Receipt: step 7", "Alice", "game: club-kosovo-3\nend\n", "", "orders.txt", []byte("x"))
	f.Add("Izveštaj — “7”", "Đorđe Petrović", "ž\r\nč\rć", "<p>x</p>", "../map ž.png", []byte{0, 0xff, '\r', '\n'})
	f.Add("=?utf-8?q?x?=", "=?utf-8?q?y?=", "=?x\n--umpire-mixed-\n.\n", "<b>", "", []byte(nil))
	f.Add(strings.Repeat("long", 300), "\"quoted\" \\ name", "\uFEFFbom\x00nul \xff", "", "a\x00b", []byte("--"))
	f.Add("press", "Bob", "From the front:\nFrom here\n", "From <b>here</b>\nFrom ", "", []byte(nil))
	f.Fuzz(func(t *testing.T, subject, name, text, html, filename string, data []byte) {
		o := Outgoing{
			From:      "Umpire <judge@umpire.test>",
			To:        []string{(&mail.Address{Name: name, Address: "alice@players.test"}).String()},
			Subject:   subject,
			MessageID: "umpire-out-1.x@umpire.test",
			Date:      time.Date(2025, 3, 3, 19, 0, 0, 0, time.UTC),
			Text:      text,
			HTML:      html,
		}
		if len(data) > 0 || filename != "" {
			o.Attachments = []Part{{Filename: filename, ContentType: "application/octet-stream", Data: data}}
		}
		raw, err := Compose(o)
		if err != nil {
			if strings.Contains(err.Error(), "the to address") {
				t.Skip("net/mail cannot read back its own formatting of this name")
			}
			t.Fatalf("Compose: %v", err)
		}
		if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
			t.Fatal("bare LF in the output")
		}
		m, err := Parse(raw, Limits{MaxMessage: 64 << 20, MaxAttachment: 64 << 20})
		if err != nil {
			t.Fatalf("Parse: %v\n%s", err, raw)
		}
		wantText := outgoingText(text)
		if wantText == "" && outgoingText(html) != "" {
			if !m.HTMLOnly || m.Text != "" {
				t.Fatalf("HTMLOnly %v Text %q", m.HTMLOnly, m.Text)
			}
		} else if m.Text != wantText {
			t.Fatalf("Text %q, want %q", m.Text, wantText)
		}
		if want := clip(sanitizeField(subject), MaxSubject); m.Subject != want {
			t.Fatalf("Subject %q, want %q", m.Subject, want)
		}
		if len(m.To) != 1 || m.To[0].Addr != "alice@players.test" || m.To[0].Name != sanitizeField(name) {
			t.Fatalf("To %+v, want name %q", m.To, sanitizeField(name))
		}
		if m.MessageID != o.MessageID {
			t.Fatalf("MessageID %q", m.MessageID)
		}
		if o.Attachments != nil {
			if len(m.Attachments) != 1 || !bytes.Equal(m.Attachments[0].Data, data) || m.Attachments[0].Filename != cleanFilename(filename) {
				t.Fatalf("attachments %+v, want %q named %q", m.Attachments, data, cleanFilename(filename))
			}
		} else if len(m.Attachments) != 0 {
			t.Fatalf("attachments %+v, want none", m.Attachments)
		}
		if _, auto := Automatic(m, nil); !auto {
			t.Fatal("a composed mail is not automatic")
		}
		// Signed whole as PGP/MIME, the same mail reads the same, and its
		// signed part is exactly the bytes that were signed.
		var signed []byte
		o.Sign = func(e []byte) ([]byte, error) {
			signed = bytes.Clone(e)
			return []byte("-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n"), nil
		}
		raw, err = Compose(o)
		if err != nil {
			t.Fatalf("Compose signed: %v", err)
		}
		sm, err := Parse(raw, Limits{MaxMessage: 64 << 20, MaxAttachment: 64 << 20})
		if err != nil || sm.Signed == nil {
			t.Fatalf("Parse signed: %v\n%s", err, raw)
		}
		if !bytes.Equal(sm.Signed.Part, signed) || bytes.Contains(signed, []byte("\r\nFrom ")) {
			t.Fatalf("the signed part read back is not the bytes signed, or has a line starting From:\n%q\n%q", sm.Signed.Part, signed)
		}
		if sm.Text != m.Text || len(sm.Attachments) != len(m.Attachments) {
			t.Fatalf("signed, the mail reads %q with %d attachments; unsigned %q with %d", sm.Text, len(sm.Attachments), m.Text, len(m.Attachments))
		}
	})
}

// FuzzUnflow: Unflow never panics, never grows the text, and is the
// identity on text without soft breaks, quote marks or leading blanks.
func FuzzUnflow(f *testing.F) {
	f.Add([]byte("a \r\nb\n> c \n>> d\n -- \n"), true)
	f.Add([]byte(" From x \n\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, delSp bool) {
		out := Unflow(in, delSp)
		if len(out) > len(in)+bytes.Count(in, []byte("\n"))*2+2 {
			t.Fatalf("Unflow grew %d bytes to %d", len(in), len(out))
		}
		plain := !bytes.Contains(in, []byte("\r"))
		for _, l := range strings.Split(string(in), "\n") {
			if strings.HasSuffix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, " ") {
				plain = false
			}
		}
		if plain && !bytes.Equal(out, in) {
			t.Fatalf("Unflow(%q) = %q, want it unchanged", in, out)
		}
	})
}

// FuzzHTMLLines: htmlLines never panics and returns valid text without
// tags' angle brackets unless the text held them as entities.
func FuzzHTMLLines(f *testing.F) {
	f.Add(`<div dir="ltr">a<br>b&nbsp; c<div><br></div><pre>x  y</pre></div>`)
	f.Add("<p>a\n b</p><script>x</script><br/>")
	f.Fuzz(func(t *testing.T, in string) {
		out := htmlLines(in)
		if !utf8.ValidString(out) && utf8.ValidString(in) {
			t.Fatalf("htmlLines(%q) = %q: not valid UTF-8", in, out)
		}
		if strings.HasSuffix(out, " ") || strings.HasPrefix(out, "\n") {
			t.Fatalf("htmlLines(%q) = %q: blanks at the end of a line or a leading empty line", in, out)
		}
	})
}
