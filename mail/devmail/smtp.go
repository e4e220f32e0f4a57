package devmail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTP limits beyond the message size.
const (
	smtpMaxRecipients = 100
	smtpReadTimeout   = 5 * time.Minute
	smtpWriteTimeout  = time.Minute
)

// serveSMTP starts an SMTP server on addr that delivers into the server's
// mailboxes.
func (s *Server) serveSMTP(ctx context.Context, addr string) (*running, error) {
	ln, err := listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{srv: s}, nil
	}))
	srv.Domain = s.set.hostname
	srv.MaxMessageBytes = s.set.maxMessageBytes
	srv.MaxRecipients = smtpMaxRecipients
	srv.AllowInsecureAuth = true // loopback only, see checkLoopback
	srv.EnableSMTPUTF8 = true    // messages are stored as they come
	srv.ReadTimeout = smtpReadTimeout
	srv.WriteTimeout = smtpWriteTimeout
	srv.ErrorLog = libLogger{s.log}

	r := &running{ln: ln, close: srv.Close, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		if err := srv.Serve(ln); err != nil {
			s.log.Warn("devmail: SMTP server stopped", "err", err)
		}
	}()
	s.log.Info("devmail: SMTP listening", "addr", ln.Addr().String())
	return r, nil
}

// smtpSession is one SMTP transaction at a time on one connection.
type smtpSession struct {
	srv  *Server
	user string // authenticated address, if any
	from string
	to   []string
}

var _ smtp.AuthSession = (*smtpSession)(nil)

// AuthMechanisms implements smtp.AuthSession.
func (sess *smtpSession) AuthMechanisms() []string {
	return []string{sasl.Plain}
}

// Auth implements smtp.AuthSession: PLAIN against the accounts.
func (sess *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if identity != "" && identity != username {
			return smtp.ErrAuthFailed
		}
		if sess.srv.accounts.login(username, password) == nil {
			sess.srv.log.Info("devmail: SMTP login failed", "user", username)
			return smtp.ErrAuthFailed
		}
		sess.user = username
		return nil
	}), nil
}

// Mail implements smtp.Session.
func (sess *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	sess.from = from
	sess.to = nil
	return nil
}

// Rcpt implements smtp.Session: only addresses in the configured domains.
func (sess *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	addr, err := sess.srv.recipient(to)
	switch {
	case errors.Is(err, ErrUnknownDomain):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 2}, Message: "Domain not handled here"}
	case err != nil:
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "Malformed recipient address"}
	}
	sess.to = append(sess.to, addr)
	return nil
}

// Data implements smtp.Session.
func (sess *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err // smtp.ErrDataTooLarge among others
	}
	sess.srv.log.Debug("devmail: SMTP message", "from", sess.from, "to", sess.to, "auth", sess.user, "bytes", len(raw))
	if err := sess.srv.Deliver(sess.from, sess.to, raw); err != nil {
		sess.srv.log.Warn("devmail: delivery failed", "from", sess.from, "to", sess.to, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: fmt.Sprintf("Delivery failed: %v", err)}
	}
	return nil
}

// Reset implements smtp.Session.
func (sess *smtpSession) Reset() {
	sess.from = ""
	sess.to = nil
}

// Logout implements smtp.Session.
func (sess *smtpSession) Logout() error {
	return nil
}
