package dice

import "errors"

// Errors of the dice package.
var (
	// errChainExhausted: a link past the chain's length was asked for.
	errChainExhausted = errors.New("dice chain exhausted")
	// ErrNotLog: the input is not an umpire dice log export.
	ErrNotLog = errors.New("not an umpire dice log")
	// ErrVersion: the export's version is newer than this program reads.
	ErrVersion = errors.New("unsupported dice log version")
)

// Errors of umpire-dice-v2.
var (
	// errBadStream: a hidden stream name breaks the rules of its form, or a
	// draw names a stream the game did not declare.
	errBadStream = errors.New("bad dice stream")
)
