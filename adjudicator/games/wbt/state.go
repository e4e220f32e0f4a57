package wbt

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

// The phases of a step (5.2), and the follow-up decision window.
const (
	phaseSetupNATO  = "setup-nato"
	phaseSetupSerb  = "setup-serb"
	phaseWeather    = "weather"
	phaseNATOMove   = "nato-move"
	phaseNATOCombat = "nato-combat"
	phaseSerbCombat = "serb-combat"
	phaseSerbMove   = "serb-move"
	phaseLosses     = "losses"
	phaseAdvance    = "advance"
	phaseOver       = "over"
)

// The seats.
const (
	seatNATO = "NATO"
	seatSerb = "Serb"
)

// State is the game's state.
type State struct {
	Data Data `json:"data"`
	// Options: the 1st AAA's range (12.1, 12.6, 12.7) and the 1.4 variant.
	AAARange  int  `json:"aaa_range"`
	Reduced82 bool `json:"reduced82,omitempty"`

	Neutrals []string `json:"neutrals,omitempty"` // brought into play (3.2)
	UK3      bool     `json:"uk3,omitempty"`      // 4.8

	Turn   int    `json:"turn"`
	Length int    `json:"length"` // 14, less civilian casualties (13.0)
	Phase  string `json:"phase"`
	// Plan lists the phases still to come this game turn after Phase.
	Plan          []string `json:"plan,omitempty"`
	Sequence      string   `json:"sequence,omitempty"` // move-combat or combat-move (5.4)
	MaxEffort     bool     `json:"max_effort,omitempty"`
	MaxEffortUsed bool     `json:"max_effort_used,omitempty"`
	Bad           bool     `json:"bad,omitempty"`      // this turn's weather (5.3)
	PrevBad       bool     `json:"prev_bad,omitempty"` // last turn's
	ReconMarker   int      `json:"recon_marker"`       // 9.2
	Recon         string   `json:"recon,omitempty"`    // this turn: mandatory or discretionary
	MePPs         int      `json:"mepps"`
	AirHex        string   `json:"air_hex,omitempty"` // 8.10, this game turn
	AirTurn       int      `json:"air_turn,omitempty"`
	BadRange      int      `json:"bad_range,omitempty"` // 12.8, this bad-weather turn
	SupportUsed   bool     `json:"support_used,omitempty"`
	// AttackedHexes were attacked this combat phase (11.3).
	AttackedHexes []string `json:"attacked_hexes,omitempty"`

	Units   []*unit  `json:"units"`
	Intact  []string `json:"intact"`  // intact bridges (10.18)
	Control []string `json:"control"` // NATO-controlled rump-Yugoslav cities (3.4)

	// Standing are each seat's standing orders (losses, advancing, support, airsupply defend).
	Standing map[string][]string `json:"standing,omitempty"`
	Pending  *pending            `json:"pending,omitempty"`
	// Arrows are the last step's moves and battles, for the map.
	Arrows []arrow `json:"arrows,omitempty"`

	Over   bool   `json:"over,omitempty"`
	Winner string `json:"winner,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// unit is one unit in play.
type unit struct {
	ID         string `json:"id"`
	Hex        string `json:"hex,omitempty"` // "" when eliminated or out of play
	Steps      int    `json:"steps"`
	Dismounted bool   `json:"dismounted,omitempty"` // 10.21
	Remount    bool   `json:"remount,omitempty"`    // remounting this phase
	Moved      bool   `json:"moved,omitempty"`      // this player turn
	Attacked   bool   `json:"attacked,omitempty"`   // this player turn
	Fixed      bool   `json:"fixed,omitempty"`      // repaired, demolished or (dis)mounted: no move or attack (10.18, 10.19, 10.21)
	// Work is what fixed it: "repairs HEX/HEX", "demolishes HEX/HEX",
	// "dismounts" or "remounts" ("" in states before it was kept).
	Work string `json:"work,omitempty"`
	Out  bool   `json:"out,omitempty"` // not in play (3.2, 4.8)

	c   *counter
	pos board.ID
}

// arrow is a move or battle of the last step.
type arrow struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// pending is a battle waiting for the defender's loss decision (11.9) or,
// Kind "advance", for the attacker's advance decision (11.23).
type pending struct {
	Kind     string   `json:"kind,omitempty"` // "" the loss decision, "advance"
	Seat     string   `json:"seat"`           // who decides
	Phase    string   `json:"phase"`          // the combat phase to resume
	Hex      string   `json:"hex"`            // the defender's hex
	Steps    int      `json:"steps"`          // steps to lose
	Battle   string   `json:"battle"`         // the attack order being resolved
	Rest     []string `json:"rest"`           // attack orders still to resolve
	Advance  []string `json:"advance"`        // units to advance if the hex is cleared (nil: not said)
	Attacker []string `json:"attackers"`      // surviving attacking units
	Defender []string `json:"defenders"`      // defending units
}

// fixedWhat says what a fixed unit did this player turn that keeps it
// from moving and attacking, and the rule that says so (10.18, 10.19,
// 10.21).
func (u *unit) fixedWhat() (what, rule string) {
	verb, bridge, _ := strings.Cut(u.Work, " ")
	switch verb {
	case "repairs":
		return "attempted the repair of the bridge " + bridge, "10.18"
	case "demolishes":
		return "attempted the demolition of the bridge " + bridge, "10.19"
	case "dismounts":
		return "dismounted", "10.21"
	case "remounts":
		return "remounted", "10.21"
	}
	return "repaired or demolished a bridge, or dismounted or remounted,", "10.18, 10.19, 10.21"
}

// alive reports whether the unit is on the map.
func (u *unit) alive() bool { return u.Hex != "" && !u.Out && u.Steps > 0 }

// game is a state being read or adjudicated, with its data.
type game struct {
	*State
	sc     *scenario
	grid   board.Grid
	byID   map[string]*unit
	events []adjudicator.Event
	r      dice.Roller
	// still, set by a brief, which changes nothing, keeps the supply net
	// and the zones of control once worked out (brief.go).
	still *stillPosition
}

// stillPosition is what a position that does not change works out once.
type stillPosition struct {
	net *supplyNet
	zoc map[board.ID]bool
}

func decode(state []byte) (*game, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("wbt: state: %w", err)
	}
	sc, err := s.Data.Load()
	if err != nil {
		return nil, err
	}
	g := &game{State: &s, sc: sc, grid: sc.Map.Grid, byID: map[string]*unit{}}
	for _, u := range s.Units {
		u.c = sc.Counter(u.ID)
		if u.c == nil {
			return nil, fmt.Errorf("wbt: state: unit %s is not in the counter list", u.ID)
		}
		if u.Hex != "" {
			if u.pos, err = g.grid.Parse(u.Hex); err != nil {
				return nil, fmt.Errorf("wbt: state: unit %s: %w", u.ID, err)
			}
		}
		g.byID[u.ID] = u
	}
	if g.Standing == nil {
		g.Standing = map[string][]string{}
	}
	return g, nil
}

func (g *game) encode() ([]byte, error) {
	slices.SortFunc(g.Units, func(a, b *unit) int { return strings.Compare(a.ID, b.ID) })
	slices.Sort(g.Intact)
	g.Intact = slices.Compact(g.Intact)
	slices.Sort(g.Control)
	g.Control = slices.Compact(g.Control)
	if len(g.Standing) == 0 {
		g.Standing = nil
	}
	return json.Marshal(g.State)
}

// ev records an event citing its rule.
func (g *game) ev(rule, format string, args ...any) {
	g.events = append(g.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

func (g *game) hex(id board.ID) string { return g.grid.Format(id) }

// place moves a unit to a hex ("" off the map).
func (g *game) place(u *unit, id board.ID) {
	u.pos, u.Hex = id, g.hex(id)
}

func (g *game) eliminate(u *unit) {
	u.Hex, u.pos, u.Steps = "", board.ID{}, 0
}

// unitsAt lists the live units in a hex, by id.
func (g *game) unitsAt(id board.ID) []*unit {
	var out []*unit
	for _, u := range g.Units {
		if u.alive() && u.pos == id {
			out = append(out, u)
		}
	}
	return out
}

// occupancy maps every hex with live units to them, by side.
type occupancy struct {
	nato, serb map[board.ID][]*unit
}

func (g *game) occupancy() occupancy {
	o := occupancy{nato: map[board.ID][]*unit{}, serb: map[board.ID][]*unit{}}
	for _, u := range g.Units {
		if !u.alive() {
			continue
		}
		if u.c.Side == nato {
			o.nato[u.pos] = append(o.nato[u.pos], u)
		} else {
			o.serb[u.pos] = append(o.serb[u.pos], u)
		}
	}
	return o
}

// enemyOf returns the units of the side opposing side in a hex.
func (o occupancy) enemyOf(side side) map[board.ID][]*unit {
	if side == nato {
		return o.serb
	}
	return o.nato
}

func (o occupancy) own(side side) map[board.ID][]*unit {
	if side == nato {
		return o.nato
	}
	return o.serb
}

// area is a hex's country or province ("" off the theatre: unplayable).
func (g *game) area(id board.ID) string { return g.sc.Map.Area[id] }

// yugoslav reports whether a hex is in rump-Yugoslavia (1.2).
func (g *game) yugoslav(id board.ID) bool { return slices.Contains(yugoslavia, g.area(id)) }

// inPlay reports whether a hex's country is part of the area of
// operations: Yugoslavia, the four alliance countries and the neutrals NATO
// brought in (3.2).
func (g *game) inPlay(id board.ID) bool {
	a := g.area(id)
	return a != "" && (slices.Contains(yugoslavia, a) || slices.Contains(alwaysIn, a) || slices.Contains(g.Neutrals, a))
}

// alliance reports whether a hex is in an alliance country in play: the
// supply source countries of 8.11.
func (g *game) alliance(id board.ID) bool {
	a := g.area(id)
	return slices.Contains(alwaysIn, a) || slices.Contains(g.Neutrals, a)
}

func (g *game) terrain(id board.ID) string { return g.sc.Map.Terrain[id] }

func (g *game) isCity(id board.ID) bool {
	p, ok := g.sc.Map.Places[id]
	return ok && p.Kind == "city"
}

func (g *game) isTown(id board.ID) bool {
	p, ok := g.sc.Map.Places[id]
	return ok && p.Kind == "town"
}

// natoControls reports whether NATO controls a rump-Yugoslav city (3.4).
func (g *game) natoControls(id board.ID) bool { return slices.Contains(g.Control, g.hex(id)) }

// bridgeIntact reports whether the hexside holds an intact bridge.
func (g *game) bridgeIntact(p board.Pair) bool { return slices.Contains(g.Intact, p.String()) }

// placeName names a hex: "1708 (Novi Sad)".
func (g *game) placeName(id board.ID) string {
	if p, ok := g.sc.Map.Places[id]; ok && p.Name != "" {
		return g.hex(id) + " (" + p.Name + ")"
	}
	return g.hex(id)
}

func sideSeat(s side) string {
	if s == serb {
		return seatSerb
	}
	return seatNATO
}

func seatSide(seat string) side {
	if seat == seatSerb {
		return serb
	}
	return nato
}

// mandatory reports a mandatory reconstitution game turn (9.3).
func (g *game) mandatory() bool { return g.Recon == mandatory.String() }

// discretionary reports a discretionary reconstitution game turn (9.4).
func (g *game) discretionary() bool { return g.Recon == Discretionary.String() }

// loseMePPs takes MePPs off NATO's total (4.1); at zero the game ends at
// once and the Serbs win (4.10).
func (g *game) loseMePPs(n int, rule, why string) {
	if n <= 0 || g.Over {
		return
	}
	g.MePPs = max(g.MePPs-n, 0)
	g.ev(rule, "NATO loses %d MePP%s (%s): %d left.", n, plural(n), why, g.MePPs)
	if g.MePPs == 0 {
		g.end(seatSerb, "NATO's MePPs reached zero (4.10)")
	}
}

// meppsCheck makes a MePPs-loss check (4.4) for why.
func (g *game) meppsCheck(rule, why string) {
	if g.Over {
		return
	}
	n := mePPsCheck(g.r, "WbT "+rule+" MePPs-loss check: "+why)
	g.loseMePPs(n, rule, "MePPs-loss check: "+why)
}

func (g *game) end(winner, reason string) {
	if g.Over {
		return
	}
	g.Over, g.Winner, g.Reason, g.Phase, g.Plan, g.Pending = true, winner, reason, phaseOver, nil, nil
	g.ev("4.10", "The game ends: %s. %s wins.", reason, winner)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
