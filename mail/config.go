package mail

import (
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/umpire-pbem/umpire/mail/oauth"
)

// Security says how a connection to a mail server is protected.
type Security string

// The kinds of connection security.
const (
	// StartTLS connects in plain text and upgrades with STARTTLS before
	// authenticating (IMAP port 143, SMTP submission port 587).
	StartTLS Security = "starttls"
	// ImplicitTLS speaks TLS from the first byte (IMAPS 993, SMTPS 465).
	ImplicitTLS Security = "tls"
	// Insecure sends everything, passwords included, in plain text. It is
	// allowed only to loopback addresses (tests, the embedded servers).
	Insecure Security = "none"
)

// Server is how to reach and log in to one mail server.
type Server struct {
	Address  string // host:port
	Security Security
	Username string
	Password string
	// TLS overrides the TLS configuration (e.g. a private CA); nil uses the
	// system roots and the host of Address as server name.
	TLS *tls.Config
	// Timeout bounds dialing and each command; 0 means one minute.
	Timeout time.Duration
	// OAuth, when set, logs in with an OAuth 2.0 access token it gives
	// (SASL OAUTHBEARER or XOAUTH2) instead of Password.
	OAuth *oauth.Source
	// Mechanism is the SASL mechanism that carries the access token:
	// "xoauth2", "oauthbearer", or "" for OAUTHBEARER when the server
	// offers it, else XOAUTH2.
	Mechanism string
}

func (s Server) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return time.Minute
}

// check refuses a configuration that would send a password in clear text
// over the network.
func (s Server) check() error {
	host, _, err := net.SplitHostPort(s.Address)
	if err != nil {
		return fmt.Errorf("address %q: %w", s.Address, err)
	}
	switch s.Security {
	case StartTLS, ImplicitTLS:
		return nil
	case Insecure:
		if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
			return nil
		}
		return fmt.Errorf("security %q is allowed only on loopback, not %s: use %q or %q", Insecure, host, StartTLS, ImplicitTLS)
	}
	return fmt.Errorf("security %q is not %q, %q or %q", s.Security, StartTLS, ImplicitTLS, Insecure)
}

func (s Server) tlsConfig() *tls.Config {
	if s.TLS != nil {
		return s.TLS
	}
	host, _, _ := net.SplitHostPort(s.Address)
	return &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
}
