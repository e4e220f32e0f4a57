package daemon

import "fmt"

// UsageError is a mistake in what the operator asked for: a configuration
// that does not hold, a game or seat that does not exist, a file in the
// way. The command line exits with status 2 on one.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }
