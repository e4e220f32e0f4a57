package main

import (
	"context"
	"flag"
)

func gameCommand() *command {
	return &command{
		name:    "game",
		args:    "new FILE [--start] | list | show ID | export ID | pause ID | resume ID | archive ID FILE | archived | image ID FILE",
		summary: "Create, list, show, export, pause, resume and archive hosted games, and install a game's map image.",
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Bool("start", false, "with new: start the game at once")
		},
		run: runGame,
	}
}

func runGame(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) == 3 && (args[0] == "archive" || args[0] == "image") {
		abs, err := m.absolutePath("game", args[0], args[1], args[2])
		if err != nil {
			return err
		}
		args[2] = abs
	}
	return m.console(fs).Game(ctx, args, flagBool(fs, "start"))
}
