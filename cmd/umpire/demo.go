package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/umpire-pbem/umpire/cmd/umpire/demo"
)

func demoCommand() *command {
	return &command{
		name:    "demo",
		args:    "[--dir DIR] [--turns N] [--web ADDR] [--serve]",
		summary: "Run the demonstration on an embedded default: no mail account needed.",
		help: `demo needs no mail account and no configuration. It starts mail servers of
its own on loopback, makes a game master and two players with new keys (one
signs with OpenPGP, the other with SSH), and plays a Per Rote OSR game by
mail: the game master creates it, the players join and send signed orders,
and the judge answers each mail and adjudicates each turn through the same
path it uses for real mail, to the end of the game (or --turns steps). It
says who got which mail at each step, and who won. Every mail each of them
received (text, HTML and the map picture) is written under the folder it
names. At the end it exports the public dice log, verifies it, shows that a
forged copy fails, and replays the game from the signed orders.

While it runs, the game's public web page (map, history, and the dice
verified in your browser) is served on loopback at the address it prints
(--web; --web off for none). With --serve, the default when its output is
a terminal, the pages stay up after the story until you press Ctrl-C;
otherwise nothing is left running.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("dir", "", "folder for the demo's mail, store and log (default: a new temporary folder)")
			fs.Int("turns", 0, "steps to play (default: to the end of the game)")
			fs.String("web", "127.0.0.1:0", "loopback address for the game's web page, or off")
			fs.Var(&optionalBool{}, "serve", "keep the web page up after the story until Ctrl-C (default: when output is a terminal)")
		},
		run: runDemo,
	}
}

func runDemo(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("takes no arguments")
	}
	turns := flagInt(fs, "turns")
	if turns < 0 || turns > 50 {
		return usagef("--turns %d: from 1 to 50, or 0 to play to the end", turns)
	}
	serve := m.IsTerminal(m.Stdout)
	if v, set := fs.Lookup("serve").Value.(*optionalBool).get(); set {
		serve = v
	}
	err := demo.Run(ctx, demo.Config{Dir: fs.Lookup("dir").Value.String(), Turns: turns, Web: fs.Lookup("web").Value.String(),
		Serve: serve, Stdout: m.Stdout, Now: m.Now, Logger: m.Logger, Games: games()})
	if errors.Is(err, demo.ErrUnverified) {
		return exitCode(exitFail) // its output says why
	}
	return err
}

// optionalBool is a boolean flag that knows whether it was given.
type optionalBool struct{ v, set bool }

func (b *optionalBool) String() string { return fmt.Sprint(b.v) }
func (b *optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not true or false", s)
	}
	b.v, b.set = v, true
	return nil
}
func (b *optionalBool) IsBoolFlag() bool  { return true }
func (b *optionalBool) get() (bool, bool) { return b.v, b.set }
