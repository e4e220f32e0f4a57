package devmail

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
)

// DefaultMaxMessageBytes is the size limit used when Config.MaxMessageBytes
// is zero.
const DefaultMaxMessageBytes = 32 << 20

// defaultAddr is where a listener goes when its address is not configured:
// loopback, any free port.
const defaultAddr = "127.0.0.1:0"

// Config configures a Server. The zero value is not usable: at least one
// domain is needed, from Domains or from the addresses in Accounts.
type Config struct {
	// Domains lists the mail domains the server is the final destination
	// for, e.g. "umpire.test" and "players.test". Mail to any other domain
	// is refused. The domains of Accounts are added to it.
	Domains []string

	// Accounts maps addresses to passwords. These accounts exist from the
	// start; others are created, with a generated password, when mail first
	// arrives for them.
	Accounts map[string]string

	// IMAPAddr and SMTPAddr are the listen addresses, "127.0.0.1:0" (a free
	// port) when empty. They must be loopback addresses.
	IMAPAddr string
	SMTPAddr string

	// Hostname is the name the SMTP server gives in its greeting;
	// "localhost" when empty.
	Hostname string

	// MaxMessageBytes limits the size of a message; DefaultMaxMessageBytes
	// when zero.
	MaxMessageBytes int64

	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger

	// Created, if set, is told of each account made on a first delivery,
	// with its generated password (serve --dev prints them). It must not
	// block.
	Created func(address, password string)
}

// settings is a validated Config with its defaults filled in.
type settings struct {
	domains         map[string]bool
	accounts        map[string]string
	imapAddr        string
	smtpAddr        string
	hostname        string
	maxMessageBytes int64
	log             *slog.Logger
	created         func(address, password string)
}

func (cfg Config) settings() (settings, error) {
	s := settings{
		domains:         make(map[string]bool),
		accounts:        make(map[string]string),
		imapAddr:        cfg.IMAPAddr,
		smtpAddr:        cfg.SMTPAddr,
		hostname:        cfg.Hostname,
		maxMessageBytes: cfg.MaxMessageBytes,
		log:             cfg.Logger,
		created:         cfg.Created,
	}
	for _, d := range cfg.Domains {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "" || strings.ContainsAny(d, "@ \t") {
			return settings{}, fmt.Errorf("devmail: config: bad domain %q", d)
		}
		s.domains[d] = true
	}
	for addr, password := range cfg.Accounts {
		norm, domain, err := splitAddress(addr)
		if err != nil {
			return settings{}, fmt.Errorf("devmail: config: account: %w", err)
		}
		if password == "" {
			return settings{}, fmt.Errorf("devmail: config: account %s has an empty password", norm)
		}
		s.accounts[norm] = password
		s.domains[domain] = true
	}
	if len(s.domains) == 0 {
		return settings{}, fmt.Errorf("devmail: config: no mail domains")
	}
	if s.imapAddr == "" {
		s.imapAddr = defaultAddr
	}
	if s.smtpAddr == "" {
		s.smtpAddr = defaultAddr
	}
	for _, addr := range []string{s.imapAddr, s.smtpAddr} {
		if err := checkLoopback(addr); err != nil {
			return settings{}, err
		}
	}
	if s.hostname == "" {
		s.hostname = "localhost"
	}
	if s.maxMessageBytes <= 0 {
		s.maxMessageBytes = DefaultMaxMessageBytes
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// checkLoopback reports whether addr (host:port) names a loopback host.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("devmail: config: listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%w: %q", ErrNotLoopback, addr)
}

// splitAddress lower-cases a local@domain address and returns it with its
// domain.
func splitAddress(addr string) (norm, domain string, err error) {
	norm = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(norm, '@')
	if at <= 0 || at == len(norm)-1 || strings.ContainsAny(norm, " \t\r\n<>") {
		return "", "", fmt.Errorf("%w: %q", ErrBadAddress, addr)
	}
	return norm, norm[at+1:], nil
}
