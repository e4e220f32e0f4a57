package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/cmd/umpire/daemon"
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
			j := &adjudicator.Judge{Games: daemon.Games(), Logger: m.Logger}
			f, err := os.Open(args[0])
			if err != nil && strings.ContainsAny(args[0], "./\\") {
				// game ids hold no dot or slash: this names a file
				return usagef("%s: no such file (an export made by 'umpire game export ID')", args[0])
			}
			if err == nil {
				defer f.Close()
				x, err := adjudicator.ReadGameExport(f)
				if err != nil {
					return usagef("%s: %w", args[0], err)
				}
				n, err := j.ReplayExport(x)
				if err != nil {
					return fmt.Errorf("replay %s: %w", args[0], err)
				}
				fmt.Fprintf(m.Stdout, "OK %s (game %s): %d steps replayed; every state and every die is as exported\n", args[0], x.Game, n)
				if adjudicator.OrdersUnchecked(x) {
					fmt.Fprintf(m.Stdout, "  The game has not ended: its order entries are keyed with the seats' salts, secret until then,\n"+
						"  so the order files were not checked against them. Replay its export again once it has ended.\n")
				} else if x.Version == 3 {
					fmt.Fprintf(m.Stdout, "  Every order entry's salted digest is its order file's.\n")
				}
				return nil
			}
			return m.console(fs).Replay(ctx, args[0])
		},
	}
}
