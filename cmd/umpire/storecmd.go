package main

import (
	"context"
	"flag"
)

func storeCommand() *command {
	return &command{
		name:    "store",
		args:    "backup FILE | compact | prune | space | stats",
		summary: "Back up, compact, prune and inspect the store.",
		help: `Subcommands:
  store backup FILE  write a consistent copy of the store to FILE while the
                     judge runs (one read transaction; FILE is replaced
                     whole, through a temporary file beside it)
  store compact      rewrite the store without its free pages and swap the
                     copy in, also while the judge runs (its writes wait
                     meanwhile: about 5 seconds for every GB kept); the
                     old file is kept as STORE.pre-compact
  store prune        replace the mails sent longer ago than
                     retention.sent_mail (default 720h) by their records
                     (no body); the judge does it every hour on its own
  store space        where the file's room goes: each bucket's keys, data
                     and pages, and the free pages (reads every page, so
                     it takes seconds on a large store)
  store stats        the outbox's lanes, held mail, rendered reports, the
                     due-time index and the file's size

While 'umpire serve' runs, every subcommand goes to it through its control
socket. docs/operations.md explains backup, restore and compaction.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: runStore,
	}
}

func runStore(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) == 2 && args[0] == "backup" {
		abs, err := m.absolutePath("store", "backup", args[1])
		if err != nil {
			return err
		}
		args[1] = abs
	}
	return m.console(fs).Store(ctx, args)
}
