package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/store"
)

// Replay carries out "umpire replay GAME" or "umpire replay FILE": it
// re-runs every step of a game in the store, or of a game export, from the
// signed orders and checks every state and die.
func (c *Console) Replay(ctx context.Context, game string) error {
	f, err := os.Open(game)
	if err != nil && strings.ContainsAny(game, "./\\") {
		// game ids hold no dot or slash: this names a file
		return usagef("%s: no such file (an export made by 'umpire game export ID')", game)
	}
	if err == nil {
		defer f.Close()
		return c.replayFile(game, f)
	}
	cfg, db, err := c.open(false)
	if err != nil {
		return err
	}
	j := &adjudicator.Judge{Games: c.Games, Logger: c.Logger}
	var n int
	err = db.Update(ctx, func(tx *store.Tx) (err error) {
		n, err = j.Replay(tx.Judge(cfg.Address, c.Now()), game)
		return err
	})
	if errors.Is(err, adjudicator.ErrNotFound) {
		var list string
		var gone adjudicator.ArchivedGame
		archived := false
		db.View(ctx, func(tx *store.Tx) error {
			jt := tx.Judge(cfg.Address, c.Now())
			gone, archived, _ = jt.Archived(game)
			list = gameChoices(jt)
			return nil
		})
		if archived {
			return usagef("game %s was archived on %s: the store keeps only its record; replay its file instead: 'umpire replay %s'",
				game, gone.Archived.UTC().Format("2006-01-02"), gone.File)
		}
		return usagef("there is no game %q in %s, and no file of that name: %s", game, cfg.Store, list)
	}
	if err != nil {
		return fmt.Errorf("replay %s: %w", game, err)
	}
	fmt.Fprintf(c.Stdout, "OK %s: %d steps replayed; every state and every die is as stored\n", game, n)
	return nil
}

// replayFile replays the game export in f, read from the file name.
func (c *Console) replayFile(name string, f io.Reader) error {
	j := &adjudicator.Judge{Games: c.Games, Logger: c.Logger}
	x, err := adjudicator.ReadGameExport(f)
	if err != nil {
		return usagef("%s: %w", name, err)
	}
	n, err := j.ReplayExport(x)
	if err != nil {
		return fmt.Errorf("replay %s: %w", name, err)
	}
	fmt.Fprintf(c.Stdout, "OK %s (game %s): %d steps replayed; every state and every die is as exported\n", name, x.Game, n)
	if adjudicator.OrdersUnchecked(x) {
		fmt.Fprintf(c.Stdout, "  The game has not ended: its order entries are keyed with the seats' salts, secret until then,\n"+
			"  so the order files were not checked against them. Replay its export again once it has ended.\n")
	} else if x.Version == 3 {
		fmt.Fprintf(c.Stdout, "  Every order entry's salted digest is its order file's.\n")
	}
	return nil
}
