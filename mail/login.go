package mail

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/umpire-pbem/umpire/mail/oauth"
)

// loginIMAP logs in to the IMAP server c is connected to: with the
// password, or with an access token of s.OAuth. It returns when the access
// token is to be refreshed (zero with a password, or when the provider did
// not say when it expires).
func (s Server) loginIMAP(ctx context.Context, c *imapclient.Client) (time.Time, error) {
	if s.OAuth == nil {
		if err := c.Login(s.Username, s.Password).Wait(); err != nil {
			return time.Time{}, fmt.Errorf("imap %s: login as %s: %w", s.Address, s.Username, err)
		}
		return time.Time{}, nil
	}
	tok, err := s.OAuth.Token(ctx)
	if err != nil {
		return time.Time{}, fmt.Errorf("imap %s: login as %s: %w", s.Address, s.Username, err)
	}
	var offered []string
	for cp := range c.Caps() {
		if m, ok := strings.CutPrefix(string(cp), "AUTH="); ok {
			offered = append(offered, m)
		}
	}
	sc := s.saslClient(offered, tok)
	if err := c.Authenticate(sc); err != nil {
		return time.Time{}, fmt.Errorf("imap %s: login as %s: %w", s.Address, s.Username, s.refused(sc, tok, err))
	}
	return tok.Renew, nil
}

// authSMTP logs in to the SMTP server c is connected to, when s has a
// user name: with the password (AUTH PLAIN), or with an access token of
// s.OAuth.
func (s Server) authSMTP(ctx context.Context, c *smtp.Client) error {
	if s.Username == "" {
		return nil
	}
	if s.OAuth == nil {
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			// A refused login is the operator's to fix, not the mail's fault:
			// the mails wait (%v keeps the 5xx from reading as permanent).
			return fmt.Errorf("smtp %s: login as %s: %w: %v", s.Address, s.Username, errConnection, err)
		}
		return nil
	}
	tok, err := s.OAuth.Token(ctx)
	if err != nil {
		return fmt.Errorf("smtp %s: login as %s: %w: %w", s.Address, s.Username, errConnection, err)
	}
	_, mechs := c.Extension("AUTH")
	sc := s.saslClient(strings.Fields(mechs), tok)
	if err := c.Auth(sc); err != nil {
		return fmt.Errorf("smtp %s: login as %s: %w: %w", s.Address, s.Username, errConnection, s.refused(sc, tok, err))
	}
	return nil
}

// saslClient is the SASL client carrying tok, of the mechanism configured
// or, without one, of those the server offers.
func (s Server) saslClient(offered []string, tok oauth.Token) *oauth.Client {
	host, p, _ := net.SplitHostPort(s.Address)
	port, _ := strconv.Atoi(p)
	return oauth.NewClient(oauth.Mechanism(s.Mechanism, offered), s.Username, tok.Access, host, port)
}

// refused is the error of a login with tok that failed with err: the
// token is forgotten (the next login refreshes it first), and the error
// says the token was refused, with the mechanism and what the server said
// of it. The server's answer is kept as text: it never holds the token.
func (s Server) refused(sc *oauth.Client, tok oauth.Token, err error) error {
	s.OAuth.Refused(tok)
	mech, _, _ := sc.Start()
	return fmt.Errorf("%w (SASL %s, %s): %v", oauth.ErrRefused, mech, sc.Refusal, err)
}
