package perrote

// The rulebook has no numbered rules: its sections are cited by their
// headings, as these names.
const (
	ruleTurnOrder   = "Turn Order"
	ruleMovement    = "Movement"
	ruleShooting    = "Shooting"
	ruleVehicles    = "Vehicles"
	ruleTanks       = "Tanks"
	ruleAFV         = "APC/AFVs"
	ruleDamage      = "Vehicle Damage"
	ruleSuppression = "Kill fire/suppression fire"
	ruleMorale      = "Morale"
	ruleCasualties  = "Casualties"
	ruleCover       = "Cover"
	ruleHandToHand  = "Hand to Hand"
	ruleBodyArmor   = "Body Armor/Reactive Vehicle Armor"
	ruleHeroic      = "Heroic"
	ruleSneak       = "Sneak Attack/Forward Deployment"
	ruleSmoke       = "Smoke Launchers"
	ruleMortars     = "Mortars"
	// ruleVehicleWeapons: one weapon group a turn.
	ruleVehicleWeapons = "Vehicle Weapons"
	// ruleVictory: victory is the scenario's (the text leaves it to the
	// players).
	ruleVictory = "Victory (scenario)"
)
