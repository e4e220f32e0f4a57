//go:build integration

package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// checkSetup is README's example configuration pointed at the real test
// servers: IMAP is Dovecot behind an implicit-TLS front end (as port 993),
// SMTP is OpenSMTPD behind one too (as port 465: the test MTA has no
// STARTTLS and no AUTH, so the [smtp] section logs in as no one).
type checkSetup struct {
	st         mailtest.Stack
	dir        string
	imapTLS    string // Dovecot through implicit TLS
	config     string // the configuration's text, all checks passing
	configPath string
}

// readmeConfig is the example configuration in README.md's
// "Configuration".
func readmeConfig(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```toml\n# umpire.toml\n")
	text, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no example configuration (```toml # umpire.toml)")
	}
	return text
}

// edit replaces each old with its new in text, each exactly once.
func edit(t *testing.T, text string, pairs ...string) string {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		if n := strings.Count(text, pairs[i]); n != 1 {
			t.Fatalf("%q is in the configuration %d times, not once:\n%s", pairs[i], n, text)
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return text
}

func newCheckSetup(t *testing.T) *checkSetup {
	t.Helper()
	st := mailtest.Real(t)
	st.AddUser(t, daemontest.JudgeAddress, daemontest.JudgePassword)
	st.AddUser(t, "ops@players.test", "pw")
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "templates"), 0o755) // [templates] dir: none replaced
	cert, certPEM, keyPEM := checkCert(t)
	for name, data := range map[string][]byte{"ca.pem": certPEM, "web.pem": certPEM, "web.key": keyPEM, "imap.secret": []byte(daemontest.JudgePassword + "\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := &checkSetup{st: st, dir: dir, imapTLS: mailtest.TLSFront(t, st.IMAPAddr(), cert), configPath: filepath.Join(dir, "umpire.toml")}
	s.config = edit(t, readmeConfig(t),
		`address = "judge@example.org"`, `address = "`+daemontest.JudgeAddress+`"`,
		`operator = "ops@example.org"`, `operator = "ops@players.test"`,
		`address = "imap.example.org:993"`, `address = "`+s.imapTLS+`"`,
		`# ca_file = "imap-ca.pem"`, `ca_file = "ca.pem"`,
		`username = "judge@example.org"
password_file = "imap.secret"`, `username = "`+daemontest.JudgeAddress+`"
password_file = "imap.secret"`,
		`address = "smtp.example.org:587"
security = "starttls"
username = "judge@example.org"
password_file = "smtp.secret"`, `address = "`+mailtest.TLSFront(t, st.SMTPAddr(), cert)+`"
security = "tls"
ca_file = "ca.pem"`,
		`address = ":8443"`, `address = "127.0.0.1:0"`)
	return s
}

// check writes config and runs umpire check on it.
func (s *checkSetup) check(t *testing.T, config string, args ...string) (int, string) {
	t.Helper()
	if err := os.WriteFile(s.configPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, append([]string{"check", "--config", s.configPath}, args...)...)
	return code, out + errOut
}

// TestCheckReadmeConfig: README's example configuration, pointed at the
// real test servers, passes every check (exit 0) before the judge first
// starts and after; each of the mistakes an operator makes in it gets its
// own FAIL line naming the setting, and a line saying what to change.
func TestCheckReadmeConfig(t *testing.T) {
	s := newCheckSetup(t)
	code, out := s.check(t, s.config, "--mail")
	if code != exitOK {
		t.Fatalf("the example configuration: exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"ok   configuration " + s.configPath + " parses",
		"ok   imap " + s.imapTLS + ": implicit TLS (TLS 1.3)",
		"ok   imap " + s.imapTLS + ": certificate verifies for 127.0.0.1",
		"ok   imap " + s.imapTLS + ": logs in as " + daemontest.JudgeAddress,
		"(made now: processed, rejected, quarantine)",
		"ok   imap " + s.imapTLS + ": IDLE",
		"ok   smtp ",
		"ok   signing key: none yet",
		"ok   store " + filepath.Join(s.dir, "umpire.db") + ": not there yet",
		"ok   web.address 127.0.0.1:0 can be listened on",
		"ok   web.cert_file " + filepath.Join(s.dir, "web.pem") + " loads",
		"ok   test mail to ops@players.test sent",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL") {
		t.Errorf("a FAIL line:\n%s", out)
	}
	got := s.st.WaitFor(t, "ops@players.test", "pw", "INBOX", 1, 20*time.Second)
	if !strings.Contains(string(got[0]), "Subject: umpire check: test mail") {
		t.Errorf("the test mail:\n%s", got[0])
	}
	// The judge runs once (its store and key are made), and the check
	// then signs and verifies with its key.
	if code, out, errOut := run(t, "serve", "--once", "--config", s.configPath); code != exitOK {
		t.Fatalf("serve --once: exit %d\n%s%s", code, out, errOut)
	}
	code, out = s.check(t, s.config)
	if code != exitOK || !strings.Contains(out, "signs and verifies") || !strings.Contains(out, "opens (schema") ||
		!strings.Contains(out, "quarantine are there\n") {
		t.Errorf("after serve: exit %d:\n%s", code, out)
	}

	t.Run("STARTTLS on 143", func(t *testing.T) {
		config := edit(t, s.config, `address = "`+s.imapTLS+`"`, `address = "`+s.st.IMAPAddr()+`"`,
			`security = "tls"               # tls`, `security = "starttls"          # tls`,
			`ca_file = "ca.pem"      # certificates`, `ca_file = "`+s.st.(mailtest.TLSRoots).CertFile()+`"      # certificates`)
		code, out := s.check(t, config)
		if code != exitOK || !strings.Contains(out, "ok   imap "+s.st.IMAPAddr()+": STARTTLS (TLS 1.") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("while the judge runs", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Now: time.Now,
			Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }, Logger: slog.New(slog.DiscardHandler)}
		done := make(chan int)
		go func() {
			code := m.Run(ctx, []string{"serve", "--config", s.configPath})
			m.Close()
			done <- code
		}()
		defer func() {
			cancel()
			if code := <-done; code != exitOK {
				t.Errorf("serve: exit %d", code)
			}
		}()
		sock := filepath.Join(s.dir, "umpire.db.sock")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat(sock); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("serve made no control socket")
			}
		}
		code, out := s.check(t, s.config)
		if code != exitOK || !strings.Contains(out, "warn signing key: not checked: a running judge holds the store") ||
			!strings.Contains(out, "ok   store "+filepath.Join(s.dir, "umpire.db")+": in use by a running judge") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})

	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().String()
	}()
	for _, tc := range []struct {
		name    string
		edits   []string
		setup   func(t *testing.T)
		fail    string // the FAIL line's text
		hint    string // its indented line
		noLater string // a check that is not reached
	}{
		{name: "wrong port", edits: []string{`address = "` + s.imapTLS + `"`, `address = "` + closed + `"`},
			fail: "FAIL imap " + closed + ": cannot connect", hint: "nothing listens on that port: check the port in imap.address (usually 993", noLater: ": logs in as"},
		{name: "plain on 993 (starttls)", edits: []string{`security = "tls"               # tls`, `security = "starttls"          # tls`},
			fail: "FAIL imap " + s.imapTLS + `: a plain connection to an implicit-TLS port: the server waits for a TLS handshake (as on port 993), but imap.security is "starttls"`,
			hint: `set imap.security = "tls" for this port`, noLater: ": logs in as"},
		{name: "plain on 993 (none)", edits: []string{`security = "tls"               # tls`, `security = "none"              # tls`},
			fail: "FAIL imap " + s.imapTLS + `: a plain connection to an implicit-TLS port: the server waits for a TLS handshake (as on port 993), but imap.security is "none"`,
			hint: `set imap.security = "tls" for this port`, noLater: ": logs in as"},
		{name: "TLS on 143", edits: []string{`address = "` + s.imapTLS + `"`, `address = "` + s.st.IMAPAddr() + `"`},
			fail: "FAIL imap " + s.st.IMAPAddr() + `: TLS to a plain-text port: the server greets in plain text ("* OK…", as on port 143), but imap.security is "tls"`, hint: `set imap.security = "starttls" for this port`, noLater: ": logs in as"},
		{name: "wrong password", setup: func(t *testing.T) { os.WriteFile(filepath.Join(s.dir, "imap.secret"), []byte("wrong\n"), 0o600) },
			fail: "FAIL imap " + s.imapTLS + ": login as " + daemontest.JudgeAddress + " refused: imap: NO [AUTHENTICATIONFAILED]", hint: "check imap.username and the password (imap.password_file, or imap.password)"},
		{name: "missing folder", edits: []string{`folder = "INBOX"`, `folder = "Orders"`},
			fail: "FAIL imap " + s.imapTLS + `: no such folder "Orders" (imap.folder)`, hint: "set imap.folder to the folder orders arrive in; the server has INBOX"},
		{name: "secret file missing", edits: []string{`password_file = "imap.secret"`, `password_file = "imap.secrte"`},
			fail: "FAIL imap.password_file " + filepath.Join(s.dir, "imap.secrte") + " cannot be read: no such file or directory",
			hint: "write the file's path in imap.password_file (a relative path is relative to " + s.dir + ")", noLater: "ok   imap " + s.imapTLS},
		{name: "secret file unreadable", edits: []string{`password_file = "imap.secret"`, `password_file = "templates"`},
			setup: func(t *testing.T) { os.MkdirAll(filepath.Join(s.dir, "templates"), 0o755) },
			fail:  "FAIL imap.password_file " + filepath.Join(s.dir, "templates") + " cannot be read: is a directory",
			hint:  "make it a file readable by the user umpire runs as", noLater: "ok   imap " + s.imapTLS},
		{name: "untrusted certificate", edits: []string{`ca_file = "ca.pem"      # certificates`, `# ca_file = "ca.pem"    # certificates`},
			fail: "FAIL imap " + s.imapTLS + ": the certificate does not verify", hint: "give its certificate (PEM) in imap.ca_file", noLater: ": logs in as"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(filepath.Join(s.dir, "imap.secret"), []byte(daemontest.JudgePassword+"\n"), 0o600)
			if tc.setup != nil {
				tc.setup(t)
			}
			code, out := s.check(t, edit(t, s.config, tc.edits...))
			if code != exitFail {
				t.Errorf("exit %d, want %d", code, exitFail)
			}
			if strings.Count(out, "FAIL ") != 1 {
				t.Errorf("want one FAIL line:\n%s", out)
			}
			i := strings.Index(out, tc.fail)
			if i < 0 {
				t.Fatalf("no line %q in:\n%s", tc.fail, out)
			}
			line, rest, _ := strings.Cut(out[i:], "\n")
			if hint, _, _ := strings.Cut(rest, "\n"); !strings.HasPrefix(hint, "     ") || !strings.Contains(hint, tc.hint) {
				t.Errorf("after %q the line %q, want one with %q", line, hint, tc.hint)
			}
			if tc.noLater != "" && strings.Contains(out, tc.noLater) {
				t.Errorf("a check after the failed one passed:\n%s", out)
			}
			if !strings.Contains(out, "ok   signing key") {
				t.Errorf("the checks that do not depend on it stopped:\n%s", out)
			}
		})
	}
	os.WriteFile(filepath.Join(s.dir, "imap.secret"), []byte(daemontest.JudgePassword+"\n"), 0o600)

	t.Run("store on a read-only path", func(t *testing.T) {
		// The store's folder is mounted read-only in a mount namespace of
		// the check's own: the test binary runs as umpire (TestMain).
		ro := filepath.Join(s.dir, "ro")
		os.MkdirAll(ro, 0o755)
		config := edit(t, s.config, `store = "umpire.db"`, `store = "ro/umpire.db"`)
		os.WriteFile(s.configPath, []byte(config), 0o600)
		cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-c",
			`mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"`, "sh", ro,
			os.Args[0], "check", "--config", s.configPath)
		cmd.Env = append(os.Environ(), "UMPIRE_TEST_JUDGE=stall")
		b, err := cmd.CombinedOutput()
		out := string(b)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFail {
			t.Fatalf("exit %v, want %d:\n%s", err, exitFail, out)
		}
		want := "FAIL store " + filepath.Join(ro, "umpire.db") + ": its folder " + ro + " is on a read-only file system\n     set store to a path the judge can write"
		if !strings.Contains(out, want) || strings.Count(out, "FAIL ") != 1 {
			t.Errorf("want the one FAIL line %q in:\n%s", want, out)
		}
	})
}

// checkCert makes a self-signed certificate for 127.0.0.1: the
// certificate, and it and its key as PEM.
func checkCert(t *testing.T) (tls.Certificate, []byte, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "umpire check test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}
