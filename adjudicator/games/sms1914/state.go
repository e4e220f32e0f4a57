package sms1914

// This file holds the hosted game's state: what the judge stores between
// steps as canonical JSON (sorted slices and map keys, so the same state is
// the same bytes), and the in-memory view a step is adjudicated on.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// The steps of a player turn (4.1, 4.2): the decision windows a seat
// orders in. Preliminary, Attachment and Supply are ordered with the
// Movement Phase in the "turn" step; the defender's answers are a
// follow-up step only for a seat that asked for it (defend ask).
const (
	phaseTurn          = "turn"          // P: preliminary choices, attachment, supply, movement
	phaseCounter       = "counter"       // NP: counter movement
	phaseAttack        = "attack"        // P: attack declarations (and finishing orders)
	phaseDefend        = "defend"        // NP: the defender's answers (follow-up)
	phaseCounterAttack = "counterattack" // NP: counter attack declarations
	phaseCounterDefend = "counterdefend" // P: the defender's answers (follow-up)
	phaseInterPhase    = "interphase"    // both: the Inter-Phase (4.3)
	phaseOver          = "over"
)

// State is the game's state.
type State struct {
	Data data `json:"data"`

	GT       int    `json:"gt"`
	Last     int    `json:"last"`
	Phasing  side   `json:"phasing"`
	Phase    string `json:"phase"`
	Inter    int    `json:"interphases"` // Inter-Phases held so far
	VP       int    `json:"vp"`          // + the A-H player leads (27)
	Shells   int    `json:"shells"`      // 23.2
	Allied   bool   `json:"allied,omitempty"`
	AlliedNo int    `json:"allied_failures,omitempty"`
	// REPL are the stored REPLs by nation (16.6.1): AH, Serbia, Montenegro.
	REPL map[string]int `json:"repl"`
	// IPRights are each side's IP rights left in this period (14.3.4).
	IPRights [2]int `json:"ip_rights"`
	// Komitadji are the hexes of the placed markers; KomitadjiN the
	// markers the Serbs have (23.1).
	Komitadji  []string  `json:"komitadji,omitempty"`
	KomitadjiN int       `json:"komitadji_n"`
	IPs        []ip      `json:"ips,omitempty"`
	Pontoons   []pontoon `json:"pontoons,omitempty"`
	PontoonN   [2]int    `json:"pontoon_n"`
	// AHControl lists every hex the A-H player controls (3.4); the rest
	// of the playing area is Serbian.
	AHControl []string `json:"ah_control"`

	Armies     []*armyState `json:"armies"`
	Boundaries []string     `json:"boundaries,omitempty"`
	// Attach is each Formation's corps, or "independent" (5.2).
	Attach map[string]string `json:"attach"`
	// CorpsArmy is each A-H corps' army, set at the Attachment Phase (5.1.2).
	CorpsArmy map[string]string `json:"corps_army,omitempty"`

	Units []*unit `json:"units"`

	// Done lists the one-time awards and events already given: "27.3
	// 30.09", "27.7 16.22", "27.6", "25.1.2 REPL", "25.4".
	Done []string `json:"done,omitempty"`
	// French is true once the French Naval Artillery is in Beograd (25.1.4).
	French bool `json:"french,omitempty"`

	// Standing are each seat's standing orders, by key "SEAT:KIND".
	Standing map[string][]string `json:"standing,omitempty"`
	// Attacks are the attacks declared this attack phase, waiting for the
	// defender's answers (a follow-up step) or being resolved.
	Attacks []*attack `json:"attacks,omitempty"`
	// Finish are the phasing player's finishing orders, kept from its
	// attack step for the Finishing Phase.
	Finish map[string][]string `json:"finish,omitempty"`
	// Revealed are, by seat, the enemy units whose ID, type and size the
	// seat learnt in the last step by attacking their hex (3.1.6).
	Revealed map[string][]string `json:"revealed,omitempty"`
	// Arrows are the last step's moves, attacks and retreats, for the map.
	Arrows []arrow `json:"arrows,omitempty"`
	// Turn notes: the attacked hexes of this attack phase (9.2).
	Attacked []string `json:"attacked,omitempty"`

	Over   bool   `json:"over,omitempty"`
	Winner string `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// armyState is an A-H army's marker and Strategic Plan (5.1, 26).
type armyState struct {
	ID       string `json:"id"`
	Marker   string `json:"marker"`
	Plan     string `json:"plan,omitempty"` // "active", "achieved", "abandoned"; "" none
	Mandated int    `json:"mandated,omitempty"`
	Achieved int    `json:"achieved,omitempty"` // the GT the plan was achieved
	// Lifted: the plan's movement restrictions no longer bind (26.1: from
	// the player turn after it was achieved; 26.3: at once when abandoned).
	Lifted bool `json:"lifted,omitempty"`
}

// ip is a Level 1 Improved Position (14).
type ip struct {
	Hex  string `json:"hex"`
	Side side   `json:"side"`
	// Built is the phase count it was built in: recovery next to the enemy
	// needs an IP that existed before the phase (7.5.1a).
	Built int `json:"built,omitempty"`
}

// pontoon is a pontoon bridge marker (21.2).
type pontoon struct {
	Side  side   `json:"side"`
	Sides string `json:"hexside"`
	Built bool   `json:"built,omitempty"` // flipped to its bridge side
	// Used: a Force used its movement benefit this movement phase.
	Used bool `json:"used,omitempty"`
}

// unit is one unit's state.
type unit struct {
	ID   string `json:"id"`
	Hex  string `json:"hex,omitempty"`  // "" off the map
	Hex2 string `json:"hex2,omitempty"` // a Two-Hex unit's second hex (19)
	SR   int    `json:"sr,omitempty"`   // strength reductions (9.10)
	CE   status `json:"ce,omitempty"`   // a Formation's CE Status (6.1)
	// Out: not in play (a reinforcement to come, withdrawn, replaced);
	// Gone: eliminated (5.5.2: assets never return).
	Out      bool `json:"out,omitempty"`
	Gone     bool `json:"gone,omitempty"`
	Inactive bool `json:"inactive,omitempty"`
	// Assigned is the Formation an asset is assigned to (5.5.1).
	Assigned string `json:"assigned,omitempty"`
	// Army is the army the unit is attached to (5.1.2).
	Army string `json:"army,omitempty"`
	// Supply units: Extended Mode (15.6.1), Ammo provided this GT in it
	// (9.4.2), the Out of Supply marker (15.4).
	Extended bool `json:"extended,omitempty"`
	Ammo     int  `json:"ammo,omitempty"`
	OOS      bool `json:"oos,omitempty"`
	// Forts: flipped to the infantry side (8.5), the abandonment check made.
	Flipped  bool `json:"flipped,omitempty"`
	Checked  bool `json:"checked,omitempty"`
	Released bool `json:"released,omitempty"` // a garrison freed (8.6.4)
	// PA is the hex the unit's Prepared Attack marker points at (7.3).
	PA string `json:"pa,omitempty"`
	// Task and TaskMP: a task's MPs Expended marker (7.8): recover, ip,
	// marsch; Marsch names the marsch unit incorporated.
	Task   string `json:"task,omitempty"`
	TaskMP int    `json:"task_mp,omitempty"`
	Marsch string `json:"marsch,omitempty"`
	// React: a cavalry unit's Reaction (or Retirement) MPs Expended (8.2.4).
	React int `json:"react,omitempty"`
	// RiverX: a River Crossing marker, 2 on its front, 1 on its back (7.1.4b).
	RiverX int `json:"river_x,omitempty"`
	// This phase: moved, MPs spent, attacked or retreated.
	Moved     bool `json:"moved,omitempty"`
	Attacked  bool `json:"attacked,omitempty"`
	Retreated bool `json:"retreated,omitempty"`
	// Box is a Montenegrin unit's off-map box (24.2); Off an A-H depot's
	// off-map place and the hexes it has gone toward Next (15.6.3a), or
	// a squadron's off-map base.
	Box        string `json:"box,omitempty"`
	Off        string `json:"off,omitempty"`
	Refit      int    `json:"refit,omitempty"`      // a squadron's return GT (25.1.2)
	Stationary bool   `json:"stationary,omitempty"` // Montenegrin off-map recovery (24.2.2)

	c   *counter
	pos board.ID
	p2  board.ID
}

// attack is a declared attack (9.1).
type attack struct {
	Seat     string   `json:"seat"`
	Target   string   `json:"target"`
	Units    []string `json:"units"`
	Intense  string   `json:"intense,omitempty"` // "", "yes", or a condition "odds>=3:1"
	Mandated bool     `json:"mandated,omitempty"`
	NoAmmo   bool     `json:"no_ammo,omitempty"`
	NoShells bool     `json:"no_shells,omitempty"`
	Advance  []string `json:"advance,omitempty"` // "all", unit ids, or none
	TwoHex   bool     `json:"two_hex,omitempty"`
	Line     string   `json:"line"`
	// the defender's answers (follow-up step or standing orders)
	Answer *answer `json:"answer,omitempty"`
}

// answer is the defender's decision for one attacked hex.
type answer struct {
	Intense  string   `json:"intense,omitempty"`
	Withhold []string `json:"withhold,omitempty"`
	NoAmmo   bool     `json:"no_ammo,omitempty"`
	Shells   string   `json:"shells,omitempty"` // yes, no, needed
}

// arrow is a move, attack or retreat of the last step.
type arrow struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Side side   `json:"side"`
	// Path is the hexes a move or retreat went through, From first and
	// To last, when it went further than the next hex.
	Path []string `json:"path,omitempty"`
}

func (u *unit) onMap() bool { return !u.Out && !u.Gone && u.Hex != "" }

// in reports whether the unit occupies the hex (either hex of a Two-Hex unit).
func (u *unit) in(id board.ID) bool {
	return u.onMap() && (u.pos == id || (u.Hex2 != "" && u.p2 == id))
}

// hexes lists the unit's hexes.
func (u *unit) hexes() []board.ID {
	if u.Hex2 != "" {
		return []board.ID{u.pos, u.p2}
	}
	return []board.ID{u.pos}
}

// game is a state being read or adjudicated, with its data.
type game struct {
	*State
	cleared map[board.ID]bool // while reading orders: hexes the Force's Repulse lines aim at
	// mayEnd, while reading orders, are the hexes the Force's earlier
	// lines may leave it in (its hex and every hex of its paths)
	mayEnd []board.ID
	// actedEarlier, while reading orders: the Force of the line acted on
	// an earlier line of the file (so where it stands is not sure)
	actedEarlier bool
	// retreatRepulsed, during a combat's retreats, holds the units whose
	// stack has made its one Repulse (7.4.1); nil outside a combat, where
	// a retreating stack makes none (7.4: during an attack phase)
	retreatRepulsed map[*unit]bool
	sc              *scenario
	grid            board.Grid
	byID            map[string]*unit
	ctl             map[board.ID]bool // A-H controlled
	events          []adjudicator.Event
	// counted are the events evCount keeps one of, by key: the event's
	// index and how many times it happened this step
	counted map[string][2]int
	r       dice.Roller

	// caches, rebuilt when units move
	ver      int
	occVer   int
	occ      [][]*unit // by hex index
	zocVer   [2]int
	zoc      [2]map[board.ID]bool
	reachVer int
	reaches  map[reachKey]reachMap
	// per-step
	phaseNo int
}

func decode(state []byte) (*game, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("sms1914: state: %w", err)
	}
	sc, err := s.Data.Load()
	if err != nil {
		return nil, err
	}
	g := &game{State: &s, sc: sc, grid: sc.Map.Grid, byID: map[string]*unit{}, ctl: map[board.ID]bool{}, ver: 1}
	for _, u := range s.Units {
		u.c = sc.Counter(u.ID)
		if u.c == nil {
			return nil, fmt.Errorf("sms1914: state: unit %s is not in the counter list", u.ID)
		}
		if u.Hex != "" {
			if u.pos, err = g.grid.Parse(u.Hex); err != nil {
				return nil, fmt.Errorf("sms1914: state: unit %s: %w", u.ID, err)
			}
		}
		if u.Hex2 != "" {
			if u.p2, err = g.grid.Parse(u.Hex2); err != nil {
				return nil, fmt.Errorf("sms1914: state: unit %s: %w", u.ID, err)
			}
		}
		g.byID[u.ID] = u
	}
	for _, h := range s.AHControl {
		id, err := g.grid.Parse(h)
		if err != nil {
			return nil, fmt.Errorf("sms1914: state: control: %w", err)
		}
		g.ctl[id] = true
	}
	if g.Standing == nil {
		g.Standing = map[string][]string{}
	}
	if g.Attach == nil {
		g.Attach = map[string]string{}
	}
	if g.REPL == nil {
		g.REPL = map[string]int{}
	}
	return g, nil
}

func (g *game) encode() ([]byte, error) {
	slices.SortFunc(g.Units, func(a, b *unit) int { return strings.Compare(a.ID, b.ID) })
	g.AHControl = g.AHControl[:0]
	for _, id := range g.sc.hexes {
		if g.ctl[id] {
			g.AHControl = append(g.AHControl, g.hex(id))
		}
	}
	slices.Sort(g.Komitadji)
	slices.SortFunc(g.IPs, func(a, b ip) int { return strings.Compare(a.Hex, b.Hex) })
	slices.Sort(g.Done)
	g.Done = slices.Compact(g.Done)
	slices.Sort(g.Boundaries)
	if len(g.Standing) == 0 {
		g.Standing = nil
	}
	if len(g.Finish) == 0 {
		g.Finish = nil
	}
	for k, v := range g.Revealed {
		slices.Sort(v)
		g.Revealed[k] = slices.Compact(v)
	}
	return json.Marshal(g.State)
}

// ev records an event citing its rule, seen by every seat.
func (g *game) ev(rule, format string, args ...any) {
	g.events = append(g.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// evFor records an event only the seat (and the game master) sees: what
// the other side may not learn (3.1.6).
func (g *game) evFor(side side, rule, format string, args ...any) {
	g.events = append(g.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...), Visible: []string{side.Seat()}})
}

// evCount records an event only the seat sees that may happen more than
// once a step without a name to tell the times apart (a counter put in
// a hex, 3.1.6): said once, with how many times (text's n), so a report
// never says the same line twice.
func (g *game) evCount(side side, rule, key string, text func(n int) string) {
	key = side.Seat() + "\x00" + rule + "\x00" + key
	if c, ok := g.counted[key]; ok && c[0] < len(g.events) {
		c[1]++
		g.counted[key] = c
		g.events[c[0]].Text = text(c[1])
		return
	}
	if g.counted == nil {
		g.counted = map[string][2]int{}
	}
	g.counted[key] = [2]int{len(g.events), 1}
	g.evFor(side, rule, "%s", text(1))
}

func (g *game) hex(id board.ID) string { return g.grid.Format(id) }

func (g *game) parse(s string) board.ID {
	id, _ := g.grid.Parse(s)
	return id
}

// place moves a unit to a hex (and a second hex for a Two-Hex unit), or
// off the map with a zero id.
func (g *game) place(u *unit, id board.ID, id2 ...board.ID) {
	u.pos, u.Hex, u.Hex2, u.p2 = id, "", "", board.ID{}
	if id != (board.ID{}) {
		u.Hex = g.hex(id)
	}
	if len(id2) > 0 && id2[0] != (board.ID{}) && id2[0] != id {
		u.p2, u.Hex2 = id2[0], g.hex(id2[0])
	}
	g.ver++
}

func (g *game) eliminate(u *unit, rule, why string) {
	if u.Gone {
		return
	}
	where := u.Hex
	u.Gone, u.PA, u.Task, u.TaskMP = true, "", "", 0
	g.place(u, board.ID{})
	for _, o := range g.Units {
		if o.Assigned == u.ID {
			o.Assigned = ""
		}
	}
	g.evFor(u.c.Side, rule, "%s is eliminated in %s: %s.", u.ID, where, why)
	g.evFor(u.c.Side.Enemy(), rule, "An enemy unit in %s is eliminated: %s.", where, why)
}

// units lists the side's units on the map.
func (g *game) units(side side) []*unit {
	var out []*unit
	for _, u := range g.Units {
		if u.onMap() && u.c.Side == side {
			out = append(out, u)
		}
	}
	return out
}

// occupancy is the units in every hex, by hex index.
func (g *game) occupancy() [][]*unit {
	if g.occVer == g.ver && g.occ != nil {
		return g.occ
	}
	if g.occ == nil {
		g.occ = make([][]*unit, g.sc.size())
	}
	for i := range g.occ {
		g.occ[i] = g.occ[i][:0]
	}
	for _, u := range g.Units {
		if !u.onMap() {
			continue
		}
		for _, h := range u.hexes() {
			if g.grid.Contains(h) {
				i := g.sc.index(h)
				g.occ[i] = append(g.occ[i], u)
			}
		}
	}
	g.occVer = g.ver
	return g.occ
}

// at lists the units in a hex.
func (g *game) at(id board.ID) []*unit {
	if !g.grid.Contains(id) {
		return nil
	}
	return g.occupancy()[g.sc.index(id)]
}

// sideAt lists the units of a side in a hex.
func (g *game) sideAt(id board.ID, side side) []*unit {
	var out []*unit
	for _, u := range g.at(id) {
		if u.c.Side == side {
			out = append(out, u)
		}
	}
	return out
}

// enemyIn reports whether units of the side's enemy occupy the hex
// (naval squadrons do not count, 25.1: they never hold a hex).
func (g *game) enemyIn(id board.ID, side side) bool {
	for _, u := range g.at(id) {
		if u.c.Side != side && u.c.Kind != kSquadron {
			return true
		}
	}
	return false
}

// friendIn reports whether the side's units (not squadrons) occupy the hex.
func (g *game) friendIn(id board.ID, side side) bool {
	for _, u := range g.at(id) {
		if u.c.Side == side && u.c.Kind != kSquadron {
			return true
		}
	}
	return false
}

// combatIn reports whether the side's Combat units occupy the hex.
func (g *game) combatIn(id board.ID, side side) bool {
	for _, u := range g.at(id) {
		if u.c.Side == side && u.c.Combat() {
			return true
		}
	}
	return false
}

// placeName names a hex: "30.09 (Beograd)".
func (g *game) placeName(id board.ID) string {
	if p, ok := g.sc.Map.Places[id]; ok && p.Name != "" {
		return g.hex(id) + " (" + p.Name + ")"
	}
	return g.hex(id)
}

func (g *game) done(key string) bool { return slices.Contains(g.Done, key) }

func (g *game) army(id string) *armyState {
	for _, a := range g.Armies {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func (g *game) standing(seat, kind string) []string { return g.Standing[seat+":"+kind] }

func (g *game) end(winner, reason string) {
	if g.Over {
		return
	}
	g.Over, g.Winner, g.Reason, g.Phase, g.Attacks = true, winner, reason, phaseOver, nil
	g.ev("27", "The game ends: %s.", reason)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
