package perrote

// target is what is shot at (Shooting, Movement).
type target int

// The targets. Light vehicles (motorbikes) are shot at as troops.
const (
	troops target = iota
	vehicle
	lightVehicle
)

// BaseWound is the target's wound number before modifiers (Shooting):
// troops 4+, vehicles 6+; a light vehicle counts as troops (Movement).
func (t target) BaseWound() int {
	if t == vehicle {
		return 6
	}
	return 4
}

// ShotAsTroops reports whether the weapons' troop modifiers and body armor
// apply: troops, and light vehicles, which count as troops when shot at
// (Movement).
func (t target) ShotAsTroops() bool { return t != vehicle }

// armor is a vehicle's armor class (Vehicles).
type armor int

// The armor classes: none (soft or all-round simple armor), a main battle
// tank, an armored fighting vehicle or APC.
const (
	noArmor armor = iota
	mbt
	afv
)

// facing is the side of a vehicle a shot strikes.
type facing int

// The facings.
const (
	front facing = iota
	side
	rear
)

// armorModifier is what the armor adds to the vehicle's wound number from
// that facing: an MBT +2 front, +1 side (Tanks); an AFV +1 front, -1 rear
// (APC/AFVs).
func armorModifier(a armor, f facing) int {
	switch a {
	case mbt:
		switch f {
		case front:
			return 2
		case side:
			return 1
		}
	case afv:
		switch f {
		case front:
			return 1
		case rear:
			return -1
		}
	}
	return 0
}

// cover is the cover a target benefits from (Cover).
type cover int

// The covers: light (trees, chain link fences, smoke) +1, heavy
// (foxholes, craters, walls, building windows, a hill) +2.
const (
	noCover cover = iota
	lightCover
	heavyCover
)

// Modifier is what the cover adds to the wound number (Cover).
func (c cover) Modifier() int {
	switch c {
	case lightCover:
		return 1
	case heavyCover:
		return 2
	}
	return 0
}

// bodyArmor is the body armor (or reactive vehicle armor) option a target
// uses (Body Armor/Reactive Vehicle Armor).
type bodyArmor int

// The options: none; +1 to the wound number; or the shooter re-rolls, once,
// each die that hit.
const (
	noBodyArmor bodyArmor = iota
	plusOne
	reroll
)

// Works reports whether the target's body or reactive armor works against
// the weapon: body armor only against rifles, machineguns and like weapons;
// vehicle (reactive) armor only against missiles and RPGs, never tank main
// guns (Body Armor/Reactive Vehicle Armor).
func (b bodyArmor) Works(t target, w weapon) bool {
	if b == noBodyArmor {
		return false
	}
	if t.ShotAsTroops() {
		return w.SmallArms
	}
	return w.Missile
}
