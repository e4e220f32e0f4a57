package devmail

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// inbox is the mailbox deliveries go to.
const inbox = "INBOX"

// accounts holds the mail accounts: a password and an in-memory IMAP user
// each, keyed by lower-case address.
type accounts struct {
	log     *slog.Logger
	created func(address, password string) // Config.Created

	mu     sync.Mutex
	byAddr map[string]*account
}

type account struct {
	password string
	user     *imapmemserver.User
}

func newAccounts(log *slog.Logger, created func(address, password string)) *accounts {
	return &accounts{log: log, created: created, byAddr: make(map[string]*account)}
}

// set creates the account for addr (already normalised) or changes its
// password.
func (a *accounts) set(addr, password string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if acct := a.byAddr[addr]; acct != nil {
		acct.password = password
		return nil
	}
	_, err := a.createLocked(addr, password)
	return err
}

// ensure returns the account for addr (already normalised), creating it with
// a generated password if needed.
func (a *accounts) ensure(addr string) (*account, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if acct := a.byAddr[addr]; acct != nil {
		return acct, nil
	}
	password := generatePassword()
	acct, err := a.createLocked(addr, password)
	if err != nil {
		return nil, err
	}
	// Generated passwords are logged so that a developer can point a mail
	// client at the dev server; nothing here is a real secret.
	a.log.Info("devmail: created account", "address", addr, "password", password)
	if a.created != nil {
		a.created(addr, password)
	}
	return acct, nil
}

func (a *accounts) createLocked(addr, password string) (*account, error) {
	// imapmemserver.User keeps its own copy of the password, which nothing
	// reads: logins are checked by accounts.login so passwords can change.
	user := imapmemserver.NewUser(addr, password)
	if err := user.Create(inbox, nil); err != nil {
		return nil, fmt.Errorf("devmail: create INBOX for %s: %w", addr, err)
	}
	acct := &account{password: password, user: user}
	a.byAddr[addr] = acct
	return acct, nil
}

// password returns the password of addr (already normalised).
func (a *accounts) password(addr string) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	acct := a.byAddr[addr]
	if acct == nil {
		return "", false
	}
	return acct.password, true
}

// login returns the IMAP user for a username and password, or nil.
func (a *accounts) login(username, password string) *imapmemserver.User {
	a.mu.Lock()
	acct := a.byAddr[strings.ToLower(username)]
	var want string
	if acct != nil {
		want = acct.password
	}
	a.mu.Unlock()
	if acct == nil {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(password), []byte(want)) != 1 {
		return nil
	}
	return acct.user
}

// appendToInbox stores raw in the account's INBOX, re-creating the INBOX if a
// client deleted it.
func (acct *account) appendToInbox(raw []byte) (*imap.AppendData, error) {
	data, err := acct.user.Append(inbox, bytes.NewReader(raw), &imap.AppendOptions{})
	if imapCode(err) != imap.ResponseCodeTryCreate {
		return data, err
	}
	// Another delivery may have re-created it first.
	if err := acct.user.Create(inbox, nil); err != nil && imapCode(err) != imap.ResponseCodeAlreadyExists {
		return nil, err
	}
	return acct.user.Append(inbox, bytes.NewReader(raw), &imap.AppendOptions{})
}

// imapCode returns the response code of an IMAP error, "" for others.
func imapCode(err error) imap.ResponseCode {
	var imapErr *imap.Error
	if errors.As(err, &imapErr) {
		return imapErr.Code
	}
	return ""
}

// generatePassword returns a random password of 16 base32 characters.
func generatePassword() string {
	b := make([]byte, 10)
	rand.Read(b) // never fails, see crypto/rand.Read
	return strings.ToLower(base32.StdEncoding.EncodeToString(b))
}
