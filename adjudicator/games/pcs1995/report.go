package pcs1995

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// The counters' colours by nationality; the 3 VO is red (12.0).
var nationColors = map[string]string{
	"American": "#6b7a3a", "British": "#c8a878", "Croatian": "#3a5fa8", "Slovenian": "#5aa06a", "Bosnian": "#e0c040",
	"German": "#9a9a9a", "Canadian": "#d07060", "Italian": "#4c9a3c", "French": "#8fb8e0",
	"Serbian": "#8c5a3c", "Russian": "#6a3a6a",
}

const threeVOColor = "#d42020"

var typeLetters = map[string]string{"armor": "Ar", "mech": "M", "motorized": "Mo", "infantry": "I", "airmobile": "Ab", "partisan": "P"}

// Situation implements adjudicator.Reporter: the tracks (turn, VP,
// initiative, de-escalation, both sides' air boxes), the units table and
// the map with the step's moves, attacks and air missions. A seat's own
// activation queue, air script and standing orders are shown only to it
// (the game master sees both), under the heading "your queue" (HandName);
// the map has no hidden units.
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	g, pub, err := situationOf(state)
	if err != nil {
		return adjudicator.Situation{}, err
	}
	sit := pub
	sit.Tracks, sit.Units, sit.Hand = slices.Clone(pub.Tracks), slices.Clone(pub.Units), nil
	sit.HandName = "your queue"
	if seat == "" {
		sit.HandName = "the queues"
	}
	if pub.Picture != nil {
		pic := *pub.Picture
		sit.Picture = &pic
	}
	for _, s := range []string{seatNATO, seatRS} {
		if seat == s || seat == "" {
			sit.Hand = append(sit.Hand, g.hand(s, seat == "")...)
		}
	}
	return sit, nil
}

// lastSituation keeps the public part of the last state's situation: a
// step's reports ask for the same state once per seat.
var lastSituation struct {
	sync.Mutex
	state string
	g     *game
	sit   adjudicator.Situation
}

// situationOf is the situation every seat sees (no hands) and the game it
// was read from, which callers must not change.
func situationOf(state []byte) (*game, adjudicator.Situation, error) {
	lastSituation.Lock()
	defer lastSituation.Unlock()
	if lastSituation.g != nil && lastSituation.state == string(state) {
		return lastSituation.g, lastSituation.sit, nil
	}
	g, err := decode(state)
	if err != nil {
		return nil, adjudicator.Situation{}, err
	}
	sit := g.publicSituation()
	lastSituation.state, lastSituation.g, lastSituation.sit = string(state), g, sit
	return g, sit, nil
}

// publicSituation is what every seat sees: tracks, units, the map.
func (g *game) publicSituation() adjudicator.Situation {
	sit := adjudicator.Situation{Notices: g.sc.Notices}
	de := func(s string) string {
		if g.Deesc[s] {
			return "used"
		}
		return "not used"
	}
	sit.Tracks = []board.Track{
		{Name: "Turn", Value: max(g.Turn, 1), Min: 1, Max: gameTurns},
		{Name: "VP", Value: g.VP, Min: 0, Max: 20},
		{Name: "Initiative", Text: orNone(string(g.Initiative))},
		{Name: "De-escalation", Text: "NATO " + de(seatNATO) + ", RS " + de(seatRS)},
		{Name: "NATO air", Text: g.placedText(NATO)},
		{Name: "RS air", Text: g.placedText(RS)},
	}
	if n := g.Count[seatNATO] + g.Count[seatRS]; n > 0 || g.Stage == stageAction {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Activations", Text: fmt.Sprintf("NATO %d, RS %d", g.Count[seatNATO], g.Count[seatRS])})
	}
	if g.Over {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Winner", Text: g.Winner})
	}
	for _, u := range g.Units {
		sit.Units = append(sit.Units, g.unitRow(u))
	}
	for _, a := range g.Air {
		if a.Box == boxPool {
			continue
		}
		st := ""
		if a.Damaged {
			st = "damaged"
		}
		sit.Units = append(sit.Units, adjudicator.Unit{Side: string(a.c.Side), ID: a.ID, Type: a.c.Type + " air (" + a.c.Nationality + ")",
			Where: orNone(a.Box), Strength: fmt.Sprintf("ER %d", a.ER()), Status: st})
	}
	sit.Picture = g.picture(sit.Tracks)
	return sit
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func (g *game) unitRow(u *Unit) adjudicator.Unit {
	where := u.Hex
	if !u.onMap() {
		where = statusName(u)
	}
	var st []string
	if u.onMap() {
		st = append(st, map[bool]string{false: "fresh", true: "static"}[u.Static])
		if len(g.occ[u.pos]) > 1 {
			st = append(st, "overstacked")
		}
	}
	if len(u.Chits) > 0 {
		st = append(st, "chits "+strings.Join(u.Chits, ","))
	}
	ma := fmt.Sprintf("MA %d %s", u.c.MA, u.c.Movement)
	if u.c.Airmobile() {
		ma = "MA A"
	}
	typ := u.c.Type
	if u.c.Formation != "" {
		typ += " " + u.c.Formation
	}
	return adjudicator.Unit{Side: string(u.side()), ID: u.ID, Type: typ, Where: where,
		Strength: "UQR " + u.c.UQR.String() + ", " + ma, Status: strings.Join(st, ", ")}
}

// hand is a seat's private lines: its question, queue, script and
// standing orders, each wrapped to fit a report.
func (g *game) hand(seat string, label bool) []string {
	var out []string
	pre := ""
	if label {
		pre = seat + " "
	}
	add := func(s string) {
		out = append(out, wrapLine(pre+s, 64)...)
	}
	if p := g.Pending; p != nil && p.Seat == seat {
		add("asked: " + p.Question)
	}
	for i, l := range g.Queue[seat] {
		add(fmt.Sprintf("queue %d: %s", i+1, l))
	}
	if g.Held[seat] {
		add("queue held by your stop order")
	}
	for _, l := range g.Script[seat] {
		add("air script: " + l)
	}
	keys := make([]string, 0, len(g.Standing[seat]))
	for k := range g.Standing[seat] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		add(fmt.Sprintf("standing order %q", strings.ReplaceAll(k, ":", " ")+" "+g.Standing[seat][k]))
	}
	return out
}

// wrapLine splits a line at spaces into pieces of at most width runes;
// continuation pieces are indented.
func wrapLine(s string, width int) []string {
	var out []string
	for {
		r := []rune(s)
		if len(r) <= width {
			return append(out, s)
		}
		cut := width
		for cut > 3 && r[cut] != ' ' {
			cut--
		}
		if cut <= 3 {
			cut = width
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		s = "   " + strings.TrimSpace(string(r[cut:]))
	}
}

// picture is the map: terrain, borders, rivers, ridges, roads, cities with
// their controller, the units, and the step's moves, attacks and air
// missions.
func (g *game) picture(tracks []board.Track) *board.Picture {
	m := g.sc.Map
	p := &board.Picture{
		Title:    "1995: Milosevic's Last Gamble",
		Subtitle: g.label(),
		Notice:   strings.Join(g.sc.Notices, "; "),
		Grid:     &m.Grid,
		Terrain:  map[board.ID]string{},
		Labels:   map[board.ID]string{},
		TerrainColors: map[string]string{
			"clear": "#eef0d8", "mountain": "#b0926a", "sea": "#9cc4e4", "off-map": "#d0d0d0",
		},
		Tracks: tracks,
	}
	for _, id := range m.Grid.All() {
		t := m.Terrain[id]
		if t != seaTerrain && m.Area[id] == "" {
			t = "off-map"
		}
		if t != clearTerrain {
			p.Terrain[id] = t
		}
	}
	for id, pl := range m.Places {
		label := pl.Name
		if c := g.controller(id); c != "" && c != g.sc.initial[id] {
			label += " (" + string(c) + ")"
		}
		p.Labels[id] = label
	}
	for _, mk := range g.Marks {
		if id, err := g.grid.Parse(mk.Hex); err == nil {
			p.Labels[id] = strings.TrimSpace(p.Labels[id] + " [" + mk.Text + "]")
		}
	}
	for _, b := range m.Borders() {
		if m.Terrain[b.A] != seaTerrain && m.Terrain[b.B] != seaTerrain {
			p.Hexsides = append(p.Hexsides, board.Hexside{A: b.A, B: b.B, Kind: board.Border})
		}
	}
	for _, set := range []struct {
		sides map[board.Pair]bool
		kind  string
	}{{m.Rivers, board.River}, {m.Ridges, board.Ridge}} {
		var ps []board.Pair
		for pr := range set.sides {
			ps = append(ps, pr)
		}
		slices.SortFunc(ps, func(a, b board.Pair) int {
			if a.A != b.A {
				return cmpID(a.A, b.A)
			}
			return cmpID(a.B, b.B)
		})
		for _, pr := range ps {
			p.Hexsides = append(p.Hexsides, board.Hexside{A: pr.A, B: pr.B, Kind: set.kind})
		}
	}
	p.Roads = m.Roads
	for _, u := range g.Units {
		if !u.onMap() {
			continue
		}
		color := nationColors[u.c.Nationality]
		if u.c.Formation == "3VO" {
			color = threeVOColor
		}
		var marks []string
		if u.Static {
			marks = append(marks, "S")
		}
		ma := fmt.Sprint(u.c.MA)
		if u.c.Airmobile() {
			ma = "A"
		}
		p.Counters = append(p.Counters, board.Counter{Hex: u.pos, Side: string(u.side()), Color: color, ID: u.ID,
			Type: typeLetters[u.c.Type], Strength: u.c.UQR.String() + " " + ma, Markers: marks})
	}
	for _, a := range g.Arrows {
		from, err1 := g.grid.Parse(a.From)
		to, err2 := g.grid.Parse(a.To)
		if err1 == nil && err2 == nil && from != to {
			p.Arrows = append(p.Arrows, board.Arrow{From: from, To: to, Kind: a.Kind, Path: pathOf(g.grid, a.Path)})
		}
	}
	p.Legend = []board.LegendItem{
		{Label: "clear", Terrain: "clear"}, {Label: "mountain", Terrain: "mountain"}, {Label: "sea", Terrain: "sea"},
		{Label: "river", Hexside: board.River}, {Label: "ridge", Hexside: board.Ridge}, {Label: "border", Hexside: board.Border},
		{Label: "road", Road: board.RoadKind}, {Label: "highway", Road: board.Highway},
		{Label: "move", Arrow: board.Move}, {Label: "attack", Arrow: board.Attack}, {Label: "airmobile landing", Arrow: board.AirMove},
		{Label: "Serbian", Color: nationColors["Serbian"]}, {Label: "3 VO", Color: threeVOColor}, {Label: "Russian", Color: nationColors["Russian"]},
		{Label: "American", Color: nationColors["American"]}, {Label: "Croatian", Color: nationColors["Croatian"]},
		{Label: "[airstrike], [air], [interdiction], [interception]: this step's air missions; (NATO)/(RS): city captured"},
	}
	if it, ok := board.KeyNote("units", p.Counters, false, []board.Abbreviation{
		{Short: "Ar", Means: "armor"}, {Short: "M", Means: "mech"}, {Short: "Mo", Means: "motorized"},
		{Short: "I", Means: "infantry"}, {Short: "Ab", Means: "airmobile"}, {Short: "P", Means: "partisan"},
	}); ok {
		p.Legend = append(p.Legend, it)
	}
	if it, ok := board.KeyNote("markers", p.Counters, true, []board.Abbreviation{{Short: "S", Means: "static"}}); ok {
		p.Legend = append(p.Legend, it)
	}
	return p
}

func cmpID(a, b board.ID) int {
	if a.Col != b.Col {
		return a.Col - b.Col
	}
	return a.Row - b.Row
}

// pathOf is the hexes of a move's path, nil when one does not read.
func pathOf(g board.Grid, hexes []string) []board.ID {
	var out []board.ID
	for _, h := range hexes {
		id, err := g.Parse(h)
		if err != nil {
			return nil
		}
		out = append(out, id)
	}
	return out
}
