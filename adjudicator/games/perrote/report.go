package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file describes a state for reports: tracks, the units table and
// the map picture. Per Rote hides nothing, so every seat sees the same.

// PublicOrders implements adjudicator.PublicOrders: with the game file's
// publish_orders every seat sees the others' orders as accepted, their
// forecasts included, since nothing on the board is hidden.
func (rules) PublicOrders(_ []byte, _ string, orders []string) []string {
	return slices.Clone(orders)
}

// Situation implements adjudicator.Reporter.
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	s, err := decode(state)
	if err != nil {
		return adjudicator.Situation{}, err
	}
	_ = seat // nothing is hidden: every seat, the GM and spectators see all
	f := newField(s)
	sit := adjudicator.Situation{Notices: slices.Clone(s.Notices)}
	if s.Over {
		sit.Notices = append(sit.Notices, s.Result)
	}
	sit.Tracks = append(sit.Tracks, board.Track{Name: "Turn", Value: s.Turn, Min: 0, Max: s.Turns})
	for _, sd := range s.seats() {
		units, left, men, menLeft := 0, 0, 0, 0
		for _, u := range s.Units {
			if u.Side != sd {
				continue
			}
			units++
			if !u.Eliminated() {
				left++
			}
			if u.Kind != kindVehicle {
				men += u.Original
				menLeft += len(u.Models)
			}
		}
		sit.Tracks = append(sit.Tracks, board.Track{Name: sd + " units", Value: left, Max: units,
			Text: fmt.Sprintf("%d of %d units, %d of %d men", left, units, menLeft, men)})
		if len(s.Objectives) > 0 {
			held := 0
			for _, o := range s.Objectives {
				if o.Holder == sd {
					held++
				}
			}
			sit.Tracks = append(sit.Tracks, board.Track{Name: sd + " objectives", Value: held, Max: len(s.Objectives)})
		}
	}
	units := slices.Clone(s.Units)
	slices.SortStableFunc(units, func(a, b *unitState) int {
		return slices.Index(s.seats(), a.Side) - slices.Index(s.seats(), b.Side)
	})
	for _, u := range units {
		sit.Units = append(sit.Units, adjudicator.Unit{Side: u.Side, ID: u.ID, Type: u.Name, Where: where(u), Strength: strength(u),
			Status: strings.Join(statusWords(s, f, u), ", ")})
	}
	sit.Picture = picture(s, f, sit.Tracks)
	return sit, nil
}

func where(u *unitState) string {
	switch {
	case u.Eliminated():
		return "-"
	case u.Aboard != "":
		return "aboard " + u.Aboard
	case u.Reserve:
		return "off table"
	}
	return u.Hex
}

func strength(u *unitState) string {
	if u.Kind == kindVehicle {
		if u.Destroyed {
			return "destroyed"
		}
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", len(u.Models), u.Original)
}

// statusWords are a unit's states: morale, suppression, damage, close
// combat, a vehicle's facing.
func statusWords(s *State, f *field, u *unitState) []string {
	var out []string
	if u.Eliminated() {
		return []string{"out of the game"}
	}
	if u.Kind == kindVehicle {
		out = append(out, "facing "+dirName(f.g, u.Facing))
		if u.StunnedTurn > s.Turn {
			out = append(out, "stunned")
		}
		if u.Motive != "" {
			out = append(out, "motive "+u.Motive)
		}
		if u.FireControl != "" {
			out = append(out, "fire control "+u.FireControl)
		}
		if n := passengerLoad(s, u); n > 0 {
			out = append(out, fmt.Sprintf("carrying %d", n))
		}
	} else {
		if m := morale(u.Lost(), u.Original, u.Special, u.Heroic == "always"); m != steady {
			out = append(out, strings.ReplaceAll(m.String(), "_", " "))
		}
		if u.Hex != "" {
			for _, o := range s.Units {
				if o.Hex == u.Hex && o.Side != u.Side && o.Kind == kindTroops && !o.Eliminated() {
					out = append(out, "in close combat")
					break
				}
			}
		}
	}
	if u.Suppressed || u.Suppression > 0 {
		out = append(out, "suppressed")
	}
	if u.Roll > 0 {
		if u.Roll == u.Number {
			out = append(out, fmt.Sprintf("rolled %d", u.Roll))
		} else {
			out = append(out, fmt.Sprintf("rolled %d, acted on %d", u.Roll, u.Number))
		}
	}
	return out
}

// markers are a counter's short status tags.
func markers(s *State, u *unitState) []string {
	var out []string
	if u.Suppressed || u.Suppression > 0 {
		out = append(out, "SUP")
	}
	if u.Kind != kindVehicle {
		switch morale(u.Lost(), u.Original, u.Special, u.Heroic == "always") {
		case pinned:
			out = append(out, "PIN")
		case fallingBack:
			out = append(out, "FB")
		}
	} else {
		if u.StunnedTurn > s.Turn {
			out = append(out, "STUN")
		}
		switch u.Motive {
		case "damaged":
			out = append(out, "MD")
		case "crippled":
			out = append(out, "MC")
		}
		if u.FireControl != "" {
			out = append(out, "FC")
		}
		if n := passengerLoad(s, u); n > 0 {
			out = append(out, fmt.Sprintf("P%d", n))
		}
	}
	return out
}

func typeLetter(u *unitState) string {
	switch {
	case u.Kind == kindLightVehicle:
		return "L"
	case u.Kind == kindVehicle && u.Armor == "mbt":
		return "T"
	case u.Kind == kindVehicle && u.Armor == "afv":
		return "A"
	case u.Kind == kindVehicle:
		return "V"
	case carries(u, "mortar"):
		return "M"
	case u.Special:
		return "S"
	}
	return "I"
}

func picture(s *State, f *field, tracks []board.Track) *board.Picture {
	g := f.g
	p := &board.Picture{Title: s.Title, Subtitle: fmt.Sprintf("Per Rote OSR, after turn %d of %d", s.Turn, s.Turns), Grid: &g,
		Terrain: map[board.ID]string{}, TerrainColors: map[string]string{"smoke": "#e0e0e0"}, Labels: map[board.ID]string{}, Tracks: tracks}
	if s.Over {
		p.Notice = s.Result
	} else if len(s.Notices) > 0 {
		p.Notice = "stand-in data: see the notices"
	}
	used := map[string]bool{}
	for h, name := range f.names {
		p.Terrain[h] = name
		used[name] = true
		p.TerrainColors[name] = terrains[name].Color
	}
	for h := range joinSets(f.smoke, f.screen) {
		p.Terrain[h] = "smoke"
		used["smoke"] = true
	}
	linear := false
	for _, hs := range s.Hexsides {
		a, _ := f.parse(hs.A)
		b, _ := f.parse(hs.B)
		kind := board.Ridge
		if hs.Kind == "riverbank" {
			kind = board.River
		}
		p.Hexsides = append(p.Hexsides, board.Hexside{A: a, B: b, Kind: kind})
		linear = true
	}
	for _, o := range s.Objectives {
		h, _ := f.parse(o.Hex)
		label := "objective " + o.Name
		if o.Holder != "" {
			label += " (" + o.Holder + ")"
		}
		p.Labels[h] = label
	}
	for _, u := range s.Units {
		if u.Eliminated() || u.Hex == "" {
			continue
		}
		h, _ := f.parse(u.Hex)
		st := fmt.Sprint(len(u.Models))
		if u.Kind == kindVehicle {
			st = dirName(g, u.Facing)
		}
		p.Counters = append(p.Counters, board.Counter{Hex: h, Side: u.Side, Color: s.side(u.Side).Color, ID: u.ID, Type: typeLetter(u),
			Strength: st, Markers: markers(s, u)})
	}
	for _, tr := range s.Trace {
		a, ok1 := f.parse(tr.From)
		b, ok2 := f.parse(tr.To)
		if !ok1 || !ok2 || a == b {
			continue
		}
		kind := board.Move
		if tr.Kind == "attack" {
			kind = board.Attack
		}
		ar := board.Arrow{From: a, To: b, Kind: kind}
		for _, hs := range tr.Path {
			if h, ok := f.parse(hs); ok {
				ar.Path = append(ar.Path, h)
			}
		}
		if len(ar.Path) != len(tr.Path) {
			ar.Path = nil
		}
		p.Arrows = append(p.Arrows, ar)
	}
	for _, sd := range s.Sides {
		p.Legend = append(p.Legend, board.LegendItem{Label: sd.Name, Color: sd.Color})
	}
	for _, name := range append(terrainNames(), "smoke") {
		if used[name] {
			label := name
			switch {
			case name == "smoke":
				label = "smoke (light cover)"
			case terrains[name].Cover == lightCover:
				label += " (light cover)"
			case terrains[name].Cover == heavyCover:
				label += " (heavy cover)"
			case terrains[name].Impassable:
				label += " (impassable)"
			}
			p.Legend = append(p.Legend, board.LegendItem{Label: label, Terrain: name})
		}
	}
	if linear {
		p.Legend = append(p.Legend, board.LegendItem{Label: "linear cover (hedge, wall)", Hexside: board.Ridge})
	}
	p.Legend = append(p.Legend, board.LegendItem{Label: "move", Arrow: board.Move}, board.LegendItem{Label: "fire", Arrow: board.Attack},
		board.LegendItem{Label: "T tank, A AFV, I infantry, S special forces, M mortar"},
		board.LegendItem{Label: "SUP suppressed, PIN pinned, FB falling back, STUN stunned"},
		board.LegendItem{Label: "MD/MC motive damaged/crippled, FC fire control, P passengers"})
	return p
}

// joinSets is the union of two sets of hexes.
func joinSets(a, b map[board.ID]bool) map[board.ID]bool {
	out := make(map[board.ID]bool, len(a)+len(b))
	for h := range a {
		out[h] = true
	}
	for h := range b {
		out[h] = true
	}
	return out
}
