//go:build integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// TestBinary runs the built umpire binary for exit codes as a shell sees them.
func TestBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "umpire")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	corrupted := writeTampered(t, func(x *legacy.Export) { x.Entries[0], x.Entries[1] = x.Entries[1], x.Entries[0] })
	notLog := filepath.Join(t.TempDir(), "orders.txt")
	if err := os.WriteFile(notLog, []byte("move US-82AB 1609 1610\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"verify", exampleLog}, 0, "OK"},
		{[]string{"verify", corrupted}, 1, "entry 2 (step 1"},
		{[]string{"verify", notLog}, 2, "not an umpire dice log"},
		{[]string{"nonsense"}, 2, "unknown command"},
		{[]string{"version"}, 0, "umpire"},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, c.args...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(string(out), c.contains) {
			t.Errorf("umpire %v: exit %d, want %d; output %q", c.args, code, c.code, out)
		}
	}
}
