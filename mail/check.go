package mail

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Step is a step of CheckIMAP or CheckSMTP, in the order they are taken.
type Step string

// The steps of a check of a mail server.
const (
	StepConnect     Step = "connect"     // a TCP connection to the address
	StepTLS         Step = "tls"         // the server speaks the security configured
	StepCertificate Step = "certificate" // its certificate verifies for the host
	StepLogin       Step = "login"       // the user name and password are taken
	StepFolders     Step = "folders"     // IMAP: the folders are there or were made
)

// CheckError is a check of a mail server that failed at Step.
type CheckError struct {
	Step Step
	Err  error
}

func (e *CheckError) Error() string { return fmt.Sprintf("%s: %v", e.Step, e.Err) }
func (e *CheckError) Unwrap() error { return e.Err }

// The mistakes of connection security CheckIMAP and CheckSMTP name.
var (
	// ErrSpeaksTLS: the server said nothing and answered a TLS handshake:
	// its port speaks TLS from the first byte (IMAPS 993, SMTPS 465), and
	// the security configured is not ImplicitTLS.
	ErrSpeaksTLS = errors.New("the server waits for a TLS handshake: the port speaks implicit TLS")
	// ErrSpeaksPlain: the server greeted in plain text (IMAP 143, SMTP 25
	// or 587), and the security configured is ImplicitTLS.
	ErrSpeaksPlain = errors.New("the server greets in plain text: the port does not speak implicit TLS")
	// ErrNoFolder: the folder orders arrive in is not on the server.
	ErrNoFolder = errors.New("no such folder")
)

// Facts is what a check learnt of a mail server.
type Facts struct {
	// Greeting is the server's first line, when it greets in plain text.
	Greeting string
	// TLS is the connection's TLS state; nil without TLS.
	TLS *tls.ConnectionState
	// Folders are the IMAP server's folders, as LIST gave them; Made are
	// those the check made (the processed, rejected and quarantine folders,
	// as the inbox makes them when it starts).
	Folders, Made []string
	// IDLE says whether the IMAP server has IDLE.
	IDLE bool
	// AppendLimit is the largest message the IMAP server takes (RFC 7889
	// APPENDLIMIT); 0 when it does not say.
	AppendLimit int64
	// Size is the largest mail the SMTP server takes (its SIZE
	// extension); 0 when it does not say.
	Size int64
}

// greetWait is how long a server may take to greet before a check takes
// its silence for a wait for a TLS handshake.
const greetWait = 5 * time.Second

// opening connects to s.Address and finds out how the server opens a
// connection: with a greeting in plain text (returned), or, when it says
// nothing, a TLS handshake (speaksTLS). It sends nothing but a TLS
// handshake that verifies nothing; the certificate is checked later, by the
// connection that logs in.
func (s Server) opening(ctx context.Context) (greeting string, speaksTLS bool, err error) {
	host, _, _ := net.SplitHostPort(s.Address)
	d := net.Dialer{Timeout: s.timeout()}
	handshake := func() error {
		conn, err := d.DialContext(ctx, "tcp", s.Address)
		if err != nil {
			return &CheckError{StepConnect, err}
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(s.timeout()))
		return tls.Client(conn, &tls.Config{ServerName: host, InsecureSkipVerify: true}).HandshakeContext(ctx)
	}
	if s.Security == ImplicitTLS {
		err := handshake()
		var rh tls.RecordHeaderError
		switch {
		case err == nil:
			return "", true, nil
		case errors.As(err, &rh):
			return strings.TrimSpace(string(rh.RecordHeader[:])) + "…", false, nil
		}
		var ce *CheckError
		if errors.As(err, &ce) {
			return "", false, err
		}
		return "", false, &CheckError{StepTLS, fmt.Errorf("TLS handshake: %w", err)}
	}
	conn, err := d.DialContext(ctx, "tcp", s.Address)
	if err != nil {
		return "", false, &CheckError{StepConnect, err}
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(greetWait))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if line = strings.TrimSpace(line); line != "" {
		return line, false, nil
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		return "", false, &CheckError{StepConnect, fmt.Errorf("the server closed the connection without a greeting: %w", err)}
	}
	if err := handshake(); err != nil {
		return "", false, &CheckError{StepConnect, fmt.Errorf("the server said nothing for %v and does not speak TLS either", greetWait)}
	}
	return "", true, nil
}

// checkOpening is the first steps of a check: the server can be reached and
// speaks the security s names.
func (s Server) checkOpening(ctx context.Context) (Facts, error) {
	var f Facts
	if err := s.check(); err != nil {
		return f, &CheckError{StepTLS, err}
	}
	greeting, speaksTLS, err := s.opening(ctx)
	f.Greeting = greeting
	switch {
	case err != nil:
		return f, err
	case speaksTLS && s.Security != ImplicitTLS:
		return f, &CheckError{StepTLS, ErrSpeaksTLS}
	case !speaksTLS && s.Security == ImplicitTLS:
		return f, &CheckError{StepTLS, ErrSpeaksPlain}
	}
	return f, nil
}

// recording returns s with a TLS configuration that keeps the connection's
// state in f and verifies the certificate as s's own would, keeping its
// error in certErr: the handshake fails on it, before any password is sent.
func (s Server) recording(f *Facts, certErr *error) Server {
	base := s.tlsConfig()
	cfg := base.Clone()
	cfg.InsecureSkipVerify = true
	cfg.VerifyConnection = func(cs tls.ConnectionState) error {
		f.TLS = &cs
		if len(cs.PeerCertificates) == 0 {
			*certErr = errors.New("the server sent no certificate")
			return *certErr
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, *certErr = cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: base.RootCAs, DNSName: base.ServerName, Intermediates: inter})
		return *certErr
	}
	s.TLS = cfg
	return s
}

// CheckIMAP connects and logs in to cfg.Server as the inbox does, looks
// for cfg.Folder, makes the processed, rejected and quarantine folders
// that are not there (as the inbox does when it starts), and says what it
// found. Its error is a *CheckError naming the step that failed; the steps
// before it held.
func CheckIMAP(ctx context.Context, cfg InboxConfig) (Facts, error) {
	s := cfg.Server
	f, err := s.checkOpening(ctx)
	if err != nil {
		return f, err
	}
	var certErr error
	c, err := s.recording(&f, &certErr).dialIMAP(&imapclient.Options{Dialer: &net.Dialer{Timeout: s.timeout()}})
	switch {
	case certErr != nil:
		return f, &CheckError{StepCertificate, certErr}
	case err != nil:
		return f, &CheckError{StepTLS, err}
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := s.loginIMAP(ctx, c); err != nil {
		return f, &CheckError{StepLogin, errors.Unwrap(err)} // the server's answer
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		return f, &CheckError{StepFolders, fmt.Errorf("imap list: %w", err)}
	}
	for _, m := range list {
		f.Folders = append(f.Folders, m.Mailbox)
	}
	slices.Sort(f.Folders)
	has := func(name string) bool {
		return slices.ContainsFunc(f.Folders, func(m string) bool {
			return m == name || strings.EqualFold(m, "INBOX") && strings.EqualFold(name, "INBOX")
		})
	}
	folder := orDefault(cfg.Folder, "INBOX")
	if !has(folder) {
		return f, &CheckError{StepFolders, fmt.Errorf("%w %q", ErrNoFolder, folder)}
	}
	for _, name := range []string{orDefault(cfg.Processed, "processed"), orDefault(cfg.Rejected, "rejected"), orDefault(cfg.Quarantine, "quarantine")} {
		if has(name) || slices.Contains(f.Made, name) {
			continue
		}
		if err := c.Create(name, nil).Wait(); err != nil && !alreadyExists(err) {
			return f, &CheckError{StepFolders, fmt.Errorf("imap create %s: %w", name, err)}
		}
		f.Made = append(f.Made, name)
	}
	caps := c.Caps()
	f.IDLE = caps.Has(imap.CapIdle)
	if limit, ok := caps.AppendLimit(); ok && limit != nil {
		f.AppendLimit = int64(*limit)
	} else if ok {
		if st, err := c.Status(folder, &imap.StatusOptions{AppendLimit: true}).Wait(); err == nil && st.AppendLimit != nil {
			f.AppendLimit = int64(*st.AppendLimit)
		}
	}
	if err := c.Logout().Wait(); err != nil {
		return f, &CheckError{StepFolders, fmt.Errorf("imap logout: %w", err)}
	}
	return f, nil
}

// CheckSMTP connects and logs in to cfg.Server as the outbox does, and
// says what it found. Its error is a *CheckError naming the step that
// failed.
func CheckSMTP(ctx context.Context, cfg OutboxConfig) (Facts, error) {
	s := cfg.Server
	f, err := s.checkOpening(ctx)
	if err != nil {
		return f, err
	}
	var certErr error
	c, err := s.recording(&f, &certErr).dialSMTP(ctx, orDefault(cfg.HelloName, "localhost"))
	switch {
	case certErr != nil:
		return f, &CheckError{StepCertificate, certErr}
	case err != nil:
		return f, &CheckError{StepTLS, err}
	}
	defer c.Close()
	if err := s.authSMTP(ctx, c); err != nil {
		return f, &CheckError{StepLogin, err}
	}
	if ok, v := c.Extension("SIZE"); ok {
		fmt.Sscan(v, &f.Size)
	}
	if err := c.Quit(); err != nil {
		return f, &CheckError{StepLogin, fmt.Errorf("smtp quit: %w", err)}
	}
	return f, nil
}

// SendTest sends one mail, raw, from from to to over cfg.Server, as the
// outbox sends.
func SendTest(ctx context.Context, cfg OutboxConfig, from, to string, raw []byte) error {
	s := cfg.Server
	c, err := s.dialSMTP(ctx, orDefault(cfg.HelloName, "localhost"))
	if err != nil {
		return err
	}
	defer c.Close()
	if err := s.authSMTP(ctx, c); err != nil {
		return err
	}
	o := &Outbox{cfg: cfg}
	if err := o.send(c, Queued{From: from, To: []string{to}, Raw: raw}); err != nil {
		return err
	}
	return c.Quit()
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
