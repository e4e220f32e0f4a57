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
func TestServeNotifiesSystemd(t *testing.T) {
	bin := daemontest.UmpireBinary(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cmd := exec.Command(bin, "serve", "--dev", "--store", filepath.Join(dir, "umpire.db"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NOTIFY_SOCKET="+sock, "WATCHDOG_USEC=300000")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-done
		}
	}()
	var got []string
	read := func(want string) {
		t.Helper()
		buf := make([]byte, 4096)
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
			conn.SetReadDeadline(time.Now().Add(time.Second))
			n, err := conn.Read(buf)
			if err != nil {
				continue
			}
			got = append(got, string(buf[:n]))
			if strings.TrimSpace(string(buf[:n])) == want {
				return
			}
		}
		t.Fatalf("no %s from the judge within a minute; it said %q", want, got)
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
	select {
	case err := <-done:
		stopped = true
		if err != nil {
			t.Errorf("stopped by SIGTERM: %v, want status 0", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not stop within a minute of SIGTERM")
	}
}
