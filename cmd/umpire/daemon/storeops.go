package daemon

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/umpire-pbem/umpire/store"
)

// Store carries out "umpire store": backup FILE, compact, prune, space and
// stats.
func (c *Console) Store(ctx context.Context, args []string) error {
	switch {
	case len(args) == 2 && args[0] == "backup":
	case len(args) == 1 && (args[0] == "compact" || args[0] == "prune" || args[0] == "space" || args[0] == "stats"):
	default:
		return usagef("want store backup FILE, store compact, store prune, store space or store stats")
	}
	cfg, db, err := c.open(true)
	if err != nil {
		return err
	}
	switch args[0] {
	case "backup":
		t0 := time.Now()
		n, err := db.BackupFile(ctx, args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "store %s backed up to %s: %.1f MB in %v\n", cfg.Store, args[1], float64(n)/(1<<20), time.Since(t0).Round(time.Millisecond))
		return nil
	case "compact":
		t0 := time.Now()
		res, err := db.Compact(ctx)
		if err != nil {
			return err
		}
		c.Logger.InfoContext(ctx, "store compacted", "before", res.Before, "after", res.After, "kept", res.Kept, "took", time.Since(t0))
		fmt.Fprintf(c.Stdout, "store %s compacted in %v: %.1f MB -> %.1f MB; the old file is %s (delete it once the judge runs well)\n",
			cfg.Store, time.Since(t0).Round(time.Millisecond), float64(res.Before)/(1<<20), float64(res.After)/(1<<20), res.Kept)
		return nil
	case "prune":
		n, err := prune(ctx, db, c.Now(), cfg.Retention.SentMail.Duration)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.Stdout, "%d sent mails older than %v pruned: their bodies are gone, their records stay\n", n, cfg.Retention.SentMail.Duration)
		return nil
	case "space":
		space, free, err := db.Space(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(w, "bucket\tkeys\tdata MB\tpages MB\t\n")
		for _, b := range space {
			fmt.Fprintf(w, "%s\t%d\t%.1f\t%.1f\t\n", b.Name, b.Keys, float64(b.Used)/(1<<20), float64(b.Pages)/(1<<20))
		}
		fmt.Fprintf(w, "free pages\t\t\t%.1f\t\n", float64(free)/(1<<20))
		fmt.Fprintf(w, "file\t\t\t%.1f\t\n", float64(db.Size())/(1<<20))
		return w.Flush()
	}
	var st store.OutboxStats
	var indexed bool
	var due int
	var next time.Time
	if err := db.View(ctx, func(tx *store.Tx) (err error) {
		if st, err = tx.OutboxStats(); err != nil {
			return err
		}
		var games []string
		games, next, err = tx.DueGames(c.Now(), 0)
		due = len(games)
		return err
	}); err != nil {
		return err
	}
	indexed = db.DueIndexed()
	w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "file\t%s\t%.1f MB\n", cfg.Store, float64(db.Size())/(1<<20))
	for _, lane := range store.Lanes {
		ls := st.Lanes[lane]
		oldest := "-"
		if !ls.Oldest.IsZero() {
			oldest = fmt.Sprintf("oldest queued %s ago", c.Now().Sub(ls.Oldest).Round(time.Second))
		}
		fmt.Fprintf(w, "lane %s\t%d queued\t%s\n", lane, ls.Queued, oldest)
	}
	fmt.Fprintf(w, "held\t%d\t\n", st.Held)
	fmt.Fprintf(w, "rendered\t%d mails\t%d pictures\n", st.Rendered, st.Pictures)
	when := "nothing later"
	if !next.IsZero() {
		when = "next at " + next.UTC().Format("2006-01-02 15:04:05 MST")
	}
	fmt.Fprintf(w, "games due now\t%d\t%s (index complete: %v)\n", due, when, indexed)
	return w.Flush()
}

// pruneBatch is how many mails one prune transaction empties.
const pruneBatch = 2000

// prune empties the bodies of mails sent more than keep before now, in
// batches, and returns how many.
func prune(ctx context.Context, db *store.DB, now time.Time, keep time.Duration) (int, error) {
	total := 0
	for {
		var n int
		var more bool
		err := db.Update(ctx, func(tx *store.Tx) (err error) {
			n, more, err = tx.Prune(now.Add(-keep), now, pruneBatch)
			return err
		})
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}
