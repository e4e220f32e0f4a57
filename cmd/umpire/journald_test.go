//go:build integration

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
)

// journaldScript starts a systemd-journald of its own in the private
// mount and network namespaces unshare gives it (its sockets and its
// journal on tmpfs there: the machine's own are not touched, and the
// kernel's audit is out of its reach), runs serve --dev as a systemd
// service runs, with its standard error the journal's stream and
// JOURNAL_STREAM naming that stream, stops it with SIGTERM once the
// journal holds "judge running", stops the journald it started and prints
// the journal's records of umpire as JSON.
const journaldScript = `set -e
for d in /run/systemd /run/log /var/log/journal; do mkdir -p $d; mount -t tmpfs tmpfs $d; done
ip link set lo up
$JOURNALD >/dev/null 2>&1 & jd=$!
trap 'kill $jd; wait $jd' EXIT
for i in $(seq 50); do [ -S /run/systemd/journal/stdout ] && [ -S /run/systemd/journal/socket ] && break; sleep 0.1; done
cd "$DIR"
systemd-cat -t umpire sh -c 'export JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2); exec "$UMPIRE" serve --dev --store umpire.db' >/dev/null &
u=$!
for i in $(seq 600); do journalctl -q --no-pager MESSAGE="judge running" | grep -q . && break; sleep 0.1; done
kill -TERM $u || true
wait $u || true
journalctl -q --no-pager -o json _COMM=umpire
`

// TestJournaldTakesTheLog: under a real systemd-journald, a judge whose
// standard error is the journal (as systemd starts a service) sends its
// records in the journal's native protocol: the journal has them with
// _TRANSPORT=journal and their attributes as fields (journalctl selects
// on them), and none as lines of text on the stream (which has only the
// console's lines of serve --dev, its standard output).
func TestJournaldTakesTheLog(t *testing.T) {
	journald := "/lib/systemd/systemd-journald"
	for _, p := range []string{journald, "unshare", "systemd-cat", "journalctl", "ip", "stat"} {
		if _, err := exec.LookPath(p); err != nil {
			notHere(t, "no %s here (Debian's systemd and iproute2 packages, which .ci/run installs): %v", p, err)
		}
	}
	if os.Getuid() != 0 {
		notHere(t, "a journald of the test's own needs root for its namespaces")
	}
	bin := daemontest.UmpireBinary(t)
	dir := t.TempDir()
	bin, _ = filepath.Abs(bin)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--mount", "--net", "--propagation", "private", "sh", "-c", journaldScript)
	cmd.Env = append(os.Environ(), "JOURNALD="+journald, "DIR="+dir, "UMPIRE="+bin)
	// the journald and the judge the script starts end with it
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the journald script: %v\n%s", err, stderr.String())
	}
	var records []map[string]any
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("journalctl -o json: %v: %s", err, sc.Text())
		}
		records = append(records, r)
	}
	if len(records) == 0 {
		t.Fatalf("the journal holds nothing of umpire\n%s", stderr.String())
	}
	seen := map[string]map[string]any{}
	for _, r := range records {
		// serve --dev's console lines are its standard output, the
		// stream's too; a log record there would be text with msg=
		if m, _ := r["MESSAGE"].(string); r["_TRANSPORT"] != "journal" && strings.Contains(m, "msg=") {
			t.Errorf("a log record came by %v as text, not by the native protocol: %v", r["_TRANSPORT"], m)
		}
		if msg, ok := r["MESSAGE"].(string); ok {
			seen[msg] = r
		}
	}
	for msg, fields := range map[string]map[string]string{
		"store ready":   {"PRIORITY": "6", "SYSLOG_IDENTIFIER": "umpire", "SCHEMA": "", "PATH": ""},
		"judge running": {"PRIORITY": "6"},
		"stopped":       {"PRIORITY": "6"},
	} {
		r, ok := seen[msg]
		if !ok {
			t.Errorf("the journal lacks %q; it has %d records", msg, len(records))
			continue
		}
		for k, want := range fields {
			got, ok := r[k].(string)
			if !ok || want != "" && got != want {
				t.Errorf("%q: %s = %v, want %q", msg, k, r[k], want)
			}
		}
		if f, _ := r["CODE_FILE"].(string); !strings.HasSuffix(f, ".go") {
			t.Errorf("%q: CODE_FILE %v", msg, r["CODE_FILE"])
		}
	}
}

// notHere ends a test that cannot run on this machine: a failure in CI
// (CI=true, as .ci/run sets it), where what it needs is installed, a skip
// elsewhere.
func notHere(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}
