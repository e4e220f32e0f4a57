//go:build integration

package mailtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// The tests of this file start real Dovecot and OpenSMTPD servers: they
// are integration tests (go test -tags integration; bash .ci/run sets it).

func init() { stackKinds = append(stackKinds, stackKind{"real", Real}) }

// TestRealLeavesNothingBehind checks that a Real stack's processes and
// folder are gone once its test has ended.
func TestRealLeavesNothingBehind(t *testing.T) {
	var (
		dir    string
		groups []int
	)
	t.Run("stack", func(t *testing.T) {
		r := Real(t).(*realStack)
		dir = r.dir
		groups = []int{r.dovecot.proc.cmd.Process.Pid, r.smtpd.proc.cmd.Process.Pid}
		r.AddUser(t, judge, password)
		raw, _ := message(alice, judge, "cleanup")
		r.Submit(t, alice, []string{judge}, raw)
		r.WaitFor(t, judge, password, "INBOX", 1, waitTime)
	})
	if dir == "" {
		t.Skip("no real stack here")
	}
	for _, pgid := range groups {
		if groupAlive(pgid) {
			t.Errorf("process group %d still alive after the test", pgid)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still exists after the test (err %v)", dir, err)
	}
	// The stack's OpenSMTPD had a private control socket: nothing of it
	// remains on the machine's.
	if _, err := os.Stat(filepath.Join(dir, "run", "smtpd.sock")); err == nil {
		t.Error("the stack's control socket outlived the test")
	}
}

// TestRealBesideOtherOpenSMTPDs runs two real stacks at once while an
// OpenSMTPD of the machine (the system's, or one this test starts in the
// machine's own runtime: /run/smtpd.sock and /var/spool/smtpd) runs too.
// Each stack delivers its own mail, and the machine's OpenSMTPD is still
// there, untouched, afterwards.
func TestRealBesideOtherOpenSMTPDs(t *testing.T) {
	checkSystem(t)
	const machineSocket = "/run/smtpd.sock"
	var machine *process
	if !socketLive(machineSocket) {
		dir := t.TempDir()
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		conf := filepath.Join(dir, "smtpd.conf")
		text := fmt.Sprintf("listen on 127.0.0.1 port %d\naction \"local\" mbox\nmatch from any for domain \"machine.invalid\" action \"local\"\n", port)
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		machine, err = startProcess("machine opensmtpd", filepath.Join(dir, "smtpd.log"), smtpdBin, "-d", "-f", conf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { machine.stop() }) // this test started it
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		if err := waitGreeting(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), "220", machine.done); err != nil {
			b, _ := os.ReadFile(filepath.Join(dir, "smtpd.log"))
			t.Fatalf("the machine's OpenSMTPD did not start: %v\n%s", err, b)
		}
		for !socketLive(machineSocket) {
			select {
			case <-ctx.Done():
				t.Fatal("the machine's OpenSMTPD has no control socket")
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	stacks := make([]Stack, 2)
	for i := range stacks {
		stacks[i] = Real(t)
		stacks[i].AddUser(t, judge, password)
	}
	for i, s := range stacks {
		raw, body := message(alice, judge, fmt.Sprintf("beside-%d", i))
		s.Submit(t, alice, []string{judge}, raw)
		checkBody(t, s.WaitFor(t, judge, password, "INBOX", 1, waitTime), fmt.Sprintf("beside-%d", i), body)
	}
	if !socketLive(machineSocket) {
		t.Error("the machine's OpenSMTPD no longer answers on its control socket")
	}
	if machine != nil {
		select {
		case <-machine.done:
			t.Error("the machine's OpenSMTPD exited while the stacks ran")
		default:
		}
	}
}

// socketLive reports whether something answers on a unix socket.
func socketLive(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
