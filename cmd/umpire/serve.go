package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	iofs "io/fs"
	"net"
	"net/mail"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/cmd/umpire/web"
	umail "github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/devmail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

func serveCommand() *command {
	return &command{
		name:    "serve",
		args:    "[--config FILE] [--store FILE] [--dev] [--once]",
		summary: "Run the judge daemon: read orders from the mailbox, adjudicate, mail reports.",
		help: `serve reads its configuration from --config, UMPIRE_CONFIG or ./umpire.toml
(README.md, "Configuration"), opens the store, and runs until SIGINT or SIGTERM:
it takes every message from the IMAP folder exactly once, answers each with a
receipt or an explanation, and sends queued mail over SMTP with retries.
It refuses a store written by a newer umpire. With a [web] section it also
serves the games' read-only web pages, /healthz and /metrics (docs/web.md).

--dev runs its own mail servers on loopback instead (no mail account needed):
the judge is judge@umpire.test, any address @players.test gets a mailbox
when mail first arrives for it, and serve prints the addresses and passwords
to point a mail client at, and the address of the web pages on loopback.

--once takes what is waiting, sends what is due, and exits.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Bool("dev", false, "run embedded mail servers on loopback instead of the configured ones")
			fs.Bool("once", false, "handle waiting mail, send due mail, and exit")
		},
		run: runServe,
	}
}

// openStore loads the configuration and opens its store, which m closes;
// a store that does not exist yet is made. While "umpire serve" holds the
// store, a command the judge can carry out (control.go) is sent to it
// instead: openStore then returns the command's exit code as an exitCode
// error, its output printed.
func (m *Main) openStore(fs *flag.FlagSet) (*Config, *store.DB, error) {
	return m.openStoreFile(fs, true)
}

// openExisting is openStore for commands that only read or add to a
// judge's store (game list, show, export, render, replay, keys): a store
// file that is not there is an error naming where it was looked for, never
// a new empty store (a mistyped --store path).
func (m *Main) openExisting(fs *flag.FlagSet) (*Config, *store.DB, error) {
	return m.openStoreFile(fs, false)
}

// openStoreFile opens the configured store. While "umpire serve" holds it,
// a command the judge can carry out (control.go) is sent to it instead: the
// command's exit code is then returned as an exitCode error, its output
// printed. A command the judge runs for its control socket gets the
// judge's own store.
func (m *Main) openStoreFile(fs *flag.FlagSet, create bool) (*Config, *store.DB, error) {
	if m.daemon != nil {
		return m.daemon.cfg, m.daemon.db, nil
	}
	cfg, err := m.loadConfig(fs.Lookup("config").Value.String())
	if err != nil {
		return nil, nil, err
	}
	db, err := m.openConfigured(cfg, fs, create)
	return cfg, db, err
}

// openConfigured opens the store of cfg, or --store's.
func (m *Main) openConfigured(cfg *Config, fs *flag.FlagSet, create bool) (*store.DB, error) {
	from := "the configuration " + cfg.source + "'s store"
	if cfg.source == "" {
		from = "the default store (no configuration file: looked for --config, $UMPIRE_CONFIG and ./" + defaultConfigFile + ")"
	}
	if s := fs.Lookup("store").Value.String(); s != "" {
		cfg.Store, from = s, "--store"
	}
	m.Logger = m.logger(cfg)
	if len(m.cmdline) > 0 && controllable(m.cmdline, fs) {
		code, err := m.callDaemon(cfg.Store, m.cmdline)
		switch {
		case errors.Is(err, errNoDaemon):
		case err != nil:
			return nil, err
		default:
			return nil, exitCode(code)
		}
	}
	if !create {
		if _, err := os.Stat(cfg.Store); errors.Is(err, iofs.ErrNotExist) {
			return nil, usagef("there is no store %s (%s): give the judge's store with --store FILE or --config FILE; 'umpire serve' and 'umpire game new' make one", cfg.Store, from)
		}
	}
	db, err := store.Open(cfg.Store, store.Options{Host: hostOf(cfg.Address), Due: cfg.judge(m.Logger).Due})
	if err != nil {
		return nil, err
	}
	m.closers = append(m.closers, db)
	return db, nil
}

func hostOf(addr string) string {
	if a, err := mail.ParseAddress(addr); err == nil {
		if _, host, ok := cutLast(a.Address, "@"); ok {
			return host
		}
	}
	return ""
}

func cutLast(s, sep string) (string, string, bool) {
	for i := len(s) - len(sep); i >= 0; i-- {
		if s[i:i+len(sep)] == sep {
			return s[:i], s[i+len(sep):], true
		}
	}
	return s, "", false
}

func flagBool(fs *flag.FlagSet, name string) bool {
	return fs.Lookup(name).Value.(flag.Getter).Get().(bool)
}

func flagInt(fs *flag.FlagSet, name string) int {
	return fs.Lookup(name).Value.(flag.Getter).Get().(int)
}

func runServe(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("takes no arguments")
	}
	dev := flagBool(fs, "dev")
	if dev && flagBool(fs, "once") {
		return usagef("--dev and --once do not go together: the embedded mail servers start empty and stop when serve exits, " +
			"so there would be nothing to take; run 'umpire serve --dev' and send it mail, or 'umpire demo' to see a whole game")
	}
	cfg, err := m.loadConfig(fs.Lookup("config").Value.String())
	if err != nil {
		return err
	}
	storePath := cfg.Store
	if s := fs.Lookup("store").Value.String(); s != "" {
		storePath = s
	}
	_, statErr := os.Stat(storePath)
	exists := statErr == nil
	var db *store.DB
	if exists {
		// a store that is there is checked first (a newer schema, in use)
		if db, err = m.openConfigured(cfg, fs, false); err != nil {
			return err
		}
	}
	if !dev {
		// a judge that cannot reach its mail makes no store
		if err := checkMailConfig(cfg); err != nil {
			return err
		}
		if err := cfg.mailSecrets(); err != nil {
			return err
		}
	}
	if !exists {
		if db, err = m.openConfigured(cfg, fs, true); err != nil {
			return err
		}
	}
	if dev {
		if err := m.startDevMail(ctx, cfg); err != nil {
			return err
		}
	}
	m.Logger.InfoContext(ctx, "store ready", "path", cfg.Store, "schema", db.SchemaVersion())
	d, err := m.newDaemon(ctx, cfg, db)
	if err != nil {
		return err
	}
	if err := m.serveWeb(d, cfg, db, flagBool(fs, "dev") && !flagBool(fs, "once")); err != nil {
		return err
	}
	if flagBool(fs, "once") {
		return d.once(ctx)
	}
	err = d.run(ctx)
	if errors.Is(err, context.Canceled) {
		m.Logger.Info("stopped")
		return nil
	}
	return err
}

func checkMailConfig(cfg *Config) error {
	var missing []string
	if cfg.Address == "" {
		missing = append(missing, "address")
	}
	if cfg.IMAP.Address == "" {
		missing = append(missing, "imap.address")
	}
	if cfg.SMTP.Address == "" {
		missing = append(missing, "smtp.address")
	}
	if len(missing) > 0 {
		where := "the configuration " + cfg.source + " lacks"
		if cfg.source == "" {
			where = "no configuration file was found (looked for --config FILE, $UMPIRE_CONFIG and ./" + defaultConfigFile + "), so the judge has no"
		}
		return usagef("%s %s: write them in a configuration file (README.md, Configuration), or run 'umpire serve --dev' to try the judge on mail servers of its own", where, strings.Join(missing, ", "))
	}
	if _, err := mail.ParseAddress(cfg.Address); err != nil {
		return usagef("address %q is not a mail address", cfg.Address)
	}
	return nil
}

// startDevMail starts the embedded mail servers and points cfg at them.
func (m *Main) startDevMail(ctx context.Context, cfg *Config) error {
	const judge = "judge@umpire.test"
	b := make([]byte, 9)
	rand.Read(b)
	pw := hex.EncodeToString(b)
	srv, err := devmail.Start(ctx, devmail.Config{Domains: []string{"umpire.test", "players.test"},
		Accounts: map[string]string{judge: pw}, Logger: m.Logger})
	if err != nil {
		return fmt.Errorf("dev mail servers: %w", err)
	}
	m.closers = append(m.closers, srv)
	cfg.Address = judge
	cfg.IMAP = MailBox{Address: srv.IMAPAddr(), Security: "none", Username: judge, Password: pw,
		Folder: "INBOX", Processed: "processed", Rejected: "rejected", Poll: cfg.IMAP.Poll}
	cfg.SMTP = MailBox{Address: srv.SMTPAddr(), Security: "none", Username: judge, Password: pw}
	fmt.Fprintf(m.Stdout, "Development mail servers on loopback (no TLS):\n  IMAP %s\n  SMTP %s\n"+
		"The judge is %s (password %s). Mail to any address @players.test\n"+
		"creates its mailbox; its password is in the log.\n", srv.IMAPAddr(), srv.SMTPAddr(), judge, pw)
	return nil
}

// daemon is the judge at work: an inbox feeding intake, an outbox, the
// games' clocks, and the control socket.
type daemon struct {
	m      *Main
	cfg    *Config
	db     *store.DB
	inbox  *umail.Inbox
	outbox *umail.Outbox
	sched  *scheduler
	queue  *queue // the outbox's store, and the renderer of its reports
	judge  *adjudicator.Judge
	intake *intake.Handler
	// metrics count the daemon's work; web, when set, serves the public
	// pages and /metrics while the daemon runs.
	metrics *web.Metrics
	web     *webServer
}

func (m *Main) newDaemon(ctx context.Context, cfg *Config, db *store.DB) (*daemon, error) {
	from := (&mail.Address{Name: cfg.Name, Address: cfg.Address}).String()
	key, err := serverKey(ctx, db, cfg, m.Now())
	if err != nil {
		return nil, fmt.Errorf("server key: %w", err)
	}
	reports, err := templates.NewReports(cfg.Templates.Dir)
	if err != nil {
		return nil, err
	}
	adj := cfg.judge(m.Logger)
	metrics := m.newMetrics(db)
	observeJudge(adj, metrics)
	metrics.Runaways(cfg.Limits.runaways.Load)
	q := &queue{db: db, from: from, key: key, reports: reports, log: m.Logger, now: m.Now, wake: make(chan struct{}, 1), metrics: metrics}
	out, err := umail.NewOutbox(umail.OutboxConfig{
		Server: server(cfg.SMTP), HelloName: hostOf(cfg.Address), Now: m.Now, Logger: m.Logger,
		Retry: umail.Backoff{Base: cfg.SMTP.Retry.Duration, Max: time.Hour}, GiveUp: cfg.SMTP.GiveUp.Duration,
		OnFailure: func(ctx context.Context, q umail.Queued, reason string) { m.reportFailure(ctx, db, cfg, q, reason) },
	}, q)
	if err != nil {
		return nil, err
	}
	q.rendered = func() { out.PokeLane(umail.LaneReports) }
	poke := func() { out.Poke(); q.Wake() }
	sched := &scheduler{db: db, judge: adj, from: from, now: m.Now, log: m.Logger, poke: poke,
		interval: time.Minute, wake: make(chan struct{}, 1), beacons: cfg.Beacon.relay()}
	limits := message.DefaultLimits()
	limits.MaxMessage = cfg.Limits.MessageBytes
	h := intake.New(intake.Config{
		Store: intakeStore{db}, Intake: &adjudicator.Intake{Logger: m.Logger, Judge: adj,
			JudgeKey: &adjudicator.JudgeKey{Fingerprint: key.Public().Fingerprint, Armored: key.ArmoredPublic()}}, Address: cfg.Address,
		From: from, Limits: limits, RepliesPerHour: cfg.Limits.RepliesPerHour, Now: m.Now, Logger: m.Logger,
		Poke: poke, Wake: sched.Wake, Taken: takenMetrics(metrics), Budget: adj.MessageBudget,
		Quarantined: func(uint64) { metrics.MailTaken("quarantined") },
	})
	in, err := umail.NewInbox(umail.InboxConfig{
		Server: server(cfg.IMAP), Folder: cfg.IMAP.Folder, Processed: cfg.IMAP.Processed, Rejected: cfg.IMAP.Rejected,
		Quarantine: cfg.IMAP.Quarantine, Poll: cfg.IMAP.Poll.Duration, MaxSize: cfg.Limits.MessageBytes, Logger: m.Logger,
	}, h, h)
	if err != nil {
		return nil, err
	}
	return &daemon{m: m, cfg: cfg, db: db, inbox: in, outbox: out, sched: sched, judge: adj, intake: h, metrics: metrics, queue: q}, nil
}

func server(mb MailBox) umail.Server {
	s := umail.Server{Address: mb.Address, Security: umail.Security(mb.Security), Username: mb.Username, Password: mb.Password}
	if mb.roots != nil {
		host, _, _ := net.SplitHostPort(mb.Address)
		s.TLS = &tls.Config{RootCAs: mb.roots, ServerName: host, MinVersion: tls.VersionTLS12}
	}
	return s
}

func (d *daemon) once(ctx context.Context) error {
	if err := d.released(ctx); err != nil {
		return err
	}
	if err := d.inbox.Once(ctx); err != nil {
		return err
	}
	for range 100 { // every step due now, each at most once
		next, err := d.sched.pass(ctx)
		if err != nil {
			return err
		}
		if next.IsZero() || next.After(d.m.Now()) {
			break
		}
	}
	_, err := d.outbox.Drain(ctx)
	return err
}

// run runs inbox and outbox until ctx ends or one of them fails.
func (d *daemon) run(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if err := d.released(ctx); err != nil {
		return err
	}
	runs := []func(context.Context) error{d.inbox.Run, d.outbox.Run, d.sched.Run, d.queue.Run, d.prune}
	ctl, err := d.m.listenControl(d.cfg, d.db, d.intake, func() { d.sched.Wake(); d.outbox.Poke() })
	if err != nil {
		d.m.Logger.WarnContext(ctx, "no control socket: the command line cannot reach this judge while it runs", "err", err)
	} else {
		runs = append(runs, ctl.Run)
		d.m.Logger.InfoContext(ctx, "control socket ready", "path", ctl.path)
	}
	var wg sync.WaitGroup
	if d.web != nil {
		runs = append(runs, d.web.run)
	}
	for _, run := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cancel(run(ctx))
		}()
	}
	d.m.Logger.InfoContext(ctx, "judge running")
	wg.Wait()
	return context.Cause(ctx)
}

// released processes the quarantined messages the operator released while
// the judge was stopped (umpire mail release).
func (d *daemon) released(ctx context.Context) error {
	rs, err := d.intake.ProcessReleased(ctx)
	if len(rs) > 0 {
		d.m.Logger.InfoContext(ctx, "released messages processed", "messages", len(rs))
		d.outbox.Poke()
	}
	return err
}

// prune empties the bodies of sent mail older than the retention, and
// archives the ended games that retention.archive_after names, at start
// and every hour, until ctx ends.
func (d *daemon) prune(ctx context.Context) error {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		keep := d.cfg.Retention.SentMail.Duration
		if keep <= 0 {
			keep = DefaultRetention
		}
		if n, err := prune(ctx, d.db, d.m.Now(), keep); err != nil && ctx.Err() == nil {
			d.m.Logger.ErrorContext(ctx, "pruning sent mail failed", "err", err)
		} else if n > 0 {
			d.m.Logger.InfoContext(ctx, "sent mail pruned", "mails", n, "older_than", keep)
		}
		if n, err := archiveEnded(ctx, d.m, d.cfg, d.db, d.m.Now()); err != nil && ctx.Err() == nil {
			d.m.Logger.ErrorContext(ctx, "archiving ended games failed", "err", err)
		} else if n > 0 {
			d.outbox.Poke() // the announcements
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// reportFailure tells the game master of the mail's game that a mail could
// not be delivered, and logs it either way.
func (m *Main) reportFailure(ctx context.Context, db *store.DB, cfg *Config, q umail.Queued, reason string) {
	m.Logger.ErrorContext(ctx, "mail could not be delivered", "id", q.ID, "to", q.To, "reason", reason)
	err := db.Update(ctx, func(tx *store.Tx) error {
		orig, err := tx.Mail(q.ID)
		if err != nil || orig.Game == "" || orig.Kind == store.MailError {
			return err
		}
		g, err := tx.Game(orig.Game)
		if err != nil || g.GMKey == "" {
			return err
		}
		gm, err := tx.Key(g.GMKey)
		if err != nil || gm.Address == "" {
			return err
		}
		return tx.Judge(cfg.Address, m.Now()).Enqueue(adjudicator.Mail{
			Kind: adjudicator.MailError, Game: g.ID, To: gm.Address,
			Subject: fmt.Sprintf("umpire: mail to %s could not be delivered", strings.Join(q.To, ", ")),
			Text: fmt.Sprintf("The judge could not deliver its mail %s (%q) to %s:\n\n  %s\n\n"+
				"The player may not have received it. Check their address.\n", q.MessageID, orig.Subject, strings.Join(q.To, ", "), reason),
		})
	})
	if err != nil {
		m.Logger.ErrorContext(ctx, "could not tell the game master about a failed mail", "err", err)
	}
}

// relay is the beacon relay client the configuration describes.
func (c BeaconConfig) relay() *beacon.Relay {
	urls := c.Relays
	if len(urls) == 0 {
		urls = []string{defaultBeaconRelay}
	}
	return &beacon.Relay{URLs: urls, Tries: c.Tries, Timeout: c.Timeout.Duration}
}
