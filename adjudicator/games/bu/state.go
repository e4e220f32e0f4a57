package bu

// This file holds the hosted game's state: what the judge stores between
// steps as canonical JSON (sorted slices and map keys: the same state is the
// same bytes), and the in-memory view a step works on.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// The seats: one per side in the 3-player game, Serb and the Bosniak-Croat
// player in the 2-player game (14.1.2).
const (
	seatSerb    = "Serb"
	seatCroat   = "Croat"
	seatBosniak = "Bosniak"
	seatBC      = "BC"
)

// The phases of a step.
const (
	phaseSetup  = "setup"  // 4.0 (and 14.2.2): every seat; the first cards are dealt after it
	phaseStart  = "start"  // 6.2, 6.3: every seat places and deploys
	phaseRound  = "round"  // 7.0: the active seat's action round
	phaseDecide = "decide" // a follow-up decision the standing orders did not give
	phaseOver   = "over"
)

// Where a unit is.
const (
	onMap      = ""           // on the map, in Space
	pool       = "pool"       // not yet in play (reinforcements, units a card brings)
	eliminated = "eliminated" // the Eliminated Units box (domestic) or the Foreign Units box, eliminated (foreign)
	reserve    = "reserve"    // the Foreign Units box, in reserve (6.3)
	removed    = "removed"    // out of the game (lost reinforcements, units permanently eliminated)
)

// Supply markers (1.4.6, 2.4.6).
const (
	lowSupply = "low"
	oos       = "oos"
)

// unit is one counter in play or waiting.
type unit struct {
	ID      string `json:"id"`
	Box     string `json:"box,omitempty"`   // OnMap, Pool, Eliminated, Reserve, Removed
	Space   string `json:"space,omitempty"` // on the map
	Reduced bool   `json:"reduced,omitempty"`
	Supply  string `json:"supply,omitempty"` // "", low, oos
	// Recovered is the turn a Foreign Unit came back from elimination (6.3
	// step 1): it may not deploy that turn.
	Recovered int `json:"recovered,omitempty"`
	// Arrives is the turn a pool unit is a reinforcement (6.2.2); Placed
	// the turn it was placed (the enclave limit of 6.2.4).
	Arrives int `json:"arrives,omitempty"`
	Placed  int `json:"placed,omitempty"`

	def *unitDef
}

// Values are the unit's current side's values (1.3.5).
func (u *unit) Values() values {
	if u.Reduced {
		return u.def.Type.Reduced
	}
	return u.def.Type.Full
}

// Side is the unit's side.
func (u *unit) Side() Side { return u.def.Type.Side }

// Type is the unit's counter type.
func (u *unit) Type() *unitType { return u.def.Type }

// sideState is a side's tracks.
type sideState struct {
	SW int `json:"sw"`
	FA int `json:"fa"`
	// Level is the Intervention Level last reached (2.2.3), kept to notice
	// the moment level 2 is reached (7.3.2).
	Level int `json:"level"`
	// Out is set when the side surrendered or reached Intervention Level 3.
	Out string `json:"out,omitempty"`
}

// deckState is a seat's cards: its draw deck (hidden order), the Late War
// cards set aside (4.1.6), the discard pile (face up) and the cards out of
// the game (Early War cards after turn 3, 6.1.1; the 2-player removals).
type deckState struct {
	Draw    []string `json:"draw"`
	Late    []string `json:"late,omitempty"`
	Discard []string `json:"discard,omitempty"`
	Out     []string `json:"out,omitempty"`
}

// lasting is a lasting card in play (1.5.6).
type lasting struct {
	Card  string `json:"card"`
	Seat  string `json:"seat"`
	Side  Side   `json:"side"`
	Until string `json:"until"` // turn, period, game
	Turn  int    `json:"turn"`  // the turn it was played
}

// State is the game's state.
type State struct {
	Data data `json:"data"`
	// Seats in the order of play of turns 1-2 (5.1.2, 14.3.2).
	Seats []string `json:"seats"`
	// Options: the Extended Game's extra cards (15.1), Fight To The End
	// (15.2) and a shortened game's last turn.
	Extended   int  `json:"extended,omitempty"`
	FightToEnd bool `json:"fight_to_end,omitempty"`
	LastTurn   int  `json:"last_turn"`

	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	// Active is the seat whose action round it is; Rounds counts the
	// action rounds played this turn, RoundID every round of the game.
	Active  string `json:"active,omitempty"`
	Rounds  int    `json:"rounds,omitempty"`
	RoundID int    `json:"round_id,omitempty"`
	// LastMode is each seat's card mode in its last action round (10.1.4).
	LastMode map[string]string `json:"last_mode,omitempty"`

	Sides   map[Side]*sideState `json:"sides"`
	Control map[string]Side     `json:"control"`
	Regions map[string]Side     `json:"regions"`
	// Trench holds each entrenched space's marker (13.3): "progress:N"
	// placed in round N, or "complete".
	Trench map[string]string `json:"trench,omitempty"`
	UN     []string          `json:"un,omitempty"` // UN Safe Areas (2.5)
	Units  []*unit           `json:"units"`

	Decks   map[string]*deckState `json:"decks"`
	Hands   map[string][]string   `json:"hands"`
	Lasting []lasting             `json:"lasting,omitempty"`
	// Standing are the seats' standing orders, by seat and kind, in
	// canonical form.
	Standing map[string]map[string][]string `json:"standing,omitempty"`

	Round   *round   `json:"round,omitempty"`
	Pending *pending `json:"pending,omitempty"`
	// Arrows are the moves and battles of the last step, for the map.
	Arrows []arrow `json:"arrows,omitempty"`

	Over    bool         `json:"over,omitempty"`
	Winners []string     `json:"winners,omitempty"`
	Reason  string       `json:"reason,omitempty"`
	Scores  map[Side]int `json:"scores,omitempty"`
}

// arrow is a move or an attack of the last step.
type arrow struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// game is a state being worked on, with its data.
type game struct {
	*State
	sc     *scenario
	byID   map[string]*unit
	r      dice.Roller
	events []event
	// dry is set on the sandbox that reads orders at receipt: actions
	// change the position but draw no dice and score nothing.
	dry bool
}

type event struct {
	rule, text string
	visible    []string
}

func decode(state []byte) (*game, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("bu: state: %w", err)
	}
	sc, err := s.Data.Load()
	if err != nil {
		return nil, err
	}
	g := &game{State: &s, sc: sc, byID: make(map[string]*unit, len(s.Units))}
	for _, u := range s.Units {
		u.def = sc.Counters.Unit(u.ID)
		if u.def == nil {
			return nil, fmt.Errorf("bu: state: unit %s is not in the counter list", u.ID)
		}
		g.byID[u.ID] = u
	}
	if g.Standing == nil {
		g.Standing = map[string]map[string][]string{}
	}
	if g.LastMode == nil {
		g.LastMode = map[string]string{}
	}
	if g.Trench == nil {
		g.Trench = map[string]string{}
	}
	if g.Round != nil && g.Round.Retreated == nil {
		g.Round.Retreated = map[string]string{}
	}
	return g, nil
}

func (g *game) encode() ([]byte, error) {
	slices.SortFunc(g.Units, func(a, b *unit) int { return strings.Compare(a.ID, b.ID) })
	slices.Sort(g.UN)
	for seat, st := range g.Standing {
		if len(st) == 0 {
			delete(g.Standing, seat)
		}
	}
	return json.Marshal(g.State)
}

// ev records an event everyone sees; evTo one only the seats given see.
func (g *game) ev(rule, format string, args ...any) {
	g.events = append(g.events, event{rule: rule, text: fmt.Sprintf(format, args...)})
}

func (g *game) evTo(seats []string, rule, format string, args ...any) {
	g.events = append(g.events, event{rule: rule, text: fmt.Sprintf(format, args...), visible: seats})
}

// TwoPlayer reports whether this is the 2-player game (14.0).
func (g *game) TwoPlayer() bool { return len(g.Seats) == 2 }

// seatSides are the sides a seat plays.
func (g *game) seatSides(seat string) []Side { return sidesOf(seat) }

// SeatSides implements adjudicator.SeatSides: the Bosniak-Croat seat of
// the 2-player game plays two sides.
func (rules) SeatSides(seat string) []string {
	var out []string
	for _, s := range sidesOf(seat) {
		out = append(out, string(s))
	}
	return out
}

// sidesOf are the sides a seat plays.
func sidesOf(seat string) []Side {
	switch seat {
	case seatBC:
		return []Side{bosniak, croat}
	case seatSerb:
		return []Side{serb}
	case seatCroat:
		return []Side{croat}
	case seatBosniak:
		return []Side{bosniak}
	}
	return nil
}

// seatOf is the seat playing side.
func (g *game) seatOf(side Side) string {
	if g.TwoPlayer() && side != serb {
		return seatBC
	}
	return string(side)
}

// friendly reports whether side may count a space controlled by owner as
// its own: its own, or its ally's in the 2-player game (14.5.1).
func (g *game) friendly(side, owner Side) bool {
	return side == owner || g.TwoPlayer() && side != serb && owner != serb
}

// enemies reports whether two sides fight each other: every pair in the
// 3-player game, Serbs against the allies in the 2-player game.
func (g *game) enemies(a, b Side) bool { return !g.friendly(a, b) }

// unitsAt lists the units on the map in space id, by id.
func (g *game) unitsAt(id string) []*unit {
	var out []*unit
	for _, u := range g.Units {
		if u.Box == onMap && u.Space == id {
			out = append(out, u)
		}
	}
	return out
}

// occupant is the side of the units in a space, "" when empty.
func (g *game) occupant(id string) Side {
	for _, u := range g.Units {
		if u.Box == onMap && u.Space == id {
			return u.Side()
		}
	}
	return ""
}

// space returns the map's space by id.
func (g *game) space(id string) *space {
	i, ok := g.sc.Map.Space(id)
	if !ok {
		return nil
	}
	return g.sc.Map.Spaces[i]
}

// name is a space's name as reports print it.
func (g *game) name(id string) string {
	if sp := g.space(id); sp != nil {
		return sp.Name
	}
	return id
}

// level is a side's Intervention Level now (2.2.3).
func (g *game) level(side Side) int { return g.sc.Tracks.Level(g.Sides[side].FA) }

// isUN reports whether a space is a UN Safe Area (2.5).
func (g *game) isUN(id string) bool { return slices.Contains(g.UN, id) }

// order is the order of play of the turn (5.1.2, 14.3.2): the seats'
// order on turns 1-2, reversed on turns 3-4.
func (g *game) order() []string {
	out := slices.Clone(g.Seats)
	if g.Turn >= 3 {
		slices.Reverse(out)
	}
	return out
}

// seatName is how reports name a seat.
func seatName(seat string) string {
	if seat == seatBC {
		return "the Bosniak-Croat player"
	}
	return seat
}
