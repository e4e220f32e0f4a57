package main

import (
	"context"
	"flag"
)

func mailCommand() *command {
	return &command{
		name:    "mail",
		args:    "held | quarantined | release ID | drop qID",
		summary: "List the answers held back and the messages set aside, and release or drop them.",
		help: `Subcommands:
  mail held         the answers held back by the hourly reply limit
                    (limits.replies_per_hour): id, when, to whom, why, subject
  mail quarantined  the messages the judge could not process and set aside
                    (their work ran out of limits.message_time or
                    limits.memory_mib, or the judge stopped twice while
                    processing them): id (q1, q2, ...), when, from, why, state
  mail release ID   send held answer ID now, as it was held; or, for a
                    quarantined message qID, have the judge process it again
                    as if it had just arrived (within the same limits): while
                    'umpire serve' runs at once, else when it next starts
  mail drop qID     drop quarantined message qID: its record stays, its text
                    leaves the store (the mailbox keeps its copy in the
                    quarantine folder)

The judge never drops a mail on its own: what the reply limit holds back and
what it could not process stay in the store until the operator releases or
drops them. While 'umpire serve' runs, these go to it through its control
socket (docs/operations.md, "Held mail" and "Quarantined mail").`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: runMail,
	}
}

func runMail(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	return m.console(fs).Mail(ctx, args)
}
