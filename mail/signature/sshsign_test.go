package signature_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/umpire-pbem/umpire/mail/signature"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
)

// TestSignSSH: a signature made by SignSSH verifies with umpire's verifier
// and with the real ssh-keygen -Y check-novalidate, and fails for other
// content.
func TestSignSSH(t *testing.T) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("game: g1\nstep: 1\nseat: A\nroll 2\nend\n")
	sig, err := signature.SignSSH(signer, "umpire", content)
	if err != nil {
		t.Fatal(err)
	}
	key, err := signature.ParseKey(ssh.MarshalAuthorizedKey(signer.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	ring, err := signature.NewKeyring(key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := signature.VerifyDetached(content, sig, ring)
	if err != nil || v.Fingerprint != key.Fingerprint {
		t.Fatalf("verify: %v %+v", err, v)
	}
	if _, err := signature.VerifyDetached(append(content, 'x'), sig, ring); err == nil {
		t.Error("a signature verified other content")
	}

	signtest.NewSSH(t) // fails under CI when ssh-keygen is missing, skips elsewhere
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "sig"), sig, 0o600)
	cmd := exec.Command("ssh-keygen", "-Y", "check-novalidate", "-n", "umpire", "-s", filepath.Join(dir, "sig"))
	cmd.Stdin = bytes.NewReader(content)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("ssh-keygen -Y check-novalidate refuses it: %v\n%s", err, out)
	}
}
