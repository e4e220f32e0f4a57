package perrote

import (
	"embed"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// This file reads scenarios: TOML files giving the board, its terrain and
// linear cover, objectives, victory conditions, special rules in force and
// each side's forces (docs/scenario-perrote.md).

//go:embed scenarios/*.toml
var scenarioFS embed.FS

// scenario is a parsed, checked scenario.
type scenario struct {
	Name  string
	Title string
	Seats []string
	// Start is the state before the first turn.
	Start State
}

// scenarioNames lists the embedded scenarios.
func scenarioNames() []string {
	entries, _ := scenarioFS.ReadDir("scenarios")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	slices.Sort(out)
	return out
}

// loadScenario parses an embedded scenario by name.
func loadScenario(name string) (*scenario, error) {
	data, err := scenarioFS.ReadFile(path.Join("scenarios", name+".toml"))
	if err != nil {
		return nil, fmt.Errorf("perrote: no scenario %q: the scenarios are %s", name, strings.Join(scenarioNames(), ", "))
	}
	return parseScenario(name, path.Join("scenarios", name+".toml"), data)
}

type scenarioFile struct {
	Title      string              `toml:"title"`
	Notice     []string            `toml:"notice"`
	Turns      int                 `toml:"turns"`
	Rules      []string            `toml:"rules"`
	StackLimit int                 `toml:"stack_limit"`
	SneakRoll  bool                `toml:"sneak_roll"`
	Board      boardFile           `toml:"board"`
	Terrain    map[string][]string `toml:"terrain"`
	Hexsides   map[string][]string `toml:"hexsides"`
	Objective  []objective         `toml:"objective"`
	Victory    []victory           `toml:"victory"`
	NBC        *nbc                `toml:"nbc"`
	Side       []sideFile          `toml:"side"`
}

type boardFile struct {
	Cols        int    `toml:"cols"`
	Rows        int    `toml:"rows"`
	Orientation string `toml:"orientation"`
	IDs         string `toml:"ids"`
	FirstCol    *int   `toml:"first_col"`
	FirstRow    *int   `toml:"first_row"`
}

type sideFile struct {
	Name      string     `toml:"name"`
	Color     string     `toml:"color"`
	BodyArmor string     `toml:"body_armor"`
	Reactive  string     `toml:"reactive"`
	Zone      []string   `toml:"zone"`
	Unit      []unitFile `toml:"unit"`
}

type unitFile struct {
	ID         string   `toml:"id"`
	Type       string   `toml:"type"`
	Name       string   `toml:"name"`
	Kind       string   `toml:"kind"`
	Hex        string   `toml:"hex"`
	Facing     string   `toml:"facing"`
	Aboard     string   `toml:"aboard"`
	Reserve    bool     `toml:"reserve"`
	Models     []string `toml:"models"`
	Armor      string   `toml:"armor"`
	Groups     []string `toml:"groups"`
	Capacity   *int     `toml:"capacity"`
	Ports      *bool    `toml:"ports"`
	Smoke      *bool    `toml:"smoke"`
	Reactive   *bool    `toml:"reactive"`
	Special    *bool    `toml:"special"`
	Heroic     *string  `toml:"heroic"`
	Sneak      *string  `toml:"sneak"`
	Casualties []string `toml:"casualties"`
}

// specialRules are the special rules a scenario may put in force.
var specialRules = []string{"body_armor", "heroic", "nbc", "reactive_armor", "sneak"}

var seatColors = []string{"#c8553d", "#5b9bd5", "#7fae4e", "#d8b33a"}

// ParseScenario reads and checks a scenario file; name is the scenario's
// name and the file's in refusals.
func ParseScenario(name string, data []byte) (*scenario, error) {
	return parseScenario(name, name, data)
}

// parseScenario reads and checks the file of scenario name. A refusal wraps
// a *datafile.FileError naming file (what the game master sent: "option
// scenario" for a custom scenario's text) and the line at fault wherever
// the text has one.
func parseScenario(name, file string, data []byte) (*scenario, error) {
	var f scenarioFile
	if err := (kit.File{Name: file, Data: data}).Decode(&f); err != nil {
		return nil, fmt.Errorf("perrote: %w", err)
	}
	p := &scenarioParser{name: name, file: file, loc: locate(string(data))}
	return p.build(&f)
}

type scenarioParser struct {
	name, file string
	loc        *locator
	g          board.Grid
}

func (p *scenarioParser) errAt(key string, format string, args ...any) error {
	return fmt.Errorf("perrote: %w", &datafile.FileError{File: p.file, Line: p.loc.line(key), Err: fmt.Sprintf(format, args...)})
}

func (p *scenarioParser) build(f *scenarioFile) (*scenario, error) {
	s := State{Scenario: p.name, Title: f.Title, Turns: f.Turns, StackLimit: f.StackLimit, SneakRoll: f.SneakRoll,
		Notices: f.Notice, Terrain: map[string]string{}}
	if s.Title == "" {
		return nil, p.errAt("", "the scenario needs a title")
	}
	if s.Turns < 1 || s.Turns > 99 {
		return nil, p.errAt("turns", "turns must be from 1 to 99, not %d", f.Turns)
	}
	if s.StackLimit == 0 {
		s.StackLimit = 20
	}
	if s.StackLimit < 1 {
		return nil, p.errAt("stack_limit", "stack_limit must be positive")
	}
	for _, r := range f.Rules {
		if !slices.Contains(specialRules, r) {
			return nil, p.errAt("rules", "no special rule %q (rules: %s)", r, strings.Join(specialRules, ", "))
		}
	}
	s.Rules = slices.Clone(f.Rules)
	slices.Sort(s.Rules)
	s.Rules = slices.Compact(s.Rules)
	if err := p.board(f, &s); err != nil {
		return nil, err
	}
	if err := p.terrain(f, &s); err != nil {
		return nil, err
	}
	if len(f.Side) < 2 {
		return nil, p.errAt("", "a scenario needs at least two sides ([[side]])")
	}
	zones := map[string]map[board.ID]bool{}
	for i, sd := range f.Side {
		key := fmt.Sprintf("side.%d", i)
		if sd.Name == "" || strings.ContainsAny(sd.Name, " \t,") {
			return nil, p.errAt(key+".name", "side %d needs a name without spaces", i+1)
		}
		if s.side(sd.Name) != nil {
			return nil, p.errAt(key+".name", "side %s is named twice", sd.Name)
		}
		info := sideInfo{Name: sd.Name, Color: sd.Color, BodyArmor: sd.BodyArmor, Reactive: sd.Reactive}
		if info.Color == "" {
			info.Color = seatColors[i%len(seatColors)]
		}
		if len(info.Color) != 7 || info.Color[0] != '#' {
			return nil, p.errAt(key+".color", "color %q: want #rrggbb", info.Color)
		}
		for _, o := range []struct{ field, val, rule string }{{"body_armor", sd.BodyArmor, "body_armor"}, {"reactive", sd.Reactive, "reactive_armor"}} {
			switch o.val {
			case "", "none":
			case "plus1", "reroll":
				if !s.inForce(o.rule) {
					return nil, p.errAt(key+"."+o.field, "%s is set but the special rule %s is not in force (add it to rules)", o.field, o.rule)
				}
			default:
				return nil, p.errAt(key+"."+o.field, "%s %q: want plus1, reroll or none", o.field, o.val)
			}
		}
		s.Sides = append(s.Sides, info)
		zone, err := p.hexList(key+".zone", sd.Zone)
		if err != nil {
			return nil, err
		}
		zones[sd.Name] = map[board.ID]bool{}
		for _, h := range zone {
			zones[sd.Name][h] = true
		}
	}
	for i, sd := range f.Side {
		for j, uf := range sd.Unit {
			u, err := p.unit(fmt.Sprintf("side.%d.unit.%d", i, j), &s, sd.Name, uf, zones[sd.Name])
			if err != nil {
				return nil, err
			}
			s.Units = append(s.Units, u)
		}
	}
	if err := p.passengers(f, &s); err != nil {
		return nil, err
	}
	if err := p.objectives(f, &s); err != nil {
		return nil, err
	}
	if f.NBC != nil {
		if !s.inForce("nbc") {
			return nil, p.errAt("nbc", "[nbc] is given but the special rule nbc is not in force (add it to rules)")
		}
		if s.side(f.NBC.Side) == nil {
			return nil, p.errAt("nbc.side", "nbc side %q is not a side", f.NBC.Side)
		}
		s.NBC = &nbc{Side: f.NBC.Side, Protected: f.NBC.Protected}
	} else if s.inForce("nbc") {
		return nil, p.errAt("rules", "the special rule nbc is in force but there is no [nbc] table saying who attacks")
	}
	seats := s.seats()
	return &scenario{Name: p.name, Title: s.Title, Seats: seats, Start: s}, nil
}

func (p *scenarioParser) board(f *scenarioFile, s *State) error {
	b := f.Board
	s.Board = boardSpec{Cols: b.Cols, Rows: b.Rows, Orientation: b.Orientation, IDs: b.IDs, FirstCol: 1, FirstRow: 1}
	if b.FirstCol != nil {
		s.Board.FirstCol = *b.FirstCol
	}
	if b.FirstRow != nil {
		s.Board.FirstRow = *b.FirstRow
	}
	switch s.Board.Orientation {
	case "":
		s.Board.Orientation = "flat"
	case "flat", "pointy":
	default:
		return p.errAt("board.orientation", "orientation %q: want flat or pointy", b.Orientation)
	}
	switch s.Board.IDs {
	case "":
		s.Board.IDs = "CCRR"
	case "CCRR", "CC.RR":
	default:
		return p.errAt("board.ids", "ids %q: want CCRR or CC.RR", b.IDs)
	}
	if b.Cols < 3 || b.Rows < 3 || b.Cols > 99 || b.Rows > 99 {
		return p.errAt("board.cols", "the board must be from 3x3 to 99x99 hexes, not %dx%d", b.Cols, b.Rows)
	}
	p.g = s.Board.Grid()
	if err := p.g.Validate(); err != nil {
		return p.errAt("board", "%v", strings.TrimPrefix(err.Error(), "board: "))
	}
	return nil
}

// hexList reads hexes and rectangles "0101:0305" (columns 1-3, rows 1-5).
func (p *scenarioParser) hexList(key string, items []string) ([]board.ID, error) {
	var out []board.ID
	for _, it := range items {
		a, b, rect := strings.Cut(it, ":")
		from, err := p.g.Parse(a)
		if err != nil {
			return nil, p.errAt(key, "%q: %v", it, strings.TrimPrefix(err.Error(), "board: "))
		}
		if !rect {
			out = append(out, from)
			continue
		}
		to, err := p.g.Parse(b)
		if err != nil {
			return nil, p.errAt(key, "%q: %v", it, strings.TrimPrefix(err.Error(), "board: "))
		}
		for c := min(from.Col, to.Col); c <= max(from.Col, to.Col); c++ {
			for r := min(from.Row, to.Row); r <= max(from.Row, to.Row); r++ {
				out = append(out, board.ID{Col: c, Row: r})
			}
		}
	}
	return out, nil
}

func (p *scenarioParser) terrain(f *scenarioFile, s *State) error {
	for _, name := range slices.Sorted(mapKeys(f.Terrain)) {
		if _, ok := terrains[name]; !ok {
			return p.errAt("terrain."+name, "no terrain %q (terrains: %s)", name, strings.Join(terrainNames(), ", "))
		}
		hexes, err := p.hexList("terrain."+name, f.Terrain[name])
		if err != nil {
			return err
		}
		for _, h := range hexes {
			id := p.g.Format(h)
			if old, ok := s.Terrain[id]; ok && old != name {
				return p.errAt("terrain."+name, "hex %s is both %s and %s", id, old, name)
			}
			if name != "open" {
				s.Terrain[id] = name
			}
		}
	}
	for _, kind := range slices.Sorted(mapKeys(f.Hexsides)) {
		if _, ok := linearKinds[kind]; !ok {
			return p.errAt("hexsides."+kind, "no linear cover %q (linear covers: %s)", kind, strings.Join(linearNames(), ", "))
		}
		for _, it := range f.Hexsides[kind] {
			a, b, ok := strings.Cut(it, "-")
			ha, err1 := p.g.Parse(a)
			hb, err2 := p.g.Parse(b)
			if !ok || err1 != nil || err2 != nil || !p.g.Adjacent(ha, hb) {
				return p.errAt("hexsides."+kind, "hexside %q: want two adjacent hexes on the map, like \"0505-0506\"", it)
			}
			k := sideKey(ha, hb)
			s.Hexsides = append(s.Hexsides, hexsideSpec{A: p.g.Format(k[0]), B: p.g.Format(k[1]), Kind: kind})
		}
	}
	slices.SortFunc(s.Hexsides, func(x, y hexsideSpec) int {
		return strings.Compare(x.A+x.B, y.A+y.B)
	})
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (p *scenarioParser) unit(key string, s *State, side string, uf unitFile, zone map[board.ID]bool) (*unitState, error) {
	if uf.ID == "" || !validID(uf.ID) {
		return nil, p.errAt(key+".id", "unit id %q: use letters, digits, - and _ (like R1)", uf.ID)
	}
	if s.unit(uf.ID) != nil {
		return nil, p.errAt(key+".id", "unit %s is named twice", uf.ID)
	}
	u := &unitState{ID: uf.ID, Side: side, Type: "custom"}
	var t template
	if uf.Type != "" && uf.Type != "custom" {
		var ok bool
		if t, ok = templateByKey(uf.Type); !ok {
			return nil, p.errAt(key+".type", "no unit type %q (types: %s, or custom)", uf.Type, strings.Join(templateKeys(), ", "))
		}
		u.Type, u.Kind, u.Name = t.Key, t.Kind, t.Name
		u.Special, u.Heroic, u.Sneak, u.Smoke = t.Special, t.Heroic, t.Sneak, t.Smoke
		if t.StandIn != "" && !slices.Contains(s.Notices, "Stand-in: "+t.StandIn+".") {
			s.Notices = append(s.Notices, "Stand-in: "+t.StandIn+".")
		}
	}
	if uf.Kind != "" {
		if uf.Type != "" && uf.Type != "custom" && uf.Kind != t.Kind {
			return nil, p.errAt(key+".kind", "a %s is %s: kind cannot change it", t.Key, t.Kind)
		}
		u.Kind = uf.Kind
	}
	switch u.Kind {
	case kindTroops, kindVehicle, kindLightVehicle:
	case "":
		return nil, p.errAt(key, "unit %s needs a type (%s) or a kind (troops, vehicle, light_vehicle)", uf.ID, strings.Join(templateKeys(), ", "))
	default:
		return nil, p.errAt(key+".kind", "kind %q: want troops, vehicle or light_vehicle", uf.Kind)
	}
	if uf.Name != "" {
		u.Name = uf.Name
	}
	if u.Name == "" {
		u.Name = uf.ID
	}
	models := t.Models
	if len(uf.Models) > 0 {
		models = uf.Models
	}
	if u.Kind == kindVehicle {
		if len(uf.Models) > 0 {
			return nil, p.errAt(key+".models", "vehicles have weapon groups, not models")
		}
		if t.Vehicle != nil {
			v := t.Vehicle
			u.Armor = map[armor]string{mbt: "mbt", afv: "afv"}[v.Armor]
			u.Capacity, u.Ports, u.Reactive = v.Passengers, v.FiringPorts, v.Reactive
			if t.Capacity > 0 {
				u.Capacity = t.Capacity
			}
			for _, g := range v.FireGroups {
				var arms []arm
				for _, a := range g {
					for range max(a.Count, 1) {
						arms = append(arms, arm{Weapon: a.Weapon, Range: a.Range, OneShot: a.OneShot, NotOnMove: a.NotOnMove})
					}
				}
				u.Groups = append(u.Groups, arms)
			}
		}
		if len(uf.Groups) > 0 {
			u.Groups = nil
			for _, g := range uf.Groups {
				ms, err := parseLoadout(g)
				if err != nil || len(ms) != 1 || ms[0].Team != "" {
					return nil, p.errAt(key+".groups", "group %q: want weapons joined by +, like \"hmg+lmg\" (%v)", g, err)
				}
				u.Groups = append(u.Groups, ms[0].Arms)
			}
		}
		if len(u.Groups) == 0 {
			return nil, p.errAt(key+".groups", "vehicle %s needs weapon groups (groups = [\"tank_gun\", \"hmg+lmg\"])", uf.ID)
		}
		if uf.Armor != "" {
			if uf.Armor != "mbt" && uf.Armor != "afv" && uf.Armor != "none" {
				return nil, p.errAt(key+".armor", "armor %q: want mbt, afv or none", uf.Armor)
			}
			u.Armor = strings.TrimSuffix(uf.Armor, "none")
		}
		if uf.Capacity != nil {
			u.Capacity = *uf.Capacity
		}
		for _, b := range []struct {
			p   *bool
			dst *bool
		}{{uf.Ports, &u.Ports}, {uf.Smoke, &u.Smoke}, {uf.Reactive, &u.Reactive}} {
			if b.p != nil {
				*b.dst = *b.p
			}
		}
		u.Original = 1
	} else {
		if uf.Armor != "" || len(uf.Groups) > 0 || uf.Capacity != nil || uf.Ports != nil || uf.Smoke != nil || uf.Reactive != nil {
			return nil, p.errAt(key, "only vehicles have armor, groups, capacity, ports, smoke or reactive")
		}
		if len(models) == 0 {
			return nil, p.errAt(key+".models", "unit %s needs models (models = [\"lmg\", \"4x assault\"])", uf.ID)
		}
		for _, m := range models {
			ms, err := parseLoadout(m)
			if err != nil {
				return nil, p.errAt(key+".models", "%v", err)
			}
			u.Models = append(u.Models, ms...)
		}
		u.Original = len(u.Models)
		for _, m := range u.Models {
			if m.Team != "" && !slices.Contains(u.Teams, m.Team) {
				u.Teams = append(u.Teams, m.Team)
			}
			if m.Team != "" {
				if u.TeamSizes == nil {
					u.TeamSizes = map[string]int{}
				}
				u.TeamSizes[m.Team]++
			}
			for _, a := range m.Arms {
				if w, _ := weaponByKey(a.Weapon); w.VehicleOnly {
					return nil, p.errAt(key+".models", "%s %s is vehicle mounted only", article(w.Name), w.Name)
				}
			}
		}
		if len(u.Teams) == 1 {
			return nil, p.errAt(key+".models", "a unit that splits needs at least two teams")
		}
	}
	if uf.Special != nil {
		u.Special = *uf.Special
	}
	if uf.Heroic != nil {
		u.Heroic = *uf.Heroic
	}
	switch u.Heroic {
	case "", "always", "near", "charge", "loss":
	default:
		return nil, p.errAt(key+".heroic", "heroic %q: want always, near, charge, loss or \"\"", u.Heroic)
	}
	if !s.inForce("heroic") {
		if uf.Heroic != nil && *uf.Heroic != "" {
			return nil, p.errAt(key+".heroic", "heroic is set but the special rule heroic is not in force (add it to rules)")
		}
		u.Heroic = ""
	}
	if uf.Sneak != nil {
		u.Sneak = *uf.Sneak
	}
	switch u.Sneak {
	case "", "edge", "anywhere":
	default:
		return nil, p.errAt(key+".sneak", "sneak %q: want edge, anywhere or \"\"", u.Sneak)
	}
	for _, c := range uf.Casualties {
		if _, err := weaponByKey(c); err != nil {
			return nil, p.errAt(key+".casualties", "no weapon %q", c)
		}
	}
	u.Priority = uf.Casualties
	switch {
	case uf.Reserve:
		if !s.inForce("sneak") {
			return nil, p.errAt(key+".reserve", "reserve units need the special rule sneak in force (add it to rules)")
		}
		if u.Sneak == "" {
			return nil, p.errAt(key+".reserve", "unit %s has no sneak attack: set sneak = \"edge\" or \"anywhere\"", uf.ID)
		}
		if uf.Hex != "" || uf.Aboard != "" {
			return nil, p.errAt(key+".reserve", "a reserve unit starts off table: give it no hex and no aboard")
		}
		u.Reserve = true
	case uf.Aboard != "":
		if uf.Hex != "" {
			return nil, p.errAt(key+".aboard", "a unit aboard a vehicle has no hex of its own")
		}
		if u.Kind != kindTroops {
			return nil, p.errAt(key+".aboard", "only troops ride as passengers")
		}
		u.Aboard = uf.Aboard
	default:
		h, err := p.g.Parse(uf.Hex)
		if err != nil {
			return nil, p.errAt(key+".hex", "unit %s: hex %q: %v", uf.ID, uf.Hex, strings.TrimPrefix(err.Error(), "board: "))
		}
		if len(zone) > 0 && !zone[h] {
			return nil, p.errAt(key+".hex", "unit %s at %s is outside its side's deployment zone", uf.ID, p.g.Format(h))
		}
		if terrains[s.Terrain[p.g.Format(h)]].Impassable {
			return nil, p.errAt(key+".hex", "unit %s at %s: the hex is impassable", uf.ID, p.g.Format(h))
		}
		u.Hex = p.g.Format(h)
		if u.IsVehicle() {
			for _, o := range s.Units {
				if o.Hex == u.Hex && o.IsVehicle() {
					return nil, p.errAt(key+".hex", "vehicles may not stack: %s is already at %s", o.ID, u.Hex)
				}
			}
		}
	}
	if u.IsVehicle() {
		if uf.Facing != "" {
			d, ok := parseDirection(p.g, uf.Facing)
			if !ok {
				return nil, p.errAt(key+".facing", "facing %q: want one of %s", uf.Facing, strings.Join(compass(p.g), ", "))
			}
			u.Facing = d
		} else if h, ok := p.parse(u.Hex); ok {
			u.Facing = dirToward(p.g, h, board.ID{Col: p.g.FirstCol + p.g.Cols/2, Row: p.g.FirstRow + p.g.Rows/2})
		}
	} else if uf.Facing != "" {
		return nil, p.errAt(key+".facing", "only vehicles have a facing")
	}
	return u, nil
}

func (p *scenarioParser) parse(h string) (board.ID, bool) {
	id, err := p.g.Parse(h)
	return id, err == nil
}

func validID(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return len(s) <= 16
}

func (p *scenarioParser) passengers(f *scenarioFile, s *State) error {
	for i, sd := range f.Side {
		for j, uf := range sd.Unit {
			if uf.Aboard == "" {
				continue
			}
			key := fmt.Sprintf("side.%d.unit.%d.aboard", i, j)
			v := s.unit(uf.Aboard)
			if v == nil || v.Kind != kindVehicle || v.Side != sd.Name {
				return p.errAt(key, "unit %s is aboard %q, which is not a vehicle of its side", uf.ID, uf.Aboard)
			}
			if v.Reserve {
				return p.errAt(key, "vehicle %s is off table", v.ID)
			}
			load := 0
			for _, o := range s.Units {
				if o.Aboard == v.ID {
					load += len(o.Models)
				}
			}
			if load > v.Capacity {
				return p.errAt(key, "vehicle %s carries %d passengers but has room for %d", v.ID, load, v.Capacity)
			}
		}
	}
	return nil
}

func (p *scenarioParser) objectives(f *scenarioFile, s *State) error {
	for i, o := range f.Objective {
		key := fmt.Sprintf("objective.%d", i)
		h, err := p.g.Parse(o.Hex)
		if err != nil {
			return p.errAt(key+".hex", "objective %q: %v", o.Hex, strings.TrimPrefix(err.Error(), "board: "))
		}
		o.Hex = p.g.Format(h)
		if o.Name == "" {
			o.Name = o.Hex
		}
		if o.Holder != "" && s.side(o.Holder) == nil {
			return p.errAt(key+".holder", "holder %q is not a side", o.Holder)
		}
		s.Objectives = append(s.Objectives, o)
	}
	if len(f.Victory) == 0 {
		return p.errAt("", "the scenario needs at least one [[victory]] condition")
	}
	for i, v := range f.Victory {
		key := fmt.Sprintf("victory.%d", i)
		switch v.Kind {
		case "hold":
			if len(s.Objectives) == 0 {
				return p.errAt(key+".kind", "a hold victory needs objectives")
			}
		case "destroy":
			if v.Share <= 0 || v.Share > 1 || math.IsNaN(v.Share) {
				return p.errAt(key+".share", "share must be above 0 and at most 1")
			}
		default:
			return p.errAt(key+".kind", "victory kind %q: want hold or destroy", v.Kind)
		}
		if v.Side != "" && s.side(v.Side) == nil {
			return p.errAt(key+".side", "side %q is not a side", v.Side)
		}
		s.Victory = append(s.Victory, v)
	}
	return nil
}

// locator finds the line of a key of a TOML file: it follows table and
// array-of-tables headers, numbering array elements from 0, so that
// "side.1.unit.0.hex" is the hex of the first unit of the second side.
type locator struct {
	lines  map[string]int
	counts map[string]int
}

func locate(src string) *locator {
	l := &locator{lines: map[string]int{}, counts: map[string]int{}}
	cur, depth := "", 0
	for n, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		if depth > 0 {
			depth += brackets(line)
			continue
		}
		if strings.HasPrefix(line, "[[") && strings.HasSuffix(line, "]]") {
			name := strings.TrimSpace(line[2 : len(line)-2])
			base := strings.Trim(name, `" `)
			if i := strings.LastIndex(name, "."); i >= 0 {
				base = l.resolve(name[:i]) + "." + strings.Trim(name[i+1:], `" `)
			}
			idx := l.counts[base]
			l.counts[base] = idx + 1
			cur = base + "." + strconv.Itoa(idx)
			l.lines[cur] = n + 1
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			cur = l.resolve(strings.TrimSpace(line[1 : len(line)-1]))
			l.lines[cur] = n + 1
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key := strings.Trim(strings.TrimSpace(k), `"`)
		if cur != "" {
			key = cur + "." + key
		}
		if _, seen := l.lines[key]; !seen {
			l.lines[key] = n + 1
		}
		depth = brackets(v)
	}
	return l
}

// resolve turns a dotted table name into a key path, numbering each part
// that is an array of tables with its current element.
func (l *locator) resolve(name string) string {
	out := ""
	for _, part := range strings.Split(name, ".") {
		if out != "" {
			out += "."
		}
		out += strings.Trim(strings.TrimSpace(part), `"`)
		if c, ok := l.counts[out]; ok {
			out += "." + strconv.Itoa(c-1)
		}
	}
	return out
}

// line is the line of key, or of its nearest parent that has one; 0 when
// none has.
func (l *locator) line(key string) int {
	for key != "" {
		if n, ok := l.lines[key]; ok {
			return n
		}
		i := strings.LastIndex(key, ".")
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0
}

func stripComment(s string) string {
	inStr := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0:
			if c == '\\' && inStr == '"' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '#':
			return s[:i]
		}
	}
	return s
}

// brackets is the opening minus the closing square brackets outside
// strings.
func brackets(s string) int {
	d, inStr := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr != 0:
			if c == '\\' && inStr == '"' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '[':
			d++
		case c == ']':
			d--
		}
	}
	return max(d, 0)
}
