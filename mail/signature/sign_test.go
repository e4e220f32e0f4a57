package signature

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/umpire-pbem/umpire/mail/signature/signtest"
)

// The server key tests use fixed times in the past: gpg, and the library's
// verifier, refuse keys and signatures made in the future.
func serverKeyTime() time.Time  { return time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC) }
func serverSignTime() time.Time { return time.Date(2025, 6, 15, 9, 30, 7, 0, time.UTC) }

const serverUID = "Umpire Judge <judge@umpire.test>"

func genServerKey(t testing.TB) *ServerKey {
	t.Helper()
	k, err := GenerateServerKey("Umpire Judge", "judge@umpire.test", serverKeyTime())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func serverKeyring(t testing.TB, keys ...*ServerKey) *Keyring {
	t.Helper()
	r := &Keyring{}
	for _, k := range keys {
		if err := r.Add(k.Public()); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func serverClearSign(t testing.TB, k *ServerKey, text string) []byte {
	t.Helper()
	signed, err := k.ClearSign([]byte(text), serverSignTime())
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

// serverText is a text the judge signs and the Content a verifier must see:
// the canonical form ClearSign documents.
type serverText struct {
	name, text, content string
}

func serverTexts() []serverText {
	return []serverText{
		{"receipt", "Orders received for France, turn 1901 Spring.\nDigest: 3f2a\n", "Orders received for France, turn 1901 Spring.\nDigest: 3f2a"},
		{"no final newline", "a\nb", "a\nb"},
		{"dashes", "-- \nsig\n- item\n---\n-\n-----BEGIN PGP SIGNATURE-----\n-----END PGP SIGNATURE-----\n",
			"--\nsig\n- item\n---\n-\n-----BEGIN PGP SIGNATURE-----\n-----END PGP SIGNATURE-----"},
		{"from lines", "From the judge:\nFrom: x\nFrom \n>From y\nfrom z\nFromage\n", "From the judge:\nFrom: x\nFrom\n>From y\nfrom z\nFromage"},
		{"utf-8", "Généralité — Ελλάδα, 日本語 🎲\nÜber\n", "Généralité — Ελλάδα, 日本語 🎲\nÜber"},
		{"trailing blanks", "a  \nb\t\n  c \t \n \n", "a\nb\n  c\n"},
		{"empty", "", ""},
		{"only a newline", "\n", ""},
		{"blank lines at the end", "a\n\n\n", "a\n\n"},
		{"blank lines at the start", "\n\na\n", "\n\na"},
		{"crlf", "a\r\nb \r\n\r\nc\r\n", "a\nb\n\nc"},
		{"lone cr", "a\rb\r", "a\nb"},
		{"quoted clear-signed orders", "Your orders:\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n>\n> A Par-Bur\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nF Bre-MAO\n",
			"Your orders:\n> -----BEGIN PGP SIGNED MESSAGE-----\n> Hash: SHA256\n>\n> A Par-Bur\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\nF Bre-MAO"},
		{"long line", strings.Repeat("x", 5000) + "\n", strings.Repeat("x", 5000)},
	}
}

// cleartext returns the lines of a clear-signed message between its header
// and its BEGIN PGP SIGNATURE line, as sent (dash-escaped).
func cleartext(t testing.TB, signed []byte) []string {
	t.Helper()
	s := string(signed)
	head := clearsignBegin + "\nHash: SHA256\n\n"
	if !strings.HasPrefix(s, head) {
		t.Fatalf("clear-signed message does not start with %q:\n%s", head, s)
	}
	i := strings.Index(s, "\n"+pgpSignatureBegin+"\n")
	if i < len(head)-1 {
		t.Fatalf("no BEGIN PGP SIGNATURE line:\n%s", s)
	}
	if i == len(head)-1 {
		return nil
	}
	return strings.Split(s[len(head):i], "\n")
}

func TestServerKeyGenerate(t *testing.T) {
	k := genServerKey(t)
	pub := k.Public()
	if pub.Kind != OpenPGP || !regexp.MustCompile(`^[0-9A-F]{40}$`).MatchString(pub.Fingerprint) || pub.Comment != serverUID {
		t.Fatalf("Public() = %+v", pub)
	}

	// Public is what ParseKey makes of ArmoredPublic, which is public only.
	armored := k.ArmoredPublic()
	if !bytes.HasPrefix(armored, []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n")) || !bytes.HasSuffix(armored, []byte("-----END PGP PUBLIC KEY BLOCK-----\n")) {
		t.Fatalf("ArmoredPublic:\n%s", armored)
	}
	parsed, err := ParseKey(armored)
	if err != nil {
		t.Fatal(err)
	}
	if parsed.Kind != pub.Kind || parsed.Fingerprint != pub.Fingerprint || parsed.Comment != pub.Comment || !bytes.Equal(parsed.Public, pub.Public) {
		t.Errorf("ParseKey(ArmoredPublic()) = %+v, Public() = %+v", parsed, pub)
	}
	if byPublic, err := ParseKey(pub.Public); err != nil || byPublic.Fingerprint != pub.Fingerprint {
		t.Errorf("ParseKey(Public().Public) = %+v, %v", byPublic, err)
	}

	// The key itself: an ed25519 (EdDSA) v4 primary key made at the time
	// given, able to sign, without expiry and without subkeys.
	el, err := openpgp.ReadKeyRing(bytes.NewReader(pub.Public))
	if err != nil || len(el) != 1 {
		t.Fatalf("reading Public: %d keys, %v", len(el), err)
	}
	e := el[0]
	if e.PrivateKey != nil {
		t.Error("Public holds private key material")
	}
	pk := e.PrimaryKey
	if curve, err := pk.Curve(); pk.PubKeyAlgo != packet.PubKeyAlgoEdDSA || err != nil || curve != packet.Curve25519 || pk.Version != 4 {
		t.Errorf("primary key: algorithm %d, curve %v (%v), version %d; want EdDSA Curve25519 v4", pk.PubKeyAlgo, curve, err, pk.Version)
	}
	if !pk.CreationTime.Equal(serverKeyTime()) {
		t.Errorf("key created %v, want %v", pk.CreationTime, serverKeyTime())
	}
	if len(e.Subkeys) != 0 {
		t.Errorf("the key has %d subkeys, want none", len(e.Subkeys))
	}
	self, id := e.PrimarySelfSignature()
	if self == nil || id == nil || id.Name != serverUID {
		t.Fatalf("primary self-signature %v, identity %v", self, id)
	}
	if !self.FlagsValid || !self.FlagSign {
		t.Errorf("primary key flags: valid %v, sign %v", self.FlagsValid, self.FlagSign)
	}
	if self.KeyLifetimeSecs != nil && *self.KeyLifetimeSecs != 0 {
		t.Errorf("key expires after %d s, want never", *self.KeyLifetimeSecs)
	}
	if far := serverKeyTime().AddDate(80, 0, 0); pk.KeyExpired(self, far) {
		t.Errorf("key expired by %v", far)
	}

	// The accessors hand out copies.
	pub.Public[0] ^= 0xff
	armored[0] = 'X'
	if k.Public().Public[0] == pub.Public[0] || k.ArmoredPublic()[0] == 'X' {
		t.Error("changing what Public or ArmoredPublic returned changed the key")
	}

	// Every key is new.
	if other := genServerKey(t); other.Public().Fingerprint == k.Public().Fingerprint {
		t.Error("two generated keys have the same fingerprint")
	}
}

func TestServerKeyGenerateRefuses(t *testing.T) {
	now := serverKeyTime()
	for _, c := range []struct {
		name, email string
		now         time.Time
	}{
		{"", "judge@umpire.test", now},
		{"Umpire", "", now},
		{"Umpire <x>", "judge@umpire.test", now},
		{"Umpire (judge)", "judge@umpire.test", now},
		{"Umpire\nJudge", "judge@umpire.test", now},
		{"Umpire", "judge@umpire.test>", now},
		{"Umpire", "judge\x00@umpire.test", now},
		{"Umpire\xff", "judge@umpire.test", now},
		{"Umpire", "judge@umpire.test", time.Time{}},
		{"Umpire", "judge@umpire.test", time.Unix(0, 0)},
		{"Umpire", "judge@umpire.test", time.Date(2107, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if k, err := GenerateServerKey(c.name, c.email, c.now); err == nil {
			t.Errorf("GenerateServerKey(%q, %q, %v) = key %s, want an error", c.name, c.email, c.now, k.Public().Fingerprint)
		} else if err.Error() != strings.ToLower(err.Error()[:1])+err.Error()[1:] {
			t.Errorf("error %q does not start in lowercase", err)
		}
	}
}

func TestServerKeyMarshalParse(t *testing.T) {
	k := genServerKey(t)
	priv, err := k.MarshalPrivate()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(priv, []byte("-----BEGIN PGP PRIVATE KEY BLOCK-----\n")) || !bytes.HasSuffix(priv, []byte("-----END PGP PRIVATE KEY BLOCK-----\n")) {
		t.Fatalf("MarshalPrivate:\n%s", priv)
	}
	// The private key is no player's key.
	if _, err := ParseKey(priv); !errors.Is(err, ErrMalformed) {
		t.Errorf("ParseKey(MarshalPrivate()) = %v, want ErrMalformed", err)
	}

	back, err := ParseServerKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	if back.Public().Fingerprint != k.Public().Fingerprint || !bytes.Equal(back.Public().Public, k.Public().Public) || back.Public().Comment != serverUID {
		t.Errorf("parsed key %+v, want %+v", back.Public(), k.Public())
	}
	if !bytes.Equal(back.ArmoredPublic(), k.ArmoredPublic()) {
		t.Error("the parsed key's ArmoredPublic differs")
	}
	if again, err := back.MarshalPrivate(); err != nil || !bytes.Equal(again, priv) {
		t.Errorf("marshalling the parsed key again gives other bytes (%v)", err)
	}

	// A signature by the parsed key verifies with the original's public
	// key, and is the very one the original makes.
	text := "Spring 1901 results\n"
	signed := serverClearSign(t, back, text)
	v, err := VerifyInline(signed, serverKeyring(t, k))
	if err != nil {
		t.Fatal(err)
	}
	if v.Fingerprint != k.Public().Fingerprint || string(v.Content) != "Spring 1901 results" {
		t.Errorf("verified %+v", v)
	}
	if !bytes.Equal(signed, serverClearSign(t, k, text)) {
		t.Error("the original and the parsed key sign the same text differently")
	}

	// The binary form, and armor with blanks around it, are read too.
	block, err := armor.Decode(bytes.NewReader(priv))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(block.Body)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"binary": raw, "padded": append(append([]byte("\n\n  "), priv...), "\n\n"...)} {
		if b, err := ParseServerKey(data); err != nil || b.Public().Fingerprint != k.Public().Fingerprint {
			t.Errorf("%s: ParseServerKey = %v", name, err)
		}
	}
}

func TestParseServerKeyMalformed(t *testing.T) {
	k, other := genServerKey(t), genServerKey(t)
	priv, err := k.MarshalPrivate()
	if err != nil {
		t.Fatal(err)
	}
	binary := func(k *ServerKey) []byte {
		block, err := armor.Decode(bytes.NewReader(must(k.MarshalPrivate())(t)))
		if err != nil {
			t.Fatal(err)
		}
		return must(io.ReadAll(block.Body))(t)
	}

	// The same key under a passphrase.
	el, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(priv))
	if err != nil {
		t.Fatal(err)
	}
	if err := el[0].EncryptPrivateKeys([]byte("secret"), nil); err != nil {
		t.Fatal(err)
	}
	var encrypted bytes.Buffer
	if err := el[0].SerializePrivateWithoutSigning(&encrypted, nil); err != nil {
		t.Fatal(err)
	}

	signed := serverClearSign(t, k, "x")
	half := len(priv) / 2
	for name, data := range map[string][]byte{
		"nil":              nil,
		"blank":            []byte(" \n\t\n"),
		"text":             []byte("not a key at all\n"),
		"high-bit garbage": {0x99, 0x01, 0x02, 0x03, 0xff, 0x00},
		"public armored":   k.ArmoredPublic(),
		"public binary":    k.Public().Public,
		"signature":        signed[bytes.Index(signed, []byte(pgpSignatureBegin)):],
		"truncated":        priv[:half],
		"bad base64":       append(append(append([]byte(nil), priv[:half]...), "!!!!"...), priv[half+4:]...),
		"two keys":         append(binary(k), binary(other)...),
		"passphrase":       encrypted.Bytes(),
		"too big":          bytes.Repeat([]byte{0x99}, maxKeySize+1),
		"ssh private":      []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"),
	} {
		got, err := ParseServerKey(data)
		var p panicError
		switch {
		case err == nil:
			t.Errorf("%s: ParseServerKey = key %s, want an error", name, got.Public().Fingerprint)
		case !errors.Is(err, ErrMalformed) || errors.As(err, &p):
			t.Errorf("%s: ParseServerKey error %v, want ErrMalformed without a panic", name, err)
		}
		if name == "passphrase" && err != nil && !strings.Contains(err.Error(), "passphrase") {
			t.Errorf("passphrase: error %q does not say so", err)
		}
	}
}

func TestServerClearSignVerifyInline(t *testing.T) {
	k := genServerKey(t)
	keys := serverKeyring(t, k)
	for _, c := range serverTexts() {
		t.Run(c.name, func(t *testing.T) {
			signed := serverClearSign(t, k, c.text)
			v, err := VerifyInline(signed, keys)
			if err != nil {
				t.Fatalf("%v\n%s", err, signed)
			}
			if v.Kind != OpenPGP || v.Fingerprint != k.Public().Fingerprint || !v.Created.Equal(serverSignTime()) {
				t.Errorf("verified %s by %s at %v", v.Kind, v.Fingerprint, v.Created)
			}
			if string(v.Content) != c.content {
				t.Errorf("Content = %q, want %q", v.Content, c.content)
			}
			if want := strings.ReplaceAll(c.content, "\n", "\r\n"); string(v.Signed) != want {
				t.Errorf("Signed = %q, want %q", v.Signed, want)
			}

			// As sent: every line that could be mistaken for armor or
			// quoted by an mbox is dash-escaped, the text is the content,
			// and no line ending but LF is used.
			lines := cleartext(t, signed)
			var unescaped []string
			for _, l := range lines {
				if strings.HasPrefix(l, "From ") || (strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "- ")) {
					t.Errorf("line %q is not dash-escaped", l)
				}
				unescaped = append(unescaped, strings.TrimPrefix(l, "- "))
			}
			if got := strings.Join(unescaped, "\n"); got != c.content {
				t.Errorf("text as sent = %q, want %q", got, c.content)
			}
			if bytes.ContainsRune(signed, '\r') || !bytes.HasSuffix(signed, []byte("\n-----END PGP SIGNATURE-----\n")) {
				t.Errorf("signed message:\n%q", signed)
			}
		})
	}
}

func TestServerClearSignTampered(t *testing.T) {
	k := genServerKey(t)
	keys := serverKeyring(t, k)
	signed := serverClearSign(t, k, "Turn 3: France holds Paris.\n")
	for _, c := range []struct{ from, to string }{
		{"holds", "holdz"},
		{"Turn 3", "Turn 4"},
		{"Paris.", "Paris!"},
		{"Paris.\n", "Paris.\nA Par-Bur\n"},
	} {
		tampered := bytes.Replace(signed, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(tampered, signed) {
			t.Fatalf("%q is not in the message", c.from)
		}
		if v, err := VerifyInline(tampered, keys); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%q → %q: VerifyInline = %+v, %v; want ErrBadSignature", c.from, c.to, v, err)
		}
	}

	// A key the keyring does not hold is named in the error.
	other := genServerKey(t)
	for _, r := range []*Keyring{{}, serverKeyring(t, other)} {
		_, err := VerifyInline(signed, r)
		var unknown *UnknownKeyError
		if !errors.As(err, &unknown) || unknown.Fingerprint != k.Public().Fingerprint {
			t.Errorf("VerifyInline without the key = %v, want UnknownKeyError for %s", err, k.Public().Fingerprint)
		}
	}
}

func TestServerClearSignDeterministic(t *testing.T) {
	k := genServerKey(t)
	text := []byte("Autumn 1901 results\n- F Bre-MAO\n")
	a, err := k.ClearSign(text, serverSignTime())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := k.ClearSign(text, serverSignTime()); !bytes.Equal(a, b) {
		t.Errorf("the same text, key and time signed twice differ:\n%s\n%s", a, b)
	}
	// The time is recorded in whole seconds.
	if b, _ := k.ClearSign(text, serverSignTime().Add(999*time.Millisecond)); !bytes.Equal(a, b) {
		t.Error("a fraction of a second changed the signature")
	}
	if b, _ := k.ClearSign(text, serverSignTime().Add(time.Second)); bytes.Equal(a, b) {
		t.Error("another time gave the same signature")
	}
	if b, _ := k.ClearSign(append(text, 'x'), serverSignTime()); bytes.Equal(a, b) {
		t.Error("another text gave the same signature")
	}
	// Texts that differ only in what the canonical form ignores are signed
	// alike.
	crlf := bytes.ReplaceAll(text, []byte("\n"), []byte(" \t\r\n"))
	if b, _ := k.ClearSign(crlf, serverSignTime()); !bytes.Equal(a, b) {
		t.Error("CRLF and trailing blanks changed the signed message")
	}
	if b, _ := k.ClearSign(bytes.TrimSuffix(text, []byte("\n")), serverSignTime()); !bytes.Equal(a, b) {
		t.Error("the final line ending changed the signed message")
	}
	if bytes.Contains(text, []byte("\r")) {
		t.Error("ClearSign changed the caller's text")
	}
}

func TestServerClearSignClock(t *testing.T) {
	k := genServerKey(t)
	keys := serverKeyring(t, k)
	for _, now := range []time.Time{
		time.Time{},
		time.Unix(0, 0),
		serverKeyTime().Add(-time.Second),
		time.Date(2107, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		if _, err := k.ClearSign([]byte("x"), now); err == nil {
			t.Errorf("signing at %v: no error", now)
		}
	}
	// A signature made the second the key was made is good.
	signed, err := k.ClearSign([]byte("x"), serverKeyTime())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyInline(signed, keys); err != nil {
		t.Error(err)
	}
}

// transported returns signed as a player's mail program may hand it over:
// sent as quoted-printable (with CRLF line endings, which the encoder
// writes as hard line breaks) and decoded again, with a greeting above, an
// mbox's ">From " quoting and a footer below.
func transported(t testing.TB, signed []byte) []byte {
	t.Helper()
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	if _, err := w.Write(bytes.ReplaceAll(signed, []byte("\n"), []byte("\r\n"))); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(qp.String(), "\r\n") {
		if len(l) > 76 {
			t.Fatalf("quoted-printable line of %d characters", len(l))
		}
	}
	decoded, err := io.ReadAll(quotedprintable.NewReader(&qp))
	if err != nil {
		t.Fatal(err)
	}
	mbox := regexp.MustCompile(`(?m)^From `).ReplaceAll(decoded, []byte(">From "))
	body := append([]byte("Hello,\r\nthe judge writes:\r\n\r\n"), mbox...)
	return append(body, "\r\n-- \r\numpire\r\n"...)
}

func TestServerClearSignTransport(t *testing.T) {
	k := genServerKey(t)
	keys := serverKeyring(t, k)
	for _, c := range serverTexts() {
		signed := serverClearSign(t, k, c.text)
		v, err := VerifyInline(transported(t, signed), keys)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(v.Content) != c.content {
			t.Errorf("%s: Content = %q, want %q", c.name, v.Content, c.content)
		}
	}
}

func TestServerKeyConcurrent(t *testing.T) {
	k := genServerKey(t)
	keys := serverKeyring(t, k)
	want := serverClearSign(t, k, "Spring 1902\n")
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < cap(errs); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			signed, err := k.ClearSign([]byte("Spring 1902\n"), serverSignTime())
			switch {
			case err != nil:
				errs <- err
			case !bytes.Equal(signed, want):
				errs <- errors.New("a concurrent signature differs")
			default:
				_, err := VerifyInline(signed, keys)
				_, _ = k.Public(), k.ArmoredPublic()
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// serverGPG runs the real gpg in a signtest home, as a player would.
type serverGPG struct {
	t    testing.TB
	home string
}

func newServerGPG(t testing.TB) *serverGPG {
	return &serverGPG{t: t, home: signtest.NewGPG(t).Home}
}

// run runs gpg with the status lines on standard output and returns them
// (stdout) and the messages for people (stderr). A non-zero exit is err.
func (g *serverGPG) run(stdin []byte, args ...string) (stdout, stderr string, err error) {
	g.t.Helper()
	cmd := exec.Command("gpg", append([]string{"--homedir", g.home, "--batch", "--no-tty", "--status-fd", "1",
		"--pinentry-mode", "loopback", "--passphrase", ""}, args...)...)
	// Messages in English, for the "Good signature" checks.
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANGUAGE=")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

func (g *serverGPG) mustRun(stdin []byte, args ...string) string {
	g.t.Helper()
	out, stderr, err := g.run(stdin, args...)
	if err != nil {
		g.t.Fatalf("gpg %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// file writes data to a file in the gpg home and returns its path.
func (g *serverGPG) file(name string, data []byte) string {
	g.t.Helper()
	p := filepath.Join(g.home, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		g.t.Fatal(err)
	}
	return p
}

// statusFields returns the fields after "[GNUPG:] KEYWORD" in gpg's status
// output, or nil.
func statusFields(status, keyword string) []string {
	for _, l := range strings.Split(status, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "[GNUPG:]" && f[1] == keyword {
			return f[2:]
		}
	}
	return nil
}

// verify has gpg --verify signed and checks a good signature by the server
// key k, made at serverSignTime with SHA-256 in text mode.
func (g *serverGPG) verify(k *ServerKey, signed []byte) {
	g.t.Helper()
	status, stderr, err := g.run(nil, "--verify", g.file("receipt.txt", signed))
	if err != nil || !strings.Contains(stderr, "Good signature") || statusFields(status, "GOODSIG") == nil {
		g.t.Fatalf("gpg --verify: %v\n%s\n%s\n%s", err, stderr, status, signed)
	}
	fpr := k.Public().Fingerprint
	f := statusFields(status, "VALIDSIG")
	// VALIDSIG fpr date timestamp expiry version reserved pk-algo hash-algo class primary-fpr
	if len(f) < 10 {
		g.t.Fatalf("VALIDSIG %v", f)
	}
	want := []string{fpr, serverSignTime().Format("2006-01-02"), strconv.FormatInt(serverSignTime().Unix(), 10), "0", "4", "0", "22", "8", "01", fpr}
	for i, w := range want {
		if f[i] != w {
			g.t.Errorf("VALIDSIG field %d = %q, want %q (pubkey algo 22 EdDSA, hash 8 SHA-256, class 01 text)\n%s", i+1, f[i], w, status)
		}
	}
}

// plaintext returns the signed text as gpg writes it out.
func (g *serverGPG) plaintext(signed []byte) string {
	g.t.Helper()
	out := filepath.Join(g.home, "out.txt")
	os.Remove(out)
	g.mustRun(nil, "--output", out, "--decrypt", g.file("receipt.txt", signed))
	b, err := os.ReadFile(out)
	if err != nil {
		g.t.Fatal(err)
	}
	return string(b)
}

func TestServerClearSignGPG(t *testing.T) {
	k := genServerKey(t)
	g := newServerGPG(t)
	g.mustRun(k.ArmoredPublic(), "--import")

	// gpg sees the key as made: ed25519, able to sign, never expiring,
	// with the fingerprint Public gives and no subkeys.
	var pub, fpr, uid []string
	listing := g.mustRun(nil, "--with-colons", "--fixed-list-mode", "--list-keys")
	for _, l := range strings.Split(listing, "\n") {
		f := strings.Split(l, ":")
		switch f[0] {
		case "pub":
			pub = f
		case "fpr":
			if fpr == nil {
				fpr = f
			}
		case "uid":
			uid = f
		case "sub", "sec", "ssb":
			t.Errorf("gpg lists a %s record: %s", f[0], l)
		}
	}
	switch {
	case len(pub) < 12 || len(fpr) < 10 || len(uid) < 10:
		t.Fatalf("gpg --list-keys:\n%s", listing)
	case fpr[9] != k.Public().Fingerprint:
		t.Errorf("gpg fingerprint %s, Public() %s", fpr[9], k.Public().Fingerprint)
	case pub[3] != "22" || pub[5] != strconv.FormatInt(serverKeyTime().Unix(), 10) || pub[6] != "" || !strings.Contains(pub[11], "s"):
		t.Errorf("gpg pub record %q: want algorithm 22 (EdDSA), created %d, no expiry, capability s", pub, serverKeyTime().Unix())
	case uid[9] != serverUID:
		t.Errorf("gpg user ID %q", uid[9])
	}

	for _, c := range serverTexts() {
		t.Run(c.name, func(t *testing.T) {
			g := &serverGPG{t: t, home: g.home}
			signed := serverClearSign(t, k, c.text)
			g.verify(k, signed)
			// gpg writes the text out with a final line ending.
			if got, want := g.plaintext(signed), c.content+"\n"; got != want {
				t.Errorf("gpg --decrypt gives %q, want %q", got, want)
			}
			// Saved from a mail with CRLF line endings, or as it went
			// through quoted-printable, an mbox and a footer.
			g.verify(k, bytes.ReplaceAll(signed, []byte("\n"), []byte("\r\n")))
			g.verify(k, transported(t, signed))
		})
	}

	// A changed text is a BAD signature to gpg too.
	signed := serverClearSign(t, k, "Turn 3: France holds Paris.\n")
	tampered := bytes.Replace(signed, []byte("holds"), []byte("holdz"), 1)
	status, stderr, err := g.run(nil, "--verify", g.file("tampered.txt", tampered))
	if err == nil || statusFields(status, "BADSIG") == nil || !strings.Contains(stderr, "BAD signature") {
		t.Errorf("gpg --verify of a changed text: %v\n%s\n%s", err, stderr, status)
	}
}

// A key made with gpg and exported without a passphrase can serve as the
// server key.
func TestServerKeyFromGPG(t *testing.T) {
	st := signtest.NewGPG(t)
	fpr := st.GenKey("Umpire Judge <judge@gpg.test>")
	g := &serverGPG{t: t, home: st.Home}
	// gpg made the key at the current time; the signature cannot be older.
	now := time.Now()
	out := filepath.Join(st.Home, "secret.asc")
	g.mustRun(nil, "--armor", "--output", out, "--export-secret-keys", fpr)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseServerKey(data)
	if err != nil {
		t.Fatal(err)
	}
	if k.Public().Fingerprint != fpr || k.Public().Comment != "Umpire Judge <judge@gpg.test>" {
		t.Errorf("parsed %+v, gpg made %s", k.Public(), fpr)
	}
	signed, err := k.ClearSign([]byte("- From the judge\n"), now)
	if err != nil {
		t.Fatal(err)
	}
	status, stderr, err := g.run(nil, "--verify", g.file("signed.txt", signed))
	if f := statusFields(status, "VALIDSIG"); err != nil || len(f) < 10 || f[9] != fpr {
		t.Errorf("gpg --verify: %v\n%s\n%s", err, stderr, status)
	}
	if v, err := VerifyInline(signed, serverKeyringOf(t, st.Export(fpr))); err != nil || v.Fingerprint != fpr || string(v.Content) != "- From the judge" {
		t.Errorf("VerifyInline = %+v, %v", v, err)
	}
}

func serverKeyringOf(t testing.TB, public []byte) *Keyring {
	t.Helper()
	k, err := ParseKey(public)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewKeyring(k)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Example output, for the record: what a player receives.
func ExampleServerKey_ClearSign() {
	k, err := GenerateServerKey("Umpire Judge", "judge@umpire.test", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		panic(err)
	}
	signed, err := k.ClearSign([]byte("From the judge:\n-- orders received\n"), time.Date(2025, 6, 15, 9, 30, 0, 0, time.UTC))
	if err != nil {
		panic(err)
	}
	head, _, _ := strings.Cut(string(signed), pgpSignatureBegin)
	fmt.Print(head)
	// Output:
	// -----BEGIN PGP SIGNED MESSAGE-----
	// Hash: SHA256
	//
	// - From the judge:
	// - -- orders received
}
