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
