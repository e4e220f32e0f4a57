package signature

import (
	"bytes"
	"testing"
)

func TestCanonicalCRLF(t *testing.T) {
	for in, want := range map[string]string{
		"":               "",
		"a":              "a",
		"a\n":            "a\r\n",
		"\n\n":           "\r\n\r\n",
		"a\r\nb\n":       "a\r\nb\r\n",
		"a\rb\n":         "a\rb\r\n",
		"a\r\r\nb":       "a\r\r\nb",
		"no final\nline": "no final\r\nline",
	} {
		if got := CanonicalCRLF([]byte(in)); string(got) != want {
			t.Errorf("CanonicalCRLF(%q) = %q, want %q", in, got, want)
		}
		// It is idempotent.
		once := CanonicalCRLF([]byte(in))
		if twice := CanonicalCRLF(once); !bytes.Equal(once, twice) {
			t.Errorf("CanonicalCRLF is not idempotent on %q", in)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		kind Kind
		ok   bool
	}{
		{"empty", "", "", false},
		{"plain", "Move A to B\n", "", false},
		{"clearsigned", "hi\n" + clearsignBegin + "\nHash: SHA256\n\nx\n", OpenPGP, true},
		{"clearsigned indented", "  " + clearsignBegin + "\n", "", false},
		{"quoted clearsigned", "> " + clearsignBegin + "\n> x\n", "", false},
		{"ssh", "orders\n" + sshBegin + "\nAAAA\n" + sshEnd + "\n", SSH, true},
		{"ssh after text on its line", "orders" + sshBegin + "\n", SSH, true},
		{"quoted ssh", "new text\n > " + sshBegin + "\n", "", false},
		{"pgp message", pgpMessageBegin + "\n", OpenPGP, true},
		{"pgp signature", "x\n" + pgpSignatureBegin + "\n", OpenPGP, true},
		{"ssh before clearsigned", sshBegin + "\n" + clearsignBegin + "\n", SSH, true},
		{"clearsigned before ssh", clearsignBegin + "\n" + sshBegin + "\n", OpenPGP, true},
	} {
		kind, ok := Detect([]byte(c.body))
		if kind != c.kind || ok != c.ok {
			t.Errorf("%s: Detect = %q %v, want %q %v", c.name, kind, ok, c.kind, c.ok)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	keys, err := NewKeyring()
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"", "\n", "Move A to B\n", "> " + sshBegin + "\n"} {
		_, err := VerifyInline([]byte(body), keys)
		checkErr(t, err, ErrNoSignature)
	}
	for _, sig := range []string{"", " \r\n"} {
		_, err := VerifyDetached([]byte("Move A to B\n"), []byte(sig), keys)
		checkErr(t, err, ErrNoSignature)
	}
	_, err = VerifyDetached(nil, nil, keys)
	checkErr(t, err, ErrNoSignature)
}

func TestEmptyContent(t *testing.T) {
	s := needSSH(t)
	g := needGPG(t)
	sshSig := must(s.sign(fx.sshKeys["ed25519"], Namespace, nil))(t)
	pgpSig := must(g.detachSign(fx.alice.fpr, nil, false))(t)
	for _, sig := range [][]byte{sshSig, pgpSig} {
		v, err := VerifyDetached(nil, sig, fx.keys)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Signed) != 0 {
			t.Errorf("Signed = %q, want empty", v.Signed)
		}
		_, err = VerifyDetached([]byte("x"), sig, fx.keys)
		checkErr(t, err, ErrBadSignature)
	}
}

func TestInlineCandidatesBounded(t *testing.T) {
	text := bytes.Repeat([]byte("line\n"), 10*maxTailLines)
	if n := len(inlineCandidates(text)); n > 3*(maxTailLines+1) {
		t.Errorf("%d candidates for a long text, want at most %d", n, 3*(maxTailLines+1))
	}
	huge := bytes.Repeat([]byte("x\n"), maxTailText)
	if n, want := len(inlineCandidates(huge)), len(lineEndingVariants(huge)); n != want {
		t.Errorf("%d candidates for a huge text, want only its %d line-ending variants", n, want)
	}
}
