package bu

// This file reads the counter list (docs/scenario-bu.md): unit types with
// their values (1.3.5: CF-LF-MF on the full and reduced sides), the elite
// mark, foreign units and their limitations (1.3.3, 1.3.4), the units of
// each type, and the reinforcement schedule of the Turn Track (6.2.2).

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// values are a side of a counter: CF-LF-MF (1.3.5).
type values struct{ CF, LF, MF int }

func (v values) String() string { return fmt.Sprintf("%d-%d-%d", v.CF, v.LF, v.MF) }

// parseValues reads "4-6-4".
func parseValues(s string) (values, bool) {
	f := strings.Split(strings.TrimSpace(s), "-")
	if len(f) != 3 {
		return values{}, false
	}
	var n [3]int
	for i, x := range f {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 || v > 99 {
			return values{}, false
		}
		n[i] = v
	}
	return values{n[0], n[1], n[2]}, n[1] > 0
}

// unitType is a kind of counter.
type unitType struct {
	ID   string // the setup symbol and schedule name ("VRS", "VRS-E")
	Side Side
	// Army is the army the unit belongs to (VRS, SDG...): 6.3 step 4
	// costs 1 FA per foreign army deployed.
	Army    string
	Foreign bool // a Foreign Unit (1.3.3)
	Elite   bool
	Full    values
	Reduced values
	// Deploy lists where a foreign unit enters the map (6.3, 1.2.5): the
	// designations of Foreign Spaces (CRO, YUG, KRA), or "key" for the
	// side's own Key Spaces.
	Deploy []string
	// AttackOnly lists the only sides the unit may attack and whose spaces
	// it may capture (HV, 1.3.4); empty: any enemy.
	AttackOnly []Side
	// RegionOnly is the only region the unit may move, attack and capture
	// in (NOZB, 1.3.4); "" none.
	RegionOnly string
	// CaptureFA is the FA the side loses when the unit captures a Key Space
	// (13.5.3: 1; NOZB: 0, 1.3.4).
	CaptureFA int
	StandIn   bool
}

// unitDef is one counter.
type unitDef struct {
	ID   string
	Type *unitType
}

// reinforcement is a turn's reinforcements of a side (6.2.2).
type reinforcement struct {
	Turn  int
	Side  Side
	Units []string
}

// counters is a counter list, read and checked.
type counters struct {
	Title   string
	StandIn bool
	Notice  string
	Types   []*unitType
	Units   []*unitDef
	// Reinforcements by turn and side, in file order.
	Reinforcements []reinforcement
	typeOf         map[string]*unitType
	unitOf         map[string]*unitDef
	// entries holds, for each type, the index of its [[type]] entry and
	// of its last [[units]] entry in the file (-1: none), for refusals
	// that name the lines of a game master's counter list
	entries map[string][2]int
}

// Type returns the unit type with id, nil if none.
func (c *counters) Type(id string) *unitType { return c.typeOf[id] }

// Unit returns the counter with id, nil if none.
func (c *counters) Unit(id string) *unitDef { return c.unitOf[id] }

type countersFile struct {
	kit.Preamble
	Type          []typeFile          `toml:"type"`
	Units         []unitsFile         `toml:"units"`
	Reinforcement []reinforcementFile `toml:"reinforcement"`
}

type typeFile struct {
	ID         string   `toml:"id"`
	Side       string   `toml:"side"`
	Army       string   `toml:"army"`
	Foreign    bool     `toml:"foreign"`
	Elite      bool     `toml:"elite"`
	Full       string   `toml:"full"`
	Reduced    string   `toml:"reduced"`
	Deploy     []string `toml:"deploy"`
	AttackOnly []string `toml:"attack_only"`
	RegionOnly string   `toml:"region_only"`
	CaptureFA  *int     `toml:"capture_fa"`
	StandIn    bool     `toml:"stand_in"`
}

type unitsFile struct {
	Type string   `toml:"type"`
	IDs  []string `toml:"ids"`
}

type reinforcementFile struct {
	Turn  int      `toml:"turn"`
	Side  string   `toml:"side"`
	Units []string `toml:"units"`
}

// unitID is the canonical form of a unit id: upper case.
func unitID(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// expandIDs reads unit ids, where "VRS-1..18" is VRS-1 to VRS-18.
func expandIDs(specs []string) ([]string, error) {
	var out []string
	for _, s := range specs {
		s = unitID(s)
		lo, hi, rng := strings.Cut(s, "..")
		if !rng {
			out = append(out, s)
			continue
		}
		i := len(lo)
		for i > 0 && lo[i-1] >= '0' && lo[i-1] <= '9' {
			i--
		}
		prefix := lo[:i]
		a, err1 := strconv.Atoi(lo[i:])
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a > b || b-a > 500 {
			return nil, fmt.Errorf("%q: want PREFIX-FIRST..LAST, such as VRS-1..18", s)
		}
		for n := a; n <= b; n++ {
			out = append(out, prefix+strconv.Itoa(n))
		}
	}
	return out, nil
}

// parseCounters reads and checks a counter list against the map it is
// used with (regions named by limitations).
func parseCounters(name string, data []byte, m *Map) (*counters, error) {
	file := kit.File{Name: name, Data: data}
	var f countersFile
	if err := file.Decode(&f); err != nil {
		return nil, err
	}
	bad := func(table string, index int, key, format string, args ...any) error {
		return file.Errorf(table, index, key, format, args...)
	}
	c := &counters{Title: f.Title, StandIn: f.StandIn, Notice: f.Notice, typeOf: map[string]*unitType{}, unitOf: map[string]*unitDef{}, entries: map[string][2]int{}}
	if err := f.Check(file, "a stand-in counter list"); err != nil {
		return nil, err
	}
	for i, t := range f.Type {
		ut := &unitType{ID: unitID(t.ID), Army: strings.ToUpper(t.Army), Foreign: t.Foreign, Elite: t.Elite, StandIn: t.StandIn, CaptureFA: 1}
		if ut.ID == "" {
			return nil, bad("type", i, "id", "missing: every unit type has an id")
		}
		if c.typeOf[ut.ID] != nil {
			return nil, bad("type", i, "id", "type %q is listed twice", ut.ID)
		}
		side, ok := parseSide(t.Side)
		if !ok {
			return nil, bad("type", i, "side", "%q: want Serb, Croat or Bosniak", t.Side)
		}
		ut.Side = side
		if ut.Army == "" {
			return nil, bad("type", i, "army", "missing: the army the unit belongs to (VRS, HVO, ARBIH, SDG, SVK, NOZB, HV, MUJ; 1.3.2, 1.3.3)")
		}
		if ut.Full, ok = parseValues(t.Full); !ok {
			return nil, bad("type", i, "full", "%q: want CF-LF-MF such as \"4-6-4\" (1.3.5), LF at least 1", t.Full)
		}
		if ut.Reduced, ok = parseValues(t.Reduced); !ok {
			return nil, bad("type", i, "reduced", "%q: want CF-LF-MF such as \"2-6-4\" (1.3.5), LF at least 1", t.Reduced)
		}
		for _, d := range t.Deploy {
			d = strings.ToUpper(strings.TrimSpace(d))
			if d == "KEY" {
				d = "key"
			}
			if d != cro && d != yug && d != kra && d != "key" {
				return nil, bad("type", i, "deploy", "%q: want CRO, YUG, KRA or key (6.3)", d)
			}
			ut.Deploy = append(ut.Deploy, d)
		}
		if ut.Foreign && len(ut.Deploy) == 0 {
			return nil, bad("type", i, "deploy", "missing: where the foreign unit deploys from (CRO, YUG, KRA or key; 6.3)")
		}
		if !ut.Foreign && len(ut.Deploy) > 0 {
			return nil, bad("type", i, "deploy", "only Foreign Units deploy (6.3); set foreign = true")
		}
		for _, s := range t.AttackOnly {
			side, ok := parseSide(s)
			if !ok || side == ut.Side {
				return nil, bad("type", i, "attack_only", "%q: want an enemy side (1.3.4)", s)
			}
			ut.AttackOnly = append(ut.AttackOnly, side)
		}
		if t.RegionOnly != "" {
			if m.RegionByID(slug(t.RegionOnly)) == nil {
				return nil, checked(bad("type", i, "region_only", "%q is not a region of the map (1.3.4)", t.RegionOnly), &againstError{file: "map"})
			}
			ut.RegionOnly = slug(t.RegionOnly)
		}
		if t.CaptureFA != nil {
			if *t.CaptureFA < 0 || *t.CaptureFA > 9 {
				return nil, bad("type", i, "capture_fa", "%d: want the FA lost on capturing a Key Space, 0 to 9 (13.5.3, 1.3.4)", *t.CaptureFA)
			}
			ut.CaptureFA = *t.CaptureFA
		}
		c.Types = append(c.Types, ut)
		c.typeOf[ut.ID] = ut
		c.entries[ut.ID] = [2]int{i, -1}
	}
	for i, u := range f.Units {
		ut := c.typeOf[unitID(u.Type)]
		if ut == nil {
			return nil, bad("units", i, "type", "%q is not a unit type listed", u.Type)
		}
		c.entries[ut.ID] = [2]int{c.entries[ut.ID][0], i}
		ids, err := expandIDs(u.IDs)
		if err != nil {
			return nil, bad("units", i, "ids", "%v", err)
		}
		for _, id := range ids {
			if c.unitOf[id] != nil {
				return nil, bad("units", i, "ids", "unit %s is listed twice", id)
			}
			if strings.ContainsAny(id, " ,:+>") {
				return nil, bad("units", i, "ids", "%q: unit ids have no spaces, commas, colons, + or >", id)
			}
			d := &unitDef{ID: id, Type: ut}
			c.Units = append(c.Units, d)
			c.unitOf[id] = d
		}
	}
	scheduled := map[string]bool{}
	for i, r := range f.Reinforcement {
		side, ok := parseSide(r.Side)
		if !ok {
			return nil, bad("reinforcement", i, "side", "%q: want Serb, Croat or Bosniak", r.Side)
		}
		if r.Turn < 1 || r.Turn > gameTurns {
			return nil, bad("reinforcement", i, "turn", "%d: want a turn from 1 to %d (6.2.2)", r.Turn, gameTurns)
		}
		ids, err := expandIDs(r.Units)
		if err != nil {
			return nil, bad("reinforcement", i, "units", "%v", err)
		}
		for _, id := range ids {
			d := c.unitOf[id]
			switch {
			case d == nil:
				return nil, bad("reinforcement", i, "units", "%s is not a unit listed", id)
			case d.Type.Side != side:
				return nil, bad("reinforcement", i, "units", "%s is %s, not %s", id, d.Type.Side, side)
			case d.Type.Foreign:
				return nil, bad("reinforcement", i, "units", "%s is a Foreign Unit: those come with Foreign Units cards (1.5.8, 6.3)", id)
			case scheduled[id]:
				return nil, bad("reinforcement", i, "units", "%s arrives twice", id)
			}
			scheduled[id] = true
		}
		c.Reinforcements = append(c.Reinforcements, reinforcement{Turn: r.Turn, Side: side, Units: ids})
	}
	return c, nil
}
