package adjudicator

import "errors"

// Errors of the adjudicator package.
var (
	// ErrNotFound: the game, seat or key asked for does not exist. Tx
	// implementations wrap it.
	ErrNotFound = errors.New("not found")

	// errNoDeadline: a game's schedule names no sane deadline (a game
	// created before schedules were checked); the game is paused.
	errNoDeadline = errors.New("the schedule names no deadline")
)
