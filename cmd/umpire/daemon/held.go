package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/intake"
	"github.com/umpire-pbem/umpire/store"
)

// quarantineID reads a quarantined message's id, written q7.
func quarantineID(s string) (uint64, bool) {
	n, ok := strings.CutPrefix(s, "q")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(n, 10, 64)
	return id, err == nil && id > 0
}

// Mail carries out "umpire mail": held, quarantined, release ID and drop
// qID.
func (c *Console) Mail(ctx context.Context, args []string) error {
	var id uint64
	quarantined := false
	switch {
	case len(args) == 1 && (args[0] == "held" || args[0] == "quarantined"):
	case len(args) == 2 && args[0] == "release":
		if id, quarantined = quarantineID(args[1]); !quarantined {
			var err error
			if id, err = strconv.ParseUint(args[1], 10, 64); err != nil {
				return usagef("release takes a held answer's id, a number ('umpire mail held' lists them), or a quarantined message's, such as q3 ('umpire mail quarantined')")
			}
		}
	case len(args) == 2 && args[0] == "drop":
		var ok bool
		if id, ok = quarantineID(args[1]); !ok {
			return usagef("drop takes a quarantined message's id, such as q3 ('umpire mail quarantined' lists them)")
		}
	default:
		return usagef("want mail held, mail quarantined, mail release ID or mail drop qID")
	}
	_, db, err := c.open(false)
	if err != nil {
		return err
	}
	switch {
	case args[0] == "held":
		return c.listHeld(ctx, db)
	case args[0] == "quarantined":
		return c.listQuarantined(ctx, db)
	case args[0] == "drop":
		return c.setQuarantined(ctx, db, id, store.QuarantineDropped)
	case quarantined:
		return c.releaseQuarantined(ctx, db, id)
	}
	var mm store.Mail
	err = db.Update(ctx, func(tx *store.Tx) (err error) {
		mm, err = tx.Release(id)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Stdout, "mail %d to %v released: it is sent now (%s)\n", id, mm.To, mm.Subject)
	return nil
}

func (c *Console) listHeld(ctx context.Context, db *store.DB) error {
	return db.View(ctx, func(tx *store.Tx) error {
		held, err := tx.Held()
		if err != nil {
			return err
		}
		if len(held) == 0 {
			fmt.Fprintln(c.Stdout, "no mail is held back")
			return nil
		}
		w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tQUEUED\tTO\tWHY\tSUBJECT")
		for _, h := range held {
			fmt.Fprintf(w, "%d\t%s\t%v\t%s\t%s\n", h.ID, h.Queued.UTC().Format("2006-01-02 15:04"), h.To, h.LastError, h.Subject)
		}
		return w.Flush()
	})
}

func (c *Console) listQuarantined(ctx context.Context, db *store.DB) error {
	return db.View(ctx, func(tx *store.Tx) error {
		qs, err := tx.QuarantinedMessages()
		if err != nil {
			return err
		}
		if len(qs) == 0 {
			fmt.Fprintln(c.Stdout, "no message is set aside")
			return nil
		}
		w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tSET ASIDE\tFROM\tSUBJECT\tSTATE\tTRIES\tWHY")
		for _, q := range qs {
			state := q.State
			if q.State == store.QuarantineProcessed {
				state += " (" + q.Disposition + ")"
			}
			fmt.Fprintf(w, "q%d\t%s\t%s\t%s\t%s\t%d\t%s\n", q.ID, q.At.UTC().Format("2006-01-02 15:04"), orNone(q.From),
				orNone(clip(q.Subject, 40)), state, q.Tries, q.Reason)
		}
		return w.Flush()
	})
}

// releaseQuarantined marks message id released and, in the running judge,
// processes it at once and says what became of it.
func (c *Console) releaseQuarantined(ctx context.Context, db *store.DB, id uint64) error {
	if err := c.setQuarantined(ctx, db, id, store.QuarantineReleased); err != nil {
		return err
	}
	if c.Running == nil {
		fmt.Fprintf(c.Stdout, "the judge processes q%d when it next starts (umpire serve)\n", id)
		return nil
	}
	rs, err := c.Running.intake.ProcessReleased(ctx)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if r.ID != id {
			continue
		}
		if r.Disposition == mail.Quarantined {
			return fmt.Errorf("q%d could not be processed again and is set aside again: %s", id, r.Reason)
		}
		fmt.Fprintf(c.Stdout, "q%d processed: %s (its sender is answered)\n", id, intake.DispositionName(r.Disposition))
	}
	return nil
}

// setQuarantined moves quarantined message id to state: released (from
// held) or dropped (from held or released).
func (c *Console) setQuarantined(ctx context.Context, db *store.DB, id uint64, state string) error {
	var q store.Quarantined
	err := db.Update(ctx, func(tx *store.Tx) (err error) {
		if q, _, err = tx.QuarantinedMessage(id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("there is no quarantined message q%d ('umpire mail quarantined' lists them)", id)
			}
			return err
		}
		switch {
		case q.State == store.QuarantineDropped || q.State == store.QuarantineProcessed:
			return fmt.Errorf("q%d is %s already", id, q.State)
		case q.State == state:
			return fmt.Errorf("q%d is %s already", id, state)
		}
		q.State = state
		if state == store.QuarantineDropped {
			q.Done = c.Now()
		}
		return tx.PutQuarantined(q)
	})
	if err != nil {
		return err
	}
	if state == store.QuarantineDropped {
		fmt.Fprintf(c.Stdout, "q%d dropped: its record stays, its text is gone from the store (from %s, %q)\n", id, orNone(q.From), q.Subject)
	}
	return nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
