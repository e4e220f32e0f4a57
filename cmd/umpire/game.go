package main

import (
	"context"
	"flag"
)

func gameCommand() *command {
	return &command{
		name:    "game",
		args:    "new FILE [--start] | list | show ID | export ID | pause ID | resume ID | archive ID FILE | archived",
		summary: "Create, list, show, export, pause, resume and archive hosted games.",
		help: `Subcommands:
  game new FILE   create a game from a game file (docs/game-file.md); its seats
                  are vacant until players join by mail, or --start starts it
                  at once when the file's seats name their holders' keys
  game list       list the games in the store
  game show ID    a game's state: seats and holders, the open step, its deadline,
                  who has sent orders, and the dice commitments
  game export ID  the whole game as JSON for 'umpire replay FILE' (it holds hidden
                  information: give it to players only once the game has ended)
  game pause ID   stop a game's clock, keeping the time left (every seat and the
                  game master are told)
  game resume ID  restart a paused game's clock with the time it had left
  game archive ID FILE
                  move an ended game out of the store: its export (as 'game
                  export' prints it) is written to the new file FILE, read
                  back and replayed, and only then is the game deleted,
                  leaving a record of it ('game show ID'); mail about it is
                  answered that it was archived. FILE is never overwritten
  game archived   list the archived games ('game list' lists the stored ones)

While 'umpire serve' runs, list, show, export, pause, resume, archive and
archived go to it through its control socket (docs/operations.md); the judge
then writes FILE itself, at its absolute path.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Bool("start", false, "with new: start the game at once")
		},
		run: runGame,
	}
}

func runGame(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) == 3 && args[0] == "archive" {
		abs, err := m.absolutePath("game", "archive", args[1], args[2])
		if err != nil {
			return err
		}
		args[2] = abs
	}
	return m.console(fs).Game(ctx, args, flagBool(fs, "start"))
}
