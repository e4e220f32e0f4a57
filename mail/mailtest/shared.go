package mailtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// drainTimeout bounds how long a Shared stack waits, between two tests,
// for OpenSMTPD to deliver what the first test left in its queue; what is
// still queued then is removed.
const drainTimeout = 10 * time.Second

// Shared is one real stack that the tests of a package take in turn, so
// that Dovecot and OpenSMTPD start once per test binary instead of once per
// test. A TestMain makes it and closes it after the tests:
//
//	var servers *mailtest.Shared
//
//	func TestMain(m *testing.M) {
//		servers = mailtest.NewShared()
//		code := m.Run()
//		if err := servers.Close(); err != nil {
//			fmt.Fprintln(os.Stderr, err)
//		}
//		os.Exit(code)
//	}
//
// and a test calls servers.Stack(t) where it would call Real(t). The
// servers start when the first test asks for them.
//
// One test has the stack at a time: Stack waits while another test has it,
// so tests that run in parallel take it one after the other. When the test
// ends the stack is emptied for the next: mail the test left in the MTA's
// queue is delivered (or, after drainTimeout, removed), every account and
// mailbox is deleted, a stopped server is started again on its address and
// the logs start afresh. Each test thus sees the stack as Real gives it,
// with the same addresses; it must close its IMAP sessions before it ends,
// as it would with Real.
type Shared struct {
	turn chan struct{} // holds a token while a test has the stack

	mu     sync.Mutex // guards holder
	holder string     // the name of the test that has the stack

	stack *realStack // nil before the first test and after a failed reset
}

// NewShared returns a Shared stack whose servers have not started yet.
func NewShared() *Shared {
	return &Shared{turn: make(chan struct{}, 1)}
}

// Stack gives the shared stack to the test t until t ends, waiting while
// another test has it. Like Real, it skips the test when the servers cannot
// run here (fails it when CI is "true"). A subtest of the test that has the
// stack uses its parent's: asking again would wait for ever, and fails.
func (s *Shared) Stack(t testing.TB) Stack {
	t.Helper()
	checkSystem(t)
	s.mu.Lock()
	holder := s.holder
	s.mu.Unlock()
	if holder != "" && strings.HasPrefix(t.Name(), holder+"/") {
		t.Fatalf("mailtest: %s asks for the shared stack that its parent %s has: use the parent's", t.Name(), holder)
	}
	s.turn <- struct{}{}
	s.mu.Lock()
	s.holder = t.Name()
	s.mu.Unlock()
	if s.stack == nil {
		r, err := startReal(context.Background(), realOptions{})
		if err != nil {
			s.release()
			t.Fatal(err)
		}
		s.stack = r
	}
	r := s.stack
	t.Cleanup(func() {
		if t.Failed() {
			r.logTails(t)
		}
		if err := r.empty(context.Background()); err != nil {
			t.Errorf("mailtest: emptying the shared stack after %s: %v; the next test starts new servers", t.Name(), err)
			if err := r.close(); err != nil {
				t.Error(err)
			}
			s.stack = nil
		}
		s.release()
	})
	return r
}

// release lets the next test take the stack.
func (s *Shared) release() {
	s.mu.Lock()
	s.holder = ""
	s.mu.Unlock()
	<-s.turn
}

// Close stops the servers, if they started, and removes their folder. Call
// it once the tests have ended.
func (s *Shared) Close() error {
	s.turn <- struct{}{}
	defer func() { <-s.turn }()
	if s.stack == nil {
		return nil
	}
	err := s.stack.close()
	s.stack = nil
	return err
}

// empty brings a stack a test has used back to the state Real starts it
// in, on the same addresses: both servers running, no mail queued, no
// account, no mailbox and empty logs.
func (r *realStack) empty(ctx context.Context) error {
	if r.dovecot.proc == nil {
		if err := r.dovecot.start(ctx); err != nil {
			return err
		}
	}
	if r.smtpd.proc == nil {
		if err := r.smtpd.start(ctx); err != nil {
			return err
		}
	}
	if err := r.smtpd.drain(ctx, drainTimeout); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var user, password string // one account the test had, to see it go
	for user, password = range r.users {
		break
	}
	clear(r.users)
	if err := r.dovecot.writeUsers(r.users); err != nil {
		return err
	}
	if user != "" {
		if err := awaitLogin(r.IMAPAddr(), user, password, false); err != nil {
			return err
		}
	}
	mailRoot := filepath.Join(r.dir, "mail")
	entries, err := os.ReadDir(mailRoot)
	if err != nil {
		return fmt.Errorf("mailtest: %w", err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(mailRoot, e.Name())); err != nil {
			return fmt.Errorf("mailtest: %w", err)
		}
	}
	for _, name := range []string{"dovecot.log", "dovecot.stderr", "smtpd.log"} {
		// The servers append to them: the next line lands at the start.
		if err := os.Truncate(filepath.Join(r.dir, name), 0); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("mailtest: %w", err)
		}
	}
	return nil
}

// drain waits until OpenSMTPD's queue is empty, for at most timeout, then
// removes what is left in it.
func (o *opensmtpd) drain(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		out, err := smtpctl(ctx, o.proc, "show", "queue")
		if err != nil {
			return fmt.Errorf("mailtest: opensmtpd: %w", err)
		}
		if len(strings.TrimSpace(string(out))) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			if _, err := smtpctl(ctx, o.proc, "remove", "all"); err != nil {
				return fmt.Errorf("mailtest: opensmtpd: %w", err)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
