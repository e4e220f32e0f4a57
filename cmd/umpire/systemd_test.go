//go:build integration

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
)

// unitFile is a systemd unit's settings: section, then key, then each
// value given (a key may be given more than once).
type unitFile map[string]map[string][]string

// readUnit reads a unit file's sections and keys; systemd-analyze verify
// is what checks them, this only finds them.
func readUnit(t *testing.T, path string) unitFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u, section := unitFile{}, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s: %q is no key=value in a section", path, line)
			}
			u[section][k] = append(u[section][k], v)
		}
	}
	return u
}

// TestSystemdUnits: the units docs/operations.md ships (docs/systemd) pass
// systemd-analyze verify with not one complaint, with the umpire binary and
// the programs they run where they name them; the service is sandboxed as
// the issue asks (a user of its own, no capabilities, no new privileges, a
// read-only system but for its state directory), stops on SIGTERM and
// reloads on SIGHUP; the backup runs umpire store backup, which exists.
func TestSystemdUnits(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("systemd-analyze is missing (Debian package systemd): .ci/run installs it")
		}
		t.Skip("no systemd-analyze (Debian package systemd)")
	}
	units := filepath.Join("..", "..", "docs", "systemd")
	names := []string{"umpire.service", "umpire-backup.service", "umpire-backup.timer"}
	// A root with systemd's own units, the units, and each program they
	// start at the path they name it by.
	root := t.TempDir()
	var system string
	for _, dir := range []string{"/usr/lib/systemd/system", "/lib/systemd/system"} {
		if _, err := os.Stat(filepath.Join(dir, "multi-user.target")); err == nil {
			system = dir
			break
		}
	}
	if system == "" {
		t.Fatal("systemd's own units (multi-user.target) are not in /usr/lib/systemd/system")
	}
	os.MkdirAll(filepath.Join(root, "usr", "lib", "systemd"), 0o755)
	if out, err := exec.Command("cp", "-a", system, filepath.Join(root, "usr", "lib", "systemd", "system")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	put := func(from, to string) {
		t.Helper()
		to = filepath.Join(root, to)
		os.MkdirAll(filepath.Dir(to), 0o755)
		if out, err := exec.Command("cp", "-L", from, to).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v: %s", from, err, out)
		}
	}
	put(daemontest.UmpireBinary(t), "/usr/local/bin/umpire")
	parsed := map[string]unitFile{}
	var paths []string
	for _, name := range names {
		put(filepath.Join(units, name), "/etc/systemd/system/"+name)
		paths = append(paths, "/etc/systemd/system/"+name)
		parsed[name] = readUnit(t, filepath.Join(units, name))
		for k, vs := range parsed[name]["Service"] {
			if !strings.HasPrefix(k, "Exec") {
				continue
			}
			for _, v := range vs {
				prog := strings.Fields(strings.TrimLeft(v, "-@:+!"))[0]
				if prog != "/usr/local/bin/umpire" {
					put(prog, prog)
				}
			}
		}
	}
	out, err := exec.Command(analyze, append([]string{"verify", "--root=" + root}, paths...)...).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}

	one := func(unit, section, key string) string {
		t.Helper()
		vs := parsed[unit][section][key]
		if len(vs) != 1 {
			t.Errorf("%s [%s] %s is given %d times, want once", unit, section, key, len(vs))
			return ""
		}
		return vs[0]
	}
	for _, unit := range []string{"umpire.service", "umpire-backup.service"} {
		s := parsed[unit]["Service"]
		if !slices.Equal(s["DynamicUser"], []string{"yes"}) && (len(s["User"]) != 1 || s["User"][0] == "" || s["User"][0] == "root") {
			t.Errorf("%s runs as root: want DynamicUser=yes or a user of its own", unit)
		}
		for key, want := range map[string]string{"ProtectSystem": "strict", "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "AmbientCapabilities": ""} {
			if got := one(unit, "Service", key); got != want {
				t.Errorf("%s: %s=%s, want %q", unit, key, got, want)
			}
		}
		if got := one(unit, "Service", "StateDirectory"); !strings.HasPrefix(got, "umpire") {
			t.Errorf("%s: StateDirectory=%s, want umpire", unit, got)
		}
	}
	if got := one("umpire.service", "Service", "ExecStart"); got != "/usr/local/bin/umpire serve --config /etc/umpire/umpire.toml" {
		t.Errorf("umpire.service: ExecStart=%s", got)
	}
	if got := one("umpire.service", "Service", "Type"); got != "notify" || one("umpire.service", "Service", "WatchdogSec") == "" {
		t.Errorf("umpire.service: Type=%s, want notify with a WatchdogSec", got)
	}
	if got := one("umpire.service", "Service", "ExecReload"); !strings.Contains(got, "kill -HUP $MAINPID") {
		t.Errorf("umpire.service: ExecReload=%s, want SIGHUP", got)
	}
	if got := one("umpire-backup.service", "Service", "ExecStart"); !strings.Contains(got, "/usr/local/bin/umpire store backup --config /etc/umpire/umpire.toml /var/lib/umpire/backups/") &&
		!strings.Contains(got, `/usr/local/bin/umpire store backup --config /etc/umpire/umpire.toml "/var/lib/umpire/backups/`) {
		t.Errorf("umpire-backup.service: ExecStart=%s", got)
	}
	if got := one("umpire-backup.timer", "Timer", "OnCalendar"); got == "" {
		t.Error("umpire-backup.timer has no OnCalendar")
	}
	// umpire store backup is a command, and takes the file the unit gives.
	if code, out, _ := run(t, "help", "store"); code != exitOK || !strings.Contains(out, "backup FILE") {
		t.Errorf("umpire help store: exit %d:\n%s", code, out)
	}
}
