package perrote

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds the army lists as unit templates a scenario names
// (russian-squad, bradley...): the men of each squad with the weapons each
// carries, and the vehicles of forces.go with their fire groups. Each model
// fires one of its weapons a turn (docs/rulings.md, Casualties).

// Unit kinds.
const (
	kindTroops       = "troops"
	kindVehicle      = "vehicle"
	kindLightVehicle = "light_vehicle"
)

// template is a unit a scenario can name by its key.
type template struct {
	Key, Name, Army string
	Kind            string
	// Models are the men (or light vehicles) in loadout notation
	// (ParseLoadout): "2x lmg", "assault:4+ap_grenade:2 @A".
	Models []string
	// Vehicle is the vehicle of forces.go, for vehicles.
	Vehicle *VehicleType
	// Capacity in passengers, when forces.go gives none.
	Capacity int
	// Smoke: carries smoke launchers (stand-in: the army lists do not say).
	Smoke   bool
	Special bool
	Heroic  string // "", "always", "near", "charge", "loss"
	Sneak   string // "", "edge", "anywhere"
	// StandIn says what the template invents that the text does not give.
	StandIn string
}

const (
	m16  = "assault:4+ap_grenade:2" // M16 carbine (4 hexes) with M203 (2 hexes)
	saw  = "lmg+" + m16
	jav  = m16 + "+heavy_missile*1" // Javelin: one shot
	law  = "assault+heavy_missile*1"
	smk  = "MBTs and AFVs carry smoke launchers: the army lists do not say"
	port = "firing ports carry the passengers' small arms"
)

func vehicleType(key string) *VehicleType {
	for i := range vehicleTypes {
		if vehicleTypes[i].Key == key {
			return &vehicleTypes[i]
		}
	}
	panic("perrote: no vehicle type " + key)
}

// templates are the units of the army lists, in the text's order.
var templates = []template{
	{Key: "russian-squad", Name: "Russian squad", Army: "russian", Kind: kindTroops, Heroic: "near",
		Models: []string{"2x lmg", "rpg+assault", "4x assault"}},
	{Key: "spetsnaz", Name: "Spetsnaz", Army: "russian", Kind: kindTroops, Special: true, Sneak: "edge",
		Models: []string{"sniper", "lmg", "4x assault"}},
	{Key: "bmp-3", Name: "BMP-3", Army: "russian", Kind: kindVehicle, Vehicle: vehicleType("bmp3"), Smoke: true, StandIn: smk},
	{Key: "t80-uk", Name: "T80-UK", Army: "russian", Kind: kindVehicle, Vehicle: vehicleType("t80uk"), Smoke: true, StandIn: smk},
	{Key: "us-squad", Name: "US squad", Army: "american", Kind: kindTroops,
		Models: []string{saw + " @A", "2x " + m16 + " @A", jav + " @A", saw + " @B", "3x " + m16 + " @B", m16 + " @L"}},
	{Key: "us-fire-team", Name: "US fire team", Army: "american", Kind: kindTroops,
		Models: []string{saw, "3x " + m16}},
	{Key: "us-javelin-team", Name: "US fire team with Javelin", Army: "american", Kind: kindTroops,
		Models: []string{saw, "2x " + m16, jav}},
	{Key: "pathfinders", Name: "Pathfinders", Army: "american", Kind: kindTroops, Special: true, Sneak: "anywhere",
		Models: []string{"sniper @A", m16 + " @A", "sniper @B", m16 + " @B", "sniper @C", m16 + " @C"}},
	{Key: "pathfinder-team", Name: "Pathfinder sniper team", Army: "american", Kind: kindTroops, Special: true, Sneak: "anywhere",
		Models: []string{"sniper", m16}},
	{Key: "bradley", Name: "Bradley IFV", Army: "american", Kind: kindVehicle, Vehicle: vehicleType("bradley"), Smoke: true, StandIn: smk},
	{Key: "m1-abrams", Name: "M1 Abrams", Army: "american", Kind: kindVehicle, Vehicle: vehicleType("m1"), Smoke: true, StandIn: smk},
	{Key: "british-squad", Name: "British squad", Army: "british", Kind: kindTroops,
		Models: []string{"lmg @A", "2x assault @A", law + " @A", "lmg @B", "3x assault @B"}},
	{Key: "british-fire-team", Name: "British fire team", Army: "british", Kind: kindTroops,
		Models: []string{"lmg", "3x assault"}},
	{Key: "warrior", Name: "Warrior AFV", Army: "british", Kind: kindVehicle, Vehicle: vehicleType("warrior"), Capacity: 8, Smoke: true,
		StandIn: smk + "; the Warrior's capacity (8, a British squad) is not in the text"},
	{Key: "challenger-2", Name: "Challenger 2", Army: "british", Kind: kindVehicle, Vehicle: vehicleType("challenger2"), Smoke: true, StandIn: smk},
	{Key: "mortar-team", Name: "Mortar team", Army: "any", Kind: kindTroops,
		Models: []string{"mortar", "2x assault"}, StandIn: "the army lists have no mortars: a three-man team with one mortar"},
}

// templateByKey finds a unit template.
func templateByKey(key string) (template, bool) {
	for _, t := range templates {
		if t.Key == key {
			return t, true
		}
	}
	return template{}, false
}

// templateKeys lists the templates' keys.
func templateKeys() []string {
	out := make([]string, len(templates))
	for i, t := range templates {
		out[i] = t.Key
	}
	return out
}

// parseLoadout reads one entry of a models list: "[N x ]arm[+arm...][ @TEAM]",
// each arm "weapon[:range][*1]" (range replaces the table's; *1 is one shot
// a game). It returns N models, each with the arms.
func parseLoadout(s string) ([]model, error) {
	t := strings.TrimSpace(s)
	team := ""
	if a, b, ok := strings.Cut(t, "@"); ok {
		t, team = strings.TrimSpace(a), strings.TrimSpace(b)
		if team == "" || strings.ContainsAny(team, " +:*") {
			return nil, fmt.Errorf("loadout %q: want a team name after @, like @A", s)
		}
	}
	n := 1
	if a, b, ok := strings.Cut(t, "x "); ok && allDigits(strings.TrimSpace(a)) {
		v, err := strconv.Atoi(strings.TrimSpace(a))
		if err != nil || v < 1 || v > 50 {
			return nil, fmt.Errorf("loadout %q: want a count from 1 to 50 before x", s)
		}
		n, t = v, strings.TrimSpace(b)
	}
	if t == "" {
		return nil, fmt.Errorf("loadout %q: name at least one weapon", s)
	}
	var arms []arm
	for _, part := range strings.Split(t, "+") {
		a, err := parseArm(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("loadout %q: %w", s, err)
		}
		arms = append(arms, a)
	}
	out := make([]model, n)
	for i := range out {
		out[i] = model{Arms: cloneArms(arms), Team: team}
	}
	return out, nil
}

func parseArm(s string) (arm, error) {
	var a arm
	if k, ok := strings.CutSuffix(s, "*1"); ok {
		s, a.OneShot = k, true
	}
	if k, r, ok := strings.Cut(s, ":"); ok {
		v, err := strconv.Atoi(r)
		if err != nil || v < 1 || v > 99 {
			return a, fmt.Errorf("weapon %q: want a range from 1 to 99 after the colon", s)
		}
		s, a.Range = k, v
	}
	w, err := weaponByKey(s)
	if err != nil {
		return a, fmt.Errorf("no weapon %q (weapons: %s)", s, strings.Join(weaponKeys(), ", "))
	}
	if a.Range > w.Range*2 {
		return a, fmt.Errorf("weapon %q: range %d is more than twice the table's %d", s, a.Range, w.Range)
	}
	a.Weapon = w.Key
	return a, nil
}

func cloneArms(arms []arm) []arm {
	out := make([]arm, len(arms))
	copy(out, arms)
	return out
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// formatArm writes an arm in loadout notation.
func formatArm(a arm) string {
	s := a.Weapon
	if a.Range > 0 {
		s += ":" + strconv.Itoa(a.Range)
	}
	if a.OneShot {
		s += "*1"
	}
	return s
}
