package wbt

import "testing"

// TestDemoCRTRevealedCell checks the one CRT cell the rules print (11.8) in
// the embedded stand-in table, as the hosted game will read it.
func TestDemoCRTRevealedCell(t *testing.T) {
	c := DemoCRT()
	if !c.StandIn {
		t.Error("the demo CRT must say it is stand-in data")
	}
	f := finalOdds(serb, odds(6, 3), 0)
	col, ok := f.Column()
	if !ok || f.String() != "2:1" {
		t.Fatalf("Serb 6 against 3: %v column %d %v", f, col, ok)
	}
	if got := c.Cell(col, 3); got != (result{1, 2}) {
		t.Errorf("Serb 2:1 roll 3 = %v, want 1/2 (11.8)", got)
	}
}
