package devmail

import "errors"

// Errors returned by this package. They are wrapped with context; test them
// with errors.Is.
var (
	// ErrClosed is returned by methods of a Server that was closed, or whose
	// context was cancelled.
	ErrClosed = errors.New("devmail: server closed")

	// ErrNotLoopback is returned by Start when a configured listen address is
	// not a loopback address: the servers accept passwords without TLS.
	ErrNotLoopback = errors.New("devmail: listen address is not loopback")

	// ErrUnknownDomain is returned when a recipient is not in one of the
	// configured domains.
	ErrUnknownDomain = errors.New("devmail: recipient domain not handled here")

	// ErrBadAddress is returned for an address that is not local@domain.
	ErrBadAddress = errors.New("devmail: malformed address")

	// ErrMessageTooLarge is returned by Deliver for a message larger than
	// Config.MaxMessageBytes.
	ErrMessageTooLarge = errors.New("devmail: message too large")

	// ErrRunning is returned by StartIMAP or StartSMTP when that listener is
	// already running.
	ErrRunning = errors.New("devmail: listener already running")
)
