package daemon

import (
	"fmt"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sendJournalFile sends b, a record too large for one datagram, as the
// journal's protocol says: written into a sealed memory file whose
// descriptor a datagram carries.
func sendJournalFile(conn *net.UnixConn, addr *net.UnixAddr, b []byte) error {
	fd, err := unix.MemfdCreate("umpire-journal", unix.MFD_ALLOW_SEALING|unix.MFD_CLOEXEC)
	if err != nil {
		return fmt.Errorf("memfd: %w", err)
	}
	f := os.NewFile(uintptr(fd), "umpire-journal")
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		return err
	}
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE); err != nil {
		return fmt.Errorf("memfd seal: %w", err)
	}
	_, _, err = conn.WriteMsgUnix(nil, syscall.UnixRights(int(f.Fd())), addr)
	return err
}
