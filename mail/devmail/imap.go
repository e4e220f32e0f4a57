package devmail

import (
	"context"
	"log/slog"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// imapCaps are the capabilities the IMAP server advertises: IMAP4rev1 with
// the extensions of IMAP4rev2 that imapmemserver implements and that
// Dovecot offers too, so a judge sees much the same server in development as
// in production. imapserver adds IDLE, UNSELECT, ENABLE, SASL-IR and
// LITERAL- to IMAP4rev1 on its own.
func imapCaps() imap.CapSet {
	return imap.CapSet{
		imap.CapIMAP4rev1:   {},
		imap.CapNamespace:   {},
		imap.CapUIDPlus:     {},
		imap.CapMove:        {},
		imap.CapESearch:     {},
		imap.CapListStatus:  {},
		imap.CapStatusSize:  {},
		imap.CapLiteralPlus: {},
	}
}

// serveIMAP starts an IMAP server on addr over the server's accounts.
func (s *Server) serveIMAP(ctx context.Context, addr string) (*running, error) {
	ln, err := listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{accounts: s.accounts, delivered: s.delivered, log: s.log}, nil, nil
		},
		Caps:         imapCaps(),
		Logger:       libLogger{s.log},
		InsecureAuth: true, // loopback only, see checkLoopback
	})
	r := &running{ln: ln, close: srv.Close, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		if err := srv.Serve(ln); err != nil {
			s.log.Warn("devmail: IMAP server stopped", "err", err)
		}
	}()
	s.log.Info("devmail: IMAP listening", "addr", ln.Addr().String())
	return r, nil
}

// imapSession is one IMAP connection. It checks logins against accounts,
// whose passwords can change, and then behaves as an imapmemserver session.
type imapSession struct {
	*imapmemserver.UserSession // nil until logged in

	accounts  *accounts
	delivered *broadcast // notified after each delivery
	log       *slog.Logger
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

// Login implements imapserver.Session.
func (sess *imapSession) Login(username, password string) error {
	user := sess.accounts.login(username, password)
	if user == nil {
		sess.log.Info("devmail: IMAP login failed", "user", username)
		return imapserver.ErrAuthFailed
	}
	sess.UserSession = imapmemserver.NewUserSession(user)
	return nil
}

// Close implements imapserver.Session.
func (sess *imapSession) Close() error {
	if sess.UserSession == nil {
		return nil
	}
	return sess.UserSession.Close()
}
