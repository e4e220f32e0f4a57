package mailtest

import (
	"bytes"
	"context"
	"crypto/x509"
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
	uid, gid, err := ensureVmail()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// Dovecot's auth process, not root, must reach the password file.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	r := &realStack{dir: dir, users: make(map[string]string)}
	t.Cleanup(func() {
		if t.Failed() {
			r.logTails(t)
		}
	})
	ctx := context.Background()

	for attempt := 1; ; attempt++ {
		r.dovecot, err = newDovecot(dir, uid, gid)
		if err == nil {
			err = r.dovecot.start(ctx)
		}
		if err == nil {
			break
		}
		if attempt == dovecotAttempts {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if err := r.dovecot.stop(); err != nil {
			t.Error(err)
		}
	})

	r.smtpd, err = newOpenSMTPD(dir, r.dovecot.lmtpAddr())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.smtpd.start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.smtpd.stop(); err != nil {
			t.Error(err)
		}
	})
	return r
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

func (r *realStack) WaitFor(t testing.TB, address, password, folder string, n int, timeout time.Duration) [][]byte {
	t.Helper()
	return waitFor(t, r.IMAPAddr(), address, password, folder, n, timeout)
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
