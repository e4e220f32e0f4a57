//go:build integration

package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
)

// TestServeNotifiesSystemd: run as systemd runs a Type=notify unit with
// WatchdogSec= (NOTIFY_SOCKET and WATCHDOG_USEC in its environment), the
// judge says READY=1 once it runs, WATCHDOG=1 again and again while it
// runs, and STOPPING=1 when SIGTERM stops it, which it then does with
// status 0.
//
// Each wait ends on its event: the notification, or serve's exit (then the
// notifications it sent before are read, and the test fails at once,
// naming them); the minutes of backstop are only for a judge that hangs, which
// is then made to print its goroutines (SIGQUIT).
func TestServeNotifiesSystemd(t *testing.T) {
	const backstop = 3 * time.Minute
	bin := daemontest.UmpireBinary(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Every datagram, in order, as it comes; closed when conn is.
	notes := make(chan string, 1024)
	go func() {
		defer close(notes)
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			notes <- strings.TrimSpace(string(buf[:n]))
		}
	}()
	var serveLog daemontest.LockedBuffer
	cmd := exec.Command(bin, "serve", "--dev", "--store", filepath.Join(dir, "umpire.db"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NOTIFY_SOCKET="+sock, "WATCHDOG_USEC=300000")
	cmd.Stdout, cmd.Stderr = &serveLog, &serveLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	exited, exitErr := false, error(nil)
	defer func() {
		if !exited {
			cmd.Process.Kill()
			<-done
		}
	}()
	var got []string
	fail := func(format string, args ...any) {
		t.Helper()
		serveLog.Mu.Lock()
		defer serveLog.Mu.Unlock()
		t.Fatalf(format+"\nthe notifications received, in order: %q\nserve's output:\n%s", append(args, got, serveLog.B.String())...)
	}
	// hung has a judge that does not answer in minutes print its
	// goroutines, and waits for it to go.
	hung := func() {
		cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case exitErr = <-done:
			exited = true
		case <-time.After(10 * time.Second):
		}
	}
	read := func(want string) {
		t.Helper()
		giveUp := time.After(backstop)
		for {
			select {
			case n := <-notes:
				got = append(got, n)
				if n == want {
					return
				}
				continue
			case exitErr = <-done:
				exited = true
			case <-giveUp:
				hung()
				fail("no %s from the judge in %v", want, backstop)
			}
			break
		}
		// serve exited: what it sent before is in the socket, ahead of a
		// mark the test sends now.
		const mark = "TEST=serve exited"
		if c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: sock, Net: "unixgram"}); err == nil {
			c.Write([]byte(mark))
			c.Close()
		}
		for drained := time.After(backstop); ; {
			select {
			case n := <-notes:
				if n == mark {
					break // all read
				}
				got = append(got, n)
				if n == want {
					return
				}
				continue
			case <-drained:
			}
			break
		}
		fail("serve exited (%v) without sending %s", exitErr, want)
	}
	read("READY=1")
	start := time.Now()
	read("WATCHDOG=1")
	read("WATCHDOG=1")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("two watchdog pings took %v, with WatchdogSec=0.3s", d)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	read("STOPPING=1")
	if !exited {
		select {
		case exitErr = <-done:
			exited = true
		case <-time.After(backstop):
			hung()
			fail("serve did not stop in %v after SIGTERM", backstop)
		}
	}
	if exitErr != nil {
		fail("stopped by SIGTERM: %v, want status 0", exitErr)
	}
}
