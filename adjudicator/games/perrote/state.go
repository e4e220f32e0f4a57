package perrote

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// State is a game of Per Rote in progress: everything the next turn needs,
// self-contained (the scenario is copied in), encoded as JSON with sorted
// keys and slices so that replays compare bytes.
type State struct {
	Scenario string   `json:"scenario"`
	Title    string   `json:"title"`
	Notices  []string `json:"notices,omitempty"` // stand-in data
	// Turn is the turns done; the open step is turn Turn+1.
	Turn  int       `json:"turn"`
	Turns int       `json:"turns"`
	Board boardSpec `json:"board"`
	// Terrain of each hex that is not open, by hex id.
	Terrain    map[string]string `json:"terrain,omitempty"`
	Hexsides   []hexsideSpec     `json:"hexsides,omitempty"`
	Objectives []objective       `json:"objectives,omitempty"`
	Victory    []victory         `json:"victory,omitempty"`
	// Rules are the special rules in force: body_armor, heroic, sneak,
	// nbc, reactive_armor.
	Rules      []string     `json:"rules,omitempty"`
	StackLimit int          `json:"stack_limit"`
	SneakRoll  bool         `json:"sneak_roll,omitempty"`
	Sides      []sideInfo   `json:"sides"`
	Units      []*unitState `json:"units"`
	Smoke      []smoke      `json:"smoke,omitempty"`
	NBC        *nbc         `json:"nbc,omitempty"`
	// Trace is what the last turn did, for the map's arrows.
	Trace  []trace `json:"trace,omitempty"`
	Over   bool    `json:"over,omitempty"`
	Winner string  `json:"winner,omitempty"`
	Result string  `json:"result,omitempty"`
}

// boardSpec is the hex grid.
type boardSpec struct {
	Cols        int    `json:"cols"`
	Rows        int    `json:"rows"`
	Orientation string `json:"orientation"` // flat or pointy
	IDs         string `json:"ids"`         // CCRR or CC.RR
	FirstCol    int    `json:"first_col"`
	FirstRow    int    `json:"first_row"`
}

// Grid is the board as a board.Grid.
func (b boardSpec) Grid() board.Grid {
	g := board.Grid{Cols: b.Cols, Rows: b.Rows, FirstCol: b.FirstCol, FirstRow: b.FirstRow}
	if b.Orientation == "pointy" {
		g.Orientation = board.PointyTop
	}
	if b.IDs == "CC.RR" {
		g.IDStyle = board.Dotted
	}
	return g
}

// hexsideSpec is linear cover on the side between two adjacent hexes.
type hexsideSpec struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Kind string `json:"kind"` // a LinearKinds key
}

// objective is a hex to hold.
type objective struct {
	Hex    string `json:"hex"`
	Name   string `json:"name"`
	Holder string `json:"holder,omitempty"`
}

// victory is a victory condition: "hold" (at the end, the side holding more
// objectives wins) or "destroy" (a side, or Side only, that has eliminated
// Share of the enemy's units wins at once).
type victory struct {
	Kind  string  `json:"kind"`
	Side  string  `json:"side,omitempty"`
	Share float64 `json:"share,omitempty"`
}

// sideInfo is a seat's side.
type sideInfo struct {
	Name      string `json:"name"`
	Color     string `json:"color"`
	BodyArmor string `json:"body_armor,omitempty"` // plus1 or reroll (Body Armor)
	Reactive  string `json:"reactive,omitempty"`   // plus1 or reroll (Reactive Vehicle Armor)
}

// arm is one weapon a model or vehicle carries.
type arm struct {
	Weapon    string `json:"weapon"`
	Range     int    `json:"range,omitempty"`    // replaces the table's range
	OneShot   bool   `json:"one_shot,omitempty"` // one shot a game (Javelin, LAW80)
	NotOnMove bool   `json:"not_on_move,omitempty"`
	Spent     bool   `json:"spent,omitempty"`
}

// model is one man (or light vehicle) of a unit.
type model struct {
	Arms []arm  `json:"arms"`
	Team string `json:"team,omitempty"` // the fire team it splits off with
}

// unitState is a squad, fire team or vehicle.
type unitState struct {
	ID   string `json:"id"`
	Side string `json:"side"`
	Name string `json:"name"`
	Type string `json:"type"` // template key, or "custom"
	Kind string `json:"kind"` // troops, vehicle, light_vehicle
	// Hex is where it is; "" when aboard a vehicle (Aboard) or off table
	// (Reserve).
	Hex      string  `json:"hex,omitempty"`
	Aboard   string  `json:"aboard,omitempty"`
	Reserve  bool    `json:"reserve,omitempty"`
	Sneak    string  `json:"sneak,omitempty"` // edge or anywhere
	Models   []model `json:"models,omitempty"`
	Original int     `json:"original"`
	// Vehicles.
	Armor    string  `json:"armor,omitempty"` // mbt, afv
	Facing   int     `json:"facing"`          // a board direction 0-5
	Groups   [][]arm `json:"groups,omitempty"`
	Capacity int     `json:"capacity,omitempty"`
	Ports    bool    `json:"ports,omitempty"`
	Smoke    bool    `json:"smoke,omitempty"`
	Reactive bool    `json:"reactive,omitempty"`
	// Vehicle damage (Vehicle Damage): StunnedTurn is the turn it misses;
	// Motive is "", damaged or crippled; FireControl "", damaged or
	// crippled; LastFired the last turn it fired with damaged fire control.
	StunnedTurn int    `json:"stunned_turn,omitempty"`
	Motive      string `json:"motive,omitempty"`
	FireControl string `json:"fire_control,omitempty"`
	LastFired   int    `json:"last_fired,omitempty"`
	Destroyed   bool   `json:"destroyed,omitempty"`
	// Troops.
	Special bool     `json:"special,omitempty"`
	Heroic  string   `json:"heroic,omitempty"`
	Teams   []string `json:"teams,omitempty"` // it may split into these teams
	// TeamSizes are the teams' original sizes.
	TeamSizes map[string]int `json:"team_sizes,omitempty"`
	// Priority is the standing casualty priority: weapon keys whose
	// carriers fall first (Casualties).
	Priority []string `json:"priority,omitempty"`
	// Suppression is suppression fire taken after it acted, counted
	// against its next turn order roll (Kill fire/suppression fire).
	Suppression int  `json:"suppression,omitempty"`
	NBCFree     bool `json:"nbc_free,omitempty"`
	// The last turn: its d20, its final number, the hexes it moved, and
	// whether it was suppressed.
	Roll       int  `json:"roll,omitempty"`
	Number     int  `json:"number,omitempty"`
	Moved      int  `json:"moved,omitempty"`
	Suppressed bool `json:"suppressed,omitempty"`
}

// smoke is smoke on the board (Smoke Launchers): a vehicle's launcher
// screen (Screen), which counts as light cover for a target fired at
// through it or in it, or a mortar's or grenade launcher's single hex of
// smoke, which is light cover to units in it and cannot be fired through.
type smoke struct {
	Hexes  []string `json:"hexes"`
	Placed int      `json:"placed"` // the turn it was laid
	Lasts  bool     `json:"lasts,omitempty"`
	Screen bool     `json:"screen,omitempty"`
}

// nbc is an NBC attack (NBC Attack!): Side's enemy (and Side too, unless
// Protected) counts as suppressed for Turns turns, rolled on the first.
type nbc struct {
	Side      string `json:"side"`
	Protected bool   `json:"protected,omitempty"`
	Turns     int    `json:"turns,omitempty"`
}

// trace is a move or a shot of the last turn.
type trace struct {
	Kind string `json:"kind"` // move or attack
	Unit string `json:"unit"`
	From string `json:"from"`
	To   string `json:"to"`
	// Path is the hexes a move went through, From first and To last,
	// when it went further than the next hex.
	Path []string `json:"path,omitempty"`
}

// Eliminated reports whether the unit is out of the game.
func (u *unitState) Eliminated() bool {
	if u.Kind == kindVehicle {
		return u.Destroyed
	}
	return len(u.Models) == 0
}

// IsVehicle reports whether it moves as a vehicle (Movement: light
// vehicles move as vehicles).
func (u *unitState) IsVehicle() bool { return u.Kind != kindTroops }

// ModelCount is the models that count in a hex: one for a vehicle.
func (u *unitState) ModelCount() int {
	if u.Kind == kindVehicle {
		return 1
	}
	return len(u.Models)
}

// Lost is the models it lost (Morale).
func (u *unitState) Lost() int {
	if u.Kind == kindVehicle {
		return 0
	}
	return u.Original - len(u.Models)
}

func decode(state []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("perrote: state: %w", err)
	}
	if s.Board.Cols <= 0 {
		return nil, fmt.Errorf("perrote: state: no board")
	}
	return &s, nil
}

// encode writes the state canonically: units by id, smoke and traces in
// order, maps with sorted keys (encoding/json).
func encode(s *State) ([]byte, error) {
	slices.SortFunc(s.Units, func(a, b *unitState) int { return strings.Compare(a.ID, b.ID) })
	return json.Marshal(s)
}

// unit finds a unit by id, case-insensitively.
func (s *State) unit(id string) *unitState {
	for _, u := range s.Units {
		if strings.EqualFold(u.ID, id) {
			return u
		}
	}
	return nil
}

func (s *State) inForce(rule string) bool { return slices.Contains(s.Rules, rule) }

func (s *State) side(name string) *sideInfo {
	for i := range s.Sides {
		if s.Sides[i].Name == name {
			return &s.Sides[i]
		}
	}
	return nil
}

// seats lists the sides' names.
func (s *State) seats() []string {
	out := make([]string, len(s.Sides))
	for i, sd := range s.Sides {
		out[i] = sd.Name
	}
	return out
}
