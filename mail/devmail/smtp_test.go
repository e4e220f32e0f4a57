package devmail

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

func TestSMTPDeliversToInbox(t *testing.T) {
	s := startServer(t)
	msg := message(alice, judge, "orders", "move 3 to 4")
	if err := sendSMTP(s.SMTPAddr(), nil, alice, []string{judge}, msg); err != nil {
		t.Fatalf("send: %v", err)
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	msgs := fetchAll(t, c, "INBOX")
	if len(msgs) != 1 || !bytes.Equal(raw(msgs[0]), msg) {
		t.Fatalf("judge's INBOX = %d messages, want exactly the one sent", len(msgs))
	}
}

func TestSMTPAuth(t *testing.T) {
	s := startServer(t)
	msg := message(judge, alice, "receipt", "orders received")

	if err := sendSMTP(s.SMTPAddr(), sasl.NewPlainClient("", judge, judgePW), judge, []string{alice}, msg); err != nil {
		t.Fatalf("send with AUTH PLAIN: %v", err)
	}
	err := sendSMTP(s.SMTPAddr(), sasl.NewPlainClient("", judge, "wrong"), judge, []string{alice}, msg)
	var smtpErr *smtp.SMTPError
	if !errors.As(err, &smtpErr) || smtpErr.Code != 535 {
		t.Fatalf("send with a wrong password: err = %v, want SMTP 535", err)
	}
	err = sendSMTP(s.SMTPAddr(), sasl.NewPlainClient("", "nobody@umpire.test", "x"), judge, []string{alice}, msg)
	if !errors.As(err, &smtpErr) || smtpErr.Code != 535 {
		t.Fatalf("send as an unknown user: err = %v, want SMTP 535", err)
	}

	c := dialIMAP(t, s.IMAPAddr(), alice, alicePW, nil)
	if msgs := fetchAll(t, c, "INBOX"); len(msgs) != 1 {
		t.Fatalf("alice's INBOX holds %d messages, want 1 (only the authenticated send)", len(msgs))
	}
}

func TestSMTPRefusals(t *testing.T) {
	s := startServer(t)
	var smtpErr *smtp.SMTPError

	err := sendSMTP(s.SMTPAddr(), nil, alice, []string{"eve@elsewhere.test"}, message(alice, "eve@elsewhere.test", "x", "x"))
	if !errors.As(err, &smtpErr) || smtpErr.Code != 550 {
		t.Errorf("send to a foreign domain: err = %v, want SMTP 550", err)
	}

	small, err := Start(context.Background(), Config{
		Domains:         []string{"umpire.test"},
		MaxMessageBytes: 1000,
		Logger:          testLogger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	big := message(alice, judge, "big", strings.Repeat(strings.Repeat("x", 70)+"\r\n", 30))
	err = sendSMTP(small.SMTPAddr(), nil, alice, []string{judge}, big)
	if !errors.As(err, &smtpErr) || smtpErr.Code != 552 {
		t.Errorf("send over the size limit: err = %v, want SMTP 552", err)
	}
	if _, ok := small.Password(judge); ok {
		t.Error("a refused message created an account")
	}
}

func TestSMTPStopAndStartOnSameAddress(t *testing.T) {
	s := startServer(t)
	addr := s.SMTPAddr()
	if err := s.StopSMTP(); err != nil {
		t.Fatalf("StopSMTP: %v", err)
	}
	if err := s.StopSMTP(); err != nil {
		t.Fatalf("second StopSMTP: %v", err)
	}
	msg := message(alice, judge, "during outage", "x")
	err := sendSMTP(addr, nil, alice, []string{judge}, msg)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("send while stopped: err = %v, want connection refused", err)
	}
	if err := s.StartSMTP(context.Background()); err != nil {
		t.Fatalf("StartSMTP: %v", err)
	}
	if err := s.StartSMTP(context.Background()); !errors.Is(err, ErrRunning) {
		t.Fatalf("second StartSMTP: err = %v, want ErrRunning", err)
	}
	if s.SMTPAddr() != addr {
		t.Fatalf("SMTPAddr moved from %s to %s", addr, s.SMTPAddr())
	}
	if err := sendSMTP(addr, nil, alice, []string{judge}, msg); err != nil {
		t.Fatalf("send after restart: %v", err)
	}
}

// TestRoundTripIsByteExact sends 8-bit and 1 MB messages over SMTP and reads
// them back over IMAP.
func TestRoundTripIsByteExact(t *testing.T) {
	s := startServer(t)
	eightBit := []byte("From: <alice@players.test>\r\nTo: <judge@umpire.test>\r\nSubject: =?utf-8?q?Bef=C3=B6rderung?=\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" +
		"Züge: Panzer → Kyïv, ½ Stärke, «Angriff»\r\n\xff\xfe raw high bytes\r\n.leading dot\r\n..two dots\r\n")
	var large bytes.Buffer
	large.WriteString("From: <alice@players.test>\r\nTo: <judge@umpire.test>\r\nSubject: large\r\n\r\n")
	for i := 0; large.Len() < 1<<20; i++ {
		large.WriteString(strings.Repeat(string(rune('a'+i%26)), 76))
		large.WriteString("\r\n")
	}
	sent := [][]byte{eightBit, large.Bytes()}
	for _, msg := range sent {
		if err := sendSMTP(s.SMTPAddr(), nil, alice, []string{judge}, msg); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
	c := dialIMAP(t, s.IMAPAddr(), judge, judgePW, nil)
	msgs := fetchAll(t, c, "INBOX")
	if len(msgs) != len(sent) {
		t.Fatalf("INBOX holds %d messages, want %d", len(msgs), len(sent))
	}
	for i, m := range msgs {
		if got := raw(m); !bytes.Equal(got, sent[i]) {
			t.Errorf("message %d: got %d bytes, sent %d; not byte-exact", i, len(got), len(sent[i]))
		}
	}
}
