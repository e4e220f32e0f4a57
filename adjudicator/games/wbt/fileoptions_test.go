package wbt

import (
	"os"
	"strings"
	"testing"
)

// TestInlineDataFiles: the map and counters may be given as the files'
// text (how a game created by mail gives them), with the same result as the
// paths; an error in inline text names the option.
func TestInlineDataFiles(t *testing.T) {
	mapText, err := os.ReadFile("testdata/game/small-map.toml")
	if err != nil {
		t.Fatal(err)
	}
	counters, err := os.ReadFile("testdata/game/small-counters.toml")
	if err != nil {
		t.Fatal(err)
	}
	byPath, err := Game.New("demo", map[string]string{"map": "testdata/game/small-map.toml", "counters": "testdata/game/small-counters.toml"})
	if err != nil {
		t.Fatal(err)
	}
	inline, err := Game.New("demo", map[string]string{"map": string(mapText), "counters": string(counters)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := decode(byPath)
	b, _ := decode(inline)
	if a == nil || b == nil || len(a.Units) != len(b.Units) || a.Data.Map != b.Data.Map {
		t.Errorf("inline data differs from the files'")
	}
	bad := strings.Replace(string(mapText), "[grid]", "[grid]\nbogus = 1", 1)
	if _, err := Game.New("demo", map[string]string{"map": bad}); err == nil || !strings.Contains(err.Error(), "option map") {
		t.Errorf("bad inline map: %v", err)
	}
	if got := (rules{}).FileOptions(); strings.Join(got, " ") != "map counters crt" {
		t.Errorf("file options %v", got)
	}
}
