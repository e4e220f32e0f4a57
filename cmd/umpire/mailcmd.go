package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/umpire-pbem/umpire/store"
)

func mailCommand() *command {
	return &command{
		name:    "mail",
		args:    "held | release ID",
		summary: "List the answers the judge held back, and send one after all.",
		help: `Subcommands:
  mail held        the answers held back by the hourly reply limit
                   (limits.replies_per_hour): id, when, to whom, why, subject
  mail release ID  send held answer ID now, as it was held

The judge never drops a mail: what the reply limit holds back stays in the
store, unsent, until the operator releases it. While 'umpire serve' runs,
both go to it through its control socket (docs/operations.md).`,
		flags: func(fs *flag.FlagSet) {
			fs.String("config", "", "configuration file (default: $UMPIRE_CONFIG or ./umpire.toml)")
			fs.String("store", "", "store file, overriding the configuration's store")
		},
		run: runMail,
	}
}

func runMail(ctx context.Context, m *Main, fs *flag.FlagSet, args []string) error {
	var id uint64
	switch {
	case len(args) == 1 && args[0] == "held":
	case len(args) == 2 && args[0] == "release":
		var err error
		if id, err = strconv.ParseUint(args[1], 10, 64); err != nil {
			return usagef("release takes the mail's id, a number ('umpire mail held' lists them)")
		}
	default:
		return usagef("want mail held or mail release ID")
	}
	_, db, err := m.openExisting(fs)
	if err != nil {
		return err
	}
	if args[0] == "release" {
		var mm store.Mail
		err := db.Update(ctx, func(tx *store.Tx) (err error) {
			mm, err = tx.Release(id)
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "mail %d to %v released: it is sent now (%s)\n", id, mm.To, mm.Subject)
		return nil
	}
	return db.View(ctx, func(tx *store.Tx) error {
		held, err := tx.Held()
		if err != nil {
			return err
		}
		if len(held) == 0 {
			fmt.Fprintln(m.Stdout, "no mail is held back")
			return nil
		}
		w := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tQUEUED\tTO\tWHY\tSUBJECT")
		for _, h := range held {
			fmt.Fprintf(w, "%d\t%s\t%v\t%s\t%s\n", h.ID, h.Queued.UTC().Format("2006-01-02 15:04"), h.To, h.LastError, h.Subject)
		}
		return w.Flush()
	})
}
