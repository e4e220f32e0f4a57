package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
)

// The commands in this file are listed and documented but their capability
// is not built yet: they answer with errNotYet and exit status 1.

func notYet(what string) func(context.Context, *Main, *flag.FlagSet, []string) error {
	return func(context.Context, *Main, *flag.FlagSet, []string) error {
		return fmt.Errorf("%s: %w", what, errNotYet)
	}
}

func gameCommand() *command {
	subs := []struct{ name, args, summary string }{
		{"new", "FILE", "create a game from a game file (docs/game-file.md)"},
		{"list", "", "list the games in the store"},
		{"show", "ID", "show a game: seats, current step, deadline, dice commitments"},
	}
	var help strings.Builder
	help.WriteString("Subcommands:\n")
	for _, s := range subs {
		fmt.Fprintf(&help, "  game %-4s %-5s %s\n", s.name, s.args, s.summary)
	}
	help.WriteString("\nGames are not hosted yet in this version of umpire.")
	return &command{
		name:    "game",
		args:    "new FILE | list | show ID",
		summary: "Create, list and show hosted games.",
		help:    help.String(),
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
		},
		run: func(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
			if len(args) == 0 {
				return usagef("want a subcommand: new, list or show")
			}
			for _, s := range subs {
				if s.name == args[0] {
					return notYet("game "+s.name)(ctx, m, fs, args[1:])
				}
			}
			return usagef("unknown subcommand %q: want new, list or show", args[0])
		},
	}
}

func replayCommand() *command {
	return &command{
		name:    "replay",
		args:    "GAME | FILE",
		summary: "Re-run a stored or exported game from its signed orders and check every state.",
		run:     notYet("replay"),
	}
}

func resolveCommand() *command {
	return &command{
		name:    "resolve",
		args:    "[GAME [PROCEDURE name=value ... [dice=a,b,...]]] [--distribution]",
		summary: "Rules calculator: what the rules say for a situation and dice (disputed rolls, odds).",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("distribution", false, "print the exact probability of each outcome instead of rolling")
		},
		run: notYet("resolve"),
	}
}

func renderCommand() *command {
	return &command{
		name:    "render",
		args:    "GAME [--step N] [--seat S] [--out FILE]",
		summary: "Write the situation report and map picture of a stored game.",
		flags: func(fs *flag.FlagSet) {
			fs.Int("step", 0, "the step to render (default: the latest)")
			fs.String("seat", "", "render as this seat sees it (default: the GM's full view)")
			fs.String("out", "", "write to this file (default: standard output)")
		},
		run: notYet("render"),
	}
}

func keysCommand() *command {
	return &command{
		name:    "keys",
		args:    "list | server",
		summary: "List the player and GM keys the judge knows, and show the server's signing key.",
		run:     notYet("keys"),
	}
}
