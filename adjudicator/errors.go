package adjudicator

import "errors"

// Errors of the adjudicator package.
var (
	// ErrNotFound: the game, seat or key asked for does not exist. Tx
	// implementations wrap it.
	ErrNotFound = errors.New("not found")
)
