package pcs1995

// This file holds the hosted game's state: what the judge stores between
// steps as canonical JSON (sorted slices, sorted map keys), and the
// in-memory view a step is adjudicated on.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// The seats.
const (
	seatNATO = "NATO"
	seatRS   = "RS"
)

// The kinds of step (what the step open waits for).
const (
	phaseSetup    = "setup"    // both seats: the set-up (12.0)
	phaseTurn     = "turn"     // both seats: placement, air commitment, activation queues
	phaseQueue    = "queue"    // one seat: its activation queue ran out (or it asked to be asked)
	phaseAir      = "air"      // strict mode, one seat: its next air placement
	phaseDecision = "decision" // one seat: a decision its standing orders do not give
	phaseOver     = "over"
)

// The stages of a game turn's work (4.0).
const (
	stagePlacement = "placement" // I: reinforcements and recovered units enter
	stageAir       = "air"       // III.i: air units are placed in the mission boxes
	stageBombing   = "bombing"   // III.ii: the strategic bombing missions
	stageAction    = "action"    // IV: the Action Phase
)

// The air boxes (6.0): the three strategic bombing boxes, patrol/escort,
// ground support, interdiction, and spent.
const (
	boxSuppression  = "suppression"
	boxBombing      = "bombing"
	boxAirstrike    = "airstrike"
	boxPatrol       = "patrol"
	boxGS           = "gs"
	boxInterdiction = "interdiction"
	boxSpent        = "spent"
	boxPool         = "pool"       // a reinforcement not yet arrived
	boxEliminated   = "eliminated" // 6.4.1, 6.6
)

var fBoxes = []string{boxSuppression, boxPatrol}
var gBoxes = []string{boxBombing, boxAirstrike, boxGS, boxInterdiction}

// Unit statuses off the map.
const (
	onMap             = ""
	pool              = "pool"        // a reinforcement not yet arrived
	arriving          = "arriving"    // arrived (or recovered), waiting to be placed (5.0)
	routed            = "routed"      // in the routed box (5.3)
	statusSurrendered = "surrendered" // removed for good, VP to the opponent (5.3, 11.1)
	removed           = "removed"     // a routed Russian (5.3), an overstack loss (3.6)
)

// State is the game's state.
type State struct {
	Data   data `json:"data"`
	Strict bool `json:"strict,omitempty"`
	Core
}

// Core is the state without its data files: what a step changes, and what
// a suspended piece of work restores.
type Core struct {
	Turn       int     `json:"turn"`
	Phase      string  `json:"phase"`
	Stage      string  `json:"stage,omitempty"`
	Initiative faction `json:"initiative,omitempty"`
	VP         int     `json:"vp"`

	Units []*Unit `json:"units"`
	Air   []*air  `json:"air"`
	// Cup holds the chits in the cup (3.5); Drawn those under units this turn.
	Cup   []string `json:"cup"`
	Drawn []string `json:"drawn,omitempty"`
	// Control is the side controlling each city (5.0, 11.1).
	Control     map[string]faction `json:"control"`
	Contributed []string           `json:"contributed,omitempty"` // NATO contingents arrived (5.1)
	ThreeVO     bool               `json:"three_vo,omitempty"`    // the 3 VO has arrived (5.2)

	// Per seat: the activation queue still to run, the air allocation
	// script still to place, the strategic bombing orders of the turn.
	Queue    map[string][]string `json:"queue,omitempty"`
	Script   map[string][]string `json:"script,omitempty"`
	Missions map[string][]string `json:"missions,omitempty"`
	// AirNext is the side placing the next air unit (6.0), "" outside the
	// placement; Plan lists the strategic bombing missions still to fly (6.1).
	AirNext faction  `json:"air_next,omitempty"`
	Plan    []string `json:"plan,omitempty"`
	// The Action Phase: whose activation is next, who has passed, who has
	// rolled for de-escalation, whose queue is held for a stop order.
	Current faction         `json:"current,omitempty"`
	Passed  map[string]bool `json:"passed,omitempty"`
	Deesc   map[string]bool `json:"deesc,omitempty"`
	Held    map[string]bool `json:"held,omitempty"`
	// Count counts activations this turn, by seat.
	Count map[string]int `json:"count,omitempty"`

	// Standing are each seat's standing orders, by kind.
	Standing map[string]map[string]string `json:"standing,omitempty"`
	Pending  *pending                     `json:"pending,omitempty"`
	// Arrows and Marks are the last step's moves, attacks and air missions.
	Arrows []arrow `json:"arrows,omitempty"`
	Marks  []mark  `json:"marks,omitempty"`

	Over   bool   `json:"over,omitempty"`
	Winner string `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Unit is one ground unit.
type Unit struct {
	ID     string `json:"id"`
	Hex    string `json:"hex,omitempty"`
	Status string `json:"status,omitempty"`
	Static bool   `json:"static,omitempty"`
	// Chits are the chit sides under the unit this turn ("07F", "12B").
	Chits []string `json:"chits,omitempty"`
	// Anywhere: a Serbian 8 on the recovery roll (5.3).
	Anywhere bool `json:"anywhere,omitempty"`

	c   *counter
	pos board.ID
}

// air is one air unit and the box it is in.
type air struct {
	ID      string `json:"id"`
	Box     string `json:"box,omitempty"`
	Damaged bool   `json:"damaged,omitempty"`
	Flown   bool   `json:"flown,omitempty"` // flew a strategic bombing mission this turn
	c       *airCounter
}

// ER is the unit's rating on the side it shows (6.4.1).
func (a *air) ER() int {
	if a.Damaged {
		return a.c.Reduced
	}
	return a.c.ER
}

// Available reports whether the air unit may fly from its box.
func (a *air) Available() bool {
	return a.Box != boxSpent && a.Box != boxPool && a.Box != boxEliminated && a.Box != ""
}

// arrow is a move or attack of the last step.
type arrow struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	// Path is the hexes a move went through, From first and To last,
	// when it went further than the next hex.
	Path []string `json:"path,omitempty"`
}

// mark is an air mission of the last step on a hex.
type mark struct {
	Hex  string `json:"hex"`
	Text string `json:"text"`
}

// pending is what the open step waits for besides a new turn: a seat's
// activations (its queue ran out), its next air placement (strict mode),
// or a decision inside a piece of work.
type pending struct {
	Kind     string `json:"kind"` // PhaseQueue, PhaseAir, PhaseDecision
	Seat     string `json:"seat"`
	Question string `json:"question"`
	Hint     string `json:"hint,omitempty"`
	// Decide is the decision's kind (intercept, defend, interdict, absorb,
	// advance); Default the answer used when the seat sends none.
	Decide  string `json:"decide,omitempty"`
	Key     string `json:"key,omitempty"`
	Default string `json:"default,omitempty"`
	// Resume: the held queue goes on when the seat sends nothing (a stop
	// order's pause) instead of the seat passing.
	Resume bool  `json:"resume,omitempty"`
	Work   *work `json:"work,omitempty"`
}

// work is a piece of work (a strategic bombing mission, an activation)
// suspended for a decision: it is run again from its snapshot with the
// draws and decisions it already made, so that no die is drawn twice.
type work struct {
	Kind      string          `json:"kind"` // "mission" or "activation"
	Seat      string          `json:"seat"`
	Line      string          `json:"line"`
	Snapshot  json.RawMessage `json:"snapshot"`
	Draws     []draw          `json:"draws,omitempty"`
	Decisions []string        `json:"decisions,omitempty"`
	Events    int             `json:"events"`
}

// draw is one draw a suspended piece of work made.
type draw struct {
	Spec    string `json:"spec"`
	Purpose string `json:"purpose"`
	Values  []int  `json:"values"`
}

// game is a state being read or adjudicated, with its data.
type game struct {
	*State
	sc     *scenario
	grid   board.Grid
	byID   map[string]*Unit
	airBy  map[string]*air
	events []adjudicator.Event
	r      *workRoller
	run    *workRun
	// occ is every on-map unit by hex, rebuilt when units move.
	occ map[board.ID][]*Unit
	// deescOK is set by a successful de-escalation roll (7.5).
	deescOK bool
	// trail is the hexes each unit entered, in order, for the arrows of
	// its moves (moveArrow).
	trail map[string][]string
}

func decode(state []byte) (*game, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("pcs1995: state: %w", err)
	}
	return load(&s)
}

func load(s *State) (*game, error) {
	sc, err := s.Data.Load()
	if err != nil {
		return nil, err
	}
	g := &game{State: s, sc: sc, grid: sc.Map.Grid}
	if err := g.bind(); err != nil {
		return nil, err
	}
	return g, nil
}

// bind links the state's units to their counters.
func (g *game) bind() error {
	g.byID, g.airBy = map[string]*Unit{}, map[string]*air{}
	for _, u := range g.Units {
		u.c = g.sc.Counter(u.ID)
		if u.c == nil {
			return fmt.Errorf("pcs1995: state: unit %s is not in the counter list", u.ID)
		}
		u.pos = board.ID{}
		if u.Hex != "" {
			id, err := g.grid.Parse(u.Hex)
			if err != nil {
				return fmt.Errorf("pcs1995: state: unit %s: %w", u.ID, err)
			}
			u.pos = id
		}
		g.byID[u.ID] = u
	}
	for _, a := range g.Air {
		a.c = g.sc.AirCounter(a.ID)
		if a.c == nil {
			return fmt.Errorf("pcs1995: state: air unit %s is not in the counter list", a.ID)
		}
		g.airBy[a.ID] = a
	}
	for _, m := range []*map[string][]string{&g.Queue, &g.Script, &g.Missions} {
		if *m == nil {
			*m = map[string][]string{}
		}
	}
	for _, m := range []*map[string]bool{&g.Passed, &g.Deesc, &g.Held} {
		if *m == nil {
			*m = map[string]bool{}
		}
	}
	if g.Count == nil {
		g.Count = map[string]int{}
	}
	if g.Standing == nil {
		g.Standing = map[string]map[string]string{}
	}
	if g.Control == nil {
		g.Control = map[string]faction{}
	}
	g.reindex()
	return nil
}

// reindex rebuilds the hex index of the units on the map.
func (g *game) reindex() {
	g.occ = map[board.ID][]*Unit{}
	for _, u := range g.Units {
		if u.onMap() {
			g.occ[u.pos] = append(g.occ[u.pos], u)
		}
	}
}

func (g *game) encode() ([]byte, error) {
	g.tidy()
	return json.Marshal(g.State)
}

// tidy makes the state canonical: sorted lists, no empty maps.
func (g *game) tidy() {
	slices.SortFunc(g.Units, func(a, b *Unit) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(g.Air, func(a, b *air) int { return strings.Compare(a.ID, b.ID) })
	slices.Sort(g.Cup)
	slices.Sort(g.Drawn)
	for k, v := range g.Queue {
		if len(v) == 0 {
			delete(g.Queue, k)
		}
	}
	for k, v := range g.Script {
		if len(v) == 0 {
			delete(g.Script, k)
		}
	}
	for k, v := range g.Missions {
		if len(v) == 0 {
			delete(g.Missions, k)
		}
	}
	for _, m := range []map[string]bool{g.Passed, g.Deesc, g.Held} {
		for k, v := range m {
			if !v {
				delete(m, k)
			}
		}
	}
	for k, v := range g.Count {
		if v == 0 {
			delete(g.Count, k)
		}
	}
	for k, v := range g.Standing {
		if len(v) == 0 {
			delete(g.Standing, k)
		}
	}
}

// coreJSON is the core state's canonical encoding: a snapshot.
func (g *game) coreJSON() json.RawMessage {
	g.tidy()
	b, err := json.Marshal(g.Core)
	if err != nil {
		panic(err)
	}
	return b
}

// restore replaces the core state with a snapshot.
func (g *game) restore(snap json.RawMessage) error {
	var c Core
	if err := json.Unmarshal(snap, &c); err != nil {
		return fmt.Errorf("pcs1995: state: snapshot: %w", err)
	}
	g.Core = c
	return g.bind()
}

// ev records an event citing its rule. While a suspended piece of work is
// run again, the events it already reported are not repeated.
func (g *game) ev(rule, format string, args ...any) {
	if g.run != nil {
		g.run.events++
		if g.run.skip > 0 {
			g.run.skip--
			return
		}
	}
	g.events = append(g.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// evFor records an event only the seats may see.
func (g *game) evFor(seats []string, rule, format string, args ...any) {
	n := len(g.events)
	g.ev(rule, format, args...)
	if len(g.events) > n {
		g.events[n].Visible = seats
	}
}

func (g *game) hex(id board.ID) string { return g.grid.Format(id) }

func (u *Unit) onMap() bool { return u.Status == onMap && u.Hex != "" }

func (u *Unit) side() faction { return u.c.Side }

func (u *Unit) fresh() bool { return u.onMap() && !u.Static }

// seatOf is the seat of a side.
func seatOf(f faction) string { return string(f) }

// sideOf is the side of a seat.
func sideOf(seat string) faction { return faction(seat) }

func other(f faction) faction {
	if f == NATO {
		return RS
	}
	return NATO
}

// place moves a unit to a hex ("" off the map) and reindexes.
func (g *game) place(u *Unit, id board.ID) {
	u.pos, u.Hex = id, g.hex(id)
	g.reindex()
}

// takeOff removes a unit from the map into status.
func (g *game) takeOff(u *Unit, status string) {
	u.Hex, u.pos, u.Status, u.Static = "", board.ID{}, status, false
	g.reindex()
}

// enemyAt reports whether an enemy of side stands in the hex.
func (g *game) enemyAt(side faction, id board.ID) bool {
	for _, u := range g.occ[id] {
		if u.side() != side {
			return true
		}
	}
	return false
}

// friendAt reports whether a unit of side stands in the hex.
func (g *game) friendAt(side faction, id board.ID) bool {
	for _, u := range g.occ[id] {
		if u.side() == side {
			return true
		}
	}
	return false
}

// placeName names a hex: "3507 (Beograd)".
func (g *game) placeName(id board.ID) string {
	if p, ok := g.sc.Map.Places[id]; ok && p.Name != "" {
		return g.hex(id) + " (" + p.Name + ")"
	}
	return g.hex(id)
}

func (g *game) placeNameS(hex string) string {
	id, err := g.grid.Parse(hex)
	if err != nil {
		return hex
	}
	return g.placeName(id)
}

// city reports whether a hex holds a city or capital (9.3, 9.4).
func (g *game) city(id board.ID) bool { _, ok := g.sc.Map.Places[id]; return ok }

func (g *game) capital(id board.ID) bool { return g.sc.Map.Places[id].Kind == "capital" }

// controller is the side controlling a city ("" for other hexes).
func (g *game) controller(id board.ID) faction { return g.Control[g.hex(id)] }

// airOf lists a side's air units in a box, by id.
func (g *game) airOf(side faction, box string) []*air {
	var out []*air
	for _, a := range g.Air {
		if a.c.Side == side && a.Box == box {
			out = append(out, a)
		}
	}
	return out
}

// String is the unit's id, as "US-1-1AD (A)".
func (u *Unit) String() string { return u.ID }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// workRun is the piece of work being run: its draws and decisions so far,
// those it replays, and the events it skips.
type workRun struct {
	recorded  []draw
	draws     []draw
	decisions []string
	used      int // decisions replayed so far
	events    int
	skip      int
}

// workRoller draws through the step's roller, except that a piece of work
// run again gets the draws it already made back first.
type workRoller struct {
	base dice.Roller
	g    *game
}

// Draw implements dice.Roller.
func (w *workRoller) Draw(stream string, sp spec.Spec, purpose string) []int {
	run := w.g.run
	if run != nil && len(run.draws) < len(run.recorded) {
		d := run.recorded[len(run.draws)]
		if d.Spec != sp.String() || d.Purpose != purpose {
			panic(fmt.Errorf("pcs1995: a suspended piece of work drew %s %q where it drew %s %q before", sp, purpose, d.Spec, d.Purpose))
		}
		run.draws = append(run.draws, d)
		return slices.Clone(d.Values)
	}
	v := w.base.Draw(stream, sp, purpose)
	if run != nil {
		run.draws = append(run.draws, draw{Spec: sp.String(), Purpose: purpose, Values: slices.Clone(v)})
	}
	return v
}
