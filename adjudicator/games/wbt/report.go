package wbt

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// The counters' colours (2.4): NATO by nationality, the Serbs scarlet.
var nationColors = map[string]string{
	"us": "#6b7a3a", "uk": "#c8a878", "france": "#8fb8e0", "germany": "#9a9a9a", "italy": "#4c9a3c",
	"czech": "#1f3a78", "hungary": "#e8d040", "poland": "#e08080", "croatia": "#202020", "kosovo": "#d4a017",
}

const serbColor = "#c0201c"

// PublicOrders implements adjudicator.PublicOrders: with the game file's
// publish_orders every seat sees the other's orders as accepted, their
// forecasts included: there is no fog of war (6.5) and no hidden holding.
func (rules) PublicOrders(_ []byte, _ string, orders []string) []string {
	return slices.Clone(orders)
}

// Situation implements adjudicator.Reporter: the tracks (turn, MePPs,
// weather, reconstitution marker), the units table and the map. There is
// no fog of war (6.5): every seat sees the same.
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Situation{}, err
	}
	sit := adjudicator.Situation{Notices: g.sc.Notices}
	weather := "good"
	if g.Bad {
		weather = "bad"
	}
	sit.Tracks = []board.Track{
		{Name: "Turn", Value: g.Turn, Min: 1, Max: g.Length},
		{Name: "MePPs", Value: g.MePPs, Min: 0, Max: 50},
		{Name: "Weather", Text: weather},
		{Name: "Reconstitution check", Value: g.ReconMarker},
	}
	if g.Recon != "" {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Reconstitution", Text: g.Recon})
	}
	if g.Sequence != "" {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "NATO sequence", Text: g.Sequence})
	}
	if g.Over {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Winner", Text: g.Winner})
	}
	n := g.net()
	p := &board.Picture{
		Title:    "War by Television: Kosovo 1999",
		Subtitle: g.label(),
		Notice:   strings.Join(g.sc.Notices, "; "),
		Grid:     &g.sc.Map.Grid,
		Terrain:  map[board.ID]string{},
		Labels:   map[board.ID]string{},
		TerrainColors: map[string]string{
			"clear": "#eef0d8", "forest": "#9cc48a", "hills": "#d8c48c", "mountain": "#b0926a", "marsh": "#8fc0c0",
		},
		Tracks: sit.Tracks,
	}
	for _, id := range g.grid.All() {
		t := g.terrain(id)
		if g.area(id) == "" {
			t = "off-map"
		}
		if t != "clear" {
			p.Terrain[id] = t
		}
	}
	p.TerrainColors["off-map"] = "#c8d8e8"
	for id, pl := range g.sc.Map.Places {
		label := pl.Name
		if pl.Kind == "city" && g.yugoslav(id) {
			if g.natoControls(id) {
				label += " (NATO)"
			} else {
				label += " (Serb)"
			}
		}
		p.Labels[id] = label
	}
	for _, b := range g.sc.Map.Borders() {
		p.Hexsides = append(p.Hexsides, board.Hexside{A: b.A, B: b.B, Kind: board.Border})
	}
	for _, r := range sortedPairs(g.sc.Map.Rivers) {
		kind := board.River
		if g.sc.Bridges[r] && g.bridgeIntact(r) {
			kind = board.Bridge
		}
		p.Hexsides = append(p.Hexsides, board.Hexside{A: r.A, B: r.B, Kind: kind})
	}
	p.Roads = g.sc.Map.Roads
	for _, u := range g.Units {
		if u.Out {
			continue
		}
		side := "NATO"
		color := nationColors[strings.ToLower(u.c.Nationality)]
		if u.c.Side == serb {
			side, color = "Serb", serbColor
		}
		if color == "" {
			color = "#6b7a3a"
		}
		var status []string
		var markers []string
		if u.alive() && u.c.Side == nato {
			if s := g.supply(u, n); !s.OK {
				status = append(status, "OOS")
				markers = append(markers, "OOS")
			} else {
				status = append(status, "supplied ("+s.How+")")
			}
		}
		if u.Dismounted {
			status = append(status, "dismounted")
			markers = append(markers, "D")
		}
		if u.Moved {
			status = append(status, "moved")
		}
		if u.Attacked {
			status = append(status, "attacked")
		}
		if u.Fixed {
			status = append(status, "busy")
		}
		where := u.Hex
		strength := fmt.Sprintf("%s, %d of %d steps", u.c.Factors(max(u.Steps, 1)), u.Steps, u.c.MaxSteps())
		if !u.alive() {
			where, strength, status = "-", "eliminated", nil
		}
		sit.Units = append(sit.Units, adjudicator.Unit{Side: side, ID: u.ID, Type: u.c.Type + " (" + mobilityOf(u) + ")", Where: where, Strength: strength, Status: strings.Join(status, ", ")})
		if u.alive() {
			p.Counters = append(p.Counters, board.Counter{Hex: u.pos, Side: side, Color: color, ID: u.ID, Type: typeLetter(u.c),
				Strength: fmt.Sprintf("%s/%d", u.c.Factors(u.Steps), u.Steps), Markers: markers})
		}
	}
	for _, a := range g.Arrows {
		from, err1 := g.grid.Parse(a.From)
		to, err2 := g.grid.Parse(a.To)
		if err1 == nil && err2 == nil {
			p.Arrows = append(p.Arrows, board.Arrow{From: from, To: to, Kind: a.Kind})
		}
	}
	if g.AirTurn == g.Turn && g.AirHex != "" {
		if id, err := g.grid.Parse(g.AirHex); err == nil {
			p.Labels[id] = strings.TrimSpace(p.Labels[id] + " [aerial supply]")
		}
	}
	p.Legend = []board.LegendItem{
		{Label: "clear", Terrain: "clear"}, {Label: "forest", Terrain: "forest"}, {Label: "hills", Terrain: "hills"},
		{Label: "mountain", Terrain: "mountain"}, {Label: "marsh (unplayable)", Terrain: "marsh"},
		{Label: "river", Hexside: board.River}, {Label: "intact bridge", Hexside: board.Bridge}, {Label: "border", Hexside: board.Border},
		{Label: "road", Road: board.RoadKind}, {Label: "highway", Road: board.Highway},
		{Label: "move", Arrow: board.Move}, {Label: "attack", Arrow: board.Attack},
		{Label: "Serbs", Color: serbColor}, {Label: "US", Color: nationColors["us"]},
	}
	if it, ok := board.KeyNote("units", p.Counters, false, []board.Abbreviation{
		{Short: "I", Means: "infantry"}, {Short: "M", Means: "mechanised"}, {Short: "TF", Means: "task force"},
		{Short: "Art", Means: "artillery"}, {Short: "AT", Means: "anti-tank"}, {Short: "AA", Means: "anti-aircraft"},
	}); ok {
		p.Legend = append(p.Legend, it)
	}
	if it, ok := board.KeyNote("markers", p.Counters, true, []board.Abbreviation{
		{Short: "OOS", Means: "out of supply"}, {Short: "D", Means: "dismounted"},
	}); ok {
		p.Legend = append(p.Legend, it)
	}
	sit.Picture = p
	return sit, nil
}

func mobilityOf(u *unit) string {
	if u.Dismounted {
		return "dismounted"
	}
	return u.c.Mobility.String()
}

func typeLetter(c *counter) string {
	switch {
	case c.AAA:
		return "AA"
	case c.Artillery:
		return "Art"
	case c.AntiTank:
		return "AT"
	case c.TaskForce:
		return "TF"
	case c.Mobility == Mech:
		return "M"
	}
	return "I"
}

func sortedPairs(m map[board.Pair]bool) []board.Pair {
	out := make([]board.Pair, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	sortPairs(out)
	return out
}

func sortPairs(ps []board.Pair) {
	less := func(a, b board.ID) int {
		if a.Col != b.Col {
			return a.Col - b.Col
		}
		return a.Row - b.Row
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0; j-- {
			c := less(ps[j-1].A, ps[j].A)
			if c == 0 {
				c = less(ps[j-1].B, ps[j].B)
			}
			if c <= 0 {
				break
			}
			ps[j-1], ps[j] = ps[j], ps[j-1]
		}
	}
}
