package signature

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
	"time"
)

// sentinels are the errors every failure must wrap exactly one of.
var sentinels = []error{ErrNoSignature, ErrUnknownKey, ErrBadSignature, ErrWrongNamespace, ErrMalformed, ErrExpiredOrRevoked, ErrWeak}

// checkErr fails unless err wraps exactly one sentinel, and that is want.
func checkErr(t testing.TB, err, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %q does not wrap %q", err, want)
	}
	if n := countSentinels(err); n != 1 {
		t.Fatalf("error %q wraps %d sentinels, want 1", err, n)
	}
	var p panicError
	if errors.As(err, &p) {
		t.Fatalf("error %q comes from a recovered panic", err)
	}
}

func countSentinels(err error) int {
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	return n
}

// trimFinalNewline is the clear-signed text as Content gives it for a text
// without trailing blanks.
func trimFinalNewline(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\n")) }

func TestClearsignGood(t *testing.T) {
	g := needGPG(t)
	text := []byte("Game club-kosovo-3, turn 4\nMove 3/12 Inf from 0412 to 0513\nAttack 0514 with 3/12 Inf\n")
	for _, c := range []struct {
		name string
		key  pgpKey
	}{{"ed25519", fx.alice}, {"rsa3072", fx.bob}} {
		t.Run(c.name, func(t *testing.T) {
			before := time.Now().Add(-time.Minute)
			body := must(g.clearsign(c.key.fpr, text))(t)
			v, err := VerifyInline(body, fx.keys)
			if err != nil {
				t.Fatal(err)
			}
			if v.Kind != OpenPGP || v.Fingerprint != c.key.fpr {
				t.Errorf("got %s key %s, want openpgp key %s", v.Kind, v.Fingerprint, c.key.fpr)
			}
			if !bytes.Equal(v.Content, trimFinalNewline(text)) {
				t.Errorf("Content = %q, want %q", v.Content, trimFinalNewline(text))
			}
			if v.Created.Before(before) || v.Created.After(time.Now().Add(time.Minute)) {
				t.Errorf("Created = %v, want about now", v.Created)
			}
			// Signed is what the signature covers: gpg agrees when given it
			// with the signature on its own.
			sig := body[bytes.Index(body, []byte(pgpSignatureBegin)):]
			if err := g.verifyFile(sig, v.Signed); err != nil {
				t.Errorf("gpg does not verify the signature over Signed %q: %v", v.Signed, err)
			}
		})
	}
}

func TestDetachedGood(t *testing.T) {
	g := needGPG(t)
	content := []byte("Move 3/12 Inf from 0412 to 0513\r\nbinary \x00\xff bytes are fine too\n")
	for _, key := range []pgpKey{fx.alice, fx.bob} {
		for _, armored := range []bool{true, false} {
			sig := must(g.detachSign(key.fpr, content, armored))(t)
			if armored != bytes.HasPrefix(sig, []byte(pgpSignatureBegin)) {
				t.Fatalf("gpg gave %q for armored=%v", sig[:20], armored)
			}
			v, err := VerifyDetached(content, sig, fx.keys)
			if err != nil {
				t.Fatalf("key %s armored=%v: %v", key.fpr, armored, err)
			}
			if v.Kind != OpenPGP || v.Fingerprint != key.fpr {
				t.Errorf("got %s key %s, want openpgp key %s", v.Kind, v.Fingerprint, key.fpr)
			}
			if !bytes.Equal(v.Content, content) || !bytes.Equal(v.Signed, content) {
				t.Errorf("Content %q, Signed %q, want both %q", v.Content, v.Signed, content)
			}
		}
	}
}

func TestSigningSubkey(t *testing.T) {
	g := needGPG(t)
	text := []byte("Carol's orders\n")
	body := must(g.clearsign(fx.carol.sub, text))(t)
	v, err := VerifyInline(body, fx.keys)
	if err != nil {
		t.Fatal(err)
	}
	if v.Fingerprint != fx.carol.fpr {
		t.Errorf("Fingerprint = %s, want the primary key %s", v.Fingerprint, fx.carol.fpr)
	}
	sig := must(g.detachSign(fx.carol.sub, text, false))(t)
	if _, err := VerifyDetached(text, sig, fx.keys); err != nil {
		t.Fatal(err)
	}
	// Without Carol's key, the error names the subkey that signed.
	_, err = VerifyInline(body, must(NewKeyring())(t))
	checkErr(t, err, ErrUnknownKey)
	var uk *UnknownKeyError
	if !errors.As(err, &uk) || uk.Fingerprint != fx.carol.sub || uk.Kind != OpenPGP {
		t.Errorf("got %#v, want the subkey %s", uk, fx.carol.sub)
	}
}

func TestClearsignMailAround(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\n")
	signed := must(g.clearsign(fx.alice.fpr, text))(t)
	quoted := "On Monday the umpire wrote:\n> Turn 4 is open.\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n>\n> Move X to Y\n\n"
	footer := "\n-- \nSent from my phone\nGet the free newsletter at https://example.test/\n"
	body := append(append([]byte(quoted), signed...), footer...)
	v, err := VerifyInline(body, fx.keys)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v.Content, trimFinalNewline(text)) {
		t.Errorf("Content = %q, want only the signed text %q", v.Content, trimFinalNewline(text))
	}
	plain := must(VerifyInline(signed, fx.keys))(t)
	if !bytes.Equal(v.Signed, plain.Signed) {
		t.Errorf("text around the block changed Signed: %q vs %q", v.Signed, plain.Signed)
	}
}

func TestDashEscaping(t *testing.T) {
	g := needGPG(t)
	text := []byte("- not a list item\n-- two dashes\n-----BEGIN PGP SIGNATURE-----\nFrom the north, 4 units\nplain\n-\n")
	body := must(g.clearsign(fx.alice.fpr, text))(t)
	if !bytes.Contains(body, []byte("\n- - not a list item\n")) || !bytes.Contains(body, []byte("\n- -----BEGIN PGP SIGNATURE-----\n")) {
		t.Fatalf("gpg did not dash-escape the text:\n%s", body)
	}
	v, err := VerifyInline(body, fx.keys)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v.Content, trimFinalNewline(text)) {
		t.Errorf("Content = %q, want %q", v.Content, trimFinalNewline(text))
	}
}

func TestClearsignLineEndings(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\nMove C to D\n\nEnd of orders\n")
	lf := must(g.clearsign(fx.alice.fpr, text))(t)
	crlf := CanonicalCRLF(lf)
	if bytes.Equal(lf, crlf) {
		t.Fatal("gpg gave CRLF already")
	}
	trailing := bytes.ReplaceAll(lf, []byte("\n"), []byte(" \t\n")) // a transport that pads lines
	vLF := must(VerifyInline(lf, fx.keys))(t)
	for name, body := range map[string][]byte{"crlf": crlf, "trailing blanks": trailing} {
		v, err := VerifyInline(body, fx.keys)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sha256.Sum256(v.Signed) != sha256.Sum256(vLF.Signed) || !bytes.Equal(v.Content, vLF.Content) {
			t.Errorf("%s: Signed %q Content %q, want as with LF: %q %q", name, v.Signed, v.Content, vLF.Signed, vLF.Content)
		}
	}
	// And a text signed on a CRLF system verifies delivered with LF.
	body := must(g.clearsign(fx.alice.fpr, CanonicalCRLF(text)))(t)
	if v, err := VerifyInline(toLF(body), fx.keys); err != nil {
		t.Fatal(err)
	} else if !bytes.Equal(v.Signed, vLF.Signed) {
		t.Errorf("CRLF-signed text: Signed %q, want %q", v.Signed, vLF.Signed)
	}
}

func TestPGPMIMECanonicalCRLF(t *testing.T) {
	g := needGPG(t)
	part := []byte("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 7bit\n\nMove A to B\n")
	// A PGP/MIME client signs the part in canonical CRLF form.
	sig := must(g.detachSign(fx.alice.fpr, CanonicalCRLF(part), true))(t)
	for name, given := range map[string][]byte{"crlf": CanonicalCRLF(part), "lf": part} {
		v, err := VerifyDetached(given, sig, fx.keys)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(v.Signed, CanonicalCRLF(part)) || !bytes.Equal(v.Content, given) {
			t.Errorf("%s: Signed %q Content %q", name, v.Signed, v.Content)
		}
	}
	// A file signed with LF and delivered with CRLF verifies too.
	sig = must(g.detachSign(fx.alice.fpr, part, false))(t)
	v, err := VerifyDetached(CanonicalCRLF(part), sig, fx.keys)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v.Signed, part) {
		t.Errorf("Signed %q, want the LF form %q", v.Signed, part)
	}
}

func TestPGPForged(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\n")
	for _, key := range []pgpKey{fx.alice, fx.bob} {
		body := must(g.clearsign(key.fpr, text))(t)
		_, err := VerifyInline(forgePGPArmor(t, body), fx.keys)
		checkErr(t, err, ErrBadSignature)

		asc := must(g.detachSign(key.fpr, text, true))(t)
		_, err = VerifyDetached(text, forgePGPArmor(t, asc), fx.keys)
		checkErr(t, err, ErrBadSignature)

		bin := must(g.detachSign(key.fpr, text, false))(t)
		bin[len(bin)-1] ^= 0x01
		_, err = VerifyDetached(text, bin, fx.keys)
		checkErr(t, err, ErrBadSignature)
	}
}

func TestPGPChangedText(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move 3/12 Inf from 0412 to 0513\n")
	changed := []byte("Move 3/12 Inf from 0412 to 0514\n")
	body := must(g.clearsign(fx.alice.fpr, text))(t)
	_, err := VerifyInline(bytes.Replace(body, []byte("0513"), []byte("0514"), 1), fx.keys)
	checkErr(t, err, ErrBadSignature)
	if !strings.Contains(err.Error(), fx.alice.fpr) {
		t.Errorf("error %q does not name the key", err)
	}
	for _, armored := range []bool{true, false} {
		sig := must(g.detachSign(fx.bob.fpr, text, armored))(t)
		_, err := VerifyDetached(changed, sig, fx.keys)
		checkErr(t, err, ErrBadSignature)
	}
}

func TestPGPUnknownKey(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\n")
	body := must(g.clearsign(fx.mallory.fpr, text))(t)
	sig := must(g.detachSign(fx.mallory.fpr, text, false))(t)
	_, err1 := VerifyInline(body, fx.keys)
	_, err2 := VerifyDetached(text, sig, fx.keys)
	for _, err := range []error{err1, err2} {
		checkErr(t, err, ErrUnknownKey)
		var uk *UnknownKeyError
		if !errors.As(err, &uk) || uk.Kind != OpenPGP || uk.Fingerprint != fx.mallory.fpr {
			t.Errorf("got %#v, want openpgp key %s", uk, fx.mallory.fpr)
		}
		if !strings.Contains(err.Error(), fx.mallory.fpr) {
			t.Errorf("error %q does not name the key", err)
		}
	}
}

func TestPGPExpiredAndRevoked(t *testing.T) {
	needGPG(t)
	for name, body := range map[string][]byte{"expired": fx.oldClear, "revoked": fx.rexClear} {
		_, err := VerifyInline(body, fx.keys)
		checkErr(t, err, ErrExpiredOrRevoked)
		t.Logf("%s: %v", name, err)
	}
}

func TestPGPMessageRefused(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\n")
	encrypted := must(g.run(text, "--symmetric", "--armor", "--passphrase", "secret"))(t)
	opaque := must(g.run(text, "--local-user", fx.alice.fpr+"!", "--sign", "--armor"))(t)
	for _, c := range []struct {
		name, msg string
		data      []byte
	}{{"encrypted", "encrypted", encrypted}, {"gpg --sign", "--clearsign", opaque}} {
		_, err := VerifyInline(append([]byte("Here are my orders:\n"), c.data...), fx.keys)
		checkErr(t, err, ErrNoSignature)
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.msg)
		}
		_, err = VerifyDetached(text, c.data, fx.keys)
		checkErr(t, err, ErrNoSignature)
		if kind, ok := Detect(c.data); !ok || kind != OpenPGP {
			t.Errorf("%s: Detect = %v %v, want openpgp", c.name, kind, ok)
		}
	}
	// A clear-signed message given as a detached signature.
	body := must(g.clearsign(fx.alice.fpr, text))(t)
	_, err := VerifyDetached(text, body, fx.keys)
	checkErr(t, err, ErrNoSignature)
}

func TestPGPMalformed(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\n")
	asc := must(g.detachSign(fx.alice.fpr, text, true))(t)
	body := must(g.clearsign(fx.alice.fpr, text))(t)
	lines := strings.Split(string(asc), "\n")
	// Lines: BEGIN, blank, base64..., =CRC, END, "".
	truncatedB64 := strings.Join(append(append([]string{}, lines[:2]...), lines[2][:len(lines[2])-5], lines[len(lines)-2], ""), "\n")
	droppedLines := strings.Join(append(append([]string{}, lines[:3]...), lines[len(lines)-2:]...), "\n")
	bin := must(g.detachSign(fx.alice.fpr, text, false))(t)
	for name, sig := range map[string][]byte{
		"truncated base64": []byte(truncatedB64),
		"dropped lines":    []byte(droppedLines),
		"garbage armor":    []byte("-----BEGIN PGP SIGNATURE-----\n\n!!! this is not base64 !!!\n-----END PGP SIGNATURE-----\n"),
		"no blank line":    bytes.Replace(asc, []byte("-----\n\n"), []byte("-----\n"), 1),
		"no END line":      asc[:len(asc)-30],
		"truncated binary": bin[:len(bin)/2],
		"not a signature":  []byte("hello, umpire"),
	} {
		_, err := VerifyDetached(text, sig, fx.keys)
		checkErr(t, err, ErrMalformed)
		t.Logf("%s: %v", name, err)
	}
	clearCut := body[:bytes.Index(body, []byte("-----END"))]
	sigAt := bytes.Index(body, []byte(pgpSignatureBegin))
	b64Line := bytes.SplitN(body[sigAt:], []byte("\n"), 4)[2] // after BEGIN and the blank line
	for name, b := range map[string][]byte{
		"no END line":      clearCut,
		"garbage armor":    append(append([]byte{}, body[:sigAt]...), "-----BEGIN PGP SIGNATURE-----\n\n!!!\n-----END PGP SIGNATURE-----\n"...),
		"truncated base64": bytes.Replace(body, b64Line, b64Line[:len(b64Line)-5], 1),
	} {
		_, err := VerifyInline(b, fx.keys)
		checkErr(t, err, ErrMalformed)
		t.Logf("inline %s: %v", name, err)
	}
}

func TestDigestStable(t *testing.T) {
	g := needGPG(t)
	text := []byte("Move A to B\nMove C to D\n")
	body := must(g.clearsign(fx.alice.fpr, text))(t)
	a := must(VerifyInline(body, fx.keys))(t)
	b := must(VerifyInline(append([]byte{}, body...), fx.keys))(t)
	if sha256.Sum256(a.Signed) != sha256.Sum256(b.Signed) {
		t.Errorf("the digest of the same body changed: %q vs %q", a.Signed, b.Signed)
	}
	// Two signatures over the same text (made at different times) give the
	// same digest: it depends on the text, not on the signature.
	time.Sleep(1100 * time.Millisecond)
	body2 := must(g.clearsign(fx.alice.fpr, text))(t)
	if bytes.Equal(body, body2) {
		t.Fatal("gpg made the same signature twice")
	}
	c := must(VerifyInline(body2, fx.keys))(t)
	if sha256.Sum256(a.Signed) != sha256.Sum256(c.Signed) {
		t.Errorf("the digest of a re-signed text changed: %q vs %q", a.Signed, c.Signed)
	}
	sig := must(g.detachSign(fx.alice.fpr, text, false))(t)
	d1 := must(VerifyDetached(text, sig, fx.keys))(t)
	d2 := must(VerifyDetached(text, sig, fx.keys))(t)
	if sha256.Sum256(d1.Signed) != sha256.Sum256(d2.Signed) || sha256.Sum256(d1.Signed) != sha256.Sum256(text) {
		t.Errorf("detached digest is not that of the content")
	}
}
