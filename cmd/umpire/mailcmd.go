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
