package signature

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ring is a Keyring of one key.
func ring(t *testing.T, k Key) *Keyring {
	t.Helper()
	return must(NewKeyring(k))(t)
}

// TestMergeKeyRenewed: a player whose key expired renews it (gpg
// --quick-set-expire) and sends it again; merged into the judge's stale
// copy, the new signatures verify. The stale copy still refuses them.
func TestMergeKeyRenewed(t *testing.T) {
	g := needGPG(t)
	k, err := g.genKey("Renee <renee@players.test>", "ed25519", "sign", "1d", "--faked-system-time", "20210101T000000!")
	if err != nil {
		t.Fatal(err)
	}
	stale := must(ParseKey(k.public))(t)
	if _, err := g.run(nil, "--quick-set-expire", k.fpr, "2y"); err != nil {
		t.Fatal(err)
	}
	renewed := must(g.run(nil, "--export", "--armor", k.fpr))(t)
	body := must(g.clearsign(k.fpr, []byte("ready club-1\n")))(t)

	_, err = VerifyInline(body, ring(t, stale))
	checkErr(t, err, ErrExpiredOrRevoked)

	merged, changed, err := MergeKey(stale, renewed, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(changed, "now expires on") {
		t.Errorf("changed = %q, want the new expiry", changed)
	}
	if _, err := VerifyInline(body, ring(t, merged)); err != nil {
		t.Errorf("a signature by the renewed key does not verify with the merged key: %v", err)
	}
	// The same update again changes nothing.
	if again, changed, err := MergeKey(merged, renewed, time.Now()); err != nil || changed != "" || !bytes.Equal(again.Public, merged.Public) {
		t.Errorf("merging the same update again: %q, %v", changed, err)
	}
	// The stale copy merged into the renewed key does not take the renewal back.
	if back, changed, err := MergeKey(merged, k.public, time.Now()); err != nil || changed != "" || !bytes.Equal(back.Public, merged.Public) {
		t.Errorf("the stale copy changed the merged key: %q, %v", changed, err)
	}
}

// TestMergeKeyRevoked: a revocation reaches the judge as the revoked key
// exported again, or as the bare revocation certificate gpg made; either
// way it is honoured, and nothing undoes it.
func TestMergeKeyRevoked(t *testing.T) {
	g := needGPG(t)
	k, err := g.genKey("Ravi <ravi@players.test>", "ed25519", "sign", "never")
	if err != nil {
		t.Fatal(err)
	}
	stale := must(ParseKey(k.public))(t)
	body := must(g.clearsign(k.fpr, []byte("ready club-1\n")))(t)
	if _, err := VerifyInline(body, ring(t, stale)); err != nil {
		t.Fatal(err)
	}
	cert := must(os.ReadFile(filepath.Join(g.dir, "openpgp-revocs.d", k.fpr+".rev")))(t)
	if id, ok := UpdateTarget(cert); !ok || !strings.HasSuffix(k.fpr, id) {
		t.Errorf("UpdateTarget(revocation certificate) = %q %v, want %s", id, ok, k.fpr)
	}
	if err := g.revoke(k.fpr); err != nil {
		t.Fatal(err)
	}
	revokedKey := must(g.run(nil, "--export", "--armor", k.fpr))(t)
	for name, update := range map[string][]byte{"exported key": revokedKey, "revocation certificate": cert} {
		merged, changed, err := MergeKey(stale, update, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(changed, "revoked") {
			t.Errorf("%s: changed = %q", name, changed)
		}
		_, err = VerifyInline(body, ring(t, merged))
		checkErr(t, err, ErrExpiredOrRevoked)
		if back, changed, err := MergeKey(merged, k.public, time.Now()); err != nil || changed != "" || !bytes.Equal(back.Public, merged.Public) {
			t.Errorf("%s: a stale copy undid the revocation: %q, %v", name, changed, err)
		}
	}
}

// TestMergeKeyRefusesOtherMaterial: an update must be the key's own: a
// different key, or a revocation whose signature does not verify, is
// refused whole.
func TestMergeKeyRefusesOtherMaterial(t *testing.T) {
	g := needGPG(t)
	alice := must(ParseKey(fx.alice.public))(t)
	_, _, err := MergeKey(alice, fx.bob.public, time.Now())
	if !errors.Is(err, ErrUnknownKey) {
		t.Errorf("another key merged into alice's: %v", err)
	}
	// Mallory's revocation of his own key is no revocation of alice's.
	k, err := g.genKey("Mal <mal@players.test>", "ed25519", "sign", "never")
	if err != nil {
		t.Fatal(err)
	}
	cert := must(os.ReadFile(filepath.Join(g.dir, "openpgp-revocs.d", k.fpr+".rev")))(t)
	_, _, err = MergeKey(alice, cert, time.Now())
	if !errors.Is(err, ErrUnknownKey) {
		t.Errorf("another key's revocation merged into alice's: %v", err)
	}
	// A forged revocation with alice's issuer: mallory's certificate
	// relabelled. Its signature does not verify against alice's key.
	malKey := must(ParseKey(k.public))(t)
	revs := must(revocations(cert))(t)
	revs[0].IssuerFingerprint = must(alice.entity())(t).PrimaryKey.Fingerprint
	id := must(alice.entity())(t).PrimaryKey.KeyId
	revs[0].IssuerKeyId = &id
	var forged bytes.Buffer
	if err := revs[0].Serialize(&forged); err != nil {
		t.Fatal(err)
	}
	_, _, err = MergeKey(alice, forged.Bytes(), time.Now())
	if err == nil {
		t.Errorf("a forged revocation was merged into alice's key")
	}
	if _, changed, err := MergeKey(malKey, k.public, time.Now()); err != nil || changed != "" {
		t.Errorf("a key merged with itself: %q %v", changed, err)
	}
}

// TestWeakSignatures: a good signature made with SHA-1 proves nothing, so
// it is refused with a reason that says how to sign instead.
func TestWeakSignatures(t *testing.T) {
	g := needGPG(t)
	text := []byte("game: club-1\nstep: 1\nseat: A\npass\nend\n")
	body, err := g.run(text, "--local-user", fx.bob.fpr+"!", "--digest-algo", "SHA1", "--clearsign")
	if err != nil {
		t.Fatal(err)
	}
	_, err = VerifyInline(body, fx.keys)
	checkErr(t, err, ErrWeak)
	if !strings.Contains(err.Error(), "SHA-1") || !strings.Contains(err.Error(), "--digest-algo SHA512") {
		t.Errorf("the refusal does not say what is wrong and what to do: %v", err)
	}
	sig, err := g.run(text, "--local-user", fx.bob.fpr+"!", "--digest-algo", "SHA1", "--detach-sign")
	if err != nil {
		t.Fatal(err)
	}
	_, err = VerifyDetached(text, sig, fx.keys)
	checkErr(t, err, ErrWeak)
	// SHA-256 by the same key is fine.
	body = must(g.run(text, "--local-user", fx.bob.fpr+"!", "--digest-algo", "SHA256", "--clearsign"))(t)
	if _, err := VerifyInline(body, fx.keys); err != nil {
		t.Errorf("a SHA-256 signature was refused: %v", err)
	}
}
