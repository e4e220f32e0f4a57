package message

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// This file drives the real gpg and ssh-keygen binaries, to make the signed
// corpus and to check that the bytes Parse extracts are the bytes that were
// signed.

// needTools skips t unless gpg, gpgconf and ssh-keygen are installed.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"gpg", "gpgconf", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: install the Debian packages gnupg and openssh-client", tool)
		}
	}
}

// gpgHome is a temporary GnuPG home.
type gpgHome struct {
	t   *testing.T
	dir string
	// now, when set, is the time gpg acts at (--faked-system-time), so
	// that keys and signatures carry the corpus's dates.
	now string
}

// newGPG creates a GnuPG home with a short path (the agent's socket path
// is limited) and kills its agent when the test ends.
func newGPG(t *testing.T) *gpgHome {
	t.Helper()
	dir, err := os.MkdirTemp("", "g")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = exec.Command("gpgconf", "--homedir", dir, "--kill", "all").Run()
		_ = os.RemoveAll(dir)
	})
	return &gpgHome{t: t, dir: dir}
}

// try runs gpg with stdin and returns its stdout, its stderr and the
// error, if any.
func (g *gpgHome) try(stdin []byte, args ...string) ([]byte, []byte, error) {
	all := []string{"--homedir", g.dir, "--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", ""}
	if g.now != "" {
		all = append(all, "--faked-system-time", g.now)
	}
	all = append(all, args...)
	cmd := exec.Command("gpg", all...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.Bytes(), errb.Bytes(), err
}

// run runs gpg and fails the test on error.
func (g *gpgHome) run(stdin []byte, args ...string) []byte {
	g.t.Helper()
	out, errb, err := g.try(stdin, args...)
	if err != nil {
		g.t.Fatalf("gpg %s: %v\n%s", strings.Join(args, " "), err, errb)
	}
	return out
}

// genKey creates a key for uid and returns its fingerprint.
func (g *gpgHome) genKey(uid, algo, usage string) string {
	g.t.Helper()
	g.run(nil, "--quick-gen-key", uid, algo, usage, "never")
	out := g.run(nil, "--with-colons", "--list-keys", uid)
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			return f[9]
		}
	}
	g.t.Fatalf("no fingerprint for %s", uid)
	return ""
}

// genKeyExpiring creates a key for uid that expires after expire and
// returns its fingerprint.
func (g *gpgHome) genKeyExpiring(uid, algo, usage, expire string) string {
	g.t.Helper()
	g.run(nil, "--quick-gen-key", uid, algo, usage, expire)
	out := g.run(nil, "--with-colons", "--list-keys", uid)
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			return f[9]
		}
	}
	g.t.Fatalf("no fingerprint for %s", uid)
	return ""
}

// clearsign clear-signs text with the key fpr.
func (g *gpgHome) clearsign(fpr string, text []byte) []byte {
	return g.run(text, "--local-user", fpr, "--clearsign")
}

// detachSign makes a detached signature over data, armored or binary.
func (g *gpgHome) detachSign(fpr string, data []byte, armor bool) []byte {
	args := []string{"--local-user", fpr, "--detach-sign"}
	if armor {
		args = append(args, "--armor")
	}
	return g.run(data, args...)
}

// micalg returns the RFC 3156 micalg of a signature ("pgp-sha256").
func (g *gpgHome) micalg(sig []byte) string {
	out := g.run(sig, "--list-packets")
	names := map[string]string{"2": "pgp-sha1", "8": "pgp-sha256", "9": "pgp-sha384", "10": "pgp-sha512", "11": "pgp-sha224"}
	s := string(out)
	if i := strings.Index(s, "digest algo "); i >= 0 {
		n := strings.Fields(s[i+len("digest algo "):])[0]
		n = strings.TrimRight(n, ",")
		if m, ok := names[n]; ok {
			return m
		}
	}
	g.t.Fatalf("no digest algorithm in\n%s", out)
	return ""
}

// verify reports whether gpg accepts sig over data (nil data: sig is
// clear-signed), with the keys this home holds.
func (g *gpgHome) verify(sig, data []byte) (bool, string) {
	dir := g.t.TempDir()
	sigFile := filepath.Join(dir, "sig")
	if err := os.WriteFile(sigFile, sig, 0o600); err != nil {
		g.t.Fatal(err)
	}
	args := []string{"--verify", sigFile}
	if data != nil {
		dataFile := filepath.Join(dir, "data")
		if err := os.WriteFile(dataFile, data, 0o600); err != nil {
			g.t.Fatal(err)
		}
		args = append(args, dataFile)
	}
	_, errb, err := g.try(nil, args...)
	return err == nil, string(errb)
}

// sshKey is an ssh-keygen key pair in a temporary folder.
type sshKey struct {
	t    *testing.T
	path string // the private key; the public key is path + ".pub"
}

// newSSHKey creates an ed25519 key pair with comment.
func newSSHKey(t *testing.T, comment string) *sshKey {
	t.Helper()
	path := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	return &sshKey{t: t, path: path}
}

// public returns the public key line.
func (k *sshKey) public() []byte {
	b, err := os.ReadFile(k.path + ".pub")
	if err != nil {
		k.t.Fatal(err)
	}
	return b
}

// sign signs data in the umpire namespace, as a player does with
// ssh-keygen -Y sign -f KEY -n umpire FILE, and returns the armored
// signature.
func (k *sshKey) sign(data []byte) []byte {
	k.t.Helper()
	file := filepath.Join(k.t.TempDir(), "orders.txt")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		k.t.Fatal(err)
	}
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", k.path, "-n", "umpire", file).CombinedOutput(); err != nil {
		k.t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	sig, err := os.ReadFile(file + ".sig")
	if err != nil {
		k.t.Fatal(err)
	}
	return sig
}

// sshVerify reports whether sig is a valid umpire-namespace signature over
// data by any key (ssh-keygen -Y check-novalidate), and by a key in the
// allowed public keys (ssh-keygen -Y verify).
func sshVerify(t *testing.T, sig, data []byte, allowed map[string][]byte) (valid, known bool) {
	t.Helper()
	dir := t.TempDir()
	sigFile := filepath.Join(dir, "sig")
	if err := os.WriteFile(sigFile, sig, 0o600); err != nil {
		t.Fatal(err)
	}
	check := exec.Command("ssh-keygen", "-Y", "check-novalidate", "-n", "umpire", "-s", sigFile)
	check.Stdin = bytes.NewReader(data)
	if check.Run() != nil {
		return false, false
	}
	var signers bytes.Buffer
	for id, pub := range allowed {
		f := strings.Fields(string(pub))
		if len(f) >= 2 {
			fmt.Fprintf(&signers, "%s %s %s\n", id, f[0], f[1])
		}
	}
	signersFile := filepath.Join(dir, "allowed_signers")
	if err := os.WriteFile(signersFile, signers.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for id := range allowed {
		v := exec.Command("ssh-keygen", "-Y", "verify", "-f", signersFile, "-I", id, "-n", "umpire", "-s", sigFile)
		v.Stdin = bytes.NewReader(data)
		if v.Run() == nil {
			return true, true
		}
	}
	return true, false
}

// forgeSignature damages an armored OpenPGP signature the way a forger's
// would look: the packet still parses, but the last byte of the signature
// value is changed, and the armor checksum is recomputed so that only the
// cryptography can tell.
func forgeSignature(t *testing.T, armored []byte) []byte {
	t.Helper()
	lines := strings.Split(strings.ReplaceAll(string(armored), "\r\n", "\n"), "\n")
	var head, body []string
	var tail string
	inBody := false
	for _, l := range lines {
		switch {
		case !inBody && l == "":
			inBody = true
			head = append(head, l)
		case !inBody:
			head = append(head, l)
		case strings.HasPrefix(l, "=") || strings.HasPrefix(l, "-----END"):
			if strings.HasPrefix(l, "-----END") {
				tail = l
			}
		default:
			body = append(body, l)
		}
	}
	data, err := base64.StdEncoding.DecodeString(strings.Join(body, ""))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0x01
	enc := base64.StdEncoding.EncodeToString(data)
	var out strings.Builder
	for _, l := range head {
		out.WriteString(l + "\n")
	}
	for len(enc) > 64 {
		out.WriteString(enc[:64] + "\n")
		enc = enc[64:]
	}
	out.WriteString(enc + "\n")
	crc := crc24(data)
	out.WriteString("=" + base64.StdEncoding.EncodeToString([]byte{byte(crc >> 16), byte(crc >> 8), byte(crc)}) + "\n")
	out.WriteString(tail + "\n")
	return []byte(out.String())
}

// crc24 is the armor checksum of RFC 4880 section 6.1.
func crc24(data []byte) uint32 {
	crc := uint32(0xB704CE)
	for _, b := range data {
		crc ^= uint32(b) << 16
		for i := 0; i < 8; i++ {
			crc <<= 1
			if crc&0x1000000 != 0 {
				crc ^= 0x1864CFB
			}
		}
	}
	return crc & 0xFFFFFF
}
