package board

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestParseFormatID(t *testing.T) {
	tests := []struct {
		in    string
		style IDStyle
		want  ID
		out   string
		err   string
	}{
		{"1708", FourDigit, ID{17, 8}, "1708", ""},
		{"0101", FourDigit, ID{1, 1}, "0101", ""},
		{" 3507 ", FourDigit, ID{35, 7}, "3507", ""},
		{"30.09", Dotted, ID{30, 9}, "30.09", ""},
		{"22.11", Dotted, ID{22, 11}, "22.11", ""},
		{"7.8", Dotted, ID{7, 8}, "07.08", ""},
		{"170", FourDigit, ID{}, "", "want four digits"},
		{"17a8", FourDigit, ID{}, "", "want four digits"},
		{"17.08", FourDigit, ID{}, "", "want four digits"},
		{"1708", Dotted, ID{}, "", "want column.row"},
		{"30.", Dotted, ID{}, "", "want column.row"},
		{".09", Dotted, ID{}, "", "want column.row"},
		{"3x.09", Dotted, ID{}, "", "want column.row"},
		{"1708", IDStyle(9), ID{}, "", "unknown id style"},
	}
	for _, tt := range tests {
		got, err := ParseID(tt.in, tt.style)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseID(%q, %v) error = %v, want %q", tt.in, tt.style, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseID(%q, %v) = %v, %v; want %v", tt.in, tt.style, got, err, tt.want)
			continue
		}
		if s := got.Format(tt.style); s != tt.out {
			t.Errorf("Format(%v) = %q, want %q", got, s, tt.out)
		}
	}
}

func TestGridParseOffMap(t *testing.T) {
	g := Grid{Cols: 60, Rows: 40, FirstCol: 1, FirstRow: 1}
	if _, err := g.Parse("6101"); err == nil || !strings.Contains(err.Error(), "off the map (0101 to 6040)") {
		t.Errorf("Parse(6101) error = %v", err)
	}
	if _, err := g.Parse("0100"); err == nil {
		t.Errorf("Parse(0100) accepted")
	}
	if id, err := g.Parse("6040"); err != nil || id != (ID{60, 40}) {
		t.Errorf("Parse(6040) = %v, %v", id, err)
	}
	if err := (Grid{Cols: 120, Rows: 4}).Validate(); err == nil {
		t.Errorf("120 columns accepted for four-digit ids")
	}
	if err := g.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func ids(t *testing.T, style IDStyle, ss ...string) []ID {
	t.Helper()
	var out []ID
	for _, s := range ss {
		id, err := ParseID(s, style)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

func sorted(in []ID) []ID {
	out := slices.Clone(in)
	slices.SortFunc(out, func(a, b ID) int {
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return a.Row - b.Row
	})
	return out
}

func TestNeighbours(t *testing.T) {
	flat := Grid{Cols: 10, Rows: 10, FirstCol: 1, FirstRow: 1}
	pointy := Grid{Cols: 10, Rows: 10, Orientation: PointyTop, FirstCol: 1, FirstRow: 1}
	dotted := Grid{Cols: 40, Rows: 30, IDStyle: Dotted, FirstCol: 1, FirstRow: 1}
	tests := []struct {
		name string
		g    Grid
		hex  string
		want []string
	}{
		// odd-q: printed column 01 (index 0) is high, 02 (index 1) low.
		{"flat corner", flat, "0101", []string{"0102", "0201"}},
		{"flat low column", flat, "0201", []string{"0101", "0102", "0202", "0301", "0302"}},
		{"flat high column inside", flat, "0505", []string{"0404", "0405", "0504", "0506", "0604", "0605"}},
		{"flat low column inside", flat, "0405", []string{"0305", "0306", "0404", "0406", "0505", "0506"}},
		{"flat bottom right", flat, "1010", []string{"0910", "1009"}},
		// odd-r: printed row 02 (index 1) is shifted right.
		{"pointy corner", pointy, "0101", []string{"0102", "0201"}},
		{"pointy shifted row", pointy, "0502", []string{"0402", "0501", "0503", "0601", "0602", "0603"}},
		{"pointy plain row", pointy, "0505", []string{"0404", "0405", "0406", "0504", "0506", "0605"}},
		{"dotted", dotted, "30.09", []string{"29.09", "29.10", "30.08", "30.10", "31.09", "31.10"}},
	}
	for _, tt := range tests {
		h := ids(t, tt.g.IDStyle, tt.hex)[0]
		got := sorted(tt.g.Neighbours(h))
		want := sorted(ids(t, tt.g.IDStyle, tt.want...))
		if !slices.Equal(got, want) {
			t.Errorf("%s: Neighbours(%s) = %v, want %v", tt.name, tt.hex, got, want)
		}
		for _, n := range got {
			if d := tt.g.Distance(h, n); d != 1 {
				t.Errorf("%s: Distance(%s, %v) = %d, want 1", tt.name, tt.hex, n, d)
			}
			if !slices.Contains(tt.g.Neighbours(n), h) {
				t.Errorf("%s: %v does not list %s back", tt.name, n, tt.hex)
			}
			// neighbour centres are sqrt(3) apart in the unit layout.
			a, b := tt.g.Center(h), tt.g.Center(n)
			if d := math.Hypot(a.X-b.X, a.Y-b.Y); math.Abs(d-math.Sqrt(3)) > 1e-9 {
				t.Errorf("%s: centres of %s and %v are %.3f apart", tt.name, tt.hex, n, d)
			}
		}
	}
}

func TestDistance(t *testing.T) {
	flat := Grid{Cols: 60, Rows: 40, FirstCol: 1, FirstRow: 1}
	pointy := Grid{Cols: 60, Rows: 40, Orientation: PointyTop, FirstCol: 1, FirstRow: 1}
	tests := []struct {
		name string
		g    Grid
		a, b string
		want int
	}{
		{"same", flat, "1708", "1708", 0},
		{"flat same column", flat, "1708", "1712", 4},
		{"flat adjacent low column", flat, "0101", "0201", 1},
		// 0101 -> 0301: two columns, same printed row: 0201 then 0301.
		{"flat two columns", flat, "0101", "0301", 2},
		// 0101 -> 0505: diagonal 0201, 0302, 0402, 0503 then 0504, 0505.
		{"flat diagonal then down", flat, "0101", "0505", 6},
		// 0101 -> 0503: pure lower-right diagonal, four steps.
		{"flat pure diagonal", flat, "0101", "0503", 4},
		// 0505 -> 0103: upper-left diagonal 0404, 0304, 0203, 0103.
		{"flat upper left", flat, "0505", "0103", 4},
		// across the map: 59 column steps reach row 30 at best, then 10 more.
		{"flat across", flat, "0101", "6040", 69},
		{"pointy same row", pointy, "0101", "0501", 4},
		// 0101 -> 0103: 0102 sits lower right of 0101 (its row is shifted
		// right) and 0103, straight below 0101, lower left of 0102.
		{"pointy zigzag", pointy, "0101", "0103", 2},
		// 0101 -> 0105: four rows down zigzag, column unchanged.
		{"pointy four rows", pointy, "0101", "0105", 4},
		// 0101 -> 0305: 4 rows down gain two columns for free.
		{"pointy diagonal", pointy, "0101", "0305", 4},
		{"pointy diagonal plus", pointy, "0101", "0405", 5},
	}
	for _, tt := range tests {
		a, b := ids(t, FourDigit, tt.a)[0], ids(t, FourDigit, tt.b)[0]
		if d := tt.g.Distance(a, b); d != tt.want {
			t.Errorf("%s: Distance(%s, %s) = %d, want %d", tt.name, tt.a, tt.b, d, tt.want)
		}
		if d := tt.g.Distance(b, a); d != tt.want {
			t.Errorf("%s: Distance(%s, %s) = %d, want %d", tt.name, tt.b, tt.a, d, tt.want)
		}
	}
}

// TestUpColumns: a flat-top grid that names its higher columns has the
// same adjacencies whatever its first column (1914 SmS: odd columns up,
// 29.10 touches 30.09; 18.04 touches 19.04 and 19.05).
func TestUpColumns(t *testing.T) {
	nb := func(g Grid, id ID) []ID {
		ns := g.Neighbours(id)
		SortIDs(ns)
		return ns
	}
	for _, first := range []int{0, 1, 6, 7} {
		g := Grid{Cols: 40 - first, Rows: 30, FirstCol: first, FirstRow: 1, IDStyle: Dotted, Up: OddUp}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			hex  ID
			want []ID
		}{
			{ID{30, 9}, []ID{{29, 9}, {29, 10}, {30, 8}, {30, 10}, {31, 9}, {31, 10}}},
			{ID{29, 10}, []ID{{28, 9}, {28, 10}, {29, 9}, {29, 11}, {30, 9}, {30, 10}}},
			{ID{18, 4}, []ID{{17, 4}, {17, 5}, {18, 3}, {18, 5}, {19, 4}, {19, 5}}},
			{ID{21, 10}, []ID{{20, 9}, {20, 10}, {21, 9}, {21, 11}, {22, 9}, {22, 10}}},
		} {
			if got := nb(g, tt.hex); !slices.Equal(got, tt.want) {
				t.Errorf("first column %d: neighbours of %s = %v, want %v", first, g.Format(tt.hex), got, tt.want)
			}
		}
		// odd columns are drawn half a hex higher than even ones
		if a, b := g.Center(ID{29, 9}), g.Center(ID{30, 9}); a.Y >= b.Y {
			t.Errorf("first column %d: 29.09 at y %.2f is not above 30.09 at %.2f", first, a.Y, b.Y)
		}
		// distance 1 is exactly adjacency
		for _, h := range []ID{{10, 10}, {11, 10}, {20, 5}} {
			for _, o := range g.All() {
				if (g.Distance(h, o) == 1) != slices.Contains(g.Neighbours(h), o) {
					t.Fatalf("first column %d: distance %s-%s = %d", first, g.Format(h), g.Format(o), g.Distance(h, o))
				}
			}
		}
		even := g
		even.Up = EvenUp
		if got := nb(even, ID{30, 9}); !slices.Equal(got, []ID{{29, 8}, {29, 9}, {30, 8}, {30, 10}, {31, 8}, {31, 9}}) {
			t.Errorf("first column %d, even up: neighbours of 30.09 = %v", first, got)
		}
	}
	// with no Up, the index rule stays: the first column is up
	old := Grid{Cols: 10, Rows: 10, FirstCol: 1, FirstRow: 1}
	odd := old
	odd.Up = OddUp
	for _, h := range old.All() {
		if !slices.Equal(nb(old, h), nb(odd, h)) || old.Center(h) != odd.Center(h) {
			t.Fatalf("first column 1: Up odd differs from the index rule at %v", h)
		}
	}
	for _, bad := range []Grid{
		{Cols: 3, Rows: 3, Up: "left"},
		{Cols: 3, Rows: 3, Up: OddUp, Orientation: PointyTop},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v) accepted", bad)
		}
	}
}

func TestEdgeAndBounds(t *testing.T) {
	for _, g := range []Grid{
		{Cols: 6, Rows: 5, FirstCol: 1, FirstRow: 1},
		{Cols: 6, Rows: 5, Orientation: PointyTop, FirstCol: 1, FirstRow: 1},
		{Cols: 6, Rows: 5, FirstCol: 2, FirstRow: 1, Up: OddUp},
		{Cols: 1, Rows: 30, FirstCol: 2, FirstRow: 1, Up: OddUp},
		{Cols: 1, Rows: 30, FirstCol: 2, FirstRow: 1, Up: EvenUp},
	} {
		lo, hi := g.Bounds()
		for _, h := range g.All() {
			for _, c := range g.Corners(h) {
				if c.X < lo.X-1e-9 || c.Y < lo.Y-1e-9 || c.X > hi.X+1e-9 || c.Y > hi.Y+1e-9 {
					t.Errorf("%v: corner %v of %v outside bounds %v %v", g.Orientation, c, h, lo, hi)
				}
			}
			for _, n := range g.Neighbours(h) {
				p, q, ok := g.Edge(h, n)
				if !ok {
					t.Fatalf("no edge between %v and %v", h, n)
				}
				// both edge ends are corners of both hexes.
				for _, e := range []Point{p, q} {
					for _, x := range []ID{h, n} {
						found := false
						for _, c := range g.Corners(x) {
							if math.Hypot(c.X-e.X, c.Y-e.Y) < 1e-9 {
								found = true
							}
						}
						if !found {
							t.Errorf("%v: edge end %v of %v|%v is not a corner of %v", g.Orientation, e, h, n, x)
						}
					}
				}
			}
		}
		if _, _, ok := g.Edge(ID{1, 1}, ID{3, 1}); ok {
			t.Errorf("edge between non-adjacent hexes")
		}
		// the bounds are tight: some corner touches each side
		var minY, maxY = math.Inf(1), math.Inf(-1)
		for _, h := range g.All() {
			for _, c := range g.Corners(h) {
				minY, maxY = min(minY, c.Y), max(maxY, c.Y)
			}
		}
		if math.Abs(minY-lo.Y) > 1e-9 || math.Abs(maxY-hi.Y) > 1e-9 {
			t.Errorf("%+v: bounds y %v..%v, corners %v..%v", g, lo.Y, hi.Y, minY, maxY)
		}
		if n := len(g.All()); n != 30 {
			t.Errorf("All = %d hexes", n)
		}
	}
}
