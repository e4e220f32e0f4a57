package bu

import "github.com/umpire-pbem/umpire/adjudicator/kit"

// terrain is the terrain of the defending space (1.2.8). Trench is not a
// terrain type but the effect of a completed Entrenchment marker, which may
// lie in a space of any terrain (13.3.5); it is passed separately.
type terrain string

// The terrain types of 1.2.8.
const (
	Clear    terrain = "clear"
	mountain terrain = "mountain"
	swamp    terrain = "swamp"
	city     terrain = "city"
	river    terrain = "river"
)

// terrains lists the terrain types in the order of the 1.2.8 table.
var terrains = []terrain{Clear, mountain, swamp, city, river}

// terrainEffect is what the defending space does to a battle: the rows of
// the 1.2.8 terrain table, with a completed entrenchment added.
type terrainEffect struct {
	AttackerDRM int // DRM column, the attacker's part (negative)
	DefenderDRM int // DRM column, the defender's part
	// AttackerMods and DefenderMods are the DRMs each named with its
	// rule: they sum to AttackerDRM and DefenderDRM.
	AttackerMods, DefenderMods kit.Modifiers
	DefenderFiresFirst         bool // Def f/f (River, 13.4.4.2)
	MayIgnoreRetreat           bool // No Ret (13.4.8.1)
	HaltsAdvance               bool // Halt (13.4.9.2)
}

// effects returns the 1.2.8 effects of defending in terrain t, with a
// completed entrenchment when trench is set. An entrenchment adds its own
// row to the space's terrain (ruling: cumulative, 13.3.5 lets it be built
// in any terrain). The river row's DRM and fire-first effects apply only
// when every attacking unit attacks across the river (13.4.4.2): pass
// allAcross false when one does not.
func effects(t terrain, trench, allAcross bool) terrainEffect {
	var e terrainEffect
	switch t {
	case mountain, swamp:
		e.AttackerDRM = -2
		e.MayIgnoreRetreat = true
		e.HaltsAdvance = true
	case city:
		e.AttackerDRM = -4
		e.MayIgnoreRetreat = true
	case river:
		if allAcross {
			e.AttackerDRM = -4
			e.DefenderFiresFirst = true
		}
		e.HaltsAdvance = true
	}
	if e.AttackerDRM != 0 {
		rule := "1.2.8"
		if t == river {
			rule = "1.2.8, 13.4.4.2"
			e.AttackerMods.Add(e.AttackerDRM, "across the river", rule)
		} else {
			e.AttackerMods.Add(e.AttackerDRM, string(t), rule)
		}
	}
	if trench {
		e.AttackerDRM -= 2
		e.DefenderDRM += 2
		e.MayIgnoreRetreat = true
		e.AttackerMods.Add(-2, "entrenchment", "1.2.8, 13.3.5")
		e.DefenderMods.Add(2, "entrenchment", "1.2.8, 13.3.5")
	}
	return e
}

// bosniakDRM is the Bosniak negative DRM on every combat roll of theirs in
// turn (13.4.4.3; in the 2-player game when half or more of the troops in
// the battle are Bosniak, 14.6.2): -2 on turn 1, -1 on turn 2, none after.
func bosniakDRM(turn int) int {
	switch turn {
	case 1:
		return -2
	case 2:
		return -1
	}
	return 0
}
