package message

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// receipt is a typical outgoing mail.
func receipt() Outgoing {
	return Outgoing{
		From:       "Umpire <judge@umpire.test>",
		To:         []string{"Alice <alice@players.test>"},
		Subject:    "Receipt: club-kosovo-3 step 7 NATO",
		MessageID:  "umpire-out-7.abc@umpire.test",
		InReplyTo:  "a1@players.test",
		References: []string{"a0@players.test", "<a1@players.test>"},
		Date:       time.Date(2025, 3, 3, 19, 13, 0, 0, time.FixedZone("CET", 3600)),
		Text:       "Orders received.\n\n  attack 1708 from 1607 1709 with US-1AD US-3ID\n\nSHA-256 9f2c...\n",
	}
}

// mustCompose composes o and fails the test on an error.
func mustCompose(t *testing.T, o Outgoing) []byte {
	t.Helper()
	raw, err := Compose(o)
	if err != nil {
		t.Fatalf("Compose: %v", err)
	}
	if i := bytes.IndexByte(bytes.ReplaceAll(raw, []byte("\r\n"), nil), '\n'); i >= 0 {
		t.Fatalf("Compose output has a bare LF near %q", raw[max(0, i-20):min(len(raw), i+20)])
	}
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\r")) {
		t.Fatal("Compose output has a bare CR")
	}
	return raw
}

// header returns the unfolded value of a header field of raw.
func header(t *testing.T, raw []byte, key string) string {
	t.Helper()
	m, err := Parse(raw, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(m.Header[key], "|")
}

func TestComposeTextOnlyIsOnePart(t *testing.T) {
	raw := mustCompose(t, receipt())
	if got := header(t, raw, "Content-Type"); got != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q, want a single text/plain entity", got)
	}
	for key, want := range map[string]string{
		"Auto-Submitted":            "auto-replied",
		"Mime-Version":              "1.0",
		"Message-Id":                "<umpire-out-7.abc@umpire.test>",
		"In-Reply-To":               "<a1@players.test>",
		"References":                "<a0@players.test> <a1@players.test>",
		"Date":                      "Mon, 03 Mar 2025 19:13:00 +0100",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := header(t, raw, key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if !bytes.HasSuffix(raw, []byte("SHA-256 9f2c...\r\n")) {
		t.Errorf("body does not end as the text does: %q", raw[len(raw)-30:])
	}
}

func TestComposeStructure(t *testing.T) {
	png := Part{Filename: "map.png", ContentType: "image/png", ContentID: "map@umpire.test", Data: []byte("\x89PNG\r\n\x1a\n\x00")}
	log := Part{Filename: "club-kosovo-3-log.json", Data: []byte(`{"head":"ab"}`)}
	for _, c := range []struct {
		name string
		edit func(*Outgoing)
		want string // the root Content-Type's media type
	}{
		{"html and text", func(o *Outgoing) { o.HTML = "<p>Orders received.</p>" }, "multipart/alternative"},
		{"html only", func(o *Outgoing) { o.Text, o.HTML = "", "<p>x</p>" }, "text/html"},
		{"inline image", func(o *Outgoing) { o.HTML, o.Inline = `<img src="cid:map@umpire.test">`, []Part{png} }, "multipart/related"},
		{"attachment", func(o *Outgoing) { o.Attachments = []Part{log} }, "multipart/mixed"},
		{"everything", func(o *Outgoing) {
			o.HTML, o.Inline, o.Attachments = "<img src=\"cid:map@umpire.test\">", []Part{png}, []Part{log}
		}, "multipart/mixed"},
		{"attachment without text", func(o *Outgoing) { o.Text, o.Attachments = "", []Part{log} }, "multipart/mixed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := receipt()
			c.edit(&o)
			raw := mustCompose(t, o)
			if got := header(t, raw, "Content-Type"); !strings.HasPrefix(got, c.want) {
				t.Errorf("Content-Type %q, want %s", got, c.want)
			}
			m, err := Parse(raw, DefaultLimits())
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != o.Text {
				t.Errorf("Text %q, want %q", m.Text, o.Text)
			}
			if (o.Text == "" && o.HTML != "") != m.HTMLOnly {
				t.Errorf("HTMLOnly %v", m.HTMLOnly)
			}
			want := append(append([]Part{}, o.Inline...), o.Attachments...)
			if len(m.Attachments) != len(want) {
				t.Fatalf("attachments %+v, want %d", m.Attachments, len(want))
			}
			for i, p := range want {
				a := m.Attachments[i]
				if a.Filename != p.Filename || a.ContentID != p.ContentID || !bytes.Equal(a.Data, p.Data) {
					t.Errorf("attachment %d: %+v, want %+v", i, a, p)
				}
			}
			if strings.Contains(o.HTML, "cid:") && !bytes.Contains(raw, []byte(`type="multipart/alternative"`)) && o.Text != "" {
				t.Error("multipart/related lacks its type parameter (RFC 2387)")
			}
		})
	}
}

func TestComposeEncodesNonASCIIHeaders(t *testing.T) {
	o := receipt()
	o.To = []string{"Đorđe Petrović <djordje@players.test>"}
	o.Subject = "Izveštaj: korak 7 — “Srbija”"
	raw := mustCompose(t, o)
	head := raw[:bytes.Index(raw, []byte("\r\n\r\n"))]
	for _, b := range head {
		if b >= 0x80 {
			t.Fatalf("the header holds 8-bit bytes:\n%s", head)
		}
	}
	m, err := Parse(raw, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != o.Subject || len(m.To) != 1 || m.To[0] != (Address{"Đorđe Petrović", "djordje@players.test"}) {
		t.Errorf("Subject %q To %+v", m.Subject, m.To)
	}
}

// TestComposeHeaderTextArrivesExactly covers subjects a reader would
// decode or that have words too long to fold.
func TestComposeHeaderTextArrivesExactly(t *testing.T) {
	for _, s := range []string{
		"=?utf-8?q?not_an_encoded_word?=",
		strings.Repeat("x", 2000),
		"a " + strings.Repeat("ž", 300) + " b",
	} {
		o := receipt()
		o.Subject = s
		m, err := Parse(mustCompose(t, o), DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if want := clip(s, MaxSubject); m.Subject != want {
			t.Errorf("Subject %q, want %q", clip(m.Subject, 80), clip(want, 80))
		}
	}
}

func TestComposeHeaders(t *testing.T) {
	o := receipt()
	o.Headers = map[string]string{"Auto-Submitted": "auto-generated", "X-Umpire-Game": "club-kosovo-3", "X-Auto-Response-Suppress": ""}
	raw := mustCompose(t, o)
	if got := header(t, raw, "Auto-Submitted"); got != "auto-generated" {
		t.Errorf("Auto-Submitted %q, want the override", got)
	}
	if got := header(t, raw, "X-Umpire-Game"); got != "club-kosovo-3" {
		t.Errorf("X-Umpire-Game %q", got)
	}
	if got := header(t, raw, "X-Auto-Response-Suppress"); got != "" {
		t.Errorf("X-Auto-Response-Suppress %q, want it removed", got)
	}
}

func TestComposeIsDeterministic(t *testing.T) {
	o := receipt()
	o.HTML = "<p>x</p>"
	o.Attachments = []Part{{Filename: "a.txt", Data: []byte("a")}}
	a, b := mustCompose(t, o), mustCompose(t, o)
	if !bytes.Equal(a, b) {
		t.Error("the same Outgoing gave different bytes")
	}
	o.MessageID = ""
	c := mustCompose(t, o)
	m, err := Parse(c, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.MessageID, "umpire.") || !strings.HasSuffix(m.MessageID, "@umpire.test") {
		t.Errorf("generated Message-ID %q", m.MessageID)
	}
}

func TestComposeRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Outgoing)
		want string
	}{
		{"no date", func(o *Outgoing) { o.Date = time.Time{} }, "date"},
		{"bad from", func(o *Outgoing) { o.From = "judge at umpire" }, "from address"},
		{"bad to", func(o *Outgoing) { o.To = []string{"alice@players.test\r\nBcc: x@y"} }, "to address"},
		{"no recipient", func(o *Outgoing) { o.To = nil }, "no recipient"},
		{"message id with a line break", func(o *Outgoing) { o.MessageID = "a\r\nBcc: x@y" }, "message id"},
		{"header injection", func(o *Outgoing) { o.Headers = map[string]string{"X-A": "a\r\nBcc: x@y"} }, "line break"},
		{"structural header", func(o *Outgoing) { o.Headers = map[string]string{"Content-Type": "text/html"} }, "set by Compose"},
		{"from in Headers", func(o *Outgoing) { o.Headers = map[string]string{"from": "x@y"} }, "set by Compose"},
		{"bad header name", func(o *Outgoing) { o.Headers = map[string]string{"X A": "b"} }, "not a header field name"},
		{"multipart part", func(o *Outgoing) { o.Attachments = []Part{{Filename: "x", ContentType: "multipart/mixed; boundary=x"}} }, "cannot be of type"},
		{"inline without content id", func(o *Outgoing) { o.Inline = []Part{{Filename: "map.png"}} }, "content id"},
		{"latin1 text attachment", func(o *Outgoing) {
			o.Attachments = []Part{{Filename: "x.txt", ContentType: "text/plain; charset=iso-8859-1"}}
		}, "charset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := receipt()
			c.edit(&o)
			_, err := Compose(o)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "compose: ") {
				t.Errorf("Compose: %v, want an error about %q", err, c.want)
			}
		})
	}
}

// TestComposedMailIsAutomatic checks the loop guard end to end: the
// judge's own mail, read back, is never answered.
func TestComposedMailIsAutomatic(t *testing.T) {
	m, err := Parse(mustCompose(t, receipt()), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if _, auto := Automatic(m, ourAddresses); !auto {
		t.Error("the judge's own mail is not automatic")
	}
	if _, auto := Automatic(m, nil); !auto {
		t.Error("the judge's mail is not automatic for another judge (Auto-Submitted)")
	}
}
