//go:build integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
)

// TestServeExitsZeroOnSignal: a service manager stops the judge with
// SIGTERM (an operator at the console with ^C, SIGINT), and reads any exit
// status but 0 as a failure. serve --dev, with its web pages and embedded
// mail servers, drains and exits 0 without an error line (it printed
// "close tcp …: use of closed network connection" and exited 1).
func TestServeExitsZeroOnSignal(t *testing.T) {
	bin := daemontest.UmpireBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			logPath := filepath.Join(dir, "serve.log")
			logf, err := os.Create(logPath)
			if err != nil {
				t.Fatal(err)
			}
			defer logf.Close()
			cmd := exec.Command(bin, "serve", "--dev", "--store", filepath.Join(dir, "umpire.db"))
			cmd.Dir = dir
			cmd.Stdout, cmd.Stderr = logf, logf
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			running := func() bool {
				b, _ := os.ReadFile(logPath)
				return strings.Contains(string(b), `msg="judge running"`)
			}
			for deadline := time.Now().Add(60 * time.Second); !running(); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					<-done
					b, _ := os.ReadFile(logPath)
					t.Fatalf("serve --dev did not say it was running within a minute:\n%s", b)
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err = <-done:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("serve --dev did not stop within a minute of %s", sig)
			}
			out, _ := os.ReadFile(logPath)
			if err != nil {
				t.Errorf("serve --dev stopped by %s: %v, want exit status 0\n%s", sig, err, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(line, "umpire:") {
					t.Errorf("serve --dev stopped by %s printed an error: %s", sig, line)
				}
			}
			if !strings.Contains(string(out), "msg=stopped") {
				t.Errorf("serve --dev stopped by %s without logging that it stopped:\n%s", sig, out)
			}
		})
	}
}
