package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

func replayCommand() *command {
	return &command{
		name:    "replay",
		args:    "GAME",
		summary: "Re-run a stored game from its signed orders and check every state and every die.",
		help: `replay takes the game's first state and, step by step, the order file versions
each step was adjudicated with, re-runs every adjudication with the same dice
links, and checks that every stored state and the dice log head come out the
same. Exit status 1 names the first step that does not.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: func(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
			if len(args) != 1 {
				return usagef("want one GAME argument")
			}
			cfg, db, err := m.openStore(fs)
			if err != nil {
				return err
			}
			j := &adjudicator.Judge{Games: games(), Logger: m.Logger}
			var n int
			err = db.Update(ctx, func(tx *store.Tx) (err error) {
				n, err = j.Replay(tx.Judge(cfg.Address, m.Now()), args[0])
				return err
			})
			if errors.Is(err, adjudicator.ErrNotFound) {
				return usagef("there is no game %q in %s", args[0], cfg.Store)
			}
			if err != nil {
				return fmt.Errorf("replay %s: %w", args[0], err)
			}
			fmt.Fprintf(m.Stdout, "OK %s: %d steps replayed; every state and every die is as stored\n", args[0], n)
			return nil
		},
	}
}
