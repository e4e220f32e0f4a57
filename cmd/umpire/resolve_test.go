package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestResolveCommand runs the calculator as players do: listings, an answer
// with forced dice, fresh dice reported, --distribution, and input errors
// that exit 2 with one line naming the input.
func TestResolveCommand(t *testing.T) {
	code, out, _ := run(t, "resolve")
	for _, id := range []string{"wbt", "pcs1995", "bu", "sms1914", "perrote"} {
		if code != exitOK || !strings.Contains(out, "\n  "+id+" ") {
			t.Errorf("resolve lists no %s (exit %d):\n%s", id, code, out)
		}
	}
	code, out, _ = run(t, "resolve", "wbt")
	if code != exitOK || !strings.Contains(out, "\nodds  ") || !strings.Contains(out, "side=  one of NATO, Serb") {
		t.Errorf("resolve wbt (exit %d):\n%s", code, out)
	}
	// WbT 11.5: 26 against 7 is 3:1.
	code, out, _ = run(t, "resolve", "wbt", "odds", "side=NATO", "attack=26", "defense=7")
	var ans map[string]any
	if err := json.Unmarshal([]byte(out), &ans); code != exitOK || err != nil || ans["ratio"] != "3:1" || ans["game"] != "wbt" || ans["rule"] == "" || ans["explain"] == "" {
		t.Errorf("odds: exit %d %v:\n%s", code, err, out)
	}
	// B&U 13.4 (Brcko): fresh dice are rolled and reported.
	code, out, _ = run(t, "resolve", "bu", "combat", "attacker_cf=20", "defender_cf=9", "turn=3")
	ans = nil
	if err := json.Unmarshal([]byte(out), &ans); code != exitOK || err != nil || len(ans["dice"].([]any)) != 2 {
		t.Errorf("fresh dice: exit %d %v:\n%s", code, err, out)
	}
	code, out, _ = run(t, "resolve", "perrote", "smoke", "--distribution")
	if code != exitOK || !strings.Contains(out, `"distribution"`) || !strings.Contains(out, `"fraction"`) {
		t.Errorf("distribution: exit %d:\n%s", code, out)
	}
	// stand-in tables are named in a distribution's explanation too
	code, out, _ = run(t, "resolve", "wbt", "combat", "side=NATO", "attack=26", "defense=7", "--distribution")
	if code != exitOK || !strings.Contains(out, "Stand-in") {
		t.Errorf("combat distribution on the demo CRT: exit %d:\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"resolve", "chess"}, `game "chess"`},
		{[]string{"resolve", "wbt", "charge"}, `procedure "charge"`},
		{[]string{"resolve", "wbt", "odds", "side=NATO", "attack=x", "defense=7"}, "attack:"},
		{[]string{"resolve", "wbt", "odds", "attack=3", "defense=7"}, "side: required"},
		{[]string{"resolve", "wbt", "odds", "side=NATO", "attack=3", "defense=7", "colour=red"}, "colour:"},
		{[]string{"resolve", "bu", "combat", "attacker_cf=20", "defender_cf=9", "turn=3", "dice=5"}, "dice:"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.says) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, errOut, c.says)
		}
	}
}
