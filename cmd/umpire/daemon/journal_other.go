//go:build !linux

package daemon

import (
	"errors"
	"net"
)

// sendJournalFile cannot pass a record too large for one datagram where
// there is no systemd: the record goes to the fallback handler.
func sendJournalFile(*net.UnixConn, *net.UnixAddr, []byte) error {
	return errors.New("record too large for one datagram")
}
