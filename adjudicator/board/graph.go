package board

import (
	"fmt"
	"slices"
)

// Graph is the road network of a point-to-point map: spaces joined by
// links, two linked spaces being adjacent. Spaces are numbered in the order
// given, so that a game can keep per-space values in slices; the search
// methods take a pass function saying which spaces a path may enter.
type Graph struct {
	ids   []string
	index map[string]int
	adj   [][]int
}

// NewGraph returns the graph of spaces joined by links (pairs of space
// ids). A link naming an unknown space, a space linked to itself and a
// space listed twice are errors; a link given twice counts once.
func NewGraph(spaces []string, links [][2]string) (*Graph, error) {
	g := &Graph{ids: slices.Clone(spaces), index: make(map[string]int, len(spaces)), adj: make([][]int, len(spaces))}
	for i, id := range spaces {
		if _, dup := g.index[id]; dup {
			return nil, fmt.Errorf("board: space %q is listed twice", id)
		}
		g.index[id] = i
	}
	for _, l := range links {
		a, oka := g.index[l[0]]
		b, okb := g.index[l[1]]
		switch {
		case !oka:
			return nil, fmt.Errorf("board: link %s-%s: no space %q", l[0], l[1], l[0])
		case !okb:
			return nil, fmt.Errorf("board: link %s-%s: no space %q", l[0], l[1], l[1])
		case a == b:
			return nil, fmt.Errorf("board: link %s-%s joins a space to itself", l[0], l[1])
		}
		if !slices.Contains(g.adj[a], b) {
			g.adj[a] = append(g.adj[a], b)
			g.adj[b] = append(g.adj[b], a)
		}
	}
	for i := range g.adj {
		slices.Sort(g.adj[i])
	}
	return g, nil
}

// Len is the number of spaces.
func (g *Graph) Len() int { return len(g.ids) }

// ID returns the id of space i.
func (g *Graph) ID(i int) string { return g.ids[i] }

// Index returns the number of the space with id.
func (g *Graph) Index(id string) (int, bool) {
	i, ok := g.index[id]
	return i, ok
}

// Neighbours lists the spaces linked to space i, in ascending order. The
// slice is the graph's own: do not change it.
func (g *Graph) Neighbours(i int) []int { return g.adj[i] }

// Adjacent reports whether spaces a and b are linked.
func (g *Graph) Adjacent(a, b int) bool {
	_, ok := slices.BinarySearch(g.adj[a], b)
	return ok
}

// Distances returns, for every space, the number of links on a shortest
// path from any of the sources that enters only spaces pass admits (a nil
// pass admits all), or -1 when there is none. Sources are at distance 0
// whatever pass says of them.
func (g *Graph) Distances(sources []int, pass func(int) bool) []int {
	dist := make([]int, len(g.ids))
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int, 0, len(g.ids))
	for _, s := range sources {
		if dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for head := 0; head < len(queue); head++ {
		at := queue[head]
		for _, n := range g.adj[at] {
			if dist[n] >= 0 || (pass != nil && !pass(n)) {
				continue
			}
			dist[n] = dist[at] + 1
			queue = append(queue, n)
		}
	}
	return dist
}

// Components numbers the connected groups of the spaces pass admits (a nil
// pass admits all), linked only through admitted spaces: component[i] is the
// group of space i, from 0 in the order of the groups' lowest space, or -1
// for a space pass does not admit. It returns the number of groups too.
func (g *Graph) Components(pass func(int) bool) (component []int, groups int) {
	component = make([]int, len(g.ids))
	for i := range component {
		component[i] = -1
	}
	queue := make([]int, 0, len(g.ids))
	for s := range g.ids {
		if component[s] >= 0 || (pass != nil && !pass(s)) {
			continue
		}
		component[s] = groups
		queue = append(queue[:0], s)
		for head := 0; head < len(queue); head++ {
			for _, n := range g.adj[queue[head]] {
				if component[n] < 0 && (pass == nil || pass(n)) {
					component[n] = groups
					queue = append(queue, n)
				}
			}
		}
		groups++
	}
	return component, groups
}
