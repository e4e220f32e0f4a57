package board

import "testing"

// TestKeyNote checks that a legend note names the symbols and markers the
// counters show, in the game's order, and none they do not.
func TestKeyNote(t *testing.T) {
	cs := []Counter{{Type: "AT", Markers: []string{"OOS"}}, {Type: "I"}, {Type: "I", Markers: []string{"D"}}}
	abbrs := []Abbreviation{{"I", "infantry"}, {"M", "mechanised"}, {"AT", "anti-tank"}}
	if it, ok := KeyNote("units", cs, false, abbrs); !ok || it.Label != "units: I infantry, AT anti-tank" {
		t.Errorf("units: %q, %v", it.Label, ok)
	}
	marks := []Abbreviation{{"D", "dismounted"}, {"LOW", "low supply"}, {"OOS", "out of supply"}}
	if it, ok := KeyNote("markers", cs, true, marks); !ok || it.Label != "markers: D dismounted, OOS out of supply" {
		t.Errorf("markers: %q, %v", it.Label, ok)
	}
	if it, ok := KeyNote("markers", cs[1:2], true, marks); ok {
		t.Errorf("no markers drawn: got %q", it.Label)
	}
}
