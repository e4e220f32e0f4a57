package sms1914

import (
	"fmt"
	"slices"
	"strings"
)

// TEC is the Terrain Effects Chart (7.1.3, 9.3): not in the rule text, it
// comes from the table file's [tec] section. The text gives a few values
// (Lowland 2 MP, Bottomland 2 MP and 3 from GT 19, High Mountain 4 MP, Low
// Mountain +3 DS, a minor river -2 AS for each attacking Force); the demo
// file holds them and invents the rest.
type TEC struct {
	Terrain map[string]TerrainEffects
	Hexside map[string]HexsideEffects
	// Bridge and Ferry replace the river hexside's MP cost (7.1.5,
	// 7.1.5a); Roadway replaces the hex terrain cost of a hex entered
	// along a roadway (7.1.7).
	Bridge, Ferry, Roadway int
}

// TerrainEffects are a hex terrain's row.
type TerrainEffects struct {
	MP         int // to enter
	MPOctober  int // to enter from GT 19 (3.5.3); 0 = as MP
	Defense    int // DS added to a defending stack, one bonus per hex (9.3.1)
	AttackFrom int // AS change of each Force attacking from this hex (9.3.2)
}

// HexsideEffects are a hexside feature's row.
type HexsideEffects struct {
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
var tecHexsides = []string{SideMinor, SideMajor, SideSava, SideSavaIsle, SideSavaBend, SideDonau, SideDonauIsle}

// TEC is the file's Terrain Effects Chart, checked whole: every terrain but
// impassable and every crossable hexside feature has an MP cost.
func (t *Tables) TEC() (*TEC, error) {
	if err := t.missing("tec.terrain", "tec.hexside", "tec.bridge", "tec.ferry", "tec.roadway"); err != nil {
		return nil, err
	}
	f := t.file.TEC
	out := &TEC{Terrain: map[string]TerrainEffects{}, Hexside: map[string]HexsideEffects{}, Bridge: *f.Bridge, Ferry: *f.Ferry, Roadway: *f.Roadway}
	for _, name := range terrains {
		if name == "impassable" {
			continue
		}
		r, ok := f.Terrain[name]
		if !ok {
			return nil, t.bad("tec.terrain."+name, "missing: the TEC has a row for every terrain (%s)", strings.Join(terrains[:len(terrains)-1], ", "))
		}
		if r.MP == nil || *r.MP < 1 || *r.MP > 20 {
			return nil, t.bad("tec.terrain."+name, "mp: want the MP cost to enter, 1 to 20 (7.1.3)")
		}
		out.Terrain[name] = TerrainEffects{MP: *r.MP, MPOctober: r.MPOctober, Defense: r.Defense, AttackFrom: r.AttackFrom}
	}
	for name := range f.Terrain {
		if !slices.Contains(terrains, name) || name == "impassable" {
			return nil, t.bad("tec.terrain."+name, "unknown terrain: want %s", strings.Join(terrains[:len(terrains)-1], ", "))
		}
	}
	for _, name := range tecHexsides {
		r, ok := f.Hexside[name]
		if !ok || r.MP == nil || *r.MP < 0 || *r.MP > 20 {
			return nil, t.bad("tec.hexside."+name, "missing or bad mp: the TEC has an MP cost for every river hexside (%s)", strings.Join(tecHexsides, ", "))
		}
		out.Hexside[name] = HexsideEffects{MP: *r.MP, Attack: r.Attack}
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
		if v.n < 0 || v.n > 20 {
			return nil, t.bad(v.name, "%d: want an MP cost from 0 to 20", v.n)
		}
	}
	return out, nil
}

// EntryMP is the MP cost to enter a hex of a terrain on a game turn
// (3.5.3: regular Bottomland costs more from October, GT 19).
func (t *TEC) EntryMP(terrain string, gt int) int {
	r := t.Terrain[terrain]
	if gt >= 19 && r.MPOctober > 0 {
		return r.MPOctober
	}
	return r.MP
}

func (t *TEC) String() string { return fmt.Sprintf("TEC(%d terrains)", len(t.Terrain)) }
