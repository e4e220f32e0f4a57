package dice

import "errors"

// Errors of the dice package.
var (
	// ErrChainExhausted: a link past the chain's length was asked for.
	ErrChainExhausted = errors.New("dice chain exhausted")
	// ErrNotLog: the input is not an umpire dice log export.
	ErrNotLog = errors.New("not an umpire dice log")
	// ErrVersion: the export's version is newer than this program reads.
	ErrVersion = errors.New("unsupported dice log version")
)

// Errors of umpire-dice-v2.
var (
	// ErrBadStream: a hidden stream name breaks the rules of its form, or a
	// draw names a stream the game did not declare.
	ErrBadStream = errors.New("bad dice stream")
)
