package main

import (
	"context"
	"flag"
)

func replayCommand() *command {
	return &command{
		name:    "replay",
		args:    "GAME | FILE",
		summary: "Re-run a stored game from its signed orders and check every state and every die.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: func(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
			if len(args) != 1 {
				return usagef("want one GAME or FILE argument")
			}
			return m.console(fs).Replay(ctx, args[0])
		},
	}
}
