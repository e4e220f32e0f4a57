package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// Game carries out "umpire game": new FILE (start: --start), list, show
// ID, export ID, pause ID, resume ID, archive ID FILE, archived and
// image ID FILE (mapimage.go).
func (c *Console) Game(ctx context.Context, args []string, start bool) error {
	if len(args) == 0 {
		return usagef("want a subcommand: new FILE, list, show ID, export ID, pause ID, resume ID, archive ID FILE, archived or image ID FILE")
	}
	sub, args := args[0], args[1:]
	usage := map[string]string{"new": "game new FILE", "list": "game list", "show": "game show ID", "export": "game export ID",
		"pause": "game pause ID", "resume": "game resume ID", "archive": "game archive ID FILE", "archived": "game archived", "image": "game image ID FILE"}[sub]
	if usage == "" {
		return usagef("unknown subcommand %q: want new FILE, list, show ID, export ID, pause ID, resume ID, archive ID FILE, archived or image ID FILE", sub)
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
		if file, err = adjudicator.ParseGameFile(data, c.Games); err != nil {
			return usagef("%s: %w", args[0], err)
		}
	}
	cfg, db, err := c.open(sub == "new")
	if err != nil {
		return err
	}
	j := cfg.Judge(c.Logger)
	switch sub {
	case "new":
		now := c.Now()
		err := db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, now)
			if err := j.Create(jt, file, data, now); err != nil {
				return err
			}
			if start {
				return j.Start(jt, file.ID, now)
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "game %s created (%s, scenario %s, seats %s)\n", file.ID, file.Game, file.Scenario, strings.Join(file.Seats, ", "))
		return nil
	case "list":
		return db.View(ctx, func(tx *store.Tx) error {
			gs, err := tx.Games()
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "GAME\tKIND\tSTATUS\tSTEP\tTITLE")
			for _, g := range gs {
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", g.ID, g.Kind, g.Status, g.Step, g.Title)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if n := tx.ArchivedCount(); n > 0 {
				fmt.Fprintf(c.Stdout, "(and %s archived: 'umpire game archived' lists them)\n", plural(n, "game"))
			}
			return nil
		})
	case "archived":
		return db.View(ctx, func(tx *store.Tx) error {
			as, err := tx.ArchivedGames()
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "GAME\tKIND\tSTEPS\tARCHIVED\tFILE\tTITLE")
			for _, a := range as {
				fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%s\n", a.ID, a.Kind, a.Steps, a.Archived.UTC().Format("2006-01-02 15:04 MST"), a.File, a.Title)
			}
			return w.Flush()
		})
	case "image":
		return c.installMapImage(ctx, cfg, db, j, args[0], args[1])
	case "archive":
		a, err := archiveGame(ctx, cfg, db, j, args[0], args[1], c.Now(), archiveOptions{})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "game %s archived to %s (%d steps, SHA-256 %s): the file replays as stored, and the game is no longer in the store\n",
			a.ID, args[1], a.Steps, a.SHA256)
		return nil
	}
	if sub == "pause" || sub == "resume" {
		now := c.Now()
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
		fmt.Fprint(c.Stdout, done)
		return nil
	}
	if sub == "export" {
		return db.Update(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, c.Now())
			if _, err := findGame(jt, cfg.Store, args[0]); err != nil {
				return err
			}
			x, err := j.ExportGame(jt, args[0])
			if err != nil {
				return err
			}
			if g, err := jt.Game(args[0]); err == nil && len(x.Steps) > 0 {
				if v, err := j.GMView(g, x.Steps[0].State); err == nil && v == adjudicator.GMViewPublic {
					fmt.Fprintf(c.Stderr, "Note: %s has hidden hands and has not ended: this export holds every seat's hand and orders.\n"+
						"Give it to nobody before the end, the game master included (its file does not set gm_sees_hands).\n", args[0])
				}
			}
			// Compact: states are compared byte for byte, and an indenting
			// encoder would re-indent them.
			return json.NewEncoder(c.Stdout).Encode(x)
		})
	}
	return db.View(ctx, func(tx *store.Tx) error {
		if a, ok, err := tx.Archived(args[0]); err != nil {
			return err
		} else if ok {
			c.showArchived(a)
			return nil
		}
		return c.showGame(tx.Judge(cfg.Address, c.Now()), cfg.Store, args[0])
	})
}

func (c *Console) showGame(tx adjudicator.Tx, storePath, id string) error {
	g, err := findGame(tx, storePath, id)
	if err != nil {
		return err
	}
	w := c.Stdout
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

// showArchived prints the record of an archived game.
func (c *Console) showArchived(a store.Archived) {
	fmt.Fprintf(c.Stdout, "%s: %s (%s, scenario %s)\nstatus archived on %s after %d steps; game master key %s\n\n"+
		"file %s\nSHA-256 %s\nfinal dice log head %s (%s)\n\n"+
		"The store keeps only this record: the game's export is the file, which 'umpire replay FILE' replays\n"+
		"and 'umpire verify FILE' checks.\n",
		a.ID, a.Title, a.Kind, orNone(a.Scenario), a.Archived.UTC().Format("2006-01-02 15:04 MST"), a.Steps, orNone(a.GMKey),
		a.File, a.SHA256, a.DiceHead, plural(int(a.DiceRecords), "record"))
}
