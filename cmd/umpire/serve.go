package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/umpire-pbem/umpire/store"
)

func serveCommand() *command {
	return &command{
		name:    "serve",
		args:    "[--config FILE] [--store FILE]",
		summary: "Run the judge daemon: read orders from the mailbox, adjudicate, mail reports.",
		help: `serve reads its configuration from --config, UMPIRE_CONFIG or ./umpire.toml
(README.md, "Configuration"), opens the store, and runs until SIGINT or SIGTERM.
It refuses a store written by a newer umpire.

The mail intake and outbox are not built yet: serve opens and checks the store,
then stops with exit status 1.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: runServe,
	}
}

// openStore loads the configuration and opens its store, which m closes.
func (m *Main) openStore(fs *flag.FlagSet) (*Config, *store.DB, error) {
	cfg, err := m.loadConfig(fs.Lookup("config").Value.String())
	if err != nil {
		return nil, nil, err
	}
	if s := fs.Lookup("store").Value.String(); s != "" {
		cfg.Store = s
	}
	m.Logger = m.logger(cfg)
	db, err := store.Open(cfg.Store, store.Options{})
	if err != nil {
		return nil, nil, err
	}
	m.closers = append(m.closers, db)
	return cfg, db, nil
}

func runServe(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("takes no arguments")
	}
	cfg, db, err := m.openStore(fs)
	if err != nil {
		return err
	}
	m.Logger.InfoContext(ctx, "store ready", "path", cfg.Store, "schema", db.SchemaVersion())
	return fmt.Errorf("mail intake: %w", errNotYet)
}
