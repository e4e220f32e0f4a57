package perrote

import "fmt"

// weapon is one line of the weapon table (Shooting and the weapon
// paragraphs after it). Modifiers are added to the target's wound number:
// a negative one makes the target easier to hit.
type weapon struct {
	Key  string // the calculator's and orders' spelling: rpg, tank_gun...
	Name string
	Rule string // the rulebook section that describes it
	// Range is in hexes, not counting the firer's own hex (Shooting).
	Range int
	// Dice is the dice rolled; for a hex weapon, per model in the hex.
	Dice int
	// Hex weapons affect a whole hex and roll per model in it.
	Hex bool
	// StillPerModel: one more die per model in the hex when the weapon did
	// not move (flamethrower, RPG, heavy missile, tank guns). Other weapons
	// that stand still get the single extra die of Movement.
	StillPerModel bool
	// TroopMod and VehicleMod modify the wound number of troops (and
	// light vehicles, which are shot at as troops) and of vehicles.
	TroopMod, VehicleMod int
	// IgnoresCover: the target's cover modifiers do not count
	// (Flamethrowers).
	IgnoresCover bool
	// Indirect: not blocked by terrain; the hex hit roll is Mortars'.
	Indirect bool
	// AlwaysSuppresses: every shot counts as both suppression fire and
	// kill fire.
	AlwaysSuppresses bool
	// NoMoveAndFire: cannot move and fire in the same turn (Sniper Rifles).
	NoMoveAndFire bool
	// OneShot: one shot a turn, so no extra die for standing still
	// (Sniper Rifles).
	OneShot bool
	// TroopsFireStill: troops cannot move and fire it, so fired by troops
	// it always gains the extra die (Heavy Machineguns, Heavy Missiles).
	TroopsFireStill bool
	// VehicleOnly: only vehicle mounted (Automatic cannons).
	VehicleOnly bool
	// SmallArms: body armor works against it (rifles, machineguns and
	// like weapons: Body Armor).
	SmallArms bool
	// Missile: reactive vehicle armor works against it (missiles and
	// RPGs, never tank main guns: Body Armor/Reactive Vehicle Armor).
	Missile bool
	// AntiTank: carried by troops to kill vehicles (antitank grenades,
	// RPGs, heavy missiles such as the Javelin and LAW80).
	AntiTank bool
}

// weapons is the weapon table, in the rulebook's order.
var weapons = []weapon{
	// Pistols: one hex, one die, no special effects.
	{Key: "pistol", Name: "pistol", Rule: "Pistols", Range: 1, Dice: 1, SmallArms: true},
	// Antipersonnel Grenades: one hex, whole hex, one die per model; the
	// text adds one to the wound number of personnel.
	{Key: "ap_grenade", Name: "antipersonnel grenade", Rule: "Antipersonnel Grenades", Range: 1, Dice: 1, Hex: true, TroopMod: +1},
	// Antitank Grenades/Satchel Charges: one hex, whole hex, -1 vehicles.
	{Key: "at_grenade", Name: "antitank grenade", Rule: "Antitank Grenades/Satchel Charges", Range: 1, Dice: 1, Hex: true, VehicleMod: -1, AntiTank: true},
	// Assault Weapons: five hexes, two dice.
	{Key: "assault", Name: "assault weapon", Rule: "Assault Weapons", Range: 5, Dice: 2, SmallArms: true},
	// Sniper Rifles: ten hexes, one die, one shot, no move and fire.
	{Key: "sniper", Name: "sniper rifle", Rule: "Sniper Rifles", Range: 10, Dice: 1, NoMoveAndFire: true, OneShot: true, AlwaysSuppresses: true, SmallArms: true},
	// Light Machineguns: five hexes, five dice, -1 troops.
	{Key: "lmg", Name: "light machinegun", Rule: "Light Machineguns", Range: 5, Dice: 5, TroopMod: -1, SmallArms: true},
	// Heavy Machineguns: ten hexes, five dice, -2 troops, -1 vehicles.
	{Key: "hmg", Name: "heavy machinegun", Rule: "Heavy Machineguns", Range: 10, Dice: 5, TroopMod: -2, VehicleMod: -1, TroopsFireStill: true, AlwaysSuppresses: true, SmallArms: true},
	// Flamethrowers: two hexes, whole hex, -1 troops, ignores cover.
	{Key: "flamethrower", Name: "flamethrower", Rule: "Flamethrowers", Range: 2, Dice: 1, Hex: true, StillPerModel: true, TroopMod: -1, IgnoresCover: true, AlwaysSuppresses: true},
	// Mortars: fifteen hexes, whole hex, -1 troops, +1 vehicles.
	{Key: "mortar", Name: "mortar", Rule: "Mortars", Range: 15, Dice: 1, Hex: true, TroopMod: -1, VehicleMod: +1, Indirect: true},
	// RPG's/Light Missiles: ten hexes, whole hex, -1 troops, -2 vehicles.
	{Key: "rpg", Name: "RPG", Rule: "RPGs/Light Missiles", Range: 10, Dice: 1, Hex: true, StillPerModel: true, TroopMod: -1, VehicleMod: -2, AlwaysSuppresses: true, Missile: true, AntiTank: true},
	// Heavy Missiles: twenty hexes, whole hex, -3 troops and vehicles.
	{Key: "heavy_missile", Name: "heavy missile", Rule: "Heavy Missiles", Range: 20, Dice: 1, Hex: true, StillPerModel: true, TroopMod: -3, VehicleMod: -3, TroopsFireStill: true, AlwaysSuppresses: true, Missile: true, AntiTank: true},
	// Automatic cannons: fifteen hexes, five dice, -3 troops and vehicles.
	{Key: "autocannon", Name: "automatic cannon", Rule: "Automatic cannons", Range: 15, Dice: 5, TroopMod: -3, VehicleMod: -3, VehicleOnly: true, AlwaysSuppresses: true},
	// Tank Main Guns: fifteen hexes, whole hex, two dice per model, -4.
	{Key: "tank_gun", Name: "tank main gun", Rule: "Tank Main Guns", Range: 15, Dice: 2, Hex: true, StillPerModel: true, TroopMod: -4, VehicleMod: -4, AlwaysSuppresses: true},
	// BMP-3's light MBT gun: a tank main gun that subtracts only two.
	{Key: "light_tank_gun", Name: "light tank gun", Rule: "BMP-3s", Range: 15, Dice: 2, Hex: true, StillPerModel: true, TroopMod: -2, VehicleMod: -2, AlwaysSuppresses: true},
}

// weaponKeys lists the weapons' keys in table order.
func weaponKeys() []string {
	keys := make([]string, len(weapons))
	for i, w := range weapons {
		keys[i] = w.Key
	}
	return keys
}

// weaponByKey finds a weapon by its key.
func weaponByKey(key string) (weapon, error) {
	for _, w := range weapons {
		if w.Key == key {
			return w, nil
		}
	}
	return weapon{}, fmt.Errorf("perrote: no weapon %q", key)
}

// DiceCount is the dice the weapon rolls (Shooting, Movement): its dice,
// times the models in the target hex for a hex weapon; standing still adds
// one die per model for the weapons that say so and one die for the others,
// except a one-shot sniper rifle.
func (w weapon) DiceCount(models int, moved bool) int {
	n := w.Dice
	if w.Hex {
		n *= models
	}
	switch {
	case moved || w.OneShot:
		return n
	case w.StillPerModel:
		return n + models
	}
	return n + 1
}
