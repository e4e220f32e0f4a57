package perrote

// armament is a weapon a squad or vehicle carries (the army lists).
type armament struct {
	Weapon string // a Weapons key
	Count  int
	// Range, when not 0, replaces the table range (the M16 carbine shoots
	// four hexes, the M203 grenade launcher two).
	Range int
	// OneShot: a single shot for the whole game (Javelin, LAW80).
	OneShot bool
	// NotOnMove: cannot fire when the vehicle moved (TOW).
	NotOnMove bool
	Note      string
}

// VehicleType is a vehicle of the army lists: its armor class and its
// weapons in fire groups, of which it fires one a turn: the main weapon, or
// a heavy secondary weapon, or all its lighter weapons together (Vehicle
// Weapons).
type VehicleType struct {
	Key, Name, Army string
	Armor           armor
	FireGroups      [][]armament
	// Reactive: explosive reactive armor, +1 against missiles and RPGs
	// (Body Armor/Reactive Vehicle Armor).
	Reactive bool
	// Passengers it carries; FiringPorts lets them fire from inside with
	// the lighter weapons.
	Passengers  int
	FiringPorts bool
}

// vehicleTypes are the vehicles of the rulebook's army lists.
var vehicleTypes = []VehicleType{
	{Key: "bmp3", Name: "BMP-3", Army: "russian", Armor: afv, Passengers: 7, FiringPorts: true, FireGroups: [][]armament{
		{{Weapon: "light_tank_gun", Count: 1}},
		{{Weapon: "heavy_missile", Count: 1, Note: "fired from the gun, also on the move"}},
		{{Weapon: "autocannon", Count: 1}},
		{{Weapon: "lmg", Count: 1}},
	}},
	{Key: "t80uk", Name: "T80-UK", Army: "russian", Armor: mbt, Reactive: true, FireGroups: [][]armament{
		{{Weapon: "tank_gun", Count: 1}},
		{{Weapon: "heavy_missile", Count: 1, Note: "fired from the gun, also on the move"}},
		{{Weapon: "lmg", Count: 1, Note: "turret"}, {Weapon: "hmg", Count: 1, Note: "antiaircraft"}},
	}},
	{Key: "bradley", Name: "Bradley Infantry Fighting Vehicle", Army: "american", Armor: afv, Passengers: 7, FiringPorts: true, FireGroups: [][]armament{
		{{Weapon: "autocannon", Count: 1}},
		{{Weapon: "heavy_missile", Count: 1, NotOnMove: true, Note: "TOW"}},
		{{Weapon: "lmg", Count: 1}},
	}},
	{Key: "m1", Name: "M1 Abrams", Army: "american", Armor: mbt, FireGroups: [][]armament{
		{{Weapon: "tank_gun", Count: 1}},
		{{Weapon: "hmg", Count: 1}, {Weapon: "lmg", Count: 2, Note: "co-axial and loader's hatch"}},
	}},
	{Key: "warrior", Name: "Warrior", Army: "british", Armor: afv, FiringPorts: true, FireGroups: [][]armament{
		{{Weapon: "autocannon", Count: 1}},
		{{Weapon: "heavy_missile", Count: 1, NotOnMove: true, Note: "TOW"}},
		{{Weapon: "lmg", Count: 1}},
	}},
	{Key: "challenger2", Name: "Challenger 2", Army: "british", Armor: mbt, FireGroups: [][]armament{
		{{Weapon: "tank_gun", Count: 1}},
		{{Weapon: "lmg", Count: 2}},
	}},
}

// squadType is an infantry unit of the army lists.
type squadType struct {
	Key, Name, Army string
	// Men is the usual size; MinMen and MaxMen bound a variable one.
	Men, MinMen, MaxMen int
	Weapons             []armament
	// SplitsInto names the independent units it may split into.
	SplitsInto []string
	Special    bool // special forces (Morale)
	// Heroic describes when it is heroic (Heroic); empty if never.
	Heroic string
	// Sneak describes its sneak attack (Sneak Attack); empty if none.
	Sneak string
}

// squadTypes are the infantry of the rulebook's army lists.
var squadTypes = []squadType{
	{Key: "russian_squad", Name: "Russian infantry squad", Army: "russian", Men: 7, MinMen: 7, MaxMen: 7,
		Weapons: []armament{{Weapon: "lmg", Count: 2}, {Weapon: "rpg", Count: 1, Note: "RPG-17"}, {Weapon: "assault", Count: 5, Note: "AK-47"}},
		Heroic:  "within one hex of the enemy"},
	{Key: "spetsnaz", Name: "Spetznaz", Army: "russian", Men: 6, MinMen: 3, MaxMen: 10, Special: true,
		Weapons: []armament{{Weapon: "assault", Count: 0, Note: "AKs and scrounged NATO weapons"}, {Weapon: "sniper", Count: 1}, {Weapon: "lmg", Count: 1, Note: "maybe"}},
		Sneak:   "enter from a board edge"},
	{Key: "us_squad", Name: "American infantry squad", Army: "american", Men: 9, MinMen: 9, MaxMen: 9,
		Weapons: []armament{
			{Weapon: "assault", Count: 9, Range: 4, Note: "M16 carbine"},
			{Weapon: "ap_grenade", Count: 9, Range: 2, Note: "M203, antipersonnel or smoke"},
			{Weapon: "lmg", Count: 2, Note: "SAW, one per fire team"},
			{Weapon: "heavy_missile", Count: 1, OneShot: true, Note: "Javelin, one fire team"},
		},
		SplitsInto: []string{"fire team (4)", "fire team (4)", "squad leader (1)"}},
	{Key: "pathfinders", Name: "Pathfinders", Army: "american", Men: 6, MinMen: 6, MaxMen: 6, Special: true,
		Weapons: []armament{
			{Weapon: "sniper", Count: 3},
			{Weapon: "assault", Count: 3, Range: 4, Note: "M16 carbine"},
			{Weapon: "ap_grenade", Count: 3, Range: 2, Note: "M203"},
		},
		SplitsInto: []string{"sniper/spotter team (2)", "sniper/spotter team (2)", "sniper/spotter team (2)"},
		Sneak:      "placed anywhere on the table"},
	{Key: "british_squad", Name: "British infantry squad", Army: "british", Men: 8, MinMen: 8, MaxMen: 8,
		Weapons: []armament{
			{Weapon: "lmg", Count: 2},
			{Weapon: "assault", Count: 6, Note: "riflemen"},
			{Weapon: "heavy_missile", Count: 1, OneShot: true, Note: "LAW80, one fire team"},
		},
		SplitsInto: []string{"fire team (4)", "fire team (4)"}},
}
