package main

import (
	"context"
	"flag"
)

func keysCommand() *command {
	return &command{
		name:    "keys",
		args:    "server | list | add FILE --address ADDR",
		summary: "Show the judge's signing key, list the keys it knows, add a key (a game master's).",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.String("address", "", "with add: the key holder's mail address")
		},
		run: runKeys,
	}
}

func runKeys(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	return m.console(fs).Keys(ctx, args, fs.Lookup("address").Value.String())
}
