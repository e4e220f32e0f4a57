package signature

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestParseKeyOpenPGP(t *testing.T) {
	g := needGPG(t)
	for _, key := range []pgpKey{fx.alice, fx.bob, fx.carol} {
		binary := must(g.run(nil, "--export", key.fpr))(t)
		for name, data := range map[string][]byte{"armored": key.public, "binary": binary} {
			k, err := ParseKey(data)
			if err != nil {
				t.Fatalf("%s %s: %v", key.fpr, name, err)
			}
			if k.Kind != OpenPGP || k.Fingerprint != key.fpr {
				t.Errorf("%s: got %s key %s, want openpgp key %s (gpg --with-colons)", name, k.Kind, k.Fingerprint, key.fpr)
			}
			if !strings.Contains(k.Comment, "@players.test") {
				t.Errorf("%s: Comment = %q, want the user ID", name, k.Comment)
			}
			ids := must(k.IDs())(t)
			if ids[0] != key.fpr || !strings.HasSuffix(key.fpr, ids[1]) {
				t.Errorf("%s: IDs = %v, want the fingerprint then the key ID", name, ids)
			}
			if key.sub != "" && !contains(ids, key.sub) {
				t.Errorf("%s: IDs = %v lack the signing subkey %s", name, ids, key.sub)
			}
		}
	}
	// Two keys in one export: the first is taken.
	both := append(append([]byte{}, fx.bob.public...), fx.alice.public...)
	if k := must(ParseKey(both))(t); k.Fingerprint != fx.bob.fpr {
		t.Errorf("got %s, want the first key %s", k.Fingerprint, fx.bob.fpr)
	}
	secret := must(g.run(nil, "--export-secret-keys", "--armor", fx.alice.fpr))(t)
	_, err := ParseKey(secret)
	checkErr(t, err, ErrMalformed)
	if !strings.Contains(err.Error(), "private key") {
		t.Errorf("error %q does not say it is a private key", err)
	}
}

func TestParseKeySSH(t *testing.T) {
	needSSH(t)
	for _, name := range sshKeyNames() {
		key := fx.sshKeys[name]
		k, err := ParseKey(key.public)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if k.Kind != SSH || k.Fingerprint != key.fpr || k.Comment != name+"@players.test" {
			t.Errorf("%s: got %s key %s %q, want ssh key %s (ssh-keygen -lf)", name, k.Kind, k.Fingerprint, k.Comment, key.fpr)
		}
		// An authorized_keys line with options works too.
		k2, err := ParseKey(append([]byte(`restrict,command="true" `), key.public...))
		if err != nil || k2.Fingerprint != key.fpr {
			t.Errorf("%s authorized_keys line: %v %s", name, err, k2.Fingerprint)
		}
	}
	private := must(os.ReadFile(fx.sshKeys["ed25519"].path))(t)
	_, err := ParseKey(private)
	checkErr(t, err, ErrMalformed)
}

func TestParseKeyMalformed(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":          nil,
		"blank":          []byte(" \n\t\n"),
		"garbage":        []byte("hello umpire"),
		"bad ssh base64": []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI!!! x@y"),
		"bad pgp armor":  []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n!!!\n-----END PGP PUBLIC KEY BLOCK-----\n"),
		"binary garbage": {0x99, 0x00, 0x05, 1, 2},
		"signature":      []byte("-----BEGIN PGP SIGNATURE-----\n\niQ==\n-----END PGP SIGNATURE-----\n"),
	} {
		_, err := ParseKey(data)
		checkErr(t, err, ErrMalformed)
		t.Logf("%s: %v", name, err)
	}
}

func TestKeyring(t *testing.T) {
	needGPG(t)
	needSSH(t)
	alice := must(ParseKey(fx.alice.public))(t)
	carol := must(ParseKey(fx.carol.public))(t)
	ed := must(ParseKey(fx.sshKeys["ed25519"].public))(t)
	r := must(NewKeyring(alice, carol, ed))(t)
	for _, c := range []struct {
		kind Kind
		id   string
		want string
	}{
		{OpenPGP, fx.alice.fpr, fx.alice.fpr},
		{OpenPGP, strings.ToLower(fx.alice.fpr), fx.alice.fpr},
		{OpenPGP, spaced(fx.alice.fpr), fx.alice.fpr},
		{OpenPGP, fx.alice.fpr[len(fx.alice.fpr)-16:], fx.alice.fpr},
		{OpenPGP, fx.carol.sub, fx.carol.fpr},
		{OpenPGP, fx.carol.sub[len(fx.carol.sub)-16:], fx.carol.fpr},
		{SSH, fx.sshKeys["ed25519"].fpr, fx.sshKeys["ed25519"].fpr},
		{OpenPGP, fx.bob.fpr, ""},
		{SSH, fx.alice.fpr, ""},
		{OpenPGP, fx.sshKeys["ed25519"].fpr, ""},
		{SSH, strings.ToLower(fx.sshKeys["ed25519"].fpr), ""}, // base64 is case-sensitive
	} {
		k, ok := r.Lookup(c.kind, c.id)
		if ok != (c.want != "") || k.Fingerprint != c.want {
			t.Errorf("Lookup(%s, %s) = %s %v, want %q", c.kind, c.id, k.Fingerprint, ok, c.want)
		}
	}
	// Adding the same key again is fine; a key whose material does not
	// match its fingerprint is refused.
	if err := r.Add(alice); err != nil {
		t.Error(err)
	}
	liar := alice
	liar.Public = carol.Public
	if err := r.Add(liar); err == nil {
		t.Error("a key with another key's material was added")
	}
	var zero Keyring
	if _, ok := zero.Lookup(OpenPGP, fx.alice.fpr); ok {
		t.Error("the empty keyring found a key")
	}
	if err := zero.Add(ed); err != nil {
		t.Fatal(err)
	}
	if _, ok := zero.Lookup(SSH, ed.Fingerprint); !ok {
		t.Error("the zero Keyring did not keep a key")
	}
}

func TestUnknownKeyError(t *testing.T) {
	err := error(&UnknownKeyError{Kind: SSH, Fingerprint: "SHA256:abc"})
	if !errors.Is(err, ErrUnknownKey) || errors.Is(err, ErrBadSignature) {
		t.Errorf("UnknownKeyError matches wrongly")
	}
	if !strings.Contains(err.Error(), "SHA256:abc") {
		t.Errorf("error %q does not name the key", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// spaced groups a fingerprint by four, as gpg prints it for people.
func spaced(fpr string) string {
	var b bytes.Buffer
	for i := 0; i < len(fpr); i += 4 {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fpr[i:min(i+4, len(fpr))])
	}
	return b.String()
}
