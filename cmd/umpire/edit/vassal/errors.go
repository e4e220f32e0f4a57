package vassal

import (
	"errors"
	"fmt"
)

// The kinds of refusal. Every error Read, ReadFile and CheckImage return
// is an *Error whose Kind is one of these, so that errors.Is tells them
// apart while the message says what was wrong in the game master's words.
var (
	// ErrNotModule: the file is not a zip archive, holds no buildFile, or
	// its buildFile is not a module's (an extension, a saved game).
	ErrNotModule = errors.New("not a VASSAL module")
	// ErrNoBoard: the module holds no board that can be imported (each
	// board's reason is in the message).
	ErrNoBoard = errors.New("no board to import")
	// ErrTooLarge: a bound of Limits was passed (zip bombs end here).
	ErrTooLarge = errors.New("over a limit")
	// ErrNotImage: a scan or a board image is not a PNG, JPEG or GIF.
	ErrNotImage = errors.New("not an image")
	// ErrBadBuildFile: the buildFile is not well-formed XML, nests too
	// deep, or holds an attribute VASSAL itself could not read.
	ErrBadBuildFile = errors.New("bad buildFile")
	// ErrBadGrid: a hex grid does not fit its board (dx or dy not more
	// than 0, larger than the image, or more hexes than Limits.Hexes).
	ErrBadGrid = errors.New("grid does not fit")
)

// Error is a refusal: Msg is the whole message, lowercase, meant for the
// game master; Kind is one of the Err values above.
type Error struct {
	Kind error
	Msg  string
	Err  error // the underlying error, if any
}

// Error returns the message.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

// Unwrap gives errors.Is and errors.As the kind and the underlying error.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// refuse makes an *Error of kind with a formatted message.
func refuse(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// refuseWrap is refuse with an underlying error.
func refuseWrap(kind, err error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: err}
}
