package mail

import (
	"errors"
	"net"

	"github.com/emersion/go-smtp"
)

// Errors of the mail package.
var (
	// ErrPermanent marks a delivery the server refused for good (an SMTP 5xx
	// reply): retrying cannot help.
	ErrPermanent = errors.New("permanent delivery failure")
)

// Temporary reports whether err is worth retrying: network errors and SMTP
// 4xx replies are; 5xx replies and configuration errors are not.
func Temporary(err error) bool {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code < 500
	}
	if errors.Is(err, ErrPermanent) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe) || errors.Is(err, errConnection)
}

var errConnection = errors.New("connection failed")
