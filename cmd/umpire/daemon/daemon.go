package daemon

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
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

// CheckMail says what the configuration lacks to reach its mail servers.
func (cfg *Config) CheckMail() error {
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
			where = "no configuration file was found (looked for --config FILE, $UMPIRE_CONFIG and ./" + DefaultConfigFile + "), so the judge has no"
		}
		return usagef("%s %s: write them in a configuration file (README.md, Configuration), or run 'umpire serve --dev' to try the judge on mail servers of its own", where, strings.Join(missing, ", "))
	}
	if _, err := mail.ParseAddress(cfg.Address); err != nil {
		return usagef("address %q is not a mail address", cfg.Address)
	}
	return nil
}

// Daemon is the judge at work: an inbox feeding intake, an outbox, the
// games' clocks, the control socket, and the web pages.
type Daemon struct {
	cfg    *Config
	db     *store.DB
	now    func() time.Time
	log    *slog.Logger
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
	// closers are the dev mail servers and the web pages' listener.
	closers []io.Closer
}

// New makes the judge of cfg on its store db, which stays the caller's to
// close. With cfg.Dev it first starts mail servers of its own on loopback
// and points cfg at them; with cfg.Dev or a [web] section it listens for
// the web pages. It prints where to reach them to cfg.Stdout.
func New(ctx context.Context, cfg *Config, db *store.DB) (_ *Daemon, err error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	d := &Daemon{cfg: cfg, db: db, now: cfg.Now, log: cfg.Logger}
	for _, mb := range []MailBox{cfg.IMAP, cfg.SMTP} {
		if mb.oauth != nil {
			mb.oauth.SetLogger(d.log) // its refreshes in the judge's log
		}
	}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	if cfg.Dev {
		if err := d.startDevMail(ctx); err != nil {
			return nil, err
		}
	}
	from := (&mail.Address{Name: cfg.Name, Address: cfg.Address}).String()
	key, err := serverKey(ctx, db, cfg, d.now())
	if err != nil {
		return nil, fmt.Errorf("server key: %w", err)
	}
	reports, err := templates.NewReports(cfg.Templates.Dir)
	if err != nil {
		return nil, err
	}
	adj := cfg.Judge(d.log)
	reports.WithMapImages(MapImages(db)).WithPages(Pages(db, adj, cfg.Address, cfg.Web.baseURL(), d.now))
	metrics := web.NewMetrics(outboxStats{db}, d.now, d.log)
	observeJudge(adj, metrics)
	metrics.Runaways(cfg.Limits.runaways.Load)
	q := &queue{db: db, from: from, key: key, reports: reports, log: d.log, now: d.now, wake: make(chan struct{}, 1), metrics: metrics}
	out, err := umail.NewOutbox(umail.OutboxConfig{
		Server: server(cfg.SMTP), HelloName: hostOf(cfg.Address), Now: d.now, Logger: d.log,
		Retry: umail.Backoff{Base: cfg.SMTP.Retry.Duration, Max: time.Hour}, GiveUp: cfg.SMTP.GiveUp.Duration,
		OnFailure: func(ctx context.Context, q umail.Queued, reason string) { d.reportFailure(ctx, q, reason) },
	}, q)
	if err != nil {
		return nil, err
	}
	q.rendered = func() { out.PokeLane(umail.LaneReports) }
	poke := func() { out.Poke(); q.Wake() }
	sched := &scheduler{db: db, judge: adj, from: from, now: d.now, log: d.log, poke: poke,
		interval: time.Minute, wake: make(chan struct{}, 1), beacons: cfg.Beacon.relay()}
	limits := message.DefaultLimits()
	limits.MaxMessage = cfg.Limits.MessageBytes
	h := intake.New(intake.Config{
		Store: intakeStore{db}, Intake: &adjudicator.Intake{Logger: d.log, Judge: adj,
			JudgeKey: &adjudicator.JudgeKey{Fingerprint: key.Public().Fingerprint, Armored: key.ArmoredPublic()}}, Address: cfg.Address,
		From: from, Limits: limits, RepliesPerHour: cfg.Limits.RepliesPerHour, Now: d.now, Logger: d.log,
		Poke: poke, Wake: sched.Wake, Taken: takenMetrics(metrics), Budget: adj.MessageBudget,
		Quarantined: func(uint64) { metrics.MailTaken("quarantined") }, DKIM: cfg.DKIM.verifier(),
	})
	in, err := umail.NewInbox(umail.InboxConfig{
		Server: server(cfg.IMAP), Folder: cfg.IMAP.Folder, Processed: cfg.IMAP.Processed, Rejected: cfg.IMAP.Rejected,
		Quarantine: cfg.IMAP.Quarantine, Poll: cfg.IMAP.Poll.Duration, MaxSize: cfg.Limits.MessageBytes, Logger: d.log,
	}, h, h)
	if err != nil {
		return nil, err
	}
	d.inbox, d.outbox, d.sched, d.judge, d.intake, d.metrics, d.queue = in, out, sched, adj, h, metrics, q
	if err := d.serveWeb(); err != nil {
		return nil, err
	}
	return d, nil
}

// Close stops the mail servers of serve --dev and the web pages' listener.
func (d *Daemon) Close() error {
	var errs []error
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i].Close())
	}
	d.closers = nil
	return errors.Join(errs...)
}

func server(mb MailBox) umail.Server {
	s := umail.Server{Address: mb.Address, Security: umail.Security(mb.Security), Username: mb.Username, Password: mb.Password,
		OAuth: mb.oauth, Mechanism: mb.Mechanism}
	if mb.roots != nil {
		host, _, _ := net.SplitHostPort(mb.Address)
		s.TLS = &tls.Config{RootCAs: mb.roots, ServerName: host, MinVersion: tls.VersionTLS12}
	}
	return s
}

// Once takes what is waiting in the mailbox, adjudicates what is due, and
// sends what is due (serve --once).
func (d *Daemon) Once(ctx context.Context) error {
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
		if next.IsZero() || next.After(d.now()) {
			break
		}
	}
	_, err := d.outbox.Drain(ctx)
	return err
}

// Run runs the judge until ctx ends or one of its parts fails: inbox,
// outbox, the games' clocks, the reports' renderer, pruning and archiving,
// the control socket and the web pages.
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if err := d.released(ctx); err != nil {
		return err
	}
	runs := []func(context.Context) error{d.inbox.Run, d.outbox.Run, d.sched.Run, d.queue.Run, d.prune, d.watchdog}
	ctl, err := d.listenControl()
	if err != nil {
		d.log.WarnContext(ctx, "no control socket: the command line cannot reach this judge while it runs", "err", err)
	} else {
		runs = append(runs, ctl.Run)
		d.log.InfoContext(ctx, "control socket ready", "path", ctl.path)
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
	d.log.InfoContext(ctx, "judge running")
	stopping := d.ready(ctx)
	wg.Wait()
	// Every part returned, so ctx has ended: systemd is told, if the
	// goroutine of its end has not yet done so, before the judge exits.
	stopping()
	return context.Cause(ctx)
}

// released processes the quarantined messages the operator released while
// the judge was stopped (umpire mail release).
func (d *Daemon) released(ctx context.Context) error {
	rs, err := d.intake.ProcessReleased(ctx)
	if len(rs) > 0 {
		d.log.InfoContext(ctx, "released messages processed", "messages", len(rs))
		d.outbox.Poke()
	}
	return err
}

// prune empties the bodies of sent mail older than the retention, and
// archives the ended games that retention.archive_after names, at start
// and every hour, until ctx ends.
func (d *Daemon) prune(ctx context.Context) error {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		keep := d.cfg.Retention.SentMail.Duration
		if keep <= 0 {
			keep = DefaultRetention
		}
		if n, err := prune(ctx, d.db, d.now(), keep); err != nil && ctx.Err() == nil {
			d.log.ErrorContext(ctx, "pruning sent mail failed", "err", err)
		} else if n > 0 {
			d.log.InfoContext(ctx, "sent mail pruned", "mails", n, "older_than", keep)
		}
		if n, err := d.archiveEnded(ctx, d.now()); err != nil && ctx.Err() == nil {
			d.log.ErrorContext(ctx, "archiving ended games failed", "err", err)
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
func (d *Daemon) reportFailure(ctx context.Context, q umail.Queued, reason string) {
	db, cfg := d.db, d.cfg
	d.log.ErrorContext(ctx, "mail could not be delivered", "id", q.ID, "to", q.To, "reason", reason)
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
		return tx.Judge(cfg.Address, d.now()).Enqueue(adjudicator.Mail{
			Kind: adjudicator.MailError, Game: g.ID, To: gm.Address,
			Subject: fmt.Sprintf("umpire: mail to %s could not be delivered", strings.Join(q.To, ", ")),
			Text: fmt.Sprintf("The judge could not deliver its mail %s (%q) to %s:\n\n  %s\n\n"+
				"The player may not have received it. Check their address.\n", q.MessageID, orig.Subject, strings.Join(q.To, ", "), reason),
		})
	})
	if err != nil {
		d.log.ErrorContext(ctx, "could not tell the game master about a failed mail", "err", err)
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

// startDevMail starts the embedded mail servers and points cfg at them.
func (d *Daemon) startDevMail(ctx context.Context) error {
	cfg := d.cfg
	const judge = "judge@umpire.test"
	b := make([]byte, 9)
	rand.Read(b)
	pw := hex.EncodeToString(b)
	var mu sync.Mutex // Created runs on the mail servers' goroutines
	created := func(address, password string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(cfg.Stdout, "Mailbox %s made: IMAP user %s, password %s\n", address, address, password)
	}
	srv, err := devmail.Start(ctx, devmail.Config{Domains: []string{"umpire.test", "players.test"},
		Accounts: map[string]string{judge: pw}, Logger: d.log, Created: created})
	if err != nil {
		return fmt.Errorf("dev mail servers: %w", err)
	}
	d.closers = append(d.closers, srv)
	cfg.Address = judge
	cfg.IMAP = MailBox{Address: srv.IMAPAddr(), Security: "none", Username: judge, Password: pw,
		Folder: "INBOX", Processed: "processed", Rejected: "rejected", Poll: cfg.IMAP.Poll}
	cfg.SMTP = MailBox{Address: srv.SMTPAddr(), Security: "none", Username: judge, Password: pw}
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(cfg.Stdout, "Development mail servers on loopback (no TLS):\n  IMAP %s\n  SMTP %s\n"+
		"The judge is %s (password %s). Mail to any address @players.test\n"+
		"creates its mailbox; each is printed here as it is made, with its password.\n", srv.IMAPAddr(), srv.SMTPAddr(), judge, pw)
	host, port, _ := net.SplitHostPort(srv.SMTPAddr())
	fmt.Fprintf(cfg.Stdout, "To mail the judge a signed order file orders.txt.asc as alice@players.test, paste:\n  %s\nor, with swaks:\n  %s\n",
		devMailPython(host, port, judge), devMailSwaks(srv.SMTPAddr(), judge))
	return nil
}

// devMailPython is a shell line that mails the file orders.txt.asc to the
// judge from alice@players.test through the dev SMTP server, with nothing
// but python3.
func devMailPython(host, port, judge string) string {
	return `python3 -c 'import smtplib,sys; from email.message import EmailMessage; m=EmailMessage(); ` +
		`m["From"]="alice@players.test"; m["To"]="` + judge + `"; m["Subject"]="orders"; ` +
		`m.set_content(open(sys.argv[1]).read()); smtplib.SMTP("` + host + `",` + port + `).send_message(m)' orders.txt.asc`
}

// devMailSwaks is devMailPython's line for swaks.
func devMailSwaks(addr, judge string) string {
	return "swaks --server " + addr + " --from alice@players.test --to " + judge + " --header 'Subject: orders' --body @orders.txt.asc"
}

// Open opens the configuration's store, making it if it is not there.
func (c *Config) Open() (*store.DB, error) {
	return store.Open(c.Store, store.Options{Host: hostOf(c.Address), Due: c.Judge(c.Logger).Due})
}

func hostOf(addr string) string {
	if a, err := mail.ParseAddress(addr); err == nil {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 {
			return a.Address[i+1:]
		}
	}
	return ""
}
