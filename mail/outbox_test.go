package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// recorder is an in-process SMTP server on loopback that records what it
// receives and refuses what it is told to.
type recorder struct {
	mu       sync.Mutex
	got      []received
	refuse   map[string]*smtp.SMTPError // RCPT replies by address
	dataErr  *smtp.SMTPError
	password string
	srv      *smtp.Server
	tls      *tls.Config // offered for STARTTLS; AUTH then only after it
	l        net.Listener
	addr     string
}

type received struct {
	from string
	to   []string
	raw  []byte
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{refuse: map[string]*smtp.SMTPError{}, password: "secret"}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = l.Addr().String()
	r.start(l)
	t.Cleanup(r.stop)
	return r
}

func (r *recorder) start(l net.Listener) {
	r.l = l
	r.srv = smtp.NewServer(r)
	r.srv.AllowInsecureAuth = r.tls == nil
	r.srv.TLSConfig = r.tls
	r.srv.Domain = "mta.test"
	go r.srv.Serve(l)
}

// stop closes the listener itself too: Close alone misses a listener whose
// Serve goroutine has not started yet.
func (r *recorder) stop() {
	r.l.Close()
	r.srv.Close()
}

func (r *recorder) restart(t *testing.T) {
	t.Helper()
	var l net.Listener
	var err error
	for range 50 { // the port may take a moment to be free again
		if l, err = net.Listen("tcp", r.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	r.start(l)
}

func (r *recorder) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{r: r}, nil }

func (r *recorder) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

type session struct {
	r      *recorder
	authed bool
	cur    received
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "judge@umpire.test" || pass != s.r.password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"}
		}
		s.authed = true
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.cur = received{from: from}
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	if e := s.r.refuse[to]; e != nil {
		return e
	}
	s.cur.to = append(s.cur.to, to)
	return nil
}
func (s *session) Data(rd io.Reader) error {
	b, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	if s.r.dataErr != nil {
		return s.r.dataErr
	}
	s.cur.raw = b
	s.r.got = append(s.r.got, s.cur)
	return nil
}
func (s *session) Reset()        { s.cur = received{} }
func (s *session) Logout() error { return nil }

// memQueue is an outbox queue in memory, with the store's semantics.
type memQueue struct {
	mu     sync.Mutex
	mails  map[uint64]*Queued
	state  map[uint64]string
	next   map[uint64]time.Time
	reason map[uint64]string
	lane   map[uint64]Lane // LaneAnswers when not set
	// slow, if set, is called by Due for a lane before it answers (a
	// lane whose mails take long to render).
	slow func(Lane)
}

func newMemQueue(mails ...Queued) *memQueue {
	q := &memQueue{mails: map[uint64]*Queued{}, state: map[uint64]string{}, next: map[uint64]time.Time{}, reason: map[uint64]string{},
		lane: map[uint64]Lane{}}
	for i := range mails {
		m := mails[i]
		q.mails[m.ID] = &m
		q.state[m.ID] = "queued"
	}
	return q
}

func (q *memQueue) Due(_ context.Context, lane Lane, now time.Time, limit int) ([]Queued, error) {
	if q.slow != nil {
		q.slow(lane)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Queued
	for id := uint64(1); id <= uint64(len(q.mails)) && len(out) < limit; id++ {
		l := q.lane[id]
		if l == "" {
			l = LaneAnswers
		}
		if l == lane && q.state[id] == "queued" && !q.next[id].After(now) {
			out = append(out, *q.mails[id])
		}
	}
	return out, nil
}
func (q *memQueue) MarkSent(_ context.Context, sent []Sent) error {
	for _, s := range sent {
		if err := q.mark(s.ID, "sent", "", time.Time{}); err != nil {
			return err
		}
	}
	return nil
}
func (q *memQueue) MarkRetry(_ context.Context, id uint64, reason string, next time.Time) error {
	return q.mark(id, "queued", reason, next)
}
func (q *memQueue) MarkFailed(_ context.Context, id uint64, reason string, _ time.Time) error {
	return q.mark(id, "failed", reason, time.Time{})
}
func (q *memQueue) mark(id uint64, state, reason string, next time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.state[id] != "queued" {
		return fmt.Errorf("mail %d is %s", id, q.state[id])
	}
	q.state[id], q.reason[id], q.next[id] = state, reason, next
	if state == "queued" {
		q.mails[id].Attempts++
	}
	return nil
}
func (q *memQueue) get(id uint64) (string, string, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.state[id], q.reason[id], q.mails[id].Attempts
}

func mailTo(id uint64, to ...string) Queued {
	raw := fmt.Sprintf("From: judge@umpire.test\r\nTo: %s\r\nMessage-ID: <out-%d@umpire.test>\r\nSubject: receipt %d\r\n\r\nbody %d\r\n", strings.Join(to, ", "), id, id, id)
	return Queued{ID: id, MessageID: fmt.Sprintf("<out-%d@umpire.test>", id), From: "judge@umpire.test", To: to, Raw: []byte(raw), Queued: testNow}
}

var testNow = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

func newTestOutbox(t *testing.T, r *recorder, q Queue, clock *time.Time, onFail func(Queued, string)) *Outbox {
	t.Helper()
	o, err := NewOutbox(OutboxConfig{
		Server: Server{Address: r.addr, Security: Insecure, Username: "judge@umpire.test", Password: "secret", Timeout: 5 * time.Second},
		Retry:  Backoff{Base: time.Minute, Max: time.Hour}, GiveUp: 24 * time.Hour,
		Now: func() time.Time { return *clock },
		OnFailure: func(_ context.Context, q Queued, reason string) {
			if onFail != nil {
				onFail(q, reason)
			}
		},
	}, q)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOutboxSends(t *testing.T) {
	r := newRecorder(t)
	q := newMemQueue(mailTo(1, "alice@players.test"), mailTo(2, "bob@players.test"), mailTo(3, "carol@players.test"))
	clock := testNow
	o := newTestOutbox(t, r, q, &clock, nil)
	n, err := o.Drain(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("drain: %d sent, %v", n, err)
	}
	got := r.received()
	for i, g := range got {
		want := q.mails[uint64(i+1)]
		if g.from != "judge@umpire.test" || g.to[0] != want.To[0] || !bytes.Equal(g.raw, want.Raw) {
			t.Errorf("mail %d arrived as %+v", i+1, g)
		}
		if s, _, _ := q.get(uint64(i + 1)); s != "sent" {
			t.Errorf("mail %d is %s", i+1, s)
		}
	}
	// Sent mail is not sent again.
	if n, _ := o.Drain(context.Background()); n != 0 || len(r.received()) != 3 {
		t.Errorf("second drain sent %d", n)
	}
}

func TestOutboxServerDownThenBack(t *testing.T) {
	r := newRecorder(t)
	q := newMemQueue(mailTo(1, "alice@players.test"), mailTo(2, "bob@players.test"))
	clock := testNow
	o := newTestOutbox(t, r, q, &clock, nil)
	r.stop()
	for attempt := 1; attempt <= 3; attempt++ {
		if n, err := o.Drain(context.Background()); n != 0 || err != nil {
			t.Fatalf("drain with the server down: %d, %v", n, err)
		}
		state, reason, attempts := q.get(1)
		if state != "queued" || attempts != attempt || !strings.Contains(reason, "connection failed") {
			t.Fatalf("after attempt %d: %s, %d attempts, %q", attempt, state, attempts, reason)
		}
		// Not due again before its backoff has passed.
		if n, _ := o.Drain(context.Background()); n != 0 {
			t.Fatal("retried before the backoff passed")
		}
		clock = clock.Add(2 * time.Hour)
	}
	r.restart(t)
	if n, err := o.Drain(context.Background()); n != 2 || err != nil {
		t.Fatalf("drain with the server back: %d, %v", n, err)
	}
	if len(r.received()) != 2 {
		t.Errorf("%d mails arrived, want 2 (none twice)", len(r.received()))
	}
}

func TestOutboxPermanentRefusal(t *testing.T) {
	r := newRecorder(t)
	r.refuse["gone@players.test"] = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	q := newMemQueue(mailTo(1, "gone@players.test"), mailTo(2, "alice@players.test"), mailTo(3, "alice@players.test", "gone@players.test"))
	clock := testNow
	var failures []string
	o := newTestOutbox(t, r, q, &clock, func(q Queued, reason string) { failures = append(failures, fmt.Sprint(q.ID, q.To, reason)) })
	if _, err := o.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s, reason, _ := q.get(1); s != "failed" || !strings.Contains(reason, "550") {
		t.Errorf("mail to a refused address: %s %q", s, reason)
	}
	if s, _, _ := q.get(2); s != "sent" {
		t.Errorf("the next mail in the session: %s", s)
	}
	// A mail with one good and one refused recipient goes to the good one
	// and reports the other.
	if s, _, _ := q.get(3); s != "sent" {
		t.Errorf("mixed recipients: %s", s)
	}
	if len(failures) != 2 || !strings.Contains(failures[0], "1 [gone@players.test]") || !strings.Contains(failures[1], "3 [gone@players.test]") {
		t.Errorf("failures reported: %q", failures)
	}
	if got := r.received(); len(got) != 2 || len(got[1].to) != 1 || got[1].to[0] != "alice@players.test" {
		t.Errorf("received %+v", got)
	}
}

func TestOutboxTemporaryRefusalAndGiveUp(t *testing.T) {
	r := newRecorder(t)
	r.dataErr = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try later"}
	q := newMemQueue(mailTo(1, "alice@players.test"))
	clock := testNow
	var failed []string
	o := newTestOutbox(t, r, q, &clock, func(_ Queued, reason string) { failed = append(failed, reason) })
	o.Drain(context.Background())
	if s, reason, _ := q.get(1); s != "queued" || !strings.Contains(reason, "451") {
		t.Fatalf("after a 451: %s %q", s, reason)
	}
	clock = clock.Add(25 * time.Hour) // past GiveUp
	o.Drain(context.Background())
	if s, reason, _ := q.get(1); s != "failed" || !strings.Contains(reason, "gave up after 2 attempts") {
		t.Errorf("after giving up: %s %q", s, reason)
	}
	if len(failed) != 1 {
		t.Errorf("failure reported %d times", len(failed))
	}
}

func TestOutboxBadPasswordKeepsMailQueued(t *testing.T) {
	r := newRecorder(t)
	r.password = "changed"
	q := newMemQueue(mailTo(1, "alice@players.test"))
	clock := testNow
	o := newTestOutbox(t, r, q, &clock, func(Queued, string) { t.Error("a refused login failed the mail") })
	o.Drain(context.Background())
	if s, reason, _ := q.get(1); s != "queued" || !strings.Contains(reason, "login") {
		t.Errorf("after a refused login: %s %q", s, reason)
	}
}

func TestServerSecurityChecked(t *testing.T) {
	for _, s := range []Server{
		{Address: "mail.example.org:587", Security: Insecure},
		{Address: "mail.example.org:587", Security: "ssl"},
		{Address: "no-port", Security: StartTLS},
	} {
		if _, err := NewOutbox(OutboxConfig{Server: s}, newMemQueue()); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if err := (Server{Address: "[::1]:25", Security: Insecure}).check(); err != nil {
		t.Errorf("loopback refused: %v", err)
	}
}

func TestBackoff(t *testing.T) {
	b := Backoff{Base: time.Second, Max: time.Minute}
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 7: time.Minute, 60: time.Minute} {
		d := b.Delay(n)
		if d < want*8/10 || d > want*12/10 {
			t.Errorf("delay %d = %v, want %v ± 20%%", n, d, want)
		}
	}
	if !Temporary(fmt.Errorf("x: %w", errConnection)) || Temporary(&smtp.SMTPError{Code: 550}) || !Temporary(&smtp.SMTPError{Code: 421}) || Temporary(errors.New("other")) {
		t.Error("Temporary misclassifies")
	}
}

// TestOutboxLanes: while the reports' lane takes long to be ready (its
// reports are being rendered), an answer queued after them is sent at once
// on its own lane and connection.
func TestOutboxLanes(t *testing.T) {
	r := newRecorder(t)
	q := newMemQueue(mailTo(1, "a@players.test"), mailTo(2, "b@players.test"), mailTo(3, "receipt@players.test"))
	q.lane[1], q.lane[2] = LaneReports, LaneReports
	release := make(chan struct{})
	q.slow = func(l Lane) {
		if l == LaneReports {
			<-release
		}
	}
	clock := testNow
	o := newTestOutbox(t, r, q, &clock, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for len(r.received()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := r.received(); len(got) != 1 || got[0].to[0] != "receipt@players.test" {
		t.Fatalf("while the reports wait, the server got %+v; want the answer alone", got)
	}
	close(release)
	for len(r.received()) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(r.received()); n != 3 {
		t.Errorf("after the reports were ready, %d mails sent, want 3", n)
	}
	cancel()
	<-done
}
