package mailtest

import "errors"

// Reasons OpenSMTPD cannot run for a test; Real skips (or fails in CI).
var (
	errSMTPDBusy    = errors.New("mailtest: another OpenSMTPD is running on this machine (control socket " + smtpdSocket + "); stop it, e.g. systemctl disable --now opensmtpd")
	errForeignQueue = errors.New("mailtest: OpenSMTPD's shared queue /var/spool/smtpd holds mail that is not from these tests")
)
