package perrote

// Target is what is shot at (Shooting, Movement).
type Target int

// The targets. Light vehicles (motorbikes) are shot at as troops.
const (
	Troops Target = iota
	Vehicle
	LightVehicle
)

// BaseWound is the target's wound number before modifiers (Shooting):
// troops 4+, vehicles 6+; a light vehicle counts as troops (Movement).
func (t Target) BaseWound() int {
	if t == Vehicle {
		return 6
	}
	return 4
}

// ShotAsTroops reports whether the weapons' troop modifiers and body armor
// apply: troops, and light vehicles, which count as troops when shot at
// (Movement).
func (t Target) ShotAsTroops() bool { return t != Vehicle }

// Armor is a vehicle's armor class (Vehicles).
type Armor int

// The armor classes: none (soft or all-round simple armor), a main battle
// tank, an armored fighting vehicle or APC.
const (
	NoArmor Armor = iota
	MBT
	AFV
)

// Facing is the side of a vehicle a shot strikes.
type Facing int

// The facings.
const (
	Front Facing = iota
	Side
	Rear
)

// ArmorModifier is what the armor adds to the vehicle's wound number from
// that facing: an MBT +2 front, +1 side (Tanks); an AFV +1 front, -1 rear
// (APC/AFVs).
func ArmorModifier(a Armor, f Facing) int {
	switch a {
	case MBT:
		switch f {
		case Front:
			return 2
		case Side:
			return 1
		}
	case AFV:
		switch f {
		case Front:
			return 1
		case Rear:
			return -1
		}
	}
	return 0
}

// Cover is the cover a target benefits from (Cover).
type Cover int

// The covers: light (trees, chain link fences, smoke) +1, heavy
// (foxholes, craters, walls, building windows, a hill) +2.
const (
	NoCover Cover = iota
	LightCover
	HeavyCover
)

// Modifier is what the cover adds to the wound number (Cover).
func (c Cover) Modifier() int {
	switch c {
	case LightCover:
		return 1
	case HeavyCover:
		return 2
	}
	return 0
}

// BodyArmor is the body armor (or reactive vehicle armor) option a target
// uses (Body Armor/Reactive Vehicle Armor).
type BodyArmor int

// The options: none; +1 to the wound number; or the shooter re-rolls, once,
// each die that hit.
const (
	NoBodyArmor BodyArmor = iota
	PlusOne
	Reroll
)

// Works reports whether the target's body or reactive armor works against
// the weapon: body armor only against rifles, machineguns and like weapons;
// vehicle (reactive) armor only against missiles and RPGs, never tank main
// guns (Body Armor/Reactive Vehicle Armor).
func (b BodyArmor) Works(t Target, w Weapon) bool {
	if b == NoBodyArmor {
		return false
	}
	if t.ShotAsTroops() {
		return w.SmallArms
	}
	return w.Missile
}
