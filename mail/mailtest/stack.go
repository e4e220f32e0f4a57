package mailtest

import (
	"testing"
	"time"
)

// The mail domains every Stack delivers locally.
const (
	JudgeDomain  = "umpire.test"
	PlayerDomain = "players.test"
)

// Stack is a running mail system for one test.
type Stack interface {
	// IMAPAddr is where the judge reads its mail, host:port.
	IMAPAddr() string
	// SMTPAddr is the MTA, host:port: players' mail comes in here and the
	// judge submits its replies here, without authentication.
	SMTPAddr() string

	// AddUser creates a mail account, or changes its password.
	AddUser(t testing.TB, address, password string)
	// Submit hands a message to the MTA over an SMTP connection, as a
	// player's mail server would, and fails the test if the MTA refuses it.
	// Delivery may finish later: use WaitFor.
	Submit(t testing.TB, from string, to []string, raw []byte)
	// Mailbox returns the raw messages in a folder, oldest first, read with
	// an IMAP client without setting \Seen.
	Mailbox(t testing.TB, address, password, folder string) [][]byte
	// Count returns the number of messages in a folder: len(Mailbox(...))
	// without reading them.
	Count(t testing.TB, address, password, folder string) int
	// WaitFor polls the folder until it holds n messages and returns them;
	// it fails the test on timeout or if the folder holds more than n.
	WaitFor(t testing.TB, address, password, folder string, n int, timeout time.Duration) [][]byte
	// WaitForMore is WaitFor returning only the messages after the first
	// seen: a reader that keeps what it has read fetches only what is new.
	WaitForMore(t testing.TB, address, password, folder string, seen, n int, timeout time.Duration) [][]byte

	// StopSMTP takes the MTA down: connecting to SMTPAddr fails until
	// StartSMTP brings it back on the same address.
	StopSMTP(t testing.TB)
	StartSMTP(t testing.TB)
	// RestartIMAP restarts the IMAP server on the same address: existing
	// connections drop, mail is kept.
	RestartIMAP(t testing.TB)

	// Name is "embedded" or "real", for test names.
	Name() string
}
