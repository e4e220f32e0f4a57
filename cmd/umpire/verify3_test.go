package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// TestVerifyV3Examples: umpire verify on the spec's v3 example exports:
// exit 0 on the running and the ended game, exit 1 on the tampered one,
// naming step 4 (record 14), whose close goes backwards; --salt checks a
// seat's salt against the start record and lists its entries, a wrong one
// fails at record 2; umpire digest gives the spec's keyed digests.
func TestVerifyV3Examples(t *testing.T) {
	dir := "../../docs/examples/"
	for _, c := range []struct {
		file string
		code int
		want []string
	}{
		{"dice-log-v3-example.json", exitOK, []string{"OK", "umpire-dice-v3, running", "14 records", "2 hidden whose key is not public", "drand quicknet",
			"Beacon delay: 600 s (200 periods of 3 s).", "Start record: 2 seats, 2 contributed a signed join; h_2 a8a8eb35ef3a3d030c4ce735193cb8c594163161e545a5d501a29607b3f073b9",
			"a0576435caddb7ec33ecf205b8863896998587b90b8821125e90cc7befe1eea6"}},
		{"dice-log-v3-example-ended.json", exitOK, []string{"OK", "ended", "15 records", "7 re-derived", "aec4c4ee42033b9f90e633faf01566af96325a0d368794837c38d9f596dc4c64"}},
		{"dice-log-v3-example-tampered.json", exitFail, []string{"FAILED", "umpire-dice-v3", "record 14 (step, step 4)", "its close 1692805768 is before 1692805769"}},
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
	running := dir + "dice-log-v3-example.json"
	var root dice.Hash
	root[31] = 2
	tA := dice.OrderSalt(root, "A")
	code, out, _ := run(t, "verify", "--salt", "A:"+tA.String(), running)
	if code != exitOK || !strings.Contains(out, "Your salt for seat A is the one the start record commits to") ||
		!strings.Contains(out, "step 1: sent for step 1, version 1, digest 0d078d7f70e1158aa8eade39b5217649953f56f5d2b7a98f3f11f9a85f319512") ||
		!strings.Contains(out, "step 3: sent for step 3, version 1, digest 44beb807f63682dda63e2b701457b272f807c6ca8118542c441cea1a6cdd1dc4") {
		t.Errorf("--salt: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, "verify", "--salt", "B:"+tA.String(), running); code != exitFail || !strings.Contains(out, "record 2 (start)") {
		t.Errorf("--salt, another seat's: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "verify", "--json", running)
	if code != exitOK || !strings.Contains(out, `"version": 3`) || !strings.Contains(out, `"start_head": "a8a8eb35`) || !strings.Contains(out, `"beacon_delay": 600`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
	// The v2 example, whose delay keeps over v3's floor, says nothing of it.
	if _, out, _ := run(t, "verify", dir+"dice-log-v2-example.json"); !strings.Contains(out, "Beacon delay: 600 s (200 periods of 3 s).") {
		t.Errorf("the v2 example's delay:\n%s", out)
	}

	files := t.TempDir()
	for name, text := range map[string]string{"a1": "orders A", "a3": "orders A, step 3"} {
		os.WriteFile(filepath.Join(files, name), []byte(text), 0o644)
	}
	for _, c := range []struct {
		file       string
		step, vers string
		want       string
	}{
		{"a1", "1", "1", "0d078d7f70e1158aa8eade39b5217649953f56f5d2b7a98f3f11f9a85f319512"},
		{"a3", "3", "1", "44beb807f63682dda63e2b701457b272f807c6ca8118542c441cea1a6cdd1dc4"},
	} {
		code, out, errOut := run(t, "digest", "--salt", tA.String(), "--step", c.step, "--version", c.vers, filepath.Join(files, c.file))
		if code != exitOK || !strings.HasPrefix(out, c.want) {
			t.Errorf("digest %s: exit %d\n%s%s", c.file, code, out, errOut)
		}
	}
	if code, _, errOut := run(t, "digest", "--salt", tA.String(), filepath.Join(files, "a1")); code != exitUsage || !strings.Contains(errOut, "--step") {
		t.Errorf("digest without --step: exit %d %s", code, errOut)
	}
}
