package devmail

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

func TestStartRejectsBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no domains":          {},
		"wildcard address":    {Domains: []string{"umpire.test"}, IMAPAddr: ":0"},
		"public address":      {Domains: []string{"umpire.test"}, SMTPAddr: "192.0.2.1:25"},
		"bad account":         {Accounts: map[string]string{"judge": "pw"}},
		"empty password":      {Accounts: map[string]string{judge: ""}},
		"domain with at-sign": {Domains: []string{"judge@umpire.test"}},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Start(context.Background(), cfg)
			if err == nil {
				s.Close()
				t.Fatalf("Start(%+v) succeeded", cfg)
			}
		})
	}
	_, err := Start(context.Background(), Config{Domains: []string{"umpire.test"}, IMAPAddr: "0.0.0.0:0"})
	if !errors.Is(err, ErrNotLoopback) {
		t.Errorf("Start on 0.0.0.0: err = %v, want ErrNotLoopback", err)
	}
}

func TestAccountsFromConfigAndOnDemand(t *testing.T) {
	s := startServer(t)
	if pw, ok := s.Password("Judge@Umpire.TEST"); !ok || pw != judgePW {
		t.Errorf("Password(judge) = %q, %v; want the configured one", pw, ok)
	}
	if _, ok := s.Password("bob@players.test"); ok {
		t.Fatal("bob has an account before any mail")
	}
	if err := s.Deliver(judge, []string{"Bob@Players.test"}, message(judge, "bob@players.test", "hello", "hi bob")); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	pw, ok := s.Password("bob@players.test")
	if !ok || len(pw) < 16 {
		t.Fatalf("Password(bob) = %q, %v; want a generated password", pw, ok)
	}
	c := dialIMAP(t, s.IMAPAddr(), "bob@players.test", pw, nil)
	if msgs := fetchAll(t, c, "INBOX"); len(msgs) != 1 {
		t.Fatalf("bob's INBOX holds %d messages, want 1", len(msgs))
	}

	if err := s.AddAccount("bob@players.test", "new-password"); err != nil {
		t.Fatalf("AddAccount: %v", err)
	}
	c2 := dialIMAP(t, s.IMAPAddr(), "bob@players.test", "new-password", nil)
	if msgs := fetchAll(t, c2, "INBOX"); len(msgs) != 1 {
		t.Fatalf("after a password change bob's INBOX holds %d messages, want 1", len(msgs))
	}
	if err := s.AddAccount("carol@elsewhere.test", "pw"); !errors.Is(err, ErrUnknownDomain) {
		t.Errorf("AddAccount outside the domains: err = %v, want ErrUnknownDomain", err)
	}
}

func TestDeliverRefusals(t *testing.T) {
	s := startServer(t)
	msg := message(alice, judge, "x", "x")
	if err := s.Deliver(alice, []string{judge, "eve@elsewhere.test"}, msg); !errors.Is(err, ErrUnknownDomain) {
		t.Errorf("Deliver to a foreign domain: err = %v, want ErrUnknownDomain", err)
	}
	if err := s.Deliver(alice, []string{"not-an-address"}, msg); !errors.Is(err, ErrBadAddress) {
		t.Errorf("Deliver to a bad address: err = %v, want ErrBadAddress", err)
	}
	if err := s.Deliver(alice, nil, msg); err == nil {
		t.Error("Deliver to nobody succeeded")
	}
	big := make([]byte, DefaultMaxMessageBytes+1)
	if err := s.Deliver(alice, []string{judge}, big); !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("Deliver too large: err = %v, want ErrMessageTooLarge", err)
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	if msgs := fetchAll(t, c, "INBOX"); len(msgs) != 0 {
		t.Errorf("refused deliveries left %d messages", len(msgs))
	}
}

func TestContextCancelStopsServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, Config{Domains: []string{"umpire.test"}, Logger: testLogger(t)})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	cancel()
	deadline := time.Now().Add(testWait)
	for listening(s.IMAPAddr()) || listening(s.SMTPAddr()) {
		if time.Now().After(deadline) {
			t.Fatal("still listening after the context was cancelled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close after cancel: %v", err)
	}
	if err := s.StartSMTP(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("StartSMTP after cancel: err = %v, want ErrClosed", err)
	}
	if err := s.Deliver(judge, []string{judge}, message(judge, judge, "x", "x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Deliver after cancel: err = %v, want ErrClosed", err)
	}
}

// TestCloseLeavesNoGoroutines runs a server through clients, restarts and
// Close, then checks that every goroutine it started has returned.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Start(context.Background(), Config{
		Accounts: map[string]string{judge: judgePW},
		Logger:   testLogger(t),
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := sendSMTP(s.SMTPAddr(), nil, alice, []string{judge}, message(alice, judge, "x", "x")); err != nil {
		t.Fatalf("send: %v", err)
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil) // left open: Close must drop it
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatalf("SELECT: %v", err)
	}
	if err := s.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := s.StartSMTP(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	select {
	case <-c.Closed():
	case <-time.After(testWait):
		t.Fatal("IMAP client still connected after Close")
	}
	deadline := time.Now().Add(testWait)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before Start, %d after Close:\n%s",
				before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
