package message

import (
	"errors"
	"fmt"
)

// The sentinel errors. Every error Parse returns wraps exactly one of them,
// so a caller can sort failures with errors.Is, and its text says in plain
// words what was wrong, fit to quote in the reply to the player. Problems
// that still leave a readable message are not errors: they are listed in
// Message.Problems.
var (
	// ErrTooLarge means the message, one of its parts, or its number of
	// parts is over a limit. The error is a *LimitError, which says which.
	ErrTooLarge = errors.New("message too large")

	// ErrTooDeep means multiparts or attached messages are nested more
	// deeply than the limit allows. The error is a *DepthError.
	ErrTooDeep = errors.New("message nested too deeply")

	// ErrMalformed means the message cannot be read at all: it does not
	// start with mail header lines, or its MIME structure is broken beyond
	// repair.
	ErrMalformed = errors.New("message could not be read")
)

// Names of the limits a LimitError can report.
const (
	LimitMessage    = "message"    // the raw message size (Limits.MaxMessage)
	LimitAttachment = "attachment" // one decoded part (Limits.MaxAttachment)
	LimitParts      = "parts"      // the number of MIME entities (Limits.MaxParts)
)

// LimitError is the error for a message over one of its Limits. It matches
// ErrTooLarge with errors.Is.
type LimitError struct {
	// Limit is LimitMessage, LimitAttachment or LimitParts.
	Limit string
	// Name is the file name of the part that is too large, when it has one.
	Name string
	// Size is the size found: bytes for LimitMessage and LimitAttachment,
	// entities counted so far for LimitParts.
	Size int64
	// Max is the limit that was exceeded.
	Max int64
}

// Error says what is too large, in words fit for a reply.
func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitAttachment:
		if e.Name != "" {
			return fmt.Sprintf("%v: the attachment %q is %s; the judge accepts at most %s per attachment",
				ErrTooLarge, e.Name, humanSize(e.Size), humanSize(e.Max))
		}
		return fmt.Sprintf("%v: a part of the message is %s; the judge accepts at most %s per part",
			ErrTooLarge, humanSize(e.Size), humanSize(e.Max))
	case LimitParts:
		return fmt.Sprintf("%v: the message has more than %d MIME parts; the judge reads at most %d",
			ErrTooLarge, e.Max, e.Max)
	default:
		return fmt.Sprintf("%v: the message is %s; the judge accepts at most %s",
			ErrTooLarge, humanSize(e.Size), humanSize(e.Max))
	}
}

// Is reports whether target is ErrTooLarge.
func (e *LimitError) Is(target error) bool { return target == ErrTooLarge }

// DepthError is the error for parts nested more deeply than
// Limits.MaxDepth. It matches ErrTooDeep with errors.Is.
type DepthError struct {
	// Max is the deepest nesting allowed.
	Max int
}

// Error says what is nested too deeply, in words fit for a reply.
func (e *DepthError) Error() string {
	return fmt.Sprintf("%v: its parts (multiparts or attached messages) are nested more than %d levels deep; the judge reads at most %d",
		ErrTooDeep, e.Max, e.Max)
}

// Is reports whether target is ErrTooDeep.
func (e *DepthError) Is(target error) bool { return target == ErrTooDeep }

// malformedf returns an error wrapping ErrMalformed with a reason.
func malformedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// humanSize formats a byte count for a player: "900 bytes", "12.5 KB",
// "10.0 MB" (binary units, as mail programs show them).
func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	case n == 1:
		return "1 byte"
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
