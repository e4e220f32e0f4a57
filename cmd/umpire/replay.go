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
		help: `replay takes the game's first state and, step by step, the order file versions
each step was adjudicated with, re-runs every adjudication with the same dice
links, and checks that every stored state and the dice log head come out the
same. Exit status 1 names the first step that does not. In an umpire-dice-v3
game every order entry's digest, keyed with its seat's salt, must be its
order file's (in an export, once the game has ended and the salts are public).

GAME is a game in the store. FILE is a game export ('umpire game export ID'),
replayed away from the judge: its dice links come from its public dice log,
which is verified first; a step that drew from a sealed link not revealed yet
can be replayed once the game has ended. While 'umpire serve' runs, replay
GAME goes to it through its control socket (docs/operations.md).`,
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
