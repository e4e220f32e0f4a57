package signature

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
)

// This file drives the real gpg and ssh-keygen. TestMain makes every key
// once, in temporary directories it removes (and whose gpg-agent it stops)
// when the tests end.

// fx holds the keys the tests share; TestMain sets it before any test runs
// and nothing changes it afterwards.
var fx fixture

type fixture struct {
	gpg    *gpgHome // nil when gpg is missing
	gpgErr error
	ssh    *sshDir // nil when ssh-keygen is missing
	sshErr error

	// OpenPGP keys. Mallory's is not in keys.
	alice, bob, carol, mallory, old, rex pgpKey
	// rexClear is a text Rex clear-signed before his key was revoked;
	// oldClear one Old signed while his key was valid, in 2020.
	rexClear, oldClear []byte

	// SSH keys. The stranger's is not in keys.
	sshKeys  map[string]sshKey // by name: ed25519, ecdsa256, ecdsa384, ecdsa521, rsa
	stranger sshKey

	keys *Keyring
}

type pgpKey struct {
	fpr    string // primary fingerprint, as gpg --with-colons prints it
	sub    string // signing subkey fingerprint, if any
	public []byte // gpg --export --armor
}

type sshKey struct {
	path   string // private key file; the public key is path + ".pub"
	fpr    string // as ssh-keygen -lf prints it
	public []byte // the .pub file
}

func TestMain(m *testing.M) {
	code := func() int {
		cleanup := setupFixture()
		defer cleanup()
		return m.Run()
	}()
	os.Exit(code)
}

// setupFixture makes the shared keys. A missing tool is recorded, for the
// tests that need it to skip; any other failure is fatal.
func setupFixture() (cleanup func()) {
	var cleanups []func()
	cleanup = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	fail := func(err error) {
		cleanup()
		fmt.Fprintln(os.Stderr, "test fixture:", err)
		os.Exit(1)
	}
	var all []Key
	addKey := func(public []byte) {
		k, err := ParseKey(public)
		if err != nil {
			fail(err)
		}
		all = append(all, k)
	}

	if _, err := exec.LookPath("gpg"); err != nil {
		fx.gpgErr = errors.New("gpg not found: install the Debian package gnupg")
	} else {
		g, err := newGPGHome()
		if err != nil {
			fail(err)
		}
		cleanups = append(cleanups, g.close)
		fx.gpg = g
		if err := fx.makePGPKeys(); err != nil {
			fail(err)
		}
		for _, k := range []pgpKey{fx.alice, fx.bob, fx.carol, fx.old, fx.rex} {
			addKey(k.public)
		}
	}

	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		fx.sshErr = errors.New("ssh-keygen not found: install the Debian package openssh-client")
	} else {
		dir, err := os.MkdirTemp("", "sshsig")
		if err != nil {
			fail(err)
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		fx.ssh = &sshDir{dir: dir}
		fx.sshKeys = map[string]sshKey{}
		for _, spec := range []struct{ name, typ, bits string }{
			{"ed25519", "ed25519", ""},
			{"ecdsa256", "ecdsa", "256"},
			{"ecdsa384", "ecdsa", "384"},
			{"ecdsa521", "ecdsa", "521"},
			{"rsa", "rsa", "3072"},
			{"stranger", "ed25519", ""},
		} {
			k, err := fx.ssh.genKey(spec.name, spec.typ, spec.bits)
			if err != nil {
				fail(err)
			}
			if spec.name == "stranger" {
				fx.stranger = k
				continue
			}
			fx.sshKeys[spec.name] = k
			addKey(k.public)
		}
	}

	keys, err := NewKeyring(all...)
	if err != nil {
		fail(err)
	}
	fx.keys = keys
	return cleanup
}

func (f *fixture) makePGPKeys() error {
	g := f.gpg
	var err error
	if f.alice, err = g.genKey("Alice <alice@players.test>", "ed25519", "sign", "never"); err != nil {
		return err
	}
	if f.bob, err = g.genKey("Bob <bob@players.test>", "rsa3072", "sign", "never"); err != nil {
		return err
	}
	// Carol certifies with her primary key and signs with a subkey.
	if f.carol, err = g.genKey("Carol <carol@players.test>", "ed25519", "cert", "never"); err != nil {
		return err
	}
	if f.carol, err = g.addSigningSubkey(f.carol); err != nil {
		return err
	}
	if f.mallory, err = g.genKey("Mallory <mallory@players.test>", "ed25519", "sign", "never"); err != nil {
		return err
	}
	// Old's key was made in 2020 and expired a day later; he signed in time.
	if f.old, err = g.genKey("Old <old@players.test>", "ed25519", "sign", "1d", "--faked-system-time", "20200101T000000!"); err != nil {
		return err
	}
	if f.oldClear, err = g.run([]byte("Old orders\n"), "--faked-system-time", "20200101T120000!", "--local-user", f.old.fpr+"!", "--clearsign"); err != nil {
		return err
	}
	// Rex signed, then revoked his key.
	if f.rex, err = g.genKey("Rex <rex@players.test>", "ed25519", "sign", "never"); err != nil {
		return err
	}
	if f.rexClear, err = g.clearsign(f.rex.fpr, []byte("Rex orders\n")); err != nil {
		return err
	}
	if err := g.revoke(f.rex.fpr); err != nil {
		return err
	}
	f.rex.public, err = g.run(nil, "--export", "--armor", f.rex.fpr)
	return err
}

// gpgHome is a temporary GNUPGHOME.
type gpgHome struct{ dir string }

func newGPGHome() (*gpgHome, error) {
	// Not t.TempDir: the agent's socket path must stay short.
	dir, err := os.MkdirTemp("", "gpg")
	if err != nil {
		return nil, err
	}
	return &gpgHome{dir: dir}, nil
}

func (g *gpgHome) close() {
	_ = exec.Command("gpgconf", "--homedir", g.dir, "--kill", "all").Run()
	os.RemoveAll(g.dir)
}

// run runs gpg on stdin and returns its standard output.
func (g *gpgHome) run(stdin []byte, args ...string) ([]byte, error) {
	base := []string{"--homedir", g.dir, "--batch", "--yes", "--no-tty", "--pinentry-mode", "loopback", "--passphrase", ""}
	cmd := exec.Command("gpg", append(base, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("gpg %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

// genKey makes a key and returns its fingerprint and exported public key.
func (g *gpgHome) genKey(uid, algo, usage, expire string, extra ...string) (pgpKey, error) {
	args := append(append([]string{}, extra...), "--quick-gen-key", uid, algo, usage, expire)
	if _, err := g.run(nil, args...); err != nil {
		return pgpKey{}, err
	}
	fprs, err := g.fingerprints(uid)
	if err != nil {
		return pgpKey{}, err
	}
	k := pgpKey{fpr: fprs[0]}
	k.public, err = g.run(nil, "--export", "--armor", k.fpr)
	return k, err
}

func (g *gpgHome) addSigningSubkey(k pgpKey) (pgpKey, error) {
	if _, err := g.run(nil, "--quick-add-key", k.fpr, "ed25519", "sign", "never"); err != nil {
		return k, err
	}
	fprs, err := g.fingerprints(k.fpr)
	if err != nil {
		return k, err
	}
	if len(fprs) != 2 {
		return k, fmt.Errorf("key %s: want a primary key and a subkey, gpg lists %v", k.fpr, fprs)
	}
	k.sub = fprs[1]
	k.public, err = g.run(nil, "--export", "--armor", k.fpr)
	return k, err
}

// fingerprints lists the fingerprints of the primary key named by who, then
// of its subkeys, from gpg --with-colons.
func (g *gpgHome) fingerprints(who string) ([]string, error) {
	out, err := g.run(nil, "--with-colons", "--fixed-list-mode", "--list-keys", who)
	if err != nil {
		return nil, err
	}
	var fprs []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ":"); len(f) > 9 && f[0] == "fpr" {
			fprs = append(fprs, f[9])
		}
	}
	if len(fprs) == 0 {
		return nil, fmt.Errorf("gpg lists no fingerprint for %s", who)
	}
	return fprs, nil
}

// revoke imports the revocation certificate gpg made with the key.
func (g *gpgHome) revoke(fpr string) error {
	rev, err := os.ReadFile(filepath.Join(g.dir, "openpgp-revocs.d", fpr+".rev"))
	if err != nil {
		return err
	}
	// gpg disarms the certificate with a leading colon.
	rev = bytes.Replace(rev, []byte(":-----BEGIN PGP PUBLIC KEY BLOCK-----"), []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----"), 1)
	_, err = g.run(rev, "--import")
	return err
}

func (g *gpgHome) clearsign(signer string, text []byte) ([]byte, error) {
	return g.run(text, "--local-user", signer+"!", "--clearsign")
}

func (g *gpgHome) detachSign(signer string, content []byte, armored bool) ([]byte, error) {
	args := []string{"--local-user", signer + "!", "--detach-sign"}
	if armored {
		args = append(args, "--armor")
	}
	return g.run(content, args...)
}

// verifyFile runs gpg --verify of a detached signature over a file holding
// signed; it is the reference the package is checked against.
func (g *gpgHome) verifyFile(sig, signed []byte) error {
	dir, err := os.MkdirTemp("", "gpgv")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sigPath, dataPath := filepath.Join(dir, "s.asc"), filepath.Join(dir, "data")
	if err := os.WriteFile(sigPath, sig, 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(dataPath, signed, 0o600); err != nil {
		return err
	}
	_, err = g.run(nil, "--verify", sigPath, dataPath)
	return err
}

// sshDir holds SSH keys and the files ssh-keygen signs.
type sshDir struct{ dir string }

func (s *sshDir) genKey(name, typ, bits string) (sshKey, error) {
	path := filepath.Join(s.dir, name)
	args := []string{"-q", "-t", typ, "-N", "", "-C", name + "@players.test", "-f", path}
	if bits != "" {
		args = append(args, "-b", bits)
	}
	if out, err := exec.Command("ssh-keygen", args...).CombinedOutput(); err != nil {
		return sshKey{}, fmt.Errorf("ssh-keygen %v: %v: %s", args, err, out)
	}
	out, err := exec.Command("ssh-keygen", "-lf", path+".pub").CombinedOutput()
	if err != nil {
		return sshKey{}, fmt.Errorf("ssh-keygen -lf: %v: %s", err, out)
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return sshKey{}, fmt.Errorf("ssh-keygen -lf printed %q", out)
	}
	public, err := os.ReadFile(path + ".pub")
	return sshKey{path: path, fpr: f[1], public: public}, err
}

// sign runs ssh-keygen -Y sign over content and returns the armored
// signature.
func (s *sshDir) sign(k sshKey, namespace string, content []byte) ([]byte, error) {
	f, err := os.CreateTemp(s.dir, "msg")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer os.Remove(f.Name() + ".sig")
	if _, err := f.Write(content); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", k.path, "-n", namespace, f.Name()).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ssh-keygen -Y sign: %v: %s", err, out)
	}
	return os.ReadFile(f.Name() + ".sig")
}

// checkNoValidate runs ssh-keygen -Y check-novalidate, OpenSSH's own check
// of a signature over signed, as the reference.
func (s *sshDir) checkNoValidate(sig, signed []byte) error {
	f, err := os.CreateTemp(s.dir, "sig")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(sig); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	cmd := exec.Command("ssh-keygen", "-Y", "check-novalidate", "-n", Namespace, "-s", f.Name())
	cmd.Stdin = bytes.NewReader(signed)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ssh-keygen -Y check-novalidate: %v: %s", err, out)
	}
	return nil
}

// needGPG and needSSH skip a test whose tool is missing.
func needGPG(t testing.TB) *gpgHome {
	t.Helper()
	if fx.gpg == nil {
		t.Skip(fx.gpgErr)
	}
	return fx.gpg
}

func needSSH(t testing.TB) *sshDir {
	t.Helper()
	if fx.ssh == nil {
		t.Skip(fx.sshErr)
	}
	return fx.ssh
}

// must(v, err)(t) fails the test on err and returns v.
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// forgePGPArmor flips the last byte of the packets in the first armored
// OpenPGP block of data (the end of the signature value) and re-armors it,
// leaving everything around the block as it was.
func forgePGPArmor(t testing.TB, data []byte) []byte {
	t.Helper()
	start := bytes.Index(data, []byte(pgpSignatureBegin))
	endLine := []byte("-----END PGP SIGNATURE-----")
	end := bytes.Index(data, endLine)
	if start < 0 || end < start {
		t.Fatalf("no armored signature in %q", data)
	}
	end += len(endLine)
	block := must(armor.Decode(bytes.NewReader(data[start:end])))(t)
	raw := must(readAllLimited(block.Body, maxSignatureSize))(t)
	raw[len(raw)-1] ^= 0x01
	var buf bytes.Buffer
	w := must(armor.Encode(&buf, block.Type, nil))(t)
	must(w.Write(raw))(t)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return append(append(append([]byte{}, data[:start]...), buf.Bytes()...), data[end:]...)
}

// forgeSSHArmor flips the last byte of the SSHSIG blob (the end of the
// signature value) and re-armors it as ssh-keygen does.
func forgeSSHArmor(t testing.TB, sig []byte) []byte {
	t.Helper()
	blob := sshBlob(t, sig)
	blob[len(blob)-1] ^= 0x01
	return armorSSH(blob)
}

// sshBlob decodes an armored SSH signature.
func sshBlob(t testing.TB, sig []byte) []byte {
	t.Helper()
	s := string(sig)
	s = s[strings.Index(s, sshBegin)+len(sshBegin) : strings.Index(s, sshEnd)]
	return must(base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), "")))(t)
}

// armorSSH armors an SSHSIG blob with 70-column lines, as ssh-keygen does.
func armorSSH(blob []byte) []byte {
	b64 := base64.StdEncoding.EncodeToString(blob)
	var b strings.Builder
	b.WriteString(sshBegin + "\n")
	for len(b64) > 70 {
		b.WriteString(b64[:70] + "\n")
		b64 = b64[70:]
	}
	b.WriteString(b64 + "\n" + sshEnd + "\n")
	return []byte(b.String())
}
