package mailtest

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/devmail"
)

// Embedded starts a devmail server for the test, closed at its end. Its log
// is shown if the test fails.
func Embedded(t testing.TB) Stack {
	t.Helper()
	log := &logBuffer{}
	s, err := devmail.Start(context.Background(), devmail.Config{
		Domains: []string{JudgeDomain, PlayerDomain},
		Logger:  slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		if t.Failed() {
			t.Logf("mailtest: devmail log:\n%s", log.String())
		}
	})
	return &embedded{srv: s}
}

// embedded is a Stack over devmail.
type embedded struct {
	srv *devmail.Server
}

func (e *embedded) Name() string     { return "embedded" }
func (e *embedded) IMAPAddr() string { return e.srv.IMAPAddr() }
func (e *embedded) SMTPAddr() string { return e.srv.SMTPAddr() }

func (e *embedded) AddUser(t testing.TB, address, password string) {
	t.Helper()
	if err := e.srv.AddAccount(address, password); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
}

func (e *embedded) Submit(t testing.TB, from string, to []string, raw []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	if err := submit(ctx, e.SMTPAddr(), from, to, raw); err != nil {
		t.Fatal(err)
	}
}

func (e *embedded) Mailbox(t testing.TB, address, password, folder string) [][]byte {
	t.Helper()
	return mailbox(t, e.IMAPAddr(), address, password, folder)
}

func (e *embedded) Count(t testing.TB, address, password, folder string) int {
	t.Helper()
	return count(t, e.IMAPAddr(), address, password, folder)
}

func (e *embedded) WaitFor(t testing.TB, address, password, folder string, n int, timeout time.Duration) [][]byte {
	t.Helper()
	return waitFor(t, e.IMAPAddr(), address, password, folder, 0, n, timeout)
}

func (e *embedded) WaitForMore(t testing.TB, address, password, folder string, seen, n int, timeout time.Duration) [][]byte {
	t.Helper()
	return waitFor(t, e.IMAPAddr(), address, password, folder, seen, n, timeout)
}

func (e *embedded) StopSMTP(t testing.TB) {
	t.Helper()
	if err := e.srv.StopSMTP(); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
}

func (e *embedded) StartSMTP(t testing.TB) {
	t.Helper()
	if err := e.srv.StartSMTP(context.Background()); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
}

func (e *embedded) RestartIMAP(t testing.TB) {
	t.Helper()
	if err := e.srv.StopIMAP(); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
	if err := e.srv.StartIMAP(context.Background()); err != nil {
		t.Fatalf("mailtest: %v", err)
	}
}

// logBuffer is a log destination safe for concurrent writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
