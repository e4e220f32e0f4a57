package board

import (
	"slices"
	"testing"
)

func TestLineIsAdjacentSteps(t *testing.T) {
	for _, g := range []Grid{
		{Cols: 20, Rows: 15, Orientation: FlatTop, FirstCol: 1, FirstRow: 1},
		{Cols: 20, Rows: 15, Orientation: PointyTop, FirstCol: 1, FirstRow: 1},
	} {
		all := g.All()
		for i, a := range all {
			for j := 0; j < len(all); j += 7 {
				b := all[(i+j)%len(all)]
				for _, line := range [][]ID{g.Line(a, b), g.LineOther(a, b)} {
					if len(line) != g.Distance(a, b)+1 || line[0] != a || line[len(line)-1] != b {
						t.Fatalf("%v line %v-%v = %v: want %d hexes from a to b", g.Orientation, a, b, line, g.Distance(a, b)+1)
					}
					for k := 1; k < len(line); k++ {
						if !g.Adjacent(line[k-1], line[k]) {
							t.Fatalf("%v line %v-%v = %v: %v and %v are not adjacent", g.Orientation, a, b, line, line[k-1], line[k])
						}
					}
				}
			}
		}
	}
}

func TestLineStraight(t *testing.T) {
	g := Grid{Cols: 10, Rows: 10, Orientation: FlatTop, FirstCol: 1, FirstRow: 1}
	got := g.Line(ID{3, 2}, ID{3, 6})
	want := []ID{{3, 2}, {3, 3}, {3, 4}, {3, 5}, {3, 6}}
	if !slices.Equal(got, want) {
		t.Errorf("column line = %v, want %v", got, want)
	}
	if got := g.Line(ID{3, 3}, ID{3, 3}); !slices.Equal(got, []ID{{3, 3}}) {
		t.Errorf("line to itself = %v", got)
	}
}

func TestLineAlongHexsides(t *testing.T) {
	// 0101 to 0202 on a flat-top grid runs along the hexside of 0102 and
	// 0201: the two nudged lines pass one each.
	g := Grid{Cols: 10, Rows: 10, Orientation: FlatTop, FirstCol: 1, FirstRow: 1}
	a, b := ID{1, 1}, ID{2, 2}
	mids := []ID{Between(g.Line(a, b))[0], Between(g.LineOther(a, b))[0]}
	slices.SortFunc(mids, func(x, y ID) int { return x.Col - y.Col })
	if !slices.Equal(mids, []ID{{1, 2}, {2, 1}}) {
		t.Errorf("hexside line passes %v, want 0102 and 0201", mids)
	}
	only := func(h ID) func(ID) bool { return func(x ID) bool { return x == h } }
	if !g.Visible(a, b, only(ID{1, 2})) || !g.Visible(a, b, only(ID{2, 1})) {
		t.Error("one blocked hex beside a hexside line should not block it")
	}
	if g.Visible(a, b, func(x ID) bool { return x == ID{1, 2} || x == ID{2, 1} }) {
		t.Error("both hexes beside a hexside line block it")
	}
	if g.Visible(ID{3, 2}, ID{3, 6}, only(ID{3, 4})) {
		t.Error("a blocked hex on a column line blocks it")
	}
	if !g.Visible(ID{3, 2}, ID{3, 3}, func(ID) bool { return true }) {
		t.Error("adjacent hexes always see each other")
	}
}
