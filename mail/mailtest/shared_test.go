//go:build integration

package mailtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestShared: the tests that take a Shared stack share its servers, one
// test at a time, and each finds it as Real starts it: no account, no
// mail, not even mail the test before left queued while its MTA was down,
// and both servers up on the same addresses. Close stops them and removes
// their folder.
func TestShared(t *testing.T) {
	s := NewShared()
	var (
		imapAddr, smtpAddr, dir string
		groups                  []int
	)
	t.Run("first", func(t *testing.T) {
		st := s.Stack(t)
		r := st.(*realStack)
		imapAddr, smtpAddr, dir = st.IMAPAddr(), st.SMTPAddr(), r.dir
		groups = []int{r.dovecot.proc.cmd.Process.Pid, r.smtpd.proc.cmd.Process.Pid}
		st.AddUser(t, judge, password)
		raw, _ := message(alice, judge, "first")
		st.Submit(t, alice, []string{judge}, raw)
		st.WaitFor(t, judge, password, "INBOX", 1, waitTime)
		if n := st.Count(t, judge, password, "INBOX"); n != 1 {
			t.Errorf("Count = %d, want 1", n)
		}
		// mail queued for a later delivery, then the MTA left down
		raw, _ = message(alice, bob, "left behind")
		st.Submit(t, alice, []string{bob}, raw)
		st.StopSMTP(t)
	})
	if dir == "" {
		t.Skip("no real stack here")
	}
	t.Run("second", func(t *testing.T) {
		st := s.Stack(t)
		if st.IMAPAddr() != imapAddr || st.SMTPAddr() != smtpAddr || st.(*realStack).dir != dir {
			t.Errorf("the second test has servers at %s and %s in %s, the first had %s and %s in %s",
				st.IMAPAddr(), st.SMTPAddr(), st.(*realStack).dir, imapAddr, smtpAddr, dir)
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitTime)
		defer cancel()
		if _, err := fetchFolder(ctx, st.IMAPAddr(), judge, password, "INBOX", 0); err == nil {
			t.Error("the first test's account logs in in the second test")
		}
		st.AddUser(t, judge, password)
		st.AddUser(t, bob, password)
		raw, body := message(alice, judge, "second")
		st.Submit(t, alice, []string{judge}, raw)
		checkBody(t, st.WaitFor(t, judge, password, "INBOX", 1, waitTime), "second", body)
		if got := st.Mailbox(t, bob, password, "INBOX"); len(got) != 0 {
			t.Errorf("bob's INBOX holds %d messages of the first test", len(got))
		}
		if b, err := os.ReadFile(dir + "/smtpd.log"); err != nil || strings.Contains(string(b), "left behind") {
			t.Errorf("the log of the first test is in the second's (%v)", err)
		}
	})
	t.Run("parallel tests take turns", func(t *testing.T) {
		var (
			mu      sync.Mutex
			holding int
		)
		for _, name := range []string{"a", "b", "c"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				st := s.Stack(t)
				mu.Lock()
				holding++
				if holding != 1 {
					t.Errorf("%d tests have the stack at once", holding)
				}
				mu.Unlock()
				t.Cleanup(func() {
					mu.Lock()
					holding--
					mu.Unlock()
				})
				st.AddUser(t, judge, password)
				raw, _ := message(alice, judge, name)
				st.Submit(t, alice, []string{judge}, raw)
				st.WaitFor(t, judge, password, "INBOX", 1, waitTime)
			})
		}
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pgid := range groups {
		if groupAlive(pgid) {
			t.Errorf("process group %d still alive after Close", pgid)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still exists after Close (err %v)", dir, err)
	}
}

// TestSharedRefusesASubtest: a subtest cannot take the stack its parent
// has; it would wait for ever.
func TestSharedRefusesASubtest(t *testing.T) {
	s := NewShared()
	t.Cleanup(func() { s.Close() }) // after the test has given the stack back
	s.Stack(t)
	child := &subtestTB{TB: t, name: t.Name() + "/child"}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Stack(child)
	}()
	select {
	case <-done:
	case <-time.After(waitTime):
		t.Fatal("a subtest waits for its parent's stack")
	}
	if !strings.Contains(child.fatal, "use the parent's") {
		t.Errorf("fatal %q, want a refusal", child.fatal)
	}
}

// subtestTB is a testing.TB named as a subtest of the test it wraps, whose
// Fatalf records the message and ends the goroutine.
type subtestTB struct {
	testing.TB
	name  string
	fatal string
}

func (s *subtestTB) Name() string { return s.name }
func (s *subtestTB) Fatalf(format string, args ...any) {
	s.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
