package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

func gameCommand() *command {
	return &command{
		name:    "game",
		args:    "new FILE [--start] | list | show ID | export ID | pause ID | resume ID",
		summary: "Create, list, show, export, pause and resume hosted games.",
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

While 'umpire serve' runs, list, show, export, pause and resume go to it through
its control socket (docs/operations.md).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
			fs.Bool("start", false, "with new: start the game at once")
		},
		run: runGame,
	}
}

func runGame(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return usagef("want a subcommand: new FILE, list, show ID, export ID, pause ID or resume ID")
	}
	sub, args := args[0], args[1:]
	usage := map[string]string{"new": "game new FILE", "list": "game list", "show": "game show ID", "export": "game export ID",
		"pause": "game pause ID", "resume": "game resume ID"}[sub]
	if usage == "" {
		return usagef("unknown subcommand %q: want new FILE, list, show ID, export ID, pause ID or resume ID", sub)
	}
	if err := wantArgs(usage, len(args), len(strings.Fields(usage))-2); err != nil {
		return err
	}
	var file *adjudicator.GameFile
	var data []byte
	if sub == "new" {
		var err error
		if data, err = os.ReadFile(args[0]); err != nil {
			return usagef("%w", err)
		}
		if file, err = adjudicator.ParseGameFile(data, games()); err != nil {
			return usagef("%s: %w", args[0], err)
		}
	}
	open := m.openExisting
	if sub == "new" {
		open = m.openStore
	}
	cfg, db, err := open(fs)
	if err != nil {
		return err
	}
	j := cfg.judge(m.Logger)
	switch sub {
	case "new":
		now := m.Now()
		err := db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, now)
			if err := j.Create(jt, file, data, now); err != nil {
				return err
			}
			if flagBool(fs, "start") {
				return j.Start(jt, file.ID, now)
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "game %s created (%s, scenario %s, seats %s)\n", file.ID, file.Game, file.Scenario, strings.Join(file.Seats, ", "))
		return nil
	case "list":
		return db.View(ctx, func(tx *store.Tx) error {
			gs, err := tx.Games()
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "GAME\tKIND\tSTATUS\tSTEP\tTITLE")
			for _, g := range gs {
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", g.ID, g.Kind, g.Status, g.Step, g.Title)
			}
			return w.Flush()
		})
	}
	if sub == "pause" || sub == "resume" {
		now := m.Now()
		var done string
		err := db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, now)
			if _, err := findGame(jt, cfg.Store, args[0]); err != nil {
				return err
			}
			if sub == "pause" {
				if err := j.Pause(jt, args[0], now); err != nil {
					return err
				}
				done = fmt.Sprintf("The operator of the judge paused %s. No deadline runs until it is resumed.\n", args[0])
			} else {
				d, err := j.Resume(jt, args[0], now)
				if err != nil {
					return err
				}
				done = fmt.Sprintf("The operator of the judge resumed %s. The open step is now due %s.\n", args[0], d.UTC().Format("Mon 2 Jan 2006 15:04 MST"))
			}
			return j.Announce(jt, args[0], sub+"d by the operator", done)
		})
		if err != nil {
			return err
		}
		fmt.Fprint(m.Stdout, done)
		return nil
	}
	if sub == "export" {
		return db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, m.Now())
			if _, err := findGame(jt, cfg.Store, args[0]); err != nil {
				return err
			}
			x, err := j.ExportGame(jt, args[0])
			if err != nil {
				return err
			}
			if g, err := jt.Game(args[0]); err == nil && len(x.Steps) > 0 {
				if v, err := j.GMView(g, x.Steps[0].State); err == nil && v == adjudicator.GMViewPublic {
					fmt.Fprintf(m.Stderr, "Note: %s has hidden hands and has not ended: this export holds every seat's hand and orders.\n"+
						"Give it to nobody before the end, the game master included (its file does not set gm_sees_hands).\n", args[0])
				}
			}
			// Compact: states are compared byte for byte, and an indenting
			// encoder would re-indent them.
			return json.NewEncoder(m.Stdout).Encode(x)
		})
	}
	return db.View(ctx, func(tx *store.Tx) error { return showGame(m, tx.Judge(cfg.Address, m.Now()), cfg.Store, args[0]) })
}

func showGame(m *Main, tx adjudicator.Tx, storePath, id string) error {
	g, err := findGame(tx, storePath, id)
	if err != nil {
		return err
	}
	w := m.Stdout
	fmt.Fprintf(w, "%s: %s (%s, scenario %s)\nstatus %s, step %d; game master key %s\n\nseats:\n", g.ID, g.Title, g.Kind, g.Scenario, g.Status, g.Step, orNone(g.GMKey))
	seats, err := tx.Seats(id)
	if err != nil {
		return err
	}
	for _, s := range seats {
		fmt.Fprintf(w, "  %-10s %s\n", s.Name, orNone(s.Holder))
	}
	if g.Status == adjudicator.Running || g.Status == adjudicator.Paused {
		st, err := tx.Step(id, g.Step)
		if err != nil {
			return err
		}
		files, err := tx.LatestOrders(id, g.Step)
		if err != nil {
			return err
		}
		sent := []string{}
		for _, f := range files {
			sent = append(sent, fmt.Sprintf("%s (v%d)", f.Seat, f.Version))
		}
		fmt.Fprintf(w, "\nstep %d (%s): orders due from %s by %s\nsent: %s; ready: %s\n", st.Number, st.Phase,
			strings.Join(st.Owing, ", "), st.Deadline.UTC().Format("2006-01-02 15:04 MST"), orNone(strings.Join(sent, ", ")), orNone(strings.Join(st.Ready, ", ")))
	}
	sec, err := tx.DiceSecrets(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\ndice commitments: open %s\n                  sealed %s\n", sec.Open0, sec.Sealed0)
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
