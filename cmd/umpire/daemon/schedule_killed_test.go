//go:build integration

package daemon

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/cmd/umpire/daemon/daemontest"
	"github.com/umpire-pbem/umpire/store"
)

// TestRestartAroundDeadlineKilled runs "umpire serve --dev" as a child
// process on a store whose step 1 falls due about two seconds later, kills
// it with SIGKILL at a random moment around the deadline (before, while or
// after it adjudicates and commits the step), then runs the scheduler once
// more as the next daemon life. Step 1 must end up adjudicated exactly once.
// The dice chains have the default length, so that adjudicating takes long
// enough (deriving the links) for some kills to land inside the transaction.
// UMPIRE_RESTART_RUNS sets the number of runs (default 6); UMPIRE_KILL_SEED
// repeats them.
func TestRestartAroundDeadlineKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the judge as a child process")
	}
	bin := daemontest.UmpireBinary(t)
	runs := 6
	if s := os.Getenv("UMPIRE_RESTART_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("UMPIRE_KILL_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (UMPIRE_KILL_SEED=%d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for r := range runs {
		// From 20 ms before the deadline to 60 ms after it: adjudicating
		// step 1 takes about 20 ms here.
		offset := time.Duration(rng.IntN(80)-20) * time.Millisecond
		t.Run(fmt.Sprintf("run%d", r), func(t *testing.T) {
			t.Parallel()
			killAroundDeadline(t, bin, offset)
		})
	}
}

func killAroundDeadline(t *testing.T, bin string, offset time.Duration) {
	dir := t.TempDir()
	path := filepath.Join(dir, "umpire.db")
	const lead = 2 * time.Second // for the child to start
	deadline := time.Now().Add(lead).Truncate(time.Millisecond)
	newRestartStore(t, path, deadline.Add(-48*time.Hour), 0)

	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "serve", "--dev", "--store", path)
	cmd.Dir = dir // no ./umpire.toml
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "UMPIRE_CONFIG=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
	}()
	for !strings.Contains(readFile(t, logf.Name()), "judge running") {
		if time.Now().After(deadline) {
			t.Logf("the judge was not running yet at the deadline")
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(time.Until(deadline.Add(offset)))
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killed = true
	logText := readFile(t, logf.Name())

	var before string
	withStore(t, path, func(tx *store.Tx) error {
		st, err := tx.Step("rs-1", 1)
		before = st.Status
		return err
	})
	t.Logf("killed %v after the deadline: step 1 %s then (adjudication logged by the killed judge: %v)",
		offset, before, strings.Contains(logText, "step adjudicated"))
	defer func() {
		if t.Failed() {
			t.Logf("serve log:\n%s", daemontest.Tail(logText, 30))
		}
	}()
	// The next life starts after the deadline, whenever the first died.
	time.Sleep(time.Until(deadline.Add(time.Millisecond)))
	n := life(t, path, time.Now())
	switch {
	case before == "open" && n != 1, before == "closed" && n != 0:
		t.Errorf("step 1 was %s after the kill, and the next life changed %d games", before, n)
	}
	checkAdjudicatedOnce(t, path, func(closed time.Time) error {
		if closed.Before(deadline) {
			return fmt.Errorf("step 1 closed at %v, before its deadline %v", closed, deadline)
		}
		return nil
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
