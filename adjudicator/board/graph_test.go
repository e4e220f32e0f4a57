package board

import (
	"slices"
	"strings"
	"testing"
)

// chain is a-b-c-d with e linked to b, and f alone.
func chain(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraph([]string{"a", "b", "c", "d", "e", "f"}, [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"e", "b"}, {"b", "a"}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGraphAdjacency(t *testing.T) {
	g := chain(t)
	b, _ := g.Index("b")
	var names []string
	for _, n := range g.Neighbours(b) {
		names = append(names, g.ID(n))
	}
	if want := []string{"a", "c", "e"}; !slices.Equal(names, want) {
		t.Errorf("neighbours of b = %v, want %v (a link given twice counts once)", names, want)
	}
	a, _ := g.Index("a")
	d, _ := g.Index("d")
	if !g.Adjacent(a, b) || !g.Adjacent(b, a) || g.Adjacent(a, d) {
		t.Errorf("adjacency: a-b %v, b-a %v, a-d %v", g.Adjacent(a, b), g.Adjacent(b, a), g.Adjacent(a, d))
	}
	if _, ok := g.Index("zz"); ok || g.Len() != 6 {
		t.Errorf("Index(zz) found, or Len %d", g.Len())
	}
}

func TestGraphDistances(t *testing.T) {
	g := chain(t)
	a, _ := g.Index("a")
	c, _ := g.Index("c")
	dist := g.Distances([]int{a}, nil)
	if want := []int{0, 1, 2, 3, 2, -1}; !slices.Equal(dist, want) {
		t.Errorf("distances from a = %v, want %v", dist, want)
	}
	// c may not be entered: d is cut off, e still reached through b
	dist = g.Distances([]int{a}, func(i int) bool { return i != c })
	if want := []int{0, 1, -1, -1, 2, -1}; !slices.Equal(dist, want) {
		t.Errorf("distances from a avoiding c = %v, want %v", dist, want)
	}
	// a source is at 0 even where pass refuses it
	if dist = g.Distances([]int{c}, func(i int) bool { return i != c }); dist[c] != 0 || dist[3] != 1 {
		t.Errorf("distances from a refused source = %v", dist)
	}
}

func TestGraphComponents(t *testing.T) {
	g := chain(t)
	b, _ := g.Index("b")
	comp, n := g.Components(func(i int) bool { return i != b })
	// without b: {a}, {c, d}, {e}, {f}
	if want := []int{0, -1, 1, 1, 2, 3}; n != 4 || !slices.Equal(comp, want) {
		t.Errorf("components without b = %v (%d groups), want %v (4)", comp, n, want)
	}
	if _, n := g.Components(nil); n != 2 {
		t.Errorf("%d groups in the whole graph, want 2", n)
	}
}

func TestGraphErrors(t *testing.T) {
	for _, tt := range []struct {
		spaces []string
		links  [][2]string
		err    string
	}{
		{[]string{"a", "a"}, nil, `space "a" is listed twice`},
		{[]string{"a"}, [][2]string{{"a", "x"}}, `no space "x"`},
		{[]string{"a"}, [][2]string{{"x", "a"}}, `no space "x"`},
		{[]string{"a"}, [][2]string{{"a", "a"}}, "joins a space to itself"},
	} {
		if _, err := NewGraph(tt.spaces, tt.links); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("NewGraph(%v, %v) error %v, want %q", tt.spaces, tt.links, err, tt.err)
		}
	}
}
