package board

import (
	"slices"
	"testing"
)

// TestNaturalCompare: ids sort as a player reads them, numbers by value.
func TestNaturalCompare(t *testing.T) {
	ids := []string{"ARBIH-10", "HVO-1", "ARBIH-2", "ARBIH-1", "1/10", "1/2", "ARBIH-2a", "a", "", "ARBIH-02", "B15", "B9", "7", "07", "10"}
	slices.SortFunc(ids, NaturalCompare)
	want := []string{"", "1/2", "1/10", "7", "07", "10", "ARBIH-1", "ARBIH-2", "ARBIH-02", "ARBIH-2a", "ARBIH-10", "B9", "B15", "HVO-1", "a"}
	if !slices.Equal(ids, want) {
		t.Errorf("sorted: %q\nwant     %q", ids, want)
	}
	for _, s := range want {
		if NaturalCompare(s, s) != 0 {
			t.Errorf("NaturalCompare(%q, %q) != 0", s, s)
		}
	}
	for i := range want {
		for j := range want {
			if c := NaturalCompare(want[i], want[j]); c != -NaturalCompare(want[j], want[i]) || (c < 0) != (i < j) && i != j {
				t.Errorf("NaturalCompare(%q, %q) = %d", want[i], want[j], c)
			}
		}
	}
}
