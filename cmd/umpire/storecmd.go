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
