package daemon

import (
	"errors"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// This file answers a game, seat or step that does not exist with the ones
// that do (exit status 2): the command line names things, and a mistyped
// name gets the list to choose from.

// findGame reads game id, or says which games the store holds.
func findGame(tx adjudicator.Tx, store, id string) (adjudicator.Game, error) {
	g, err := tx.Game(id)
	if errors.Is(err, adjudicator.ErrNotFound) {
		if a, ok, aerr := tx.Archived(id); aerr == nil && ok {
			return g, usagef("game %s ended and was archived on %s to the file %s (SHA-256 %s): %s keeps only its record ('umpire game show %s')",
				id, a.Archived.UTC().Format("2006-01-02 15:04 MST"), a.File, a.SHA256, store, id)
		}
		return g, usagef("there is no game %q in %s: %s", id, store, gameChoices(tx))
	}
	return g, err
}

// gameChoices lists the games of the store: "its games are a, b".
func gameChoices(tx adjudicator.Tx) string {
	gs, err := tx.Games()
	if err != nil || len(gs) == 0 {
		return "it holds no game"
	}
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = g.ID
	}
	return "its games are " + strings.Join(ids, ", ")
}

// findSeat is the seat of game named s, whatever its case (usa is USA), or
// an error listing the seats.
func findSeat(tx adjudicator.Tx, game, s string) (string, error) {
	seats, err := tx.Seats(game)
	if err != nil {
		return "", err
	}
	names := make([]string, len(seats))
	for i, st := range seats {
		names[i] = st.Name
		if strings.EqualFold(st.Name, s) {
			return st.Name, nil
		}
	}
	return "", usagef("game %s has no seat %q: its seats are %s", game, s, strings.Join(names, ", "))
}

// checkStep says whether step k of g has been adjudicated, or which have.
func checkStep(g adjudicator.Game, k uint64) error {
	last := uint64(0)
	if g.Step > 1 {
		last = g.Step - 1
	}
	switch {
	case last == 0:
		return usagef("game %s has no adjudicated step yet (step 1 is %s)", g.ID, map[bool]string{true: "open", false: "not open"}[g.Step == 1])
	case k < 1 || k > last:
		return usagef("game %s has no adjudicated step %d: its steps are 1 to %d", g.ID, k, last)
	}
	return nil
}

// wantArgs says how many arguments a subcommand takes, with its usage.
func wantArgs(usage string, got, want int) error {
	if got == want {
		return nil
	}
	what := map[int]string{0: "no argument", 1: "one argument", 2: "two arguments"}[want]
	return usagef("%s takes %s, not %d: umpire %s", strings.Fields(usage)[0]+" "+strings.Fields(usage)[1], what, got, usage)
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
