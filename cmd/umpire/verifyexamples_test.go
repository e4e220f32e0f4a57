package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyV2Examples: umpire verify on the spec's example exports (kept in
// docs/examples): exit 0 on the running and the ended game, exit 1 naming
// step 4 on the tampered one; --head compares; a seat's key opens its
// stream; a file that is not a dice log is exit 2.
func TestVerifyV2Examples(t *testing.T) {
	dir := "../../docs/examples/"
	for _, c := range []struct {
		file string
		code int
		want []string
	}{
		{"dice-log-v2-example.json", exitOK, []string{"OK", "running", "13 records", "2 hidden whose key is not public", "drand quicknet", "942af9fa46fc1064a7981780c2ee20233aeecebefd20be6f8fc13fde08dc1b7b"}},
		{"dice-log-v2-example-ended.json", exitOK, []string{"OK", "ended", "14 records", "7 re-derived", "c3ab1936dbd98ba278fad6fa15b66630a792ea733ed1e1c8bd4748b6c402c890"}},
		{"dice-log-v2-example-tampered.json", exitFail, []string{"FAILED", "record 13 (step, step 4)"}},
	} {
		code, out, errOut := run(t, "verify", dir+c.file)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.file, code, c.code, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.file, w, out)
			}
		}
	}
	running := dir + "dice-log-v2-example.json"
	if code, out, _ := run(t, "verify", "--head", "942af9fa46fc1064a7981780c2ee20233aeecebefd20be6f8fc13fde08dc1b7b", running); code != exitOK || !strings.Contains(out, "It is the head you gave") {
		t.Errorf("--head, the same: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "verify", "--head", strings.Repeat("ab", 32), running); code != exitFail || !strings.Contains(out, "HEAD DIFFERS") {
		t.Errorf("--head, another: exit %d\n%s", code, out)
	}
	// The cup key of step 1 (from the spec's vectors) opens the hidden chit.
	code, out, _ := run(t, "verify", "--key", "1:cup:525265a8e06c9e60e41cb6ad9ce8c22a48f40f93535d091915e4e32bc3a36a55", running)
	if code != exitOK || !strings.Contains(out, "Your stream cup, step 1, draw 5 (1d10(0-9)): [3]") {
		t.Errorf("--key: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "verify", "--key", "1:cup:"+strings.Repeat("00", 32), running); code != exitFail || !strings.Contains(out, "commitment does not match") {
		t.Errorf("--key with a wrong key: exit %d\n%s", code, out)
	}
	notLog := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(notLog, []byte(`{"format": "umpire-dice-log", "version": 4}`), 0o644)
	if code, _, errOut := run(t, "verify", notLog); code != exitUsage || !strings.Contains(errOut, "not a dice log this verifier reads") {
		t.Errorf("version 4: exit %d, %s", code, errOut)
	}
	code, out, _ = run(t, "verify", "--json", running)
	if code != exitOK || !strings.Contains(out, `"version": 2`) || !strings.Contains(out, `"beacon": "drand quicknet"`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}
