package message

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/signature"
)

// signedReport is a report as the judge sends it: text, HTML, the map
// picture inline and a file attached, signed as PGP/MIME by key.
func signedReport(t *testing.T, key *signature.ServerKey, signedBytes *[]byte) Outgoing {
	t.Helper()
	o := receipt()
	o.Text = "Step 3 report.\nFrom the judge: the farm holds.\n- a dash line\n"
	o.HTML = "<p>Step 3 report.</p>\nFrom the judge: <b>the farm holds</b>.\n<img src=\"cid:map@umpire.test\">\n"
	o.Inline = []Part{{Filename: "map.png", ContentType: "image/png", ContentID: "map@umpire.test", Data: bytes.Repeat([]byte("\x89PNG\r\n\x1a\n\x00map"), 200)}}
	o.Attachments = []Part{{Filename: "judge.asc", ContentType: "application/pgp-keys", Data: []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n")}}
	o.Sign = func(entity []byte) ([]byte, error) {
		if signedBytes != nil {
			*signedBytes = bytes.Clone(entity)
		}
		return key.DetachSign(entity, o.Date)
	}
	return o
}

func serverKeyring(t *testing.T, key *signature.ServerKey) *signature.Keyring {
	t.Helper()
	r, err := signature.NewKeyring(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestComposePGPMIME: with Sign, the whole body (text, HTML, the picture,
// the attachment) is the signed part of a multipart/signed mail (RFC
// 3156): the judge's own PGP/MIME reader finds exactly the bytes that were
// signed, the signature verifies over them, every part reads back as
// given, the same mail composes to the same bytes, and a changed byte of
// the HTML or of the picture breaks the signature.
func TestComposePGPMIME(t *testing.T) {
	key, err := signature.GenerateServerKey("Umpire", "judge@umpire.test", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var signed []byte
	o := signedReport(t, key, &signed)
	raw := mustCompose(t, o)
	if ct := header(t, raw, "Content-Type"); !strings.HasPrefix(ct, "multipart/signed;") ||
		!strings.Contains(ct, `micalg=pgp-sha256`) || !strings.Contains(ct, `protocol="application/pgp-signature"`) {
		t.Errorf("Content-Type %q, want multipart/signed with micalg and protocol", ct)
	}
	m, err := Parse(raw, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if m.Signed == nil || m.Signed.Protocol != "application/pgp-signature" {
		t.Fatalf("no PGP/MIME part found: %+v", m.Signed)
	}
	if !bytes.Equal(m.Signed.Part, signed) {
		t.Fatalf("the signed part as read differs from the bytes signed:\nread   %q\nsigned %q", m.Signed.Part, signed)
	}
	if bytes.Contains(signed, []byte("\r\nFrom ")) || bytes.Contains(signed, []byte("Mime-Version")) {
		t.Errorf("the signed part has a line starting From, or a MIME-Version field:\n%s", signed)
	}
	v, err := signature.VerifyDetached(m.Signed.Part, m.Signed.Signature, serverKeyring(t, key))
	if err != nil || v.Fingerprint != key.Public().Fingerprint {
		t.Fatalf("the signature does not verify: %v", err)
	}
	in := m.Signed.Inner
	if in == nil || in.Text != o.Text || !bytes.Contains(signed, []byte("<b>the farm holds</b>")) {
		t.Fatalf("the signed part reads back as %+v", in)
	}
	if len(in.Attachments) != 2 || !bytes.Equal(in.Attachments[0].Data, o.Inline[0].Data) || !bytes.Equal(in.Attachments[1].Data, o.Attachments[0].Data) {
		t.Errorf("the picture or the attachment changed: %d parts", len(in.Attachments))
	}
	if again := mustCompose(t, signedReport(t, key, nil)); !bytes.Equal(again, raw) {
		t.Error("the same signed mail composed twice differs: a resent mail would not be the same")
	}
	for _, c := range []struct{ name, from, to string }{
		{"HTML", "<b>the farm holds</b>", "<b>the farm fell!</b>"},
		{"picture", "iVBORw0K", "iVBORw0L"},
	} {
		i := bytes.Index(raw, []byte(c.from))
		if i < 0 {
			t.Fatalf("%s: %q not in the mail", c.name, c.from)
		}
		bad := append(append(append([]byte{}, raw[:i]...), c.to...), raw[i+len(c.from):]...)
		bm, err := Parse(bad, DefaultLimits())
		if err != nil || bm.Signed == nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := signature.VerifyDetached(bm.Signed.Part, bm.Signed.Signature, serverKeyring(t, key)); err == nil {
			t.Errorf("a changed %s still verifies", c.name)
		}
	}
}

// BenchmarkComposePGPMIME composes a report of about 100 KB (text, HTML,
// an 80 KB picture) as the outbox does on every attempt: unsigned (the
// baseline), and signed whole as PGP/MIME. Run it with
//
//	go test -run '^$' -bench ComposePGPMIME ./mail/message
//
// and read the signed run's time as a ratio of the baseline's.
func BenchmarkComposePGPMIME(b *testing.B) {
	key, err := signature.GenerateServerKey("Umpire", "judge@umpire.test", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		b.Fatal(err)
	}
	o := receipt()
	o.Text = strings.Repeat("WHAT HAPPENED  1. Turn 2 of 6. R1 moves to 0104 and shoots at S1: 2 hits.\n", 120)
	o.HTML = strings.Repeat("<tr><td>R1</td><td>Russian squad</td><td>0104</td><td>7/7</td></tr>\n", 240)
	o.Inline = []Part{{Filename: "map.png", ContentType: "image/png", ContentID: "map@umpire.test", Data: bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 1, 2, 3, 250}, 10000)}}
	for _, c := range []struct {
		name string
		sign func([]byte) ([]byte, error)
	}{
		{"unsigned", nil},
		{"pgpmime", func(e []byte) ([]byte, error) { return key.DetachSign(e, o.Date) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			o := o
			o.Sign = c.sign
			for b.Loop() {
				raw, err := Compose(o)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(raw)))
			}
		})
	}
}
