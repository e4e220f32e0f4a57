package sms1914

// This file reads the scenario file: what the Play Book gives for a
// scenario (28.0) and the rule text does not: the turns, the set-up, the
// reinforcement, withdrawal, substitution and activation schedule (16),
// the Strategic Plan armies (26), the Shells (23.2), the off-map railroad
// (15.6.3a), the Montenegrin off-map boxes (24.2) and the victory
// conditions (27).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// ScenarioFile is a parsed scenario file.
type ScenarioFile struct {
	Title       string
	StandIn     bool
	Notice      string
	FirstTurn   int
	LastTurn    int
	InterPhases int // Inter-Phases held before the first turn
	Shells      int
	VP          int
	Komitadji   int
	IPRights    int
	REPL        map[string]int // stored REPLs by nation
	Pontoons    [2]int         // pontoon markers per side (21.2)
	VictoryAH   int            // A-H wins with VP at least this
	VictorySerb int            // Serbia wins with VP at most this
	Plans       []planSetup
	Markers     map[string]board.ID // army markers (5.1.1)
	Boundaries  []board.Pair        // A-H AoA boundaries (5.1.1)
	Units       []unitSetup
	Events      []event
	Combos      []combo
	Detachments map[string]string // detachment -> parent (21.1)
	OffMap      []offMapLink
	Boxes       []box
	ControlAH   []board.ID
	ControlSerb []board.ID

	// the lines of the army markers and of the boundaries, for refusals
	markerLines   map[string]int
	boundaryLines int
}

// planSetup is an army bound by a Strategic Plan (26).
type planSetup struct {
	Army     string
	Mandated int // Mandated Attacks already made (26.3.1)
}

// unitSetup is a unit's place at the start.
type unitSetup struct {
	ID        string
	Hex, Hex2 string
	Attach    string
	CE        status
	SR        int
	Inactive  bool
	Extended  bool
	Box       string
	Off       string
}

// event is a scheduled event (4.2.1, 16): a reinforcement arriving, a
// withdrawal, a substitution or an activation.
type event struct {
	Turn   int
	Kind   string // arrive, withdraw, substitute, activate
	Unit   string
	Hex    string
	Attach string
	For    string // substitute: the unit replaced
}

// combo is a combination (16.3) or combination/reverse combination (16.4).
type combo struct {
	Into    string
	From    []string
	Reverse bool // 16.4: may be split again
}

// offMapLink is a stretch of the off-map railroad (15.6.3a) or of the
// Sava off the map (25.1.2, Brod): from a place or hex to another, hexes
// long.
type offMapLink struct {
	From, To string
	Hexes    int
	River    bool // a squadron's way, not a railroad
}

// box is a Montenegrin off-map box (24.2).
type box struct {
	Name  string
	Exits []board.ID // the M hexes it is nearest
	Next  []string   // boxes one move away
}

type scenarioFile struct {
	Title       string           `toml:"title"`
	StandIn     bool             `toml:"stand_in"`
	Notice      string           `toml:"notice"`
	FirstTurn   *int             `toml:"first_turn"`
	LastTurn    *int             `toml:"last_turn"`
	InterPhases int              `toml:"interphases"`
	Shells      int              `toml:"shells"`
	VP          int              `toml:"vp"`
	Komitadji   int              `toml:"komitadji"`
	IPRights    int              `toml:"ip_rights"`
	REPL        map[string]int   `toml:"repl"`
	Pontoons    map[string]int   `toml:"pontoons"`
	Victory     *victoryFile     `toml:"victory"`
	Plan        []planFile       `toml:"plan"`
	Army        []armyMarkerFile `toml:"army"`
	Boundaries  []string         `toml:"boundaries"`
	Unit        []unitSetupFile  `toml:"unit"`
	Event       []eventFile      `toml:"event"`
	Combo       []comboFile      `toml:"combo"`
	Detachment  []detachmentFile `toml:"detachment"`
	OffMap      []offMapFile     `toml:"offmap"`
	Box         []boxFile        `toml:"box"`
	ControlAH   []string         `toml:"control_ah"`
	ControlSerb []string         `toml:"control_serb"`
}

type victoryFile struct {
	AH   int `toml:"ah"`
	Serb int `toml:"serb"`
}

type planFile struct {
	Army     string `toml:"army"`
	Mandated int    `toml:"mandated"`
}

type armyMarkerFile struct {
	ID     string `toml:"id"`
	Marker string `toml:"marker"`
}

type unitSetupFile struct {
	ID       string `toml:"id"`
	Hex      string `toml:"hex"`
	Hex2     string `toml:"hex2"`
	Attach   string `toml:"attach"`
	CE       string `toml:"ce"`
	SR       int    `toml:"sr"`
	Inactive bool   `toml:"inactive"`
	Extended bool   `toml:"extended"`
	Box      string `toml:"box"`
	Off      string `toml:"off"`
}

type eventFile struct {
	Turn   int    `toml:"turn"`
	Kind   string `toml:"kind"`
	Unit   string `toml:"unit"`
	Hex    string `toml:"hex"`
	Attach string `toml:"attach"`
	For    string `toml:"for"`
}

type comboFile struct {
	Into    string   `toml:"into"`
	From    []string `toml:"from"`
	Reverse bool     `toml:"reverse"`
}

type detachmentFile struct {
	Unit   string `toml:"unit"`
	Parent string `toml:"parent"`
}

type offMapFile struct {
	From  string `toml:"from"`
	To    string `toml:"to"`
	Hexes int    `toml:"hexes"`
	River bool   `toml:"river"`
}

type boxFile struct {
	Name  string   `toml:"name"`
	Exits []string `toml:"exits"`
	Next  []string `toml:"next"`
}

// Bounds of the scenario file (docs/scenario-sms1914.md): what the rules
// let a scenario start with, with room to spare.
const (
	maxShells    = 999 // 23.2: 125 at the start of the Campaign
	maxKomitadji = 20
	maxIPRights  = 20  // the Inter-Phase chart gives at most 4 (14.3.4)
	maxVP        = 200 // the VP marker (27): the awards of 27.1-27.7 add up to less
	maxREPL      = 99  // stored REPLs (16.6.1): the chart gives at most 5 an Inter-Phase
)

// mExits are the Montenegrin 'M' hexes (24.2).
var mExits = []string{"16.29", "20.29", "22.29", "24.29", "30.29"}

func (sc *scenario) readScenario(name string, data []byte) error {
	file := kit.File{Name: name, Data: data}
	var f scenarioFile
	if err := file.Decode(&f); err != nil {
		return fmt.Errorf("sms1914: scenario: %w", err)
	}
	wrap := func(err error) error { return fmt.Errorf("sms1914: scenario: %w", err) }
	fieldErr := func(table string, i int, key, format string, args ...any) error {
		return wrap(file.Errorf(table, i, key, format, args...))
	}
	s := &ScenarioFile{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, InterPhases: f.InterPhases, Shells: f.Shells,
		VP: f.VP, Komitadji: f.Komitadji, IPRights: f.IPRights, REPL: map[string]int{}, Markers: map[string]board.ID{},
		Detachments: map[string]string{}}
	if f.FirstTurn == nil || *f.FirstTurn < 0 || *f.FirstTurn > 40 {
		return fieldErr("", -1, "first_turn", "want the first game turn, 0 to 40 (the game starts at GT 0, 4.0)")
	}
	if f.LastTurn == nil || *f.LastTurn < *f.FirstTurn || *f.LastTurn > 40 {
		return fieldErr("", -1, "last_turn", "want the last game turn, from first_turn to 40")
	}
	s.FirstTurn, s.LastTurn = *f.FirstTurn, *f.LastTurn
	if s.InterPhases < 0 || s.InterPhases > 12 {
		return fieldErr("", -1, "interphases", "%d: want the Inter-Phases held before the first turn, 0 to 12 (the Inter-Phase chart)", s.InterPhases)
	}
	for _, r := range []struct {
		key           string
		v, low, limit int
		why           string
	}{
		{"shells", s.Shells, 0, maxShells, "the Serbian Shells (23.2: 125 at the start of the Campaign)"},
		{"komitadji", s.Komitadji, 0, maxKomitadji, "the Komitadji markers (23.1)"},
		{"ip_rights", s.IPRights, 0, maxIPRights, "the IP rights (14.3.4: the Inter-Phase chart gives at most 4)"},
		{"vp", s.VP, -maxVP, maxVP, "the VP marker (27)"},
	} {
		if r.v < r.low || r.v > r.limit {
			return fieldErr("", -1, r.key, "%d: want %s, %d to %d", r.v, r.why, r.low, r.limit)
		}
	}
	for k, v := range f.REPL {
		if !slices.Contains([]string{"AH", "Serbia", "Montenegro"}, k) {
			return fieldErr("repl", -1, k, "want AH, Serbia or Montenegro (16.6.1)")
		}
		if v < 0 || v > maxREPL {
			return fieldErr("repl", -1, k, "%d: want the REPLs stored at the start, 0 to %d (16.6.1: a store below zero comes only from Excess SRs in play)", v, maxREPL)
		}
		s.REPL[k] = v
	}
	for k, v := range f.Pontoons {
		side, _, ok := sideOf(k)
		if !ok || v < 0 || v > 20 {
			return fieldErr("pontoons", -1, k, "want AH or Serb with 0 to 20 pontoon markers (21.2)")
		}
		s.Pontoons[side] = v
	}
	if f.Victory == nil {
		return fieldErr("victory", -1, "", "missing: [victory] ah = VP at least which A-H wins, serb = VP at most which Serbia wins (27)")
	}
	s.VictoryAH, s.VictorySerb = f.Victory.AH, f.Victory.Serb
	for _, v := range []struct {
		key string
		n   int
	}{{"ah", s.VictoryAH}, {"serb", s.VictorySerb}} {
		if v.n < -maxVP || v.n > maxVP {
			return fieldErr("victory", -1, v.key, "%d: want a VP threshold, %d to %d (27)", v.n, -maxVP, maxVP)
		}
	}
	if s.VictorySerb >= s.VictoryAH {
		return fieldErr("victory", -1, "serb", "Serbia's threshold %d must be below A-H's %d", s.VictorySerb, s.VictoryAH)
	}
	for i, p := range f.Plan {
		if p.Army != "FIFTH" && p.Army != "SIXTH" {
			return fieldErr("plan", i, "army", "%q: the Strategic Plans of 26.1.2 are FIFTH's and SIXTH's", p.Army)
		}
		if a := sc.ArmyOf(p.Army); a == nil || a.Side != ah {
			return fieldErr("plan", i, "army", "%s is not an A-H army of the counter file", p.Army)
		}
		if p.Mandated < 0 || p.Mandated > 9 {
			return fieldErr("plan", i, "mandated", "%d: want the Mandated Attacks already made (26.3.1)", p.Mandated)
		}
		s.Plans = append(s.Plans, planSetup(p))
	}
	for i, a := range f.Army {
		ar := sc.ArmyOf(a.ID)
		if ar == nil || ar.Side != ah {
			return fieldErr("army", i, "id", "%q is not an A-H army of the counter file", a.ID)
		}
		h, err := sc.Map.Grid.Parse(a.Marker)
		if err != nil {
			return fieldErr("army", i, "marker", "%v", err)
		}
		s.Markers[a.ID] = h
		if s.markerLines == nil {
			s.markerLines = map[string]int{}
		}
		s.markerLines[a.ID] = datafile.FieldLine(data, "army", i, "marker")
	}
	for _, a := range sc.Armies {
		if _, ok := s.Markers[a.ID]; a.Side == ah && !ok {
			return fieldErr("army", -1, "marker", "A-H army %s has no [[army]] marker hex: every army has an Area of Attachment (5.1.1)", a.ID)
		}
	}
	s.boundaryLines = datafile.FieldLine(data, "", -1, "boundaries")
	for _, b := range f.Boundaries {
		p, err := sc.Map.Grid.ParsePair(b)
		if err != nil {
			return fieldErr("", -1, "boundaries", "%v", err)
		}
		s.Boundaries = append(s.Boundaries, p)
	}
	seen := map[string]bool{}
	for i, u := range f.Unit {
		c := sc.byID[u.ID]
		if c == nil {
			return fieldErr("unit", i, "id", "%q is not in the counter file", u.ID)
		}
		if seen[u.ID] {
			return fieldErr("unit", i, "id", "%s is set up twice", u.ID)
		}
		seen[u.ID] = true
		us := unitSetup{ID: u.ID, Hex: u.Hex, Hex2: u.Hex2, Attach: u.Attach, SR: u.SR, Inactive: u.Inactive, Extended: u.Extended, Box: u.Box, Off: u.Off}
		for _, hx := range []struct{ key, v string }{{"hex", u.Hex}, {"hex2", u.Hex2}} {
			if hx.v == "" {
				continue
			}
			id, err := sc.Map.Grid.Parse(hx.v)
			if err != nil || sc.Map.Area[id] == "" {
				return fieldErr("unit", i, hx.key, "%s: not a hex of the playing area", hx.v)
			}
		}
		if u.Hex == "" && u.Box == "" && u.Off == "" {
			return fieldErr("unit", i, "hex", "a unit set up has a hex, a Montenegrin box (box) or an off-map place (off)")
		}
		if u.Hex2 != "" {
			a, _ := sc.Map.Grid.Parse(u.Hex)
			b, _ := sc.Map.Grid.Parse(u.Hex2)
			if !sc.Map.Grid.Adjacent(a, b) || !c.Combat() {
				return fieldErr("unit", i, "hex2", "a Two-Hex unit is a combat unit in two adjacent hexes (19.1)")
			}
		}
		if u.CE != "" {
			st, ok := parseStatus(u.CE)
			if !ok || !c.Formation {
				return fieldErr("unit", i, "ce", "%q: a Formation's CE Status is none, -1, -2, -3, CI, D1 or D2 (6.1.4)", u.CE)
			}
			us.CE = st
		}
		if u.SR < 0 || u.SR > c.MaxSR() {
			return fieldErr("unit", i, "sr", "%d: %s can carry 0 to %d SRs (9.10)", u.SR, c.ID, c.MaxSR())
		}
		if err := sc.checkAttach(c, u.Attach); err != nil {
			return fieldErr("unit", i, "attach", "%v", err)
		}
		s.Units = append(s.Units, us)
	}
	for i, e := range f.Event {
		c := sc.byID[e.Unit]
		if c == nil {
			return fieldErr("event", i, "unit", "%q is not in the counter file", e.Unit)
		}
		if e.Turn < s.FirstTurn || e.Turn > s.LastTurn {
			return fieldErr("event", i, "turn", "%d is outside the scenario's turns %d-%d", e.Turn, s.FirstTurn, s.LastTurn)
		}
		switch e.Kind {
		case "arrive", "substitute":
			if e.Kind == "substitute" && sc.byID[e.For] == nil {
				return fieldErr("event", i, "for", "%q: a substitution names the unit it replaces (16.2)", e.For)
			}
			if e.Kind == "arrive" || e.Hex != "" {
				id, err := sc.Map.Grid.Parse(e.Hex)
				if err != nil || sc.Map.Area[id] == "" {
					return fieldErr("event", i, "hex", "a reinforcement enters in a hex of the playing area (16.1); a substitution may give none (the replaced unit's)")
				}
			}
			if err := sc.checkAttach(c, e.Attach); err != nil {
				return fieldErr("event", i, "attach", "%v", err)
			}
		case "withdraw", "activate":
		default:
			return fieldErr("event", i, "kind", "%q: want arrive, substitute, withdraw or activate (16.1-16.5, 4.2.1a)", e.Kind)
		}
		s.Events = append(s.Events, event(e))
	}
	for i, cb := range f.Combo {
		if sc.byID[cb.Into] == nil || len(cb.From) < 2 {
			return fieldErr("combo", i, "into", "a combination names the unit it makes (into) and two or more units (from) (16.3, 16.4)")
		}
		for _, fr := range cb.From {
			if sc.byID[fr] == nil {
				return fieldErr("combo", i, "from", "%q is not in the counter file", fr)
			}
		}
		s.Combos = append(s.Combos, combo(cb))
	}
	for i, d := range f.Detachment {
		if sc.byID[d.Unit] == nil || sc.byID[d.Parent] == nil || !strings.HasPrefix(d.Unit, "det.") {
			return fieldErr("detachment", i, "unit", "a detachment's id begins det. and it names its parent (21.1)")
		}
		s.Detachments[d.Unit] = d.Parent
	}
	for i, o := range f.OffMap {
		if o.Hexes < 1 || o.Hexes > 99 || o.From == "" || o.To == "" || o.From == o.To {
			return fieldErr("offmap", i, "hexes", "an off-map link goes from one place or hex to another, 1 to 99 hexes long (15.6.3a)")
		}
		for _, e := range []string{o.From, o.To} {
			if strings.Contains(e, ".") {
				if _, err := sc.Map.Grid.Parse(e); err != nil {
					return fieldErr("offmap", i, "from", "%v", err)
				}
			}
		}
		s.OffMap = append(s.OffMap, offMapLink(o))
	}
	for i, b := range f.Box {
		bx := box{Name: b.Name, Next: b.Next}
		for _, e := range b.Exits {
			if !slices.Contains(mExits, e) {
				return fieldErr("box", i, "exits", "%q is not a Montenegrin M hex (%s, 24.2)", e, strings.Join(mExits, ", "))
			}
			id, _ := sc.Map.Grid.Parse(e)
			bx.Exits = append(bx.Exits, id)
		}
		s.Boxes = append(s.Boxes, bx)
	}
	for i, b := range s.Boxes {
		for _, n := range b.Next {
			if !slices.ContainsFunc(s.Boxes, func(o box) bool { return o.Name == n }) {
				return fieldErr("box", i, "next", "%q is not a box", n)
			}
		}
	}
	for i, u := range s.Units { // one a [[unit]] entry, in order
		if u.Box != "" && !slices.ContainsFunc(s.Boxes, func(o box) bool { return o.Name == u.Box }) {
			return fieldErr("unit", i, "box", "%s: %q is not a Montenegrin box", u.ID, u.Box)
		}
	}
	for _, l := range []struct {
		key  string
		from []string
		to   *[]board.ID
	}{{"control_ah", f.ControlAH, &s.ControlAH}, {"control_serb", f.ControlSerb, &s.ControlSerb}} {
		ids, err := hexList(sc.Map.Grid, l.from)
		if err != nil {
			return fieldErr("", -1, l.key, "%v", err)
		}
		*l.to = ids
	}
	sc.offmap = s.OffMap
	sc.Setup = s
	return nil
}

// checkAttach checks a unit's attachment at set-up: a corps of its side,
// "independent" for A-H Formations (cavalry only independent, printed corps
// their own), none for assets.
func (sc *scenario) checkAttach(c *counter, attach string) error {
	if attach == "" {
		return nil
	}
	if !c.Formation {
		return fmt.Errorf("only Formations are attached to a corps (5.2); %s is an asset", c.ID)
	}
	if attach == "independent" {
		if c.Side != ah {
			return fmt.Errorf("the Serbian units are always attached to a corps (5.2)")
		}
		if c.Corps != "" {
			return fmt.Errorf("%s prints corps %s and must be attached to it (5.2.2)", c.ID, c.Corps)
		}
		return nil
	}
	co := sc.CorpsOf(attach)
	if co == nil || co.Side != c.Side {
		return fmt.Errorf("%q is not a corps of the unit's side", attach)
	}
	if c.Kind == kCavalry && c.Side == ah {
		return fmt.Errorf("A-H cavalry Formations can only be Independent (5.2.4)")
	}
	if c.Corps != "" && c.Corps != attach {
		return fmt.Errorf("%s prints corps %s and must be attached to it (5.2.2)", c.ID, c.Corps)
	}
	return nil
}

// hexList reads hexes and rectangles "20.10..22.12" (columns 20 to 22,
// rows 10 to 12).
func hexList(g board.Grid, specs []string) ([]board.ID, error) {
	var out []board.ID
	for _, s := range specs {
		lo, hi, ok := strings.Cut(s, "..")
		if !ok {
			id, err := g.Parse(s)
			if err != nil {
				return nil, err
			}
			out = append(out, id)
			continue
		}
		a, err := g.Parse(lo)
		if err != nil {
			return nil, err
		}
		b, err := g.Parse(hi)
		if err != nil {
			return nil, err
		}
		for c := a.Col; c <= b.Col; c++ {
			for r := a.Row; r <= b.Row; r++ {
				out = append(out, board.ID{Col: c, Row: r})
			}
		}
	}
	board.SortIDs(out)
	return slices.Compact(out), nil
}
