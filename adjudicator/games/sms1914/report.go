package sms1914

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// The counters' colours (2.0): A-H light blue, Serbian khaki, Montenegrin
// green.
var nationColors = map[string]string{"AH": "#8fb8e0", "Serbia": "#c8b078", "Montenegro": "#5fa05a"}

var terrainColors = map[string]string{
	"lowland": "#eef0d8", "bottomland": "#dfe9c0", "bottomland_river": "#cfe2b8", "upland": "#e4dcb0", "rough": "#d8c690",
	"drina_canyon": "#c0a878", "foothills": "#cdb482", "low_mountain": "#b89468", "high_mountain": "#9a7652",
	"plateau": "#c4a680", "impassable": "#6e5a48", "off-map": "#c8d8e8",
}

// Situation implements adjudicator.Reporter: tracks, the units table and
// the map as the seat may see them (3.1.5, 3.1.6): its own units in full,
// the top unit of each enemy stack with its markers (and the units of a
// hex it attacked this step), no enemy strength. The game master ("")
// sees everything; Spectator sees what both seats may, all once the game
// is over.
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Situation{}, err
	}
	sit := adjudicator.Situation{Notices: g.sc.Notices}
	see := func(u *unit) bool {
		switch {
		case seat == "" || g.Over:
			return true
		case seat == adjudicator.Spectator:
			return g.visibleTo(u, u.c.Side.Enemy()) && !slices.Contains(g.Revealed[u.c.Side.Enemy().Seat()], u.ID) || u.c.Kind == kSquadron
		}
		return g.visibleTo(u, seatSide(seat))
	}
	full := func(u *unit) bool {
		return seat == "" || g.Over || seat != adjudicator.Spectator && u.c.Side == seatSide(seat)
	}
	sit.Tracks = g.tracks(seat)
	p := &board.Picture{
		Title:         "1914 Serbien muß sterbien",
		Subtitle:      g.phaseLabel(),
		Notice:        strings.Join(g.sc.Notices, "; "),
		Grid:          &g.sc.Map.Grid,
		Terrain:       map[board.ID]string{},
		Labels:        map[board.ID]string{},
		TerrainColors: terrainColors,
		Tracks:        sit.Tracks,
	}
	for _, id := range g.grid.All() {
		t := g.terrain(id)
		if g.sc.Map.Area[id] == "" {
			t = "off-map"
		}
		p.Terrain[id] = t
	}
	for id, pl := range g.sc.Map.Places {
		p.Labels[id] = pl.Name
	}
	for _, h := range g.Komitadji {
		id := g.parse(h)
		p.Labels[id] = strings.TrimSpace(p.Labels[id] + " [Komitadji]")
	}
	for _, ip := range g.IPs {
		id := g.parse(ip.Hex)
		p.Labels[id] = strings.TrimSpace(p.Labels[id] + " [IP]")
	}
	for _, pt := range g.Pontoons {
		pp, _ := g.grid.ParsePair(pt.Sides)
		state := "pontoon building"
		if pt.Built {
			state = "pontoon"
		}
		p.Labels[pp.A] = strings.TrimSpace(p.Labels[pp.A] + " [" + state + "]")
	}
	// rivers, streams, impassable hexsides, bridges, borders, army boundaries
	var sides []board.Pair
	for pr := range g.sc.side {
		sides = append(sides, pr)
	}
	sortPairs(sides)
	for _, pr := range sides {
		kind := board.River
		switch g.sc.side[pr] {
		case sideMinor:
			kind = board.Stream
		case sideImpass:
			kind = board.Ridge
		}
		p.Hexsides = append(p.Hexsides, board.Hexside{A: pr.A, B: pr.B, Kind: kind})
		if g.sc.bridge[pr] || g.pontoonAt(pr) != nil {
			p.Hexsides = append(p.Hexsides, board.Hexside{A: pr.A, B: pr.B, Kind: board.Bridge})
		}
	}
	for _, pr := range g.sc.Map.Borders() {
		if (g.homeSide(pr.A) != g.homeSide(pr.B)) && g.sc.side[pr] == "" {
			p.Hexsides = append(p.Hexsides, board.Hexside{A: pr.A, B: pr.B, Kind: board.Border})
		}
	}
	if seat == "" || seat == seatAH || g.Over {
		for _, b := range g.Boundaries {
			if pr, err := g.grid.ParsePair(b); err == nil {
				p.Hexsides = append(p.Hexsides, board.Hexside{A: pr.A, B: pr.B, Kind: board.Boundary})
			}
		}
	}
	p.Roads = g.sc.Map.Roads
	// units: the table and the counters
	shown := map[board.ID]int{}
	for _, u := range g.Units {
		if u.Gone && (seat == "" || g.Over || seat != adjudicator.Spectator && u.c.Side == seatSide(seat)) {
			sit.Units = append(sit.Units, adjudicator.Unit{Side: u.c.Side.String(), ID: u.ID, Type: typeText(u), Where: "-", Strength: "eliminated"})
			continue
		}
		if u.Gone || u.Out && !(full(u) && u.Off != "") {
			continue
		}
		if !u.onMap() && !full(u) {
			continue
		}
		if u.onMap() && !see(u) {
			continue
		}
		where := u.Hex
		if u.Hex2 != "" {
			where += "+" + u.Hex2
		}
		if u.Box != "" {
			where = "box " + u.Box
		}
		if u.Off != "" {
			where = "off map: " + u.Off
		}
		row := adjudicator.Unit{Side: u.c.Side.String(), ID: u.ID, Type: typeText(u), Where: where}
		if full(u) {
			row.Strength = strengthText(u)
			row.Status = g.statusText(u)
		} else {
			row.Status = g.markerText(u)
		}
		sit.Units = append(sit.Units, row)
		if !u.onMap() {
			continue
		}
		for _, h := range u.hexes() {
			c := board.Counter{Hex: h, Side: u.c.Side.String(), Color: nationColors[u.c.Nation], ID: u.ID, Type: typeLetter(u)}
			if full(u) {
				c.Strength = fmt.Sprintf("%d-%d", u.values().AS, u.values().DS)
				c.Markers = g.counterMarkers(u)
			} else if u.PA != "" {
				c.Markers = []string{"PA"}
			}
			shown[h]++
			p.Counters = append(p.Counters, c)
		}
	}
	for _, a := range g.Arrows {
		from, err1 := g.grid.Parse(a.From)
		to, err2 := g.grid.Parse(a.To)
		if err1 != nil || err2 != nil || from == to {
			continue
		}
		kind := board.Move
		if a.Kind == "attack" {
			kind = board.Attack
		}
		ar := board.Arrow{From: from, To: to, Kind: kind}
		for i, h := range a.Path {
			id, err := g.grid.Parse(h)
			if err != nil || i > 0 && !g.grid.Adjacent(ar.Path[i-1], id) {
				ar.Path = nil
				break
			}
			ar.Path = append(ar.Path, id)
		}
		p.Arrows = append(p.Arrows, ar)
	}
	p.Legend = []board.LegendItem{
		{Label: "lowland", Terrain: "lowland"}, {Label: "bottomland", Terrain: "bottomland"}, {Label: "upland", Terrain: "upland"},
		{Label: "rough", Terrain: "rough"}, {Label: "foothills", Terrain: "foothills"}, {Label: "low mountain", Terrain: "low_mountain"},
		{Label: "high mountain", Terrain: "high_mountain"}, {Label: "Sava, Donau, major river", Hexside: board.River},
		{Label: "minor river", Hexside: board.Stream}, {Label: "impassable", Hexside: board.Ridge}, {Label: "bridge", Hexside: board.Bridge},
		{Label: "border", Hexside: board.Border}, {Label: "army boundary", Hexside: board.Boundary},
		{Label: "railroad", Road: board.Railroad}, {Label: "roadway", Road: board.RoadKind},
		{Label: "move, retreat", Arrow: board.Move}, {Label: "attack", Arrow: board.Attack},
		{Label: "A-H", Color: nationColors["AH"]}, {Label: "Serbia", Color: nationColors["Serbia"]}, {Label: "Montenegro", Color: nationColors["Montenegro"]},
		{Label: "enemy stacks show their top unit only (3.1.5)"},
	}
	if it, ok := board.KeyNote("units", p.Counters, false, []board.Abbreviation{
		{Short: "I", Means: "infantry"}, {Short: "C", Means: "cavalry"}, {Short: "A", Means: "artillery"},
		{Short: "F", Means: "fortress"}, {Short: "G", Means: "garrison"}, {Short: "M", Means: "march battalion"},
		{Short: "N", Means: "naval squadron"}, {Short: "R", Means: "river protection"}, {Short: "D", Means: "depot"},
		{Short: "T", Means: "corps train"},
	}); ok {
		p.Legend = append(p.Legend, it)
	}
	if it, ok := board.KeyNote("markers", p.Counters, true, []board.Abbreviation{
		{Short: "-1", Means: "CE status -1"}, {Short: "-2", Means: "CE status -2"}, {Short: "-3", Means: "CE status -3"},
		{Short: "CI", Means: "Combat Ineffective"}, {Short: "D1", Means: "Demoralized 1"}, {Short: "D2", Means: "Demoralized 2"},
		{Short: "PA", Means: "Prepared Attack"}, {Short: "RX", Means: "river crossing"}, {Short: "X", Means: "extended"},
		{Short: "T", Means: "task"},
	}); ok {
		p.Legend = append(p.Legend, it)
	}
	sit.Picture = p
	return sit, nil
}

// tracks are the game turn, VP, Shells, the Sava's water, the Strategic
// Plans and the Inter-Phases.
func (g *game) tracks(seat string) []board.Track {
	water := "normal"
	if g.lowWater() {
		water = "low"
	}
	t := []board.Track{
		{Name: "Game turn", Value: g.GT, Min: g.sc.Setup.FirstTurn, Max: g.Last},
		{Name: "VP", Value: g.VP, Text: vpText(g.VP)},
		{Name: "Serbian Shells", Value: g.Shells},
		{Name: "Sava water", Text: water},
		{Name: "Inter-Phases held", Value: g.Inter},
		{Name: "IP rights", Text: fmt.Sprintf("A-H %d, Serbia %d", g.IPRights[ah], g.IPRights[sb])},
	}
	for _, a := range g.Armies {
		if a.Plan == "" {
			continue
		}
		need := map[string]int{"FIFTH": 5, "SIXTH": 4}[a.ID]
		t = append(t, board.Track{Name: a.ID + " plan", Text: fmt.Sprintf("%s, %d/%d mandated", a.Plan, a.Mandated, need)})
	}
	if seat == "" || seat == seatAH || g.Over {
		t = append(t, board.Track{Name: "A-H REPLs", Value: g.REPL["AH"]})
	}
	if seat == "" || seat == seatSerb || g.Over {
		t = append(t, board.Track{Name: "Serbian REPLs", Value: g.REPL["Serbia"]})
	}
	if g.Over {
		w := g.Winner
		if w == "" {
			w = "draw"
		}
		t = append(t, board.Track{Name: "Result", Text: w})
	}
	return t
}

func typeText(u *unit) string {
	k := u.c.Kind
	if u.c.Kind == kFort && u.Flipped {
		k = "fort (abandoned, infantry)"
	}
	if u.c.Size != "" {
		return u.c.Size + " " + k
	}
	return k
}

func typeLetter(u *unit) string {
	switch u.c.Kind {
	case kCavalry:
		return "C"
	case kFort:
		return "F"
	case kArtillery:
		return "A"
	case kDepot:
		return "D"
	case kTrain:
		return "T"
	case kSquadron:
		return "N"
	case kMarsch:
		return "M"
	case kGarrison:
		return "G"
	case kRiver:
		return "R"
	}
	return "I"
}

// strengthText is a unit's printed values for its owner.
func strengthText(u *unit) string {
	if u.c.Supply() {
		return fmt.Sprintf("range %d/%d", u.c.Range, u.c.ExtRng)
	}
	v := u.values()
	return fmt.Sprintf("%d-%d PR%d AV%d", v.AS, v.DS, v.PR, v.AV)
}

// statusText is what its owner knows of a unit.
func (g *game) statusText(u *unit) string {
	var s []string
	if u.c.Formation {
		cel := u.c.BaseCE - u.CE.CELPenalty()
		s = append(s, fmt.Sprintf("CE %s (CEL %d)", statusWord(u.CE), cel))
		if a := g.Attach[u.ID]; a != "" {
			s = append(s, "corps "+a)
		}
	} else if u.c.Combat() || u.c.Kind == kFort {
		s = append(s, fmt.Sprintf("CEL %d", u.c.BaseCE))
	}
	if u.Army != "" && u.c.Side == ah {
		s = append(s, u.Army)
	}
	if u.SR > 0 {
		s = append(s, srText(u))
	}
	if u.Assigned != "" {
		s = append(s, "with "+u.Assigned)
	}
	if u.PA != "" {
		s = append(s, "PA at "+u.PA)
	}
	if u.Task != "" {
		s = append(s, fmt.Sprintf("%s %d/%d MP", taskName(u.Task), u.TaskMP, taskMP(u.Task)))
	}
	if u.React > 0 {
		s = append(s, fmt.Sprintf("reaction MPs %d", u.React))
	}
	if u.RiverX > 0 {
		s = append(s, "River Crossing marker")
	}
	if u.Extended {
		s = append(s, fmt.Sprintf("Extended (Ammo %d/%d)", u.Ammo, u.c.AmmoLimit))
	}
	if u.OOS {
		s = append(s, "Out of Supply")
	}
	if u.Inactive {
		s = append(s, "Inactive")
	}
	if u.Refit > 0 {
		s = append(s, fmt.Sprintf("refit until GT %d", u.Refit))
	}
	if u.c.Kind == kGarrison && !u.Released {
		s = append(s, fmt.Sprintf("garrison of %s, range %d", g.hex(u.c.Home), u.c.Garrison))
	}
	return strings.Join(s, ", ")
}

// markerText is what the enemy may see on a unit: the markers on top
// (3.1.6a).
func (g *game) markerText(u *unit) string {
	var s []string
	if u.PA != "" {
		s = append(s, "PA at "+u.PA)
	}
	if u.Hex2 != "" {
		s = append(s, "Two-Hex")
	}
	if g.ipAt(u.pos, u.c.Side) {
		s = append(s, "IP")
	}
	return strings.Join(s, ", ")
}

func (g *game) counterMarkers(u *unit) []string {
	var m []string
	if u.c.Formation && u.CE != statusNone {
		m = append(m, u.CE.String())
	}
	if u.PA != "" {
		m = append(m, "PA")
	}
	if u.RiverX > 0 {
		m = append(m, "RX")
	}
	if u.Extended {
		m = append(m, "X")
	}
	if u.Task != "" {
		m = append(m, "T")
	}
	return m
}

func sortPairs(ps []board.Pair) {
	slices.SortFunc(ps, func(a, b board.Pair) int {
		if c := a.A.Col - b.A.Col; c != 0 {
			return c
		}
		if c := a.A.Row - b.A.Row; c != 0 {
			return c
		}
		if c := a.B.Col - b.B.Col; c != 0 {
			return c
		}
		return a.B.Row - b.B.Row
	})
}
