package signature

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"sort"
	"strings"
	"testing"
)

// sshKeyNames lists fx.sshKeys in a fixed order.
func sshKeyNames() []string {
	names := make([]string, 0, len(fx.sshKeys))
	for n := range fx.sshKeys {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestSSHDetachedGood(t *testing.T) {
	s := needSSH(t)
	content := []byte("Game club-kosovo-3, turn 4\nMove 3/12 Inf from 0412 to 0513\n")
	for _, name := range sshKeyNames() {
		t.Run(name, func(t *testing.T) {
			k := fx.sshKeys[name]
			sig := must(s.sign(k, Namespace, content))(t)
			v, err := VerifyDetached(content, sig, fx.keys)
			if err != nil {
				t.Fatal(err)
			}
			if v.Kind != SSH || v.Fingerprint != k.fpr {
				t.Errorf("got %s key %s, want ssh key %s (ssh-keygen -lf)", v.Kind, v.Fingerprint, k.fpr)
			}
			if !bytes.Equal(v.Content, content) || !bytes.Equal(v.Signed, content) {
				t.Errorf("Content %q Signed %q, want %q", v.Content, v.Signed, content)
			}
			if !v.Created.IsZero() {
				t.Errorf("Created = %v for an SSH signature, which has no time", v.Created)
			}
		})
	}
}

func TestSSHInline(t *testing.T) {
	s := needSSH(t)
	k := fx.sshKeys["ed25519"]
	orders := []byte("Move 3/12 Inf from 0412 to 0513\nAttack 0514\n")
	sig := must(s.sign(k, Namespace, orders))(t)
	catted := append(append([]byte{}, orders...), sig...) // cat orders.txt orders.txt.sig
	noNewline := []byte("Move A to B")
	sigNoNewline := must(s.sign(k, Namespace, noNewline))(t)
	crlfSig := must(s.sign(k, Namespace, CanonicalCRLF(orders)))(t)
	for _, c := range []struct {
		name   string
		body   []byte
		signed []byte
	}{
		{"cat", catted, orders},
		{"footer after", append(append([]byte{}, catted...), "\n-- \nSent from my phone\n"...), orders},
		{"greeting before", append([]byte("Hello umpire,\nhere are my orders:\n\n"), catted...), orders},
		{"crlf transport", CanonicalCRLF(catted), orders},
		{"crlf transport and greeting", CanonicalCRLF(append([]byte("Hi,\n"), catted...)), orders},
		{"no final newline", append(append([]byte{}, noNewline...), sigNoNewline...), noNewline},
		{"signed crlf, delivered lf", toLF(append(CanonicalCRLF(orders), crlfSig...)), CanonicalCRLF(orders)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if kind, ok := Detect(c.body); !ok || kind != SSH {
				t.Errorf("Detect = %v %v, want ssh", kind, ok)
			}
			v, err := VerifyInline(c.body, fx.keys)
			if err != nil {
				t.Fatal(err)
			}
			if v.Kind != SSH || v.Fingerprint != k.fpr {
				t.Errorf("got %s key %s, want ssh key %s", v.Kind, v.Fingerprint, k.fpr)
			}
			if !bytes.Equal(v.Signed, c.signed) || !bytes.Equal(v.Content, c.signed) {
				t.Errorf("Signed %q Content %q, want %q", v.Signed, v.Content, c.signed)
			}
			// OpenSSH agrees that the signature covers Signed.
			block := c.body[bytes.Index(c.body, []byte(sshBegin)) : bytes.Index(c.body, []byte(sshEnd))+len(sshEnd)]
			if err := s.checkNoValidate(append(toLF(block), '\n'), v.Signed); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestOpenPGPInlineDetached(t *testing.T) {
	g := needGPG(t)
	orders := []byte("Move A to B\n")
	asc := must(g.detachSign(fx.alice.fpr, orders, true))(t)
	body := append(append([]byte("Hi umpire,\n"), orders...), asc...) // cat orders.txt orders.txt.asc
	v, err := VerifyInline(body, fx.keys)
	if err != nil {
		t.Fatal(err)
	}
	if v.Fingerprint != fx.alice.fpr || !bytes.Equal(v.Signed, orders) {
		t.Errorf("got key %s Signed %q", v.Fingerprint, v.Signed)
	}
}

func TestSSHForged(t *testing.T) {
	s := needSSH(t)
	content := []byte("Move A to B\n")
	for _, name := range sshKeyNames() {
		sig := must(s.sign(fx.sshKeys[name], Namespace, content))(t)
		forged := forgeSSHArmor(t, sig)
		_, err := VerifyDetached(content, forged, fx.keys)
		checkErr(t, err, ErrBadSignature)
		_, err = VerifyInline(append(append([]byte{}, content...), forged...), fx.keys)
		checkErr(t, err, ErrBadSignature)
	}
}

func TestSSHChangedText(t *testing.T) {
	s := needSSH(t)
	content := []byte("Move 3/12 Inf from 0412 to 0513\n")
	changed := []byte("Move 3/12 Inf from 0412 to 0514\n")
	for _, name := range sshKeyNames() {
		k := fx.sshKeys[name]
		sig := must(s.sign(k, Namespace, content))(t)
		_, err := VerifyDetached(changed, sig, fx.keys)
		checkErr(t, err, ErrBadSignature)
		if !strings.Contains(err.Error(), k.fpr) {
			t.Errorf("error %q does not name the key", err)
		}
		_, err = VerifyInline(append(append([]byte{}, changed...), sig...), fx.keys)
		checkErr(t, err, ErrBadSignature)
	}
}

func TestSSHUnknownKey(t *testing.T) {
	s := needSSH(t)
	content := []byte("Move A to B\n")
	sig := must(s.sign(fx.stranger, Namespace, content))(t)
	_, err1 := VerifyDetached(content, sig, fx.keys)
	_, err2 := VerifyInline(append(append([]byte{}, content...), sig...), fx.keys)
	for _, err := range []error{err1, err2} {
		checkErr(t, err, ErrUnknownKey)
		var uk *UnknownKeyError
		if !errors.As(err, &uk) || uk.Kind != SSH || uk.Fingerprint != fx.stranger.fpr {
			t.Errorf("got %#v, want ssh key %s", uk, fx.stranger.fpr)
		}
	}
}

func TestSSHWrongNamespace(t *testing.T) {
	s := needSSH(t)
	content := []byte("Move A to B\n")
	for _, ns := range []string{"file", "git", "umpire2"} {
		sig := must(s.sign(fx.sshKeys["ed25519"], ns, content))(t)
		_, err := VerifyDetached(content, sig, fx.keys)
		checkErr(t, err, ErrWrongNamespace)
		if !strings.Contains(err.Error(), `"`+ns+`"`) || !strings.Contains(err.Error(), "-n umpire") {
			t.Errorf("error %q does not name the namespace and the fix", err)
		}
		_, err = VerifyInline(append(append([]byte{}, content...), sig...), fx.keys)
		checkErr(t, err, ErrWrongNamespace)
	}
}

func TestSSHMalformed(t *testing.T) {
	s := needSSH(t)
	content := []byte("Move A to B\n")
	sig := must(s.sign(fx.sshKeys["ed25519"], Namespace, content))(t)
	lines := strings.Split(string(sig), "\n")
	blob := sshBlob(t, sig)
	for name, bad := range map[string][]byte{
		"truncated base64": []byte(strings.Join([]string{lines[0], lines[1], lines[2][:len(lines[2])-3], sshEnd, ""}, "\n")),
		"dropped lines":    []byte(strings.Join([]string{lines[0], lines[1], sshEnd, ""}, "\n")),
		"no END line":      []byte(strings.Join(lines[:len(lines)-2], "\n")),
		"garbage armor":    []byte(sshBegin + "\n!!! not base64 !!!\n" + sshEnd + "\n"),
		"not SSHSIG":       armorSSH([]byte("NOTSIG\x00\x00\x00\x01")),
		"version 2":        armorSSH(append([]byte("SSHSIG\x00\x00\x00\x02"), blob[10:]...)),
		"trailing bytes":   armorSSH(append(append([]byte{}, blob...), 0)),
		"truncated blob":   armorSSH(blob[:len(blob)-10]),
		"empty armor":      []byte(sshBegin + "\n" + sshEnd + "\n"),
	} {
		_, err := VerifyDetached(content, bad, fx.keys)
		checkErr(t, err, ErrMalformed)
		_, err2 := VerifyInline(append(append([]byte{}, content...), bad...), fx.keys)
		checkErr(t, err2, ErrMalformed)
		t.Logf("%s: %v", name, err)
	}
}

func TestSSHDigestStable(t *testing.T) {
	s := needSSH(t)
	orders := []byte("Move A to B\n")
	body := append(append([]byte{}, orders...), must(s.sign(fx.sshKeys["ecdsa256"], Namespace, orders))(t)...)
	a := must(VerifyInline(body, fx.keys))(t)
	b := must(VerifyInline(body, fx.keys))(t)
	// ECDSA signatures are randomized: a second signature differs, the
	// digest of what it covers does not.
	body2 := append(append([]byte{}, orders...), must(s.sign(fx.sshKeys["ecdsa256"], Namespace, orders))(t)...)
	if bytes.Equal(body, body2) {
		t.Fatal("ssh-keygen made the same ecdsa signature twice")
	}
	c := must(VerifyInline(body2, fx.keys))(t)
	want := sha256.Sum256(orders)
	for _, v := range []Verified{a, b, c} {
		if sha256.Sum256(v.Signed) != want {
			t.Errorf("digest of %q is not that of the orders", v.Signed)
		}
	}
}
