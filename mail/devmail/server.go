package devmail

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
)

// Server is a running devmail system: an IMAP and an SMTP listener over a
// shared set of in-memory accounts. Its methods are safe for concurrent use.
type Server struct {
	set      settings
	log      *slog.Logger
	accounts *accounts
	// delivered wakes idling IMAP sessions after each delivery.
	delivered *broadcast

	// imapAddr and smtpAddr are the bound addresses, kept when a listener
	// is stopped so that it restarts on the same port.
	imapAddr string
	smtpAddr string

	mu     sync.Mutex // guards the fields below, held while starting or stopping a listener
	closed bool
	imap   *running // nil while stopped
	smtp   *running // nil while stopped

	stop        chan struct{} // closed by Close
	stopOnce    sync.Once
	watcherDone chan struct{} // closed once everything is shut down
}

// running is a listener being served by an IMAP or SMTP server.
type running struct {
	ln    *trackingListener
	close func() error  // closes the protocol server
	done  chan struct{} // closed when Serve has returned
}

// stop shuts the server down, drops its connections and waits for its Serve
// loop to return.
func (r *running) stop() {
	_ = r.close() // only reports the listener's close error
	r.ln.closeAll()
	<-r.done
}

// Start starts the IMAP and SMTP listeners and returns once both accept
// connections. The server runs until Close is called or ctx is done.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	set, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	s := &Server{
		set:         set,
		log:         set.log,
		accounts:    newAccounts(set.log, set.created),
		delivered:   newBroadcast(),
		stop:        make(chan struct{}),
		watcherDone: make(chan struct{}),
	}
	for addr, password := range set.accounts {
		if err := s.accounts.set(addr, password); err != nil {
			return nil, err
		}
	}
	if s.imap, err = s.serveIMAP(ctx, set.imapAddr); err != nil {
		return nil, err
	}
	s.imapAddr = s.imap.ln.Addr().String()
	if s.smtp, err = s.serveSMTP(ctx, set.smtpAddr); err != nil {
		s.imap.stop()
		return nil, err
	}
	s.smtpAddr = s.smtp.ln.Addr().String()
	go s.watch(ctx)
	return s, nil
}

// watch shuts the server down when ctx is done or Close is called.
func (s *Server) watch(ctx context.Context) {
	defer close(s.watcherDone)
	select {
	case <-ctx.Done():
	case <-s.stop:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, r := range []*running{s.imap, s.smtp} {
		if r != nil {
			r.stop()
		}
	}
	s.imap, s.smtp = nil, nil
	s.log.Info("devmail: stopped")
}

// Close stops both listeners, drops all connections and waits for the
// servers' loops to return. The mail is lost. Close may be called more than
// once.
func (s *Server) Close() error {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.watcherDone
	return nil
}

// IMAPAddr returns the IMAP listener's address, host:port.
func (s *Server) IMAPAddr() string { return s.imapAddr }

// SMTPAddr returns the SMTP listener's address, host:port.
func (s *Server) SMTPAddr() string { return s.smtpAddr }

// AddAccount creates the account for address, or changes its password.
func (s *Server) AddAccount(address, password string) error {
	addr, err := s.recipient(address)
	if err != nil {
		return fmt.Errorf("devmail: add account: %w", err)
	}
	if password == "" {
		return fmt.Errorf("devmail: add account %s: empty password", addr)
	}
	return s.accounts.set(addr, password)
}

// Password returns the password of the account for address, which may have
// been generated on its first delivery. The boolean is false if there is no
// such account.
func (s *Server) Password(address string) (string, bool) {
	addr, _, err := splitAddress(address)
	if err != nil {
		return "", false
	}
	return s.accounts.password(addr)
}

// StopIMAP closes the IMAP listener and drops every IMAP connection, as a
// crashed or restarted IMAP server would. Mailboxes are kept. Stopping a
// stopped listener does nothing.
func (s *Server) StopIMAP() error {
	return s.stopListener(&s.imap, "IMAP")
}

// StartIMAP starts the IMAP listener again on the address it had.
func (s *Server) StartIMAP(ctx context.Context) error {
	return s.startListener(ctx, &s.imap, s.imapAddr, s.serveIMAP, "IMAP")
}

// StopSMTP closes the SMTP listener and drops every SMTP connection, so that
// connecting fails until StartSMTP.
func (s *Server) StopSMTP() error {
	return s.stopListener(&s.smtp, "SMTP")
}

// StartSMTP starts the SMTP listener again on the address it had.
func (s *Server) StartSMTP(ctx context.Context) error {
	return s.startListener(ctx, &s.smtp, s.smtpAddr, s.serveSMTP, "SMTP")
}

func (s *Server) stopListener(slot **running, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("devmail: stop %s: %w", name, ErrClosed)
	}
	if *slot != nil {
		(*slot).stop()
		*slot = nil
		s.log.Info("devmail: listener stopped", "protocol", name)
	}
	return nil
}

func (s *Server) startListener(ctx context.Context, slot **running, addr string,
	serve func(context.Context, string) (*running, error), name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("devmail: start %s: %w", name, ErrClosed)
	}
	if *slot != nil {
		return fmt.Errorf("devmail: start %s: %w", name, ErrRunning)
	}
	r, err := serve(ctx, addr)
	if err != nil {
		return fmt.Errorf("devmail: start %s: %w", name, err)
	}
	*slot = r
	return nil
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
