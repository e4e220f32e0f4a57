package daemon

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/mail"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/oauth"
)

// DefaultConfigFile is read when neither --config nor UMPIRE_CONFIG names
// one and it exists in the working directory.
const DefaultConfigFile = "umpire.toml"

// Config is the configuration file of umpire (README.md, "Configuration"),
// and what the program gives the judge besides (the fields without a TOML
// key).
type Config struct {
	// Store is the bbolt file that holds everything; a relative path is
	// relative to the configuration file's folder.
	Store string `toml:"store"`
	// Address is the judge's own mail address: the From of every mail it
	// sends. Mail from it is never answered.
	Address string `toml:"address"`
	Name    string `toml:"name"` // display name in From; default "umpire"
	// Operator is the operator's address: the judge mails it when it
	// pauses a game on its own (the safety brake). Empty: the log only.
	Operator string    `toml:"operator"`
	Log      LogConfig `toml:"log"`
	IMAP     MailBox   `toml:"imap"`
	SMTP     MailBox   `toml:"smtp"`
	Limits   Limits    `toml:"limits"`
	// Templates.Dir holds report templates (report.txt, report.html) that
	// replace the built-in ones (docs/templates.md).
	Templates struct {
		Dir string `toml:"dir"`
	} `toml:"templates"`
	// Beacon is where the rounds of games with a public randomness beacon
	// are fetched (docs/dice-log.md).
	Beacon BeaconConfig `toml:"beacon"`
	// Retention says how long the store keeps what it no longer needs
	// (docs/operations.md, "Retention").
	Retention Retention `toml:"retention"`
	// DKIM is where the DKIM keys of players' mail providers are looked
	// up, for games that let a mail address hold a seat (docs/game-file.md,
	// "Players without a key").
	DKIM DKIMConfig `toml:"dkim"`

	// Games is the games the judge hosts.
	Games adjudicator.Registry `toml:"-"`
	// Now is the judge's clock and Logger its log; Stdout is where serve
	// --dev prints the addresses of its mail servers and web pages.
	Now    func() time.Time `toml:"-"`
	Logger *slog.Logger     `toml:"-"`
	Stdout io.Writer        `toml:"-"`
	// NewRoot draws each new game's dice chain roots (crypto/rand when
	// nil); a test pins it to play a game again with the same dice.
	NewRoot func() (dice.Hash, error) `toml:"-"`
	// Dev runs mail servers of the judge's own on loopback instead of the
	// configured ones, and serves the web pages on loopback (serve --dev).
	Dev bool `toml:"-"`
	// Control carries out a command line sent to the control socket, and
	// returns its exit code (nil: the judge has no control socket).
	Control ControlFunc `toml:"-"`

	// adj is the judge these settings make, made once (judge).
	adj *adjudicator.Judge

	// Web, when the section is there, serves the read-only public pages
	// (docs/web.md); nil without it.
	Web *WebConfig `toml:"web"`
	// source is the file the configuration was read from ("" for the
	// defaults: no file was found); dir is its folder.
	source, dir string
}

// WebConfig is the [web] section: where serve answers HTTP for the public
// pages, the games' read-only view and the in-browser dice verifier.
type WebConfig struct {
	Address string `toml:"address"` // host:port to listen on, such as ":8443"; default 127.0.0.1:8080
	// BaseURL is the pages' public address, as players open it
	// ("https://judge.example.org/"); its path, if any, is where they live.
	BaseURL string `toml:"base_url"`
	// CertFile and KeyFile, both or neither, are a PEM certificate chain
	// and key to serve HTTPS with; relative to the configuration's folder.
	CertFile string `toml:"cert_file"`
	KeyFile  string `toml:"key_file"`
	// Rate and Burst bound each client's requests (per second, at once);
	// default 10 and 40.
	Rate  float64 `toml:"rate"`
	Burst int     `toml:"burst"`
}

// BeaconConfig names the drand HTTP relays the judge fetches beacon rounds
// from, and how hard it tries.
type BeaconConfig struct {
	Relays  []string `toml:"relays"`  // default: https://api.drand.sh
	Tries   int      `toml:"tries"`   // rounds of requests per fetch; default 3
	Timeout duration `toml:"timeout"` // per request; default 10s
}

// DKIMConfig is the [dkim] section: how the judge looks up the DKIM keys
// of the mail providers of players without a key.
type DKIMConfig struct {
	// Resolver is a DNS server, host:port, to ask; "" (the default): the
	// system's resolver.
	Resolver string `toml:"resolver"`
	// Timeout bounds the look-ups of one message; default 3s. It must be
	// less than limits.message_time.
	Timeout duration `toml:"timeout"`
}

// check refuses a resolver that is no host:port and a timeout that is not
// within the message budget.
func (c DKIMConfig) check(l *Limits) error {
	if c.Resolver != "" {
		if _, _, err := net.SplitHostPort(c.Resolver); err != nil {
			return fmt.Errorf("dkim.resolver %q: write a DNS server as host:port, such as \"127.0.0.1:53\"", c.Resolver)
		}
	}
	budget := l.MessageTime.Duration
	if budget <= 0 {
		budget = adjudicator.DefaultMessageTime
	}
	if c.Timeout.Duration < 0 || c.Timeout.Duration >= budget {
		return fmt.Errorf("dkim.timeout %v: give a duration under limits.message_time (%v), such as \"3s\"", c.Timeout.Duration, budget)
	}
	return nil
}

// verifier is the DKIM check the intake uses.
func (c DKIMConfig) verifier() *intake.DKIM {
	d := &intake.DKIM{Timeout: c.Timeout.Duration}
	if c.Resolver != "" {
		r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var dialer net.Dialer
			return dialer.DialContext(ctx, network, c.Resolver)
		}}
		d.LookupTXT = r.LookupTXT
	}
	return d
}

// defaultBeaconRelay is drand's public HTTP relay.
const defaultBeaconRelay = "https://api.drand.sh"

// MailBox is how to reach one mail server.
type MailBox struct {
	Address  string `toml:"address"`  // host:port
	Security string `toml:"security"` // tls, starttls, or none (loopback only)
	Username string `toml:"username"`
	Password string `toml:"password"`
	// PasswordFile names a file whose first line is the password, to keep
	// it out of the configuration.
	PasswordFile string `toml:"password_file"`
	// CAFile is a PEM file of certificates to trust for this server instead
	// of the system's (a private CA, a self-signed server); relative to the
	// configuration file's folder.
	CAFile string `toml:"ca_file"`
	roots  *x509.CertPool
	// Auth is how the judge logs in: "password" (the default: password or
	// password_file) or "oauth2" (an access token, refreshed at TokenURL
	// from the refresh token in RefreshTokenFile; docs/operations.md,
	// "OAuth 2.0").
	Auth string `toml:"auth"`
	// TokenURL, ClientID and ClientSecretFile are the provider's token
	// endpoint and the judge's registration with it (the secret's file
	// relative to the configuration's folder; none for a public client).
	TokenURL         string `toml:"token_url"`
	ClientID         string `toml:"client_id"`
	ClientSecretFile string `toml:"client_secret_file"`
	// RefreshTokenFile holds the refresh token 'umpire mail authorize'
	// wrote; the judge writes a rotated one back (mode 0600), so it and its
	// folder must be the judge's to write.
	RefreshTokenFile string `toml:"refresh_token_file"`
	// Scopes are asked for with each refresh (default: those granted).
	Scopes []string `toml:"scopes"`
	// Mechanism is the SASL mechanism: "xoauth2", "oauthbearer", or ""
	// for OAUTHBEARER when the server offers it, else XOAUTH2.
	Mechanism string `toml:"mechanism"`
	oauth     *oauth.Source
	Folder    string `toml:"folder"`    // IMAP: the folder orders arrive in; default INBOX
	Processed string `toml:"processed"` // IMAP: where handled mail goes; default processed
	Rejected  string `toml:"rejected"`  // IMAP: where mail not understood goes; default rejected
	// Quarantine is the IMAP folder where messages the judge set aside go
	// (docs/operations.md, "Quarantined mail"); default quarantine.
	Quarantine string   `toml:"quarantine"`
	Poll       duration `toml:"poll"`    // IMAP: check interval without IDLE; default 1m
	Retry      duration `toml:"retry"`   // SMTP: first retry after a failed send, doubling to an hour; default 1m
	GiveUp     duration `toml:"give_up"` // SMTP: a mail still failing this long after it was queued fails; default 96h
}

// Limits bound what the judge reads, answers and runs.
type Limits struct {
	MessageBytes int64 `toml:"message_bytes"` // default 2 MiB
	// RepliesPerHour is how many answers one sender (a verified key, or
	// the address of unsigned mail) gets in an hour; default 20.
	RepliesPerHour int `toml:"replies_per_hour"`
	// MinInterval is the least time a game's schedule may leave between
	// two deadlines; default 1h.
	MinInterval duration `toml:"min_interval"`
	// StepsPerHour is the safety brake: a game whose clock adjudicates
	// more steps in an hour is paused. Default 12, or two per
	// min_interval if that is more.
	StepsPerHour int `toml:"steps_per_hour"`
	// MessageTime bounds the work on one incoming message: reading it,
	// and the rules reading its orders or game file. A message over it is
	// set aside (docs/operations.md, "Quarantined mail"). Default 5s.
	MessageTime duration `toml:"message_time"`
	// StepTime bounds the rules' adjudication of one step; a step over it
	// pauses its game. Default 1m.
	StepTime duration `toml:"step_time"`
	// MemoryMiB bounds how much the judge's heap may grow during one such
	// work, in MiB. Default 1024.
	MemoryMiB uint64 `toml:"memory_mib"`

	// runaways counts the computations abandoned at these limits.
	runaways atomic.Int64
}

// budgets are the judge's budgets for a message's work and a step's.
func (l *Limits) budgets() (message, step adjudicator.Budget) {
	mem := l.MemoryMiB << 20
	return adjudicator.Budget{Time: l.MessageTime.Duration, Memory: mem, Runaways: &l.runaways},
		adjudicator.Budget{Time: l.StepTime.Duration, Memory: mem, Runaways: &l.runaways}
}

// Retention is the [retention] section.
type Retention struct {
	// SentMail is how long the body of a mail is kept after it was sent
	// (or given up); its record, Message-ID and digest stay. Default 720h
	// (30 days).
	SentMail duration `toml:"sent_mail"`
	// ArchiveAfter, when set, has the judge archive a game by itself this
	// long after it ended (umpire game archive):
	// its export goes to ArchiveDir (relative to the configuration file's
	// folder) and the game leaves the store. Zero (the default): never.
	ArchiveAfter duration `toml:"archive_after"`
	ArchiveDir   string   `toml:"archive_dir"`
}

// DefaultRetention is how long sent mail bodies are kept by default.
const DefaultRetention = 30 * 24 * time.Hour

// duration is a time.Duration written as "90s", "5m", or in whole days
// as "90d".
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	if days, ok := strings.CutSuffix(string(b), "d"); ok {
		if n, err := strconv.ParseUint(days, 10, 16); err == nil {
			d.Duration = time.Duration(n) * 24 * time.Hour
			return nil
		}
	}
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration such as 30s, 5m or 90d", b)
	}
	d.Duration = v
	return nil
}

// LogConfig sets the daemon's log.
type LogConfig struct {
	Level string `toml:"level"` // debug, info, warn or error
	// Format is text or json, written to standard error or File, or
	// journal: the journal's own protocol (journal.go), which text becomes
	// on its own when standard error is the journal (systemd.exec's
	// JOURNAL_STREAM) and no File is set.
	Format string `toml:"format"`
	// File, when set, is where serve writes its log instead of standard
	// error (relative to the configuration file's folder); SIGHUP reopens
	// it, for log rotation.
	File string `toml:"file"`
}

// DefaultConfig is the configuration without a file.
func DefaultConfig() *Config {
	return &Config{Store: "umpire.db", Name: "umpire", Log: LogConfig{Level: "info", Format: "text"},
		IMAP:      MailBox{Security: "tls", Folder: "INBOX", Processed: "processed", Rejected: "rejected", Quarantine: "quarantine"},
		SMTP:      MailBox{Security: "starttls"},
		Limits:    Limits{MessageBytes: 2 << 20, RepliesPerHour: 20, MinInterval: duration{adjudicator.DefaultMinInterval}},
		Retention: Retention{SentMail: duration{DefaultRetention}}}
}

// Judge returns the judge the configuration describes, logging to log.
func (c *Config) Judge(log *slog.Logger) *adjudicator.Judge {
	if c.adj == nil || c.adj.Logger != log {
		message, step := c.Limits.budgets()
		c.adj = &adjudicator.Judge{Games: c.Games, Logger: log, MinInterval: c.Limits.MinInterval.Duration,
			StepsPerHour: c.Limits.StepsPerHour, Operator: c.Operator, MessageBudget: message, StepBudget: step,
			NewRoot: c.NewRoot}
	}
	return c.adj
}

// LoadConfig reads the configuration file at path (the command line's
// --config, or UMPIRE_CONFIG); with path "", umpire.toml if it exists, else
// the defaults. Unknown keys are errors, so a misspelt setting is never
// silently ignored. The mail servers' secrets (password_file, ca_file) are
// read only by ReadSecrets, for the commands that talk to them: the offline
// commands need none. Its errors are UsageErrors.
func LoadConfig(path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path = DefaultConfigFile
	}
	cfg := DefaultConfig()
	data, err := os.ReadFile(path)
	switch {
	case !explicit && errors.Is(err, fs.ErrNotExist):
		cfg.dir = "."
		return cfg, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("config %s: no such file", path)
	case err != nil:
		return nil, usagef("config %s: %w", path, err)
	}
	if _, err := datafile.Decode(path, data, cfg); err != nil {
		var fe *datafile.FileError
		switch {
		case !errors.As(err, &fe):
			return nil, usagef("config %s: %w", path, err)
		case strings.HasPrefix(fe.Err, "unknown field"):
			return nil, usagef("config %s: line %d: unknown setting %s%s (see README.md, Configuration)", path, fe.Line, fe.Field, strings.TrimPrefix(fe.Err, "unknown field"))
		}
		return nil, usagef("config %s: line %d: %s", path, fe.Line, fe.Err)
	}
	dir := filepath.Dir(path)
	cfg.source, cfg.dir = path, dir
	if !filepath.IsAbs(cfg.Store) {
		cfg.Store = filepath.Join(dir, cfg.Store)
	}
	if cfg.Log.File != "" && !filepath.IsAbs(cfg.Log.File) {
		cfg.Log.File = filepath.Join(dir, cfg.Log.File)
	}
	if cfg.Templates.Dir != "" && !filepath.IsAbs(cfg.Templates.Dir) {
		cfg.Templates.Dir = filepath.Join(dir, cfg.Templates.Dir)
	}
	if err := cfg.Web.check(dir); err != nil {
		return nil, usagef("config %s: %w", path, err)
	}
	if _, err := cfg.logLevel(); err != nil {
		return nil, usagef("config %s: %w", path, err)
	}
	if cfg.Limits.MinInterval.Duration <= 0 || cfg.Limits.StepsPerHour < 0 || cfg.Limits.RepliesPerHour < 0 {
		return nil, usagef("config %s: limits.min_interval must be a positive duration, and the other limits not negative", path)
	}
	if cfg.Retention.SentMail.Duration < time.Hour {
		return nil, usagef("config %s: retention.sent_mail must be a duration of at least 1h, such as 720h (30 days)", path)
	}
	if r := &cfg.Retention; r.ArchiveAfter.Duration != 0 || r.ArchiveDir != "" {
		if r.ArchiveAfter.Duration < time.Hour || r.ArchiveDir == "" {
			return nil, usagef("config %s: retention.archive_after (a duration of at least 1h, such as 90d) and retention.archive_dir (a folder for the archived games' files) go together", path)
		}
		if !filepath.IsAbs(r.ArchiveDir) {
			r.ArchiveDir = filepath.Join(dir, r.ArchiveDir)
		}
	}
	for _, name := range []string{"imap", "smtp"} {
		if err := cfg.mailBox(name).checkAuth(name); err != nil {
			return nil, usagef("config %s: %w", path, err)
		}
	}
	if err := cfg.DKIM.check(&cfg.Limits); err != nil {
		return nil, usagef("config %s: %w", path, err)
	}
	if cfg.Operator != "" {
		if _, err := mail.ParseAddress(cfg.Operator); err != nil {
			return nil, usagef("config %s: operator %q is not a mail address", path, cfg.Operator)
		}
	}
	if f := cfg.Log.Format; f != "text" && f != "json" && f != "journal" {
		return nil, usagef("config %s: log.format %q is not text, json or journal", path, f)
	}
	if cfg.Log.Format == "journal" && cfg.Log.File != "" {
		return nil, usagef("config %s: log.format journal sends the log to the journal, not to log.file %s: drop one of them", path, cfg.Log.File)
	}
	return cfg, nil
}

// ReadSecrets reads the mail servers' password files and CA files that
// the configuration names (relative to its folder).
func (cfg *Config) ReadSecrets() error {
	for _, name := range []string{"imap", "smtp"} {
		if err := cfg.readSecrets(name); err != nil {
			return err
		}
	}
	return nil
}

// mailBox is the [imap] or [smtp] section, by name.
func (cfg *Config) mailBox(name string) *MailBox {
	if name == "imap" {
		return &cfg.IMAP
	}
	return &cfg.SMTP
}

// checkAuth refuses an auth that is neither password nor oauth2, and
// oauth2 settings that are missing, mixed with a password or given without
// auth = "oauth2".
func (mb *MailBox) checkAuth(name string) error {
	oauthSet := mb.TokenURL != "" || mb.ClientID != "" || mb.ClientSecretFile != "" || mb.RefreshTokenFile != "" || len(mb.Scopes) > 0 || mb.Mechanism != ""
	switch mb.Auth {
	case "", "password":
		if oauthSet {
			return fmt.Errorf(`%s: token_url, client_id, client_secret_file, refresh_token_file, scopes and mechanism go with auth = "oauth2"`, name)
		}
		return nil
	case "oauth2":
	default:
		return fmt.Errorf(`%s.auth %q is neither "password" nor "oauth2"`, name, mb.Auth)
	}
	var missing []string
	for _, k := range []struct{ key, v string }{{"token_url", mb.TokenURL}, {"client_id", mb.ClientID}, {"refresh_token_file", mb.RefreshTokenFile}, {"username", mb.Username}} {
		if k.v == "" {
			missing = append(missing, name+"."+k.key)
		}
	}
	switch {
	case len(missing) > 0:
		return fmt.Errorf(`auth = "oauth2" needs %s (docs/operations.md, "OAuth 2.0")`, strings.Join(missing, ", "))
	case mb.Password != "" || mb.PasswordFile != "":
		return fmt.Errorf(`%s: auth = "oauth2" logs in with a token: remove password and password_file`, name)
	case !strings.HasPrefix(mb.TokenURL, "https://") && !loopbackURL(mb.TokenURL):
		return fmt.Errorf("%s.token_url %q: the token endpoint must be https:// (http:// only on loopback)", name, mb.TokenURL)
	}
	if m := strings.ToLower(mb.Mechanism); m != "" && m != "xoauth2" && m != "oauthbearer" {
		return fmt.Errorf(`%s.mechanism %q is neither "xoauth2" nor "oauthbearer" (or leave it out: OAUTHBEARER when the server offers it, else XOAUTH2)`, name, mb.Mechanism)
	}
	return nil
}

// loopbackURL says whether u is an http:// address on loopback.
func loopbackURL(u string) bool {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// readOAuth reads the section name's client secret and makes its token
// source, sharing the other section's when both name the same refresh
// token file (one grant for IMAP and SMTP, as Gmail and Microsoft give).
func (cfg *Config) readOAuth(name string) error {
	mb := cfg.mailBox(name)
	other := cfg.mailBox(map[string]string{"imap": "smtp", "smtp": "imap"}[name])
	if other.oauth != nil && cfg.relative(other.RefreshTokenFile) == cfg.relative(mb.RefreshTokenFile) &&
		other.TokenURL == mb.TokenURL && other.ClientID == mb.ClientID {
		mb.oauth = other.oauth
		return nil
	}
	secret, err := cfg.clientSecret(name)
	if err != nil {
		return err
	}
	src, err := oauth.NewSource(oauth.Config{TokenURL: mb.TokenURL, ClientID: mb.ClientID, ClientSecret: secret,
		RefreshTokenFile: cfg.relative(mb.RefreshTokenFile), Scopes: mb.Scopes, Now: cfg.Now})
	if err != nil {
		return usagef("config %s: %s.refresh_token_file: %w", cfg.source, name, err)
	}
	mb.oauth = src
	return nil
}

// clientSecret reads the client_secret_file of the section name; "" when
// it names none (a public client).
func (cfg *Config) clientSecret(name string) (string, error) {
	mb := cfg.mailBox(name)
	if mb.ClientSecretFile == "" {
		return "", nil
	}
	b, err := os.ReadFile(cfg.relative(mb.ClientSecretFile))
	if err != nil {
		return "", usagef("config %s: %s.client_secret_file: %w", cfg.source, name, err)
	}
	return strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]), nil
}

// readSecrets reads the ca_file and password_file of the section name, or
// its OAuth 2.0 files.
func (cfg *Config) readSecrets(name string) error {
	path, mb := cfg.source, cfg.mailBox(name)
	if mb.CAFile != "" {
		p := cfg.relative(mb.CAFile)
		pem, err := os.ReadFile(p)
		if err != nil {
			return usagef("config %s: %s.ca_file: %w", path, name, err)
		}
		mb.roots = x509.NewCertPool()
		if !mb.roots.AppendCertsFromPEM(pem) {
			return usagef("config %s: %s.ca_file %s holds no PEM certificate", path, name, p)
		}
	}
	if mb.Auth == "oauth2" {
		return cfg.readOAuth(name)
	}
	if mb.PasswordFile == "" {
		return nil
	}
	b, err := os.ReadFile(cfg.relative(mb.PasswordFile))
	if err != nil {
		return usagef("config %s: %s.password_file: %w", path, name, err)
	}
	mb.Password = strings.TrimRight(strings.SplitN(string(b), "\n", 2)[0], "\r")
	return nil
}

// relative returns p, a path the configuration names, as it is read:
// relative to the configuration file's folder.
func (cfg *Config) relative(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cfg.dir, p)
}

func (c *Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Log.Level)); err != nil {
		return 0, fmt.Errorf("log.level %q is not debug, info, warn or error", c.Log.Level)
	}
	return l, nil
}

// NewLogger returns the logger the configuration asks for, writing to w.
func (c *Config) NewLogger(w io.Writer) *slog.Logger {
	level, _ := c.logLevel()
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// LogsToJournal reports whether a log written to stderr goes to the
// journal in its own protocol: log.format is journal, or it is text and
// stderr is the journal's stream (journalStream is $JOURNAL_STREAM). A
// json log stays json, for the collector that reads it.
func (c *Config) LogsToJournal(journalStream string, stderr io.Writer) bool {
	return c.Log.Format == "journal" || c.Log.Format == "text" && StderrIsJournal(journalStream, stderr)
}

// NewJournalLogger returns the logger the configuration asks for, sending
// to the journal's socket at socket (JournalSocket) and writing to stderr,
// as text, what the journal does not take. Close its handler's socket
// (JournalHandler.Close) when done.
func (c *Config) NewJournalLogger(socket string, stderr io.Writer) (*slog.Logger, *JournalHandler, error) {
	level, _ := c.logLevel()
	opts := &slog.HandlerOptions{Level: level}
	h, err := NewJournalHandler(socket, opts, slog.NewTextHandler(stderr, opts))
	if err != nil {
		return nil, nil, err
	}
	return slog.New(h), h, nil
}

// File is the file the configuration was read from, "" for the defaults.
func (c *Config) File() string { return c.source }
