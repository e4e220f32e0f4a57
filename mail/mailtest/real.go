package mailtest

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// logTailLines is how much of each server log a failed test shows.
const logTailLines = 40

// dovecotAttempts is how often Real picks new ports when Dovecot fails to
// start, e.g. because another process took a port meanwhile.
const dovecotAttempts = 3

// Real starts Dovecot and OpenSMTPD for the test and stops them, and removes
// their folder, at its end. It skips the test when they are not installed
// or cannot run (fails it when CI is "true"). Both servers run in a private
// runtime (their own ports, sockets, queue and folders), so stacks of
// several test processes, and mail servers of the machine, run side by
// side; Real stops only the processes it started.
func Real(t testing.TB) Stack {
	t.Helper()
	checkSystem(t)
	r, err := startReal(context.Background(), realOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			r.logTails(t)
		}
		if err := r.close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

// realOptions are what a real stack has besides Real's: a signing port
// for each of signers (dkim.go), and Dovecot taking OAuth 2.0 tokens with
// its submission server (oauth.go).
type realOptions struct {
	signers []DKIMSigner
	oauth   *dovecotOAuth
}

// startReal makes a folder and starts Dovecot and OpenSMTPD in it, as o
// says; close stops them and removes it.
func startReal(ctx context.Context, o realOptions) (_ *realStack, err error) {
	uid, gid, err := ensureVmail()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return nil, fmt.Errorf("mailtest: %w", err)
	}
	r := &realStack{dir: dir, users: make(map[string]string)}
	defer func() {
		if err != nil {
			err = errors.Join(err, r.close())
		}
	}()
	// Dovecot's auth process, not root, must reach the password file.
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, fmt.Errorf("mailtest: %w", err)
	}
	smtpPort := 0
	if o.oauth != nil {
		// Dovecot's submission server relays to OpenSMTPD: its port is
		// chosen first.
		if smtpPort, err = freePort(); err != nil {
			return nil, err
		}
		o.oauth.RelayPort = smtpPort
	}
	for attempt := 1; ; attempt++ {
		d, err := newDovecot(dir, uid, gid, o.oauth)
		if err == nil {
			err = d.start(ctx)
		}
		if err == nil {
			r.dovecot = d
			break
		}
		if attempt == dovecotAttempts {
			return nil, err
		}
	}
	smtpd, err := newOpenSMTPD(dir, r.dovecot.lmtpAddr(), smtpPort, o.signers)
	if err != nil {
		return nil, err
	}
	if err := smtpd.start(ctx); err != nil {
		return nil, err
	}
	r.smtpd = smtpd
	return r, nil
}

// close stops the servers and removes the stack's folder.
func (r *realStack) close() error {
	var errs []error
	if r.smtpd != nil {
		errs = append(errs, r.smtpd.stop())
	}
	if r.dovecot != nil {
		errs = append(errs, r.dovecot.stop())
	}
	if err := os.RemoveAll(r.dir); err != nil {
		errs = append(errs, fmt.Errorf("mailtest: %w", err))
	}
	return errors.Join(errs...)
}

// realStack is a Stack over Dovecot and OpenSMTPD.
type realStack struct {
	dir     string
	dovecot *dovecot
	smtpd   *opensmtpd

	mu    sync.Mutex // guards users and the passwd file
	users map[string]string
}

func (r *realStack) Name() string     { return "real" }
func (r *realStack) IMAPAddr() string { return r.dovecot.imapAddr() }
func (r *realStack) SMTPAddr() string { return r.smtpd.addr() }

func (r *realStack) AddUser(t testing.TB, address, password string) {
	t.Helper()
	address = strings.ToLower(address)
	if password == "" || strings.ContainsAny(password, ":\n") || strings.ContainsAny(address, ":\n") {
		t.Fatalf("mailtest: AddUser %q: address or password unusable in a passwd file", address)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.users[address] = password
	if err := r.dovecot.writeUsers(r.users); err != nil {
		t.Fatal(err)
	}
	if err := awaitLogin(r.IMAPAddr(), address, password, true); err != nil {
		t.Fatal(err)
	}
}

func (r *realStack) Submit(t testing.TB, from string, to []string, raw []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	if err := submit(ctx, r.SMTPAddr(), from, to, raw); err != nil {
		t.Fatal(err)
	}
}

func (r *realStack) Mailbox(t testing.TB, address, password, folder string) [][]byte {
	t.Helper()
	return mailbox(t, r.IMAPAddr(), address, password, folder)
}

func (r *realStack) Count(t testing.TB, address, password, folder string) int {
	t.Helper()
	return count(t, r.IMAPAddr(), address, password, folder)
}

func (r *realStack) WaitFor(t testing.TB, address, password, folder string, n int, timeout time.Duration) [][]byte {
	t.Helper()
	return waitFor(t, r.IMAPAddr(), address, password, folder, 0, n, timeout)
}

func (r *realStack) WaitForMore(t testing.TB, address, password, folder string, seen, n int, timeout time.Duration) [][]byte {
	t.Helper()
	return waitFor(t, r.IMAPAddr(), address, password, folder, seen, n, timeout)
}

func (r *realStack) StopSMTP(t testing.TB) {
	t.Helper()
	if err := r.smtpd.stop(); err != nil {
		t.Fatal(err)
	}
}

func (r *realStack) StartSMTP(t testing.TB) {
	t.Helper()
	if r.smtpd.proc != nil {
		t.Fatal("mailtest: StartSMTP: OpenSMTPD is running")
	}
	if err := r.smtpd.start(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (r *realStack) RestartIMAP(t testing.TB) {
	t.Helper()
	if err := r.dovecot.stop(); err != nil {
		t.Fatal(err)
	}
	if err := r.dovecot.start(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// logTails shows the end of each server log.
func (r *realStack) logTails(t testing.TB) {
	t.Helper()
	for _, name := range []string{"dovecot.log", "dovecot.stderr", "smtpd.log"} {
		b, err := os.ReadFile(filepath.Join(r.dir, name))
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if len(lines) > logTailLines {
			lines = lines[len(lines)-logTailLines:]
		}
		t.Logf("mailtest: last lines of %s:\n%s", name, strings.Join(lines, "\n"))
	}
}

// RootCAs implements TLSRoots: Dovecot offers STARTTLS with a certificate
// this pool trusts.
func (r *realStack) RootCAs() *x509.CertPool { return r.dovecot.roots }

// CertFile implements TLSRoots.
func (r *realStack) CertFile() string { return filepath.Join(r.dir, "tls.crt") }
