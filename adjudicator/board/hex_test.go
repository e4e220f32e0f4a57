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

func TestEdgeAndBounds(t *testing.T) {
	for _, g := range []Grid{
		{Cols: 6, Rows: 5, FirstCol: 1, FirstRow: 1},
		{Cols: 6, Rows: 5, Orientation: PointyTop, FirstCol: 1, FirstRow: 1},
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
		if n := len(g.All()); n != 30 {
			t.Errorf("All = %d hexes", n)
		}
	}
}
