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

// TestServeHangup: the judge, stopped by nothing, takes SIGHUP as an
// operator's logrotate sends it: after the log file was renamed away it
// writes a new one; a report template that does not parse is named in the
// log and the judge runs on with the templates it had; a fixed one is
// reread. SIGTERM then still ends it with status 0.
func TestServeHangup(t *testing.T) {
	bin := daemontest.UmpireBinary(t)
	dir := t.TempDir()
	tpl := filepath.Join(dir, "templates")
	os.Mkdir(tpl, 0o755)
	logPath := filepath.Join(dir, "umpire.log")
	config := filepath.Join(dir, "umpire.toml")
	os.WriteFile(config, []byte("store = \"umpire.db\"\n[log]\nfile = \"umpire.log\"\n[templates]\ndir = \"templates\"\n"), 0o600)
	cmd := exec.Command(bin, "serve", "--dev", "--config", config)
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := false // done was read
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			<-done
		}
	}()
	waitLog := func(path, want string) string {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			b, _ := os.ReadFile(path)
			if strings.Contains(string(b), want) {
				return string(b)
			}
			select {
			case err := <-done:
				stopped = true
				t.Fatalf("serve stopped (%v) before %s said %q:\n%s", err, path, want, b)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s did not say %q within a minute:\n%s", path, want, b)
			}
		}
	}
	waitLog(logPath, `msg="judge running"`)

	// logrotate: rename, then HUP; and a template with a mistake.
	rotated := logPath + ".1"
	if err := os.Rename(logPath, rotated); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tpl, "report.txt"), []byte("{{.Game"), 0o644)
	cmd.Process.Signal(syscall.SIGHUP)
	out := waitLog(logPath, `msg="templates not reread, the judge keeps those it had"`)
	if !strings.Contains(out, `msg="log file reopened"`) || !strings.Contains(out, "report.txt") {
		t.Errorf("the new log after SIGHUP:\n%s", out)
	}
	if old, _ := os.ReadFile(rotated); strings.Contains(string(old), "reopened") {
		t.Errorf("the rotated log got the lines after SIGHUP:\n%s", old)
	}

	os.WriteFile(filepath.Join(tpl, "report.txt"), []byte("{{.Game}}: step {{.Step}}\n"), 0o644)
	cmd.Process.Signal(syscall.SIGHUP)
	waitLog(logPath, `msg="templates reread"`)

	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		stopped = true
		if err != nil {
			t.Errorf("serve after SIGHUPs, stopped by SIGTERM: %v, want status 0", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not stop within a minute of SIGTERM")
	}
}
