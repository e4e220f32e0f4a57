package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
)

// memHandler records handled messages with the semantics a store gives:
// the checkpoint and the consumed set change together with the handling.
type memHandler struct {
	mu       sync.Mutex
	handled  []Message
	consumed map[string]Disposition // by Message-ID header
	validity uint32
	lastUID  uint32
	fail     func(m Message) error
	reject   func(m Message) bool
}

func newMemHandler() *memHandler { return &memHandler{consumed: map[string]Disposition{}} }

func messageID(raw []byte) string {
	for _, l := range strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n") {
		if v, ok := strings.CutPrefix(l, "Message-ID: "); ok {
			return v
		}
	}
	return ""
}

func (h *memHandler) Handle(_ context.Context, m Message) (Disposition, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		if err := h.fail(m); err != nil {
			return 0, err
		}
	}
	h.validity, h.lastUID = m.UIDValidity, max(h.lastUID, m.UID)
	id := messageID(m.Raw)
	if d, ok := h.consumed[id]; ok {
		return d, nil
	}
	d := Processed
	if h.reject != nil && h.reject(m) {
		d = Rejected
	}
	h.consumed[id] = d
	h.handled = append(h.handled, m)
	return d, nil
}

func (h *memHandler) Checkpoint(context.Context, string) (uint32, uint32, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.validity, h.lastUID, nil
}

func (h *memHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.handled)
}

const judgeAddr, judgePass = "judge@umpire.test", "judge-secret"

// stacks are the mail systems the inbox tests run on: devmail in process,
// and, built with the integration tag, the real Dovecot and OpenSMTPD that
// realmail_test.go adds.
var stacks = []func(testing.TB) mailtest.Stack{mailtest.Embedded}

func startStack(t *testing.T, mk func(testing.TB) mailtest.Stack) mailtest.Stack {
	t.Helper()
	st := mk(t)
	st.AddUser(t, judgeAddr, judgePass)
	return st
}

// deliver submits n order mails through the MTA and waits until they are in
// the judge's INBOX.
func deliver(t *testing.T, st mailtest.Stack, first, n int, body string) {
	t.Helper()
	before := len(st.Mailbox(t, judgeAddr, judgePass, "INBOX"))
	for i := first; i < first+n; i++ {
		st.Submit(t, fmt.Sprintf("p%d@players.test", i), []string{judgeAddr}, orderMail(i, body))
	}
	st.WaitFor(t, judgeAddr, judgePass, "INBOX", before+n, 20*time.Second)
}

func orderMail(i int, body string) []byte {
	return []byte(fmt.Sprintf("From: p%d@players.test\r\nTo: judge@umpire.test\r\nMessage-ID: <m%d@players.test>\r\nSubject: orders %d\r\n\r\n%s\r\n", i, i, i, body))
}

func newTestInbox(t *testing.T, st mailtest.Stack, h *memHandler, mod func(*InboxConfig)) *Inbox {
	t.Helper()
	cfg := InboxConfig{Server: Server{Address: st.IMAPAddr(), Security: Insecure, Username: judgeAddr, Password: judgePass, Timeout: 5 * time.Second},
		Poll: 200 * time.Millisecond, Reconnect: Backoff{Base: 20 * time.Millisecond, Max: 200 * time.Millisecond}}
	if mod != nil {
		mod(&cfg)
	}
	in, err := NewInbox(cfg, h, h)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// folder lists the Message-IDs in one of the judge's folders.
func folder(t *testing.T, st mailtest.Stack, name string) []string {
	t.Helper()
	var ids []string
	for _, raw := range st.Mailbox(t, judgeAddr, judgePass, name) {
		ids = append(ids, messageID(raw))
	}
	return ids
}

func TestInboxTakesEachMessageOnce(t *testing.T) {
	t.Parallel()
	for _, mk := range stacks {
		st := startStack(t, mk)
		t.Run(st.Name(), func(t *testing.T) { testTakesEachMessageOnce(t, st) })
	}
}

func testTakesEachMessageOnce(t *testing.T, st mailtest.Stack) {
	deliver(t, st, 1, 7, "move A 1 2")
	h := newMemHandler()
	h.reject = func(m Message) bool { return strings.Contains(string(m.Raw), "<m3@") }
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.Batch = 3 })
	if err := in.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.count() != 7 {
		t.Fatalf("handled %d messages, want 7", h.count())
	}
	for i, m := range h.handled {
		if i > 0 && m.UID <= h.handled[i-1].UID {
			t.Errorf("not in UID order: %d after %d", m.UID, h.handled[i-1].UID)
		}
		if m.Truncated || !strings.Contains(string(m.Raw), "move A 1 2") {
			t.Errorf("message %d incomplete: %q", m.UID, m.Raw)
		}
	}
	if got := folder(t, st, "INBOX"); len(got) != 0 {
		t.Errorf("INBOX still holds %v", got)
	}
	if got := folder(t, st, "processed"); len(got) != 6 {
		t.Errorf("processed holds %v, want 6", got)
	}
	if got := folder(t, st, "rejected"); !slices.Equal(got, []string{"<m3@players.test>"}) {
		t.Errorf("rejected holds %v", got)
	}
	// Nothing is taken twice.
	if err := in.Once(context.Background()); err != nil || h.count() != 7 {
		t.Errorf("second pass: %v, %d handled", err, h.count())
	}
}

func TestInboxLeavesWhatFailsAndQuarantinesPoison(t *testing.T) {
	st := startStack(t, mailtest.Embedded)
	deliver(t, st, 1, 3, "x")
	h := newMemHandler()
	h.fail = func(m Message) error {
		if strings.Contains(string(m.Raw), "<m2@") {
			return errors.New("store unavailable")
		}
		return nil
	}
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.MaxFailures = 3 })
	err := in.Once(context.Background())
	if err == nil || !strings.Contains(err.Error(), "attempt 1 of 3") {
		t.Fatalf("first pass: %v", err)
	}
	// Message 1 was committed and moved; 2 and 3 wait in the INBOX.
	if got := folder(t, st, "INBOX"); len(got) != 2 {
		t.Errorf("INBOX after a failure: %v", got)
	}
	in.Once(context.Background())
	if err := in.Once(context.Background()); err != nil {
		t.Fatalf("third pass: %v", err)
	}
	if got := folder(t, st, "quarantine"); !slices.Equal(got, []string{"<m2@players.test>"}) {
		t.Errorf("the poisonous message was not quarantined: the quarantine folder holds %v", got)
	}
	if got := folder(t, st, "INBOX"); len(got) != 0 || h.count() != 2 {
		t.Errorf("INBOX %v, %d handled", got, h.count())
	}
}

func TestInboxHandlerPanicDoesNotStopTheJudge(t *testing.T) {
	st := startStack(t, mailtest.Embedded)
	deliver(t, st, 1, 1, "x")
	h := newMemHandler()
	h.fail = func(Message) error { panic("bug") }
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.MaxFailures = 1 })
	if err := in.Once(context.Background()); err != nil {
		t.Fatalf("a panicking handler: %v", err)
	}
	if got := folder(t, st, "quarantine"); len(got) != 1 {
		t.Errorf("the quarantine folder holds %v", got)
	}
}

func TestInboxTruncatesLargeMessages(t *testing.T) {
	st := startStack(t, mailtest.Embedded)
	deliver(t, st, 1, 1, strings.Repeat("big body line\r\n", 3000))
	h := newMemHandler()
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.MaxSize = 1000 })
	if err := in.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := h.handled[0]
	if !m.Truncated || m.Size < 40000 || strings.Contains(string(m.Raw), "big") || !strings.Contains(string(m.Raw), "Message-ID: <m1@") {
		t.Errorf("large message handed over as truncated=%v size=%d raw=%q", m.Truncated, m.Size, m.Raw)
	}
}

func TestInboxRunIdlesAndSurvivesRestart(t *testing.T) {
	t.Parallel()
	for _, mk := range stacks {
		st := startStack(t, mk)
		t.Run(st.Name(), func(t *testing.T) { testRunIdlesAndSurvivesRestart(t, st) })
	}
}

func testRunIdlesAndSurvivesRestart(t *testing.T, st mailtest.Stack) {
	h := newMemHandler()
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.Poll = time.Minute }) // only IDLE can wake it in time
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	waitCount := func(n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for h.count() < n && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if h.count() != n {
			t.Fatalf("handled %d, want %d", h.count(), n)
		}
	}
	st.Submit(t, "p1@players.test", []string{judgeAddr}, orderMail(1, "x"))
	waitCount(1)
	// The IMAP server restarts under the inbox: it reconnects.
	st.RestartIMAP(t)
	st.Submit(t, "p2@players.test", []string{judgeAddr}, orderMail(2, "x"))
	waitCount(2)
	st.Submit(t, "p3@players.test", []string{judgeAddr}, orderMail(3, "x"))
	waitCount(3)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
}

func TestInboxKeepInFolder(t *testing.T) {
	st := startStack(t, mailtest.Embedded)
	deliver(t, st, 1, 3, "x")
	h := newMemHandler()
	in := newTestInbox(t, st, h, func(c *InboxConfig) { c.KeepInFolder = true })
	if err := in.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	deliver(t, st, 4, 1, "x")
	if err := in.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	if h.count() != 4 || len(folder(t, st, "INBOX")) != 4 {
		t.Errorf("handled %d; INBOX holds %d", h.count(), len(folder(t, st, "INBOX")))
	}
}

// TestInboxRefreshesUIDNext: mail that arrives while the judge runs, and
// is taken, moves the checkpoint past the UIDNEXT the folder had when it
// was selected. The inbox asks the server again instead of taking the
// stale number for a renumbered folder and logging "UIDNEXT is behind the
// checkpoint" on every poll.
func TestInboxRefreshesUIDNext(t *testing.T) {
	t.Parallel()
	for _, mk := range stacks {
		st := startStack(t, mk)
		t.Run(st.Name(), func(t *testing.T) { testRefreshesUIDNext(t, st) })
	}
}

func testRefreshesUIDNext(t *testing.T, st mailtest.Stack) {
	h := newMemHandler()
	var log lockedLog
	in := newTestInbox(t, st, h, func(c *InboxConfig) {
		c.Poll = 100 * time.Millisecond
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	for i := 1; i <= 3; i++ {
		st.Submit(t, fmt.Sprintf("p%d@players.test", i), []string{judgeAddr}, orderMail(i, "x"))
		deadline := time.Now().Add(10 * time.Second)
		for h.count() < i && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	time.Sleep(time.Second) // ten polls
	cancel()
	<-done
	if h.count() != 3 {
		t.Errorf("handled %d, want 3", h.count())
	}
	if strings.Contains(log.String(), "UIDNEXT is behind") {
		t.Errorf("the inbox took its stale UIDNEXT for a renumbered folder:\n%s", log.String())
	}
}

// lockedLog is a log buffer the inbox's goroutine writes while the test
// reads it.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
