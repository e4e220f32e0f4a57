// Package signtest signs test data with the real tools players use: gpg
// (GnuPG) and ssh-keygen (OpenSSH). Tests get keys in temporary homes that are
// removed, with their gpg-agent, when the test ends. Without the tools a test
// is skipped, or fails when the environment variable CI is "true" (CI
// installs them: Debian packages gnupg and openssh-client).
package signtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func need(t testing.TB, tool, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (Debian package %s)", tool, pkg)
		}
		t.Skipf("%s is not installed: apt-get install %s (bash .ci/run does this)", tool, pkg)
	}
}

// GPG is a temporary GnuPG home.
type GPG struct {
	t    testing.TB
	Home string
}

// NewGPG makes an empty GnuPG home for the test.
func NewGPG(t testing.TB) *GPG {
	t.Helper()
	need(t, "gpg", "gnupg")
	// A short path: gpg-agent's socket path has a length limit.
	home, err := os.MkdirTemp("", "gpg")
	if err != nil {
		t.Fatal(err)
	}
	g := &GPG{t: t, Home: home}
	t.Cleanup(func() {
		exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run()
		os.RemoveAll(home)
	})
	return g
}

func (g *GPG) run(stdin []byte, args ...string) []byte {
	g.t.Helper()
	cmd := exec.Command("gpg", append([]string{"--homedir", g.Home, "--batch", "--yes", "--no-tty",
		"--pinentry-mode", "loopback", "--passphrase", ""}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		g.t.Fatalf("gpg %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes()
}

// GenKey makes an ed25519 signing key for uid ("Alice <alice@players.test>")
// and returns its fingerprint.
func (g *GPG) GenKey(uid string) string {
	g.t.Helper()
	g.run(nil, "--quick-gen-key", uid, "ed25519", "sign", "never")
	for _, l := range strings.Split(string(g.run(nil, "--with-colons", "--list-keys", uid)), "\n") {
		if f := strings.Split(l, ":"); len(f) > 9 && f[0] == "fpr" {
			return f[9]
		}
	}
	g.t.Fatalf("gpg: no fingerprint for %s", uid)
	return ""
}

// Export returns the armored public key.
func (g *GPG) Export(fpr string) []byte { return g.run(nil, "--armor", "--export", fpr) }

// ClearSign returns text clear-signed by the key.
func (g *GPG) ClearSign(fpr string, text []byte) []byte {
	return g.run(text, "--local-user", fpr, "--clearsign")
}

// Sign returns text clear-signed by the key, with extra gpg options (such
// as --digest-algo SHA1, or --faked-system-time).
func (g *GPG) Sign(fpr string, text []byte, extra ...string) []byte {
	return g.run(text, append(append([]string{}, extra...), "--local-user", fpr, "--clearsign")...)
}

// Run runs gpg in the home with args and returns its standard output (as
// --quick-set-expire FPR 2y, --import).
func (g *GPG) Run(stdin []byte, args ...string) []byte { return g.run(stdin, args...) }

// RevocationCert returns the revocation certificate gpg made with the key,
// as it keeps it (openpgp-revocs.d/FPR.rev, its armor behind a ':').
func (g *GPG) RevocationCert(fpr string) []byte {
	g.t.Helper()
	b, err := os.ReadFile(filepath.Join(g.Home, "openpgp-revocs.d", fpr+".rev"))
	if err != nil {
		g.t.Fatal(err)
	}
	return b
}

// DetachSign returns a detached signature over data, armored or binary.
func (g *GPG) DetachSign(fpr string, data []byte, armor bool) []byte {
	args := []string{"--local-user", fpr, "--detach-sign"}
	if armor {
		args = append(args, "--armor")
	}
	return g.run(data, args...)
}

// SSH is a temporary folder of SSH keys.
type SSH struct {
	t   testing.TB
	Dir string
}

// NewSSH makes an empty key folder for the test.
func NewSSH(t testing.TB) *SSH {
	t.Helper()
	need(t, "ssh-keygen", "openssh-client")
	return &SSH{t: t, Dir: t.TempDir()}
}

// SSHKey is a key made by ssh-keygen.
type SSHKey struct {
	Path        string // the private key file
	Public      []byte // the .pub line
	Fingerprint string // as ssh-keygen -lf prints it: SHA256:...
}

// GenKey makes a key of type typ (ed25519, ecdsa, rsa) named name.
func (s *SSH) GenKey(name, typ string) SSHKey {
	s.t.Helper()
	path := filepath.Join(s.Dir, name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", typ, "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		s.t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		s.t.Fatal(err)
	}
	out, err := exec.Command("ssh-keygen", "-l", "-f", path+".pub").Output()
	if err != nil {
		s.t.Fatal(err)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		s.t.Fatalf("ssh-keygen -l: %q", out)
	}
	return SSHKey{Path: path, Public: pub, Fingerprint: f[1]}
}

// Sign returns the armored SSH signature of content in namespace, as
// ssh-keygen -Y sign -f KEY -n NAMESPACE FILE makes it.
func (s *SSH) Sign(k SSHKey, namespace string, content []byte) []byte {
	s.t.Helper()
	f, err := os.CreateTemp(s.Dir, "content")
	if err != nil {
		s.t.Fatal(err)
	}
	f.Write(content)
	f.Close()
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", k.Path, "-n", namespace, f.Name()).CombinedOutput(); err != nil {
		s.t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	sig, err := os.ReadFile(f.Name() + ".sig")
	if err != nil {
		s.t.Fatal(err)
	}
	return sig
}
