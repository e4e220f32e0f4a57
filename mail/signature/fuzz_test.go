package signature

import (
	"bytes"
	"errors"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
)

// The fuzzers check that no input makes the package panic (a panic the
// package recovers from counts as one) and that every error wraps exactly
// one sentinel. The committed tests run only the seeds, which are real
// signatures made by gpg and ssh-keygen; run go test -fuzz=FuzzVerifyInline
// (or FuzzVerifyDetached) to search further.

func FuzzVerifyInline(f *testing.F) {
	orders := []byte("Move 3/12 Inf from 0412 to 0513\n- dash line\n")
	f.Add([]byte(""))
	f.Add([]byte(clearsignBegin + "\nHash: SHA256\n\nx\n" + pgpSignatureBegin + "\n\n=\n-----END PGP SIGNATURE-----\n"))
	f.Add([]byte("x" + sshBegin + "\nU1NIU0lH\n" + sshEnd))
	if g := fx.gpg; g != nil {
		f.Add(must(g.clearsign(fx.alice.fpr, orders))(f))
		f.Add(must(g.clearsign(fx.bob.fpr, orders))(f))
		f.Add(must(g.clearsign(fx.carol.sub, orders))(f))
		f.Add(must(g.clearsign(fx.mallory.fpr, orders))(f))
		f.Add(append(append([]byte("Hi\n"), orders...), must(g.detachSign(fx.alice.fpr, orders, true))(f)...))
		f.Add(must(g.run(orders, "--symmetric", "--armor", "--passphrase", "x"))(f))
		f.Add(fx.oldClear)
	}
	if s := fx.ssh; s != nil {
		for _, name := range sshKeyNames() {
			f.Add(append(append([]byte{}, orders...), must(s.sign(fx.sshKeys[name], Namespace, orders))(f)...))
		}
		f.Add(append(append([]byte{}, orders...), must(s.sign(fx.stranger, "file", orders))(f)...))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		v, err := VerifyInline(body, fx.keys)
		checkOutcome(t, v, err)
		if kind, ok := Detect(body); !ok && !errors.Is(err, ErrNoSignature) {
			t.Fatalf("Detect found no block but VerifyInline said %v", err)
		} else if ok && err == nil && kind != v.Kind {
			t.Fatalf("Detect said %s, VerifyInline verified %s", kind, v.Kind)
		}
	})
}

func FuzzVerifyDetached(f *testing.F) {
	content := []byte("Move 3/12 Inf from 0412 to 0513\r\n")
	f.Add(content, []byte(""))
	f.Add(content, []byte{0x88, 0x00})
	f.Add(content, []byte(sshBegin+"\nU1NIU0lHAAAAAQ==\n"+sshEnd))
	if g := fx.gpg; g != nil {
		for _, key := range []string{fx.alice.fpr, fx.bob.fpr, fx.carol.sub, fx.mallory.fpr} {
			f.Add(content, must(g.detachSign(key, content, true))(f))
			f.Add(content, must(g.detachSign(key, content, false))(f))
		}
		f.Add(content, must(g.run(content, "--local-user", fx.alice.fpr+"!", "--sign"))(f))
	}
	if s := fx.ssh; s != nil {
		for _, name := range sshKeyNames() {
			f.Add(content, must(s.sign(fx.sshKeys[name], Namespace, content))(f))
		}
		f.Add(content, must(s.sign(fx.stranger, Namespace, content))(f))
	}
	f.Fuzz(func(t *testing.T, content, sig []byte) {
		v, err := VerifyDetached(content, sig, fx.keys)
		checkOutcome(t, v, err)
	})
}

// checkOutcome checks one verification: an error wraps exactly one sentinel
// and is no recovered panic; a success names a key the keyring holds.
func checkOutcome(t *testing.T, v Verified, err error) {
	t.Helper()
	if err != nil {
		var p panicError
		if errors.As(err, &p) {
			t.Fatalf("panic: %v", err)
		}
		if n := countSentinels(err); n != 1 {
			t.Fatalf("error %q wraps %d sentinels, want 1", err, n)
		}
		return
	}
	if _, ok := fx.keys.Lookup(v.Kind, v.Fingerprint); !ok {
		t.Fatalf("verified by %s key %q, which the keyring does not hold", v.Kind, v.Fingerprint)
	}
}

func FuzzParseKey(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("ssh-ed25519 AAAA x"))
	if g := fx.gpg; g != nil {
		f.Add(fx.alice.public)
		f.Add(fx.carol.public)
		f.Add(must(g.run(nil, "--export", fx.bob.fpr))(f))
	}
	if fx.ssh != nil {
		for _, name := range sshKeyNames() {
			f.Add(fx.sshKeys[name].public)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ParseKey(data)
		if err != nil {
			checkOutcome(t, Verified{}, err)
			return
		}
		ids, err := k.IDs()
		if err != nil || len(ids) == 0 || ids[0] != k.Fingerprint {
			t.Fatalf("ParseKey gave key %s whose IDs are %v, %v", k.Fingerprint, ids, err)
		}
		var r Keyring
		if err := r.Add(k); err != nil {
			t.Fatalf("a parsed key cannot be added: %v", err)
		}
	})
}

// FuzzSSHSigBlob mutates the binary SSHSIG blob, which the armor's base64
// hides from FuzzVerifyDetached's mutations.
func FuzzSSHSigBlob(f *testing.F) {
	s := needSSH(f)
	content := []byte("Move A to B\n")
	for _, name := range sshKeyNames() {
		f.Add(sshBlob(f, must(s.sign(fx.sshKeys[name], Namespace, content))(f)))
	}
	f.Fuzz(func(t *testing.T, blob []byte) {
		v, err := VerifyDetached(content, armorSSH(blob), fx.keys)
		checkOutcome(t, v, err)
	})
}

// FuzzPGPPackets mutates binary OpenPGP signature packets and checks them
// armored inline, armored in a clear-signed body and binary.
func FuzzPGPPackets(f *testing.F) {
	g := needGPG(f)
	content := []byte("Move A to B\n")
	for _, key := range []string{fx.alice.fpr, fx.bob.fpr, fx.carol.sub} {
		f.Add(must(g.detachSign(key, content, false))(f))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var buf bytes.Buffer
		w, err := armor.Encode(&buf, "PGP SIGNATURE", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(raw); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		for _, body := range [][]byte{
			append(append([]byte{}, content...), buf.Bytes()...),
			append([]byte(clearsignBegin+"\nHash: SHA512\n\nMove A to B\n"), buf.Bytes()...),
		} {
			v, err := VerifyInline(body, fx.keys)
			checkOutcome(t, v, err)
		}
		v, err := VerifyDetached(content, raw, fx.keys)
		checkOutcome(t, v, err)
	})
}
