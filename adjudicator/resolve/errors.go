package resolve

import (
	"errors"
	"fmt"
)

// InputError is a bad name=value: unknown, missing, out of range, or a dice=
// list of the wrong length. `umpire resolve` prints it as one line and exits
// with status 2.
type InputError struct {
	Name string // the input, or "dice"
	Msg  string // what is wrong and what is allowed
}

func (e *InputError) Error() string { return e.Name + ": " + e.Msg }

// Bad returns an InputError for input name; procedures use it for what the
// declared kinds cannot check.
func Bad(name, format string, args ...any) error {
	return &InputError{Name: name, Msg: fmt.Sprintf(format, args...)}
}

// IsInput reports whether err is an input error (exit status 2).
func IsInput(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// ErrTooManyOutcomes is returned by Distribution when enumerating the dice
// would take more than MaxOutcomes runs.
var ErrTooManyOutcomes = errors.New("resolve: too many dice outcomes to enumerate")
