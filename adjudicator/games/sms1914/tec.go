package sms1914

import (
	"fmt"
	"slices"
	"strings"
)

// tec is the Terrain Effects Chart (7.1.3, 9.3): not in the rule text, it
// comes from the table file's [tec] section. The text gives a few values
// (Lowland 2 MP, Bottomland 2 MP and 3 from GT 19, High Mountain 4 MP, Low
// Mountain +3 DS, a minor river -2 AS for each attacking Force); the demo
// file holds them and invents the rest.
type tec struct {
	Terrain map[string]terrainEffects
	Hexside map[string]hexsideEffects
	// Bridge and Ferry replace the river hexside's MP cost (7.1.5,
	// 7.1.5a); Roadway replaces the hex terrain cost of a hex entered
	// along a roadway (7.1.7).
	Bridge, Ferry, Roadway int
}

// terrainEffects are a hex terrain's row.
type terrainEffects struct {
	MP         int // to enter
	MPOctober  int // to enter from GT 19 (3.5.3); 0 = as MP
	Defense    int // DS added to a defending stack, one bonus per hex (9.3.1)
	AttackFrom int // AS change of each Force attacking from this hex (9.3.2)
}

// hexsideEffects are a hexside feature's row.
type hexsideEffects struct {
	MP     int // added to cross it
	Attack int // AS change of each Force attacking across it (9.3.2)
}

type tecFile struct {
	Terrain map[string]tecTerrain `toml:"terrain"`
	Hexside map[string]tecHexside `toml:"hexside"`
	Bridge  *int                  `toml:"bridge"`
	Ferry   *int                  `toml:"ferry"`
	Roadway *int                  `toml:"roadway"`
}

type tecTerrain struct {
	MP         *int `toml:"mp"`
	MPOctober  int  `toml:"mp_october"`
	Defense    int  `toml:"defense"`
	AttackFrom int  `toml:"attack_from"`
}

type tecHexside struct {
	MP     *int `toml:"mp"`
	Attack int  `toml:"attack"`
}

// the hexside rows the TEC must have: every feature units may cross.
var tecHexsides = []string{sideMinor, sideMajor, sideSava, sideSavaIsle, sideSavaBend, sideDonau, sideDonauIsle}

// TEC is the file's Terrain Effects Chart, checked whole: every terrain but
// impassable and every crossable hexside feature has an MP cost.
func (t *tables) TEC() (*tec, error) {
	if err := t.missing("tec.terrain", "tec.hexside", "tec.bridge", "tec.ferry", "tec.roadway"); err != nil {
		return nil, err
	}
	f := t.file.TEC
	out := &tec{Terrain: map[string]terrainEffects{}, Hexside: map[string]hexsideEffects{}, Bridge: *f.Bridge, Ferry: *f.Ferry, Roadway: *f.Roadway}
	for _, name := range terrains {
		if name == "impassable" {
			continue
		}
		r, ok := f.Terrain[name]
		if !ok {
			return nil, t.bad("tec.terrain."+name, "missing: the TEC has a row for every terrain (%s)", strings.Join(terrains[:len(terrains)-1], ", "))
		}
		if r.MP == nil || *r.MP < 1 || *r.MP > maxTECMP {
			return nil, t.bad("tec.terrain."+name, "mp: want the MP cost to enter, 1 to %d (7.1.3)", maxTECMP)
		}
		switch {
		case r.MPOctober < 0 || r.MPOctober > maxTECMP:
			return nil, t.bad("tec.terrain."+name, "mp_october %d: want the MP cost from GT 19, 1 to %d, or 0 for mp's (3.5.3)", r.MPOctober, maxTECMP)
		case r.Defense < 0 || r.Defense > maxTECStr:
			return nil, t.bad("tec.terrain."+name, "defense %d: want the DS a defending stack adds, 0 to %d (9.3.1)", r.Defense, maxTECStr)
		case r.AttackFrom < -maxTECStr || r.AttackFrom > maxTECStr:
			return nil, t.bad("tec.terrain."+name, "attack_from %d: want the AS change of a Force attacking from it, %d to %d (9.3.2)", r.AttackFrom, -maxTECStr, maxTECStr)
		}
		out.Terrain[name] = terrainEffects{MP: *r.MP, MPOctober: r.MPOctober, Defense: r.Defense, AttackFrom: r.AttackFrom}
	}
	for name := range f.Terrain {
		if !slices.Contains(terrains, name) || name == "impassable" {
			return nil, t.bad("tec.terrain."+name, "unknown terrain: want %s", strings.Join(terrains[:len(terrains)-1], ", "))
		}
	}
	for _, name := range tecHexsides {
		r, ok := f.Hexside[name]
		if !ok || r.MP == nil || *r.MP < 0 || *r.MP > maxTECMP {
			return nil, t.bad("tec.hexside."+name, "missing or bad mp: the TEC has an MP cost, 0 to %d, for every river hexside (%s)", maxTECMP, strings.Join(tecHexsides, ", "))
		}
		if r.Attack < -maxTECStr || r.Attack > maxTECStr {
			return nil, t.bad("tec.hexside."+name, "attack %d: want the AS change of a Force attacking across it, %d to %d (9.3.2)", r.Attack, -maxTECStr, maxTECStr)
		}
		out.Hexside[name] = hexsideEffects{MP: *r.MP, Attack: r.Attack}
	}
	for name := range f.Hexside {
		if !slices.Contains(tecHexsides, name) {
			return nil, t.bad("tec.hexside."+name, "unknown hexside: want %s", strings.Join(tecHexsides, ", "))
		}
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"tec.bridge", out.Bridge}, {"tec.ferry", out.Ferry}, {"tec.roadway", out.Roadway}} {
		if v.n < 0 || v.n > maxTECMP {
			return nil, t.bad(v.name, "%d: want an MP cost from 0 to %d (7.1.5, 7.1.5a, 7.1.7)", v.n, maxTECMP)
		}
	}
	return out, nil
}

// EntryMP is the MP cost to enter a hex of a terrain on a game turn
// (3.5.3: regular Bottomland costs more from October, GT 19).
func (t *tec) EntryMP(terrain string, gt int) int {
	r := t.Terrain[terrain]
	if gt >= 19 && r.MPOctober > 0 {
		return r.MPOctober
	}
	return r.MP
}

func (t *tec) String() string { return fmt.Sprintf("TEC(%d terrains)", len(t.Terrain)) }
