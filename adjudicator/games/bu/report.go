package bu

// Reports: the tracks, the units, the reader's own hand (never another
// seat's: the public view shows none), the discard piles and lasting cards,
// and the point-to-point map.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// sideColors are the sides' colours (1.2.2).
var sideColors = map[Side]string{serb: "#c0392b", croat: "#2e6fb7", bosniak: "#2f8f46"}

// Situation implements adjudicator.Reporter.
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.Situation{}, err
	}
	sit := adjudicator.Situation{Notices: slices.Clone(g.sc.Notices)}
	sit.Tracks = g.tracks()
	for _, seatName := range g.Seats {
		d := g.Decks[seatName]
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Cards " + seatName,
			Text: fmt.Sprintf("%d in hand, %d in the draw deck, discard: %s", len(g.Hands[seatName]), len(d.Draw), orNone(strings.Join(d.Discard, " ")))})
	}
	var lasting []string
	for _, l := range g.Lasting {
		lasting = append(lasting, fmt.Sprintf("%s (%s, for the %s)", g.cardName(l.Card), l.Seat, l.Until))
	}
	if g.Round != nil {
		for _, c := range g.Round.Cards {
			lasting = append(lasting, fmt.Sprintf("%s (%s, this round)", g.cardName(c.Card), c.Seat))
		}
	}
	if len(lasting) > 0 {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Cards in effect", Text: strings.Join(lasting, "; ")})
	}
	if len(g.UN) > 0 {
		names := make([]string, len(g.UN))
		for i, s := range g.UN {
			names[i] = g.name(s)
		}
		sit.Tracks = append(sit.Tracks, board.Track{Name: "UN Safe Areas", Text: strings.Join(names, ", ")})
	}
	switch {
	case seat == "":
		for _, s := range g.Seats {
			for _, c := range g.Hands[s] {
				sit.Hand = append(sit.Hand, s+": "+g.cardLine(c))
			}
		}
	case seat != adjudicator.Spectator && slices.Contains(g.Seats, seat):
		for _, c := range g.Hands[seat] {
			sit.Hand = append(sit.Hand, g.cardLine(c))
		}
		if p := g.Pending; p != nil && p.Question[seat] != "" {
			sit.Notices = append(sit.Notices, "Your decision is due: "+p.Question[seat])
		}
	}
	for _, u := range g.Units {
		if u.Box == pool {
			continue
		}
		where := boxName(u.Box)
		if u.Box == onMap {
			where = g.name(u.Space)
		}
		status := u.states()
		sit.Units = append(sit.Units, adjudicator.Unit{Side: string(u.Side()), ID: u.ID, Type: u.Type().Army, Where: where,
			Strength: u.Values().String(), Status: strings.Join(status, ", ")})
	}
	sit.Picture = g.picture()
	return sit, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// cardLine describes a card for its holder.
func (g *game) cardLine(id string) string {
	c := g.sc.Deck.Card(id)
	if c == nil {
		return id
	}
	s := fmt.Sprintf("%s %s, CV %d, %s, %s War", c.ID, c.Title, c.CV, c.Type, map[string]string{early: "Early", late: "Late", both: "Early/Late"}[c.Period])
	if c.Lasting != "" {
		s += ", lasting " + c.Lasting
	}
	if c.Text != "" {
		s += ": " + c.Text
	}
	return s
}

// tracks are the game's tracks (1.2.11).
func (g *game) tracks() []board.Track {
	out := []board.Track{{Name: "Turn", Value: g.Turn, Min: 1, Max: max(g.LastTurn, g.Turn)}, {Name: "Period", Text: map[string]string{early: "Early War", late: "Late War"}[periodOf(g.Turn)]}}
	for _, side := range sides {
		st := g.Sides[side]
		out = append(out, board.Track{Name: "SW " + string(side), Value: st.SW, Min: 0, Max: victoryCondition(side)})
	}
	for _, side := range sides {
		out = append(out, board.Track{Name: "FA " + string(side), Value: g.Sides[side].FA, Min: -7, Max: 7})
		if l := g.level(side); l > 0 {
			out = append(out, board.Track{Name: "Intervention " + string(side), Text: fmt.Sprintf("level %d", l)})
		}
	}
	out = append(out, board.Track{Name: "Order of play", Text: strings.Join(g.order(), ", ")})
	if g.Over {
		out = append(out, board.Track{Name: "Winner", Text: strings.Join(g.Winners, " and ")})
	} else if g.Active != "" {
		out = append(out, board.Track{Name: "Action round", Text: fmt.Sprintf("%d, %s", g.Rounds+1, g.Active)})
	}
	return out
}

// picture is the map: control, units, entrenchments, supply markers, UN
// Safe Areas, this step's moves and battles, and the tracks.
func (g *game) picture() *board.Picture {
	m := g.sc.Map
	net := &board.Network{Width: m.Width, Height: m.Height}
	for _, r := range m.Regions {
		name := r.Name
		if owner := g.Regions[r.ID]; owner != "" {
			name += " (" + string(owner) + ")"
		}
		net.Regions = append(net.Regions, board.Region{ID: r.ID, Name: name})
	}
	for _, sp := range m.Spaces {
		s := board.Space{ID: sp.ID, Name: sp.Name, X: sp.X, Y: sp.Y, Key: sp.Key, Region: sp.Region}
		if sp.Terrain != Clear {
			s.Terrain = string(sp.Terrain)
		}
		if owner := g.Control[sp.ID]; owner != "" {
			s.Owner, s.OwnerColor = string(owner), sideColors[owner]
		}
		if sp.Foreign() {
			s.Name += " (" + sp.Designation + ")"
		}
		if g.isUN(sp.ID) {
			s.Name += " (UN)"
		}
		net.Spaces = append(net.Spaces, s)
	}
	for _, r := range m.Roads {
		kind := ""
		a, _ := m.Space(r.A)
		b, _ := m.Space(r.B)
		if m.Spaces[a].Terrain == mountain || m.Spaces[b].Terrain == mountain {
			kind = "mountain"
		}
		net.Links = append(net.Links, board.Link{A: r.A, B: r.B, Kind: kind})
	}
	p := &board.Picture{Title: "Brotherhood & Unity", Subtitle: g.label(), Notice: strings.Join(g.sc.Notices, "; "), Network: net}
	for _, t := range g.tracks() {
		if t.Name == "Turn" || strings.HasPrefix(t.Name, "SW ") || strings.HasPrefix(t.Name, "FA ") || t.Name == "Period" {
			p.Tracks = append(p.Tracks, t)
		}
	}
	trenched := map[string]bool{}
	for _, u := range g.Units {
		if u.Box != onMap {
			continue
		}
		_, short, found := strings.Cut(u.ID, "-")
		if !found {
			short = u.ID
		}
		c := board.Counter{Space: u.Space, Side: string(u.Side()), Color: sideColors[u.Side()], ID: short, Type: u.Type().Army, Strength: u.Values().String()}
		switch u.Supply {
		case lowSupply:
			c.Markers = append(c.Markers, "LOW")
		case oos:
			c.Markers = append(c.Markers, "OOS")
		}
		if t := g.Trench[u.Space]; t != "" && !trenched[u.Space] {
			trenched[u.Space] = true
			if t == "complete" {
				c.Markers = append(c.Markers, "ENT")
			} else {
				c.Markers = append(c.Markers, "ENT…")
			}
		}
		p.Counters = append(p.Counters, c)
	}
	for _, a := range g.Arrows {
		kind := board.Move
		if a.Kind == "attack" {
			kind = board.Attack
		}
		p.Arrows = append(p.Arrows, board.Arrow{FromSpace: a.From, ToSpace: a.To, Kind: kind})
	}
	for _, side := range sides {
		p.Legend = append(p.Legend, board.LegendItem{Label: string(side), Color: sideColors[side]})
	}
	p.Legend = append(p.Legend, board.LegendItem{Label: "ring: side in control"})
	if it, ok := board.KeyNote("armies", p.Counters, false, armyNames); ok {
		p.Legend = append(p.Legend, it)
	}
	if it, ok := board.KeyNote("markers", p.Counters, true, markerNames); ok {
		p.Legend = append(p.Legend, it)
	}
	return p
}

// armyNames are the armies a counter names (1.3), for the map's legend.
var armyNames = []board.Abbreviation{
	{Short: "VRS", Means: "Army of Republika Srpska"}, {Short: "SVK", Means: "Army of the Serbian Krajina"},
	{Short: "SDG", Means: "Serb Volunteer Guard"}, {Short: "HVO", Means: "Croatian Defence Council"},
	{Short: "HV", Means: "Croatian Army"}, {Short: "ARBIH", Means: "Army of Bosnia-Herzegovina"},
	{Short: "MUJ", Means: "mujahideen"}, {Short: "NOZB", Means: "People's Defence of Western Bosnia"},
}

// markerNames are the markers a counter carries, for the map's legend.
var markerNames = []board.Abbreviation{
	{Short: "ENT", Means: "entrenched"}, {Short: "ENT…", Means: "entrenching"},
	{Short: "LOW", Means: "low supply"}, {Short: "OOS", Means: "out of supply"},
}

// states are a unit's states as the units table and briefs say them:
// reduced, its supply, elite.
func (u *unit) states() []string {
	var status []string
	if u.Reduced {
		status = append(status, "reduced")
	}
	switch u.Supply {
	case lowSupply:
		status = append(status, "Low Supply")
	case oos:
		status = append(status, "Out Of Supply")
	}
	if u.Type().Elite {
		status = append(status, "elite")
	}
	return status
}
