package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
	"github.com/umpire-pbem/umpire/store"
)

func serveCommand() *command {
	return &command{
		name:    "serve",
		args:    "[--config FILE] [--store FILE] [--dev] [--once]",
		summary: "Run the judge daemon: read orders from the mailbox, adjudicate, mail reports.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Bool("dev", false, "run embedded mail servers on loopback instead of the configured ones")
			fs.Bool("once", false, "handle waiting mail, send due mail, and exit")
		},
		run: runServe,
	}
}

// console is the operator's console on the store of the command line's
// configuration, or, in the running judge, on the judge's own.
func (m *Main) console(fs *flag.FlagSet) *daemon.Console {
	return &daemon.Console{Stdout: m.Stdout, Stderr: m.Stderr, Now: m.Now, Logger: m.Logger, Games: games(), Running: m.daemon,
		Open: func(create bool) (*daemon.Config, *store.DB, error) { return m.openStore(fs, create) }}
}

// openStore loads the configuration and opens its store, which m closes.
// A store that is not there is made when create is set (serve, game new,
// keys add, store), and is an error naming where it was looked for for the
// commands that only read or add to a judge's store (a mistyped --store
// path). While "umpire serve" holds the store, a command the judge can
// carry out (daemon.Controllable) is sent to it instead: the command's
// exit code is then returned as an exitCode error, its output printed.
func (m *Main) openStore(fs *flag.FlagSet, create bool) (*daemon.Config, *store.DB, error) {
	cfg, err := m.loadConfig(fs)
	if err != nil {
		return nil, nil, err
	}
	db, err := m.openConfigured(cfg, fs, create)
	return cfg, db, err
}

// loadConfig reads the configuration named by --config, UMPIRE_CONFIG or
// umpire.toml, in that order.
func (m *Main) loadConfig(fs *flag.FlagSet) (*daemon.Config, error) {
	path := fs.Lookup("config").Value.String()
	if path == "" {
		path = m.Getenv("UMPIRE_CONFIG")
	}
	cfg, err := daemon.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	cfg.Games, cfg.Now = m.Games, m.Now
	if cfg.Games == nil {
		cfg.Games = games()
	}
	return cfg, nil
}

// openConfigured opens the store of cfg, or --store's.
func (m *Main) openConfigured(cfg *daemon.Config, fs *flag.FlagSet, create bool) (*store.DB, error) {
	from := "the configuration " + cfg.File() + "'s store"
	if cfg.File() == "" {
		from = "the default store (no configuration file: looked for --config, $UMPIRE_CONFIG and ./" + daemon.DefaultConfigFile + ")"
	}
	if s := fs.Lookup("store").Value.String(); s != "" {
		cfg.Store, from = s, "--store"
	}
	switch {
	case m.logFile != nil:
		m.Logger = cfg.NewLogger(m.logFile)
	case cfg.LogsToJournal(m.Getenv("JOURNAL_STREAM"), m.Stderr):
		socket := cmp.Or(m.JournalSocket, daemon.JournalSocket)
		logger, h, err := cfg.NewJournalLogger(socket, m.Stderr)
		if err != nil {
			return nil, err
		}
		m.Logger = logger
		m.closers = append(m.closers, h)
	default:
		m.Logger = cfg.NewLogger(m.Stderr)
	}
	cfg.Logger = m.Logger
	if len(m.cmdline) > 0 && daemon.Controllable(m.cmdline, fs) {
		code, err := daemon.Call(cfg.Store, m.cmdline, m.Stdout, m.Stderr)
		switch {
		case errors.Is(err, daemon.ErrNoDaemon):
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
	db, err := cfg.Open()
	if err != nil {
		return nil, err
	}
	m.closers = append(m.closers, db)
	return db, nil
}

// absolutePath returns the file a command line names last, made absolute
// in the command line a running judge is sent, so that the judge writes
// where the command means; in the judge itself the path must be absolute
// already (the judge's folder is not the caller's).
func (m *Main) absolutePath(cmdline ...string) (string, error) {
	path := cmdline[len(cmdline)-1]
	if m.daemon != nil {
		if !filepath.IsAbs(path) {
			return "", usagef("%s: the running judge writes only an absolute path, not %q", cmdline[1], path)
		}
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", usagef("%s: %v", cmdline[1], err)
	}
	cmdline[len(cmdline)-1] = abs
	m.cmdline = cmdline
	return abs, nil
}

// control runs a command line sent to the running judge d's control socket.
func (m *Main) control(ctx context.Context, d *daemon.Daemon, args []string, stdout, stderr io.Writer) int {
	sub := &Main{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Now: m.Now, Getenv: m.Getenv,
		IsTerminal: func(io.Writer) bool { return false }, Logger: m.Logger, Games: m.Games, daemon: d}
	return sub.Run(ctx, args)
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
	cfg, err := m.loadConfig(fs)
	if err != nil {
		return err
	}
	if cfg.Log.File != "" {
		if m.logFile, err = daemon.OpenLogFile(cfg.Log.File); err != nil {
			return usagef("config %s: %w", cfg.File(), err)
		}
		m.closers = append(m.closers, m.logFile)
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
		if err := cfg.CheckMail(); err != nil {
			return err
		}
		if err := cfg.ReadSecrets(); err != nil {
			return err
		}
	}
	if !exists {
		if db, err = m.openConfigured(cfg, fs, true); err != nil {
			return err
		}
	}
	m.Logger.InfoContext(ctx, "store ready", "path", cfg.Store, "schema", db.SchemaVersion())
	cfg.Stdout, cfg.Dev, cfg.Control = m.Stdout, dev, m.control
	d, err := daemon.New(ctx, cfg, db)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, d)
	if flagBool(fs, "once") {
		return d.Once(ctx)
	}
	hctx, stop := context.WithCancel(ctx)
	defer stop()
	go d.Hangups(hctx, m.Hangup, m.logFile)
	err = d.Run(ctx)
	if errors.Is(err, context.Canceled) {
		m.Logger.Info("stopped")
		return nil
	}
	return err
}
