package mail

import (
	"errors"
	"net"

	"github.com/emersion/go-smtp"
)

// Temporary reports whether err is worth retrying: network errors and SMTP
// 4xx replies are; 5xx replies and configuration errors are not.
func Temporary(err error) bool {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code < 500
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe) || errors.Is(err, errConnection)
}

var errConnection = errors.New("connection failed")
