package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file holds the order grammar (docs/orders-perrote.md): one order a
// line, each for one unit, read against the state of the turn open.

// Order is one parsed order.
type Order struct {
	Verb string
	Unit string
	// Path: move and charge; Face: move and face (a compass direction).
	Path []string
	Face string
	// Target: shoot (a unit), mortar, disembark and enter (a hex), embark
	// (a vehicle).
	Target string
	// With: shoot's weapon keys (nil: every weapon).
	With []string
	// Mode: shoot kill or suppress; mortar kill or smoke.
	Mode     string
	Spotter  string
	Priority []string
}

// String is the order's canonical form.
func (o Order) String() string {
	switch o.Verb {
	case "move":
		s := "move " + o.Unit + " " + strings.Join(o.Path, " ")
		if o.Face != "" {
			s += " face " + o.Face
		}
		return s
	case "charge":
		return "charge " + o.Unit + " " + strings.Join(o.Path, " ")
	case "face":
		return "face " + o.Unit + " " + o.Face
	case "shoot", "stand":
		with := "all"
		if len(o.With) > 0 {
			with = strings.Join(o.With, ",")
		}
		return fmt.Sprintf("%s %s at %s with %s %s", o.Verb, o.Unit, o.Target, with, o.Mode)
	case "mortar":
		s := "mortar " + o.Unit + " at " + o.Target
		if o.Spotter != "" {
			s += " spotter " + o.Spotter
		}
		return s + " " + o.Mode
	case "embark", "enter":
		return o.Verb + " " + o.Unit + " " + o.Target
	case "disembark":
		if o.Target == "" {
			return "disembark " + o.Unit
		}
		return "disembark " + o.Unit + " " + o.Target
	case "casualties":
		return "casualties " + o.Unit + " " + strings.Join(o.Priority, " ")
	}
	return o.Verb + " " + o.Unit
}

// verbs in the grammar's order, for hints.
var verbs = []string{"move", "face", "shoot", "stand", "charge", "mortar", "smoke", "embark", "disembark", "split", "casualties", "enter", "hold"}

const grammarHint = "orders are: move U HEX.. [face DIR], face U DIR, shoot U at T [with W,..] [kill|suppress], stand U at T .., charge U HEX.., mortar U at HEX [spotter S] [kill|smoke], smoke U, embark U V, disembark U [HEX], split U, casualties U W.., enter U HEX, hold U"

// orderError is a problem with one line.
type orderError struct{ text, hint string }

// planned is a unit's orders so far in one file, to find conflicts.
type planned struct {
	u      *UnitState
	move   *Order // move, charge, embark, disembark, enter, face
	fire   *Order // shoot, stand, mortar, smoke
	other  []string
	moved  int
	hasMov bool
}

type orderParser struct {
	s     *State
	f     *field
	seat  string
	plans map[string]*planned
	// teams are the units a split order in this file creates.
	teams map[string]*UnitState
}

// parseOrders reads a seat's order lines; it returns the orders and the
// problems, in line order.
func parseOrders(s *State, seat string, lines []adjudicator.OrderLine) ([]Order, []adjudicator.Problem) {
	p := &orderParser{s: s, f: newField(s), seat: seat, plans: map[string]*planned{}, teams: map[string]*UnitState{}}
	// splits first: the teams they create may be given orders on any line.
	for _, l := range lines {
		f := strings.Fields(strings.ToLower(l.Text))
		if len(f) == 2 && f[0] == "split" {
			if u := s.unit(f[1]); u != nil && u.Side == seat && len(u.Teams) > 0 && !u.Eliminated() {
				for _, t := range splitTeams(u) {
					p.teams[strings.ToLower(t.ID)] = t
				}
			}
		}
	}
	var out []Order
	var problems []adjudicator.Problem
	for _, l := range lines {
		o, err := p.line(l.Text)
		if err != nil {
			problems = append(problems, adjudicator.Problem{Line: l.Line, Text: err.text, Hint: err.hint})
			continue
		}
		out = append(out, o)
	}
	// a spotter may not move (Mortars).
	for i, o := range out {
		if o.Verb != "mortar" || o.Spotter == "" {
			continue
		}
		if pl := p.plans[o.Spotter]; pl != nil && pl.hasMov && pl.moved > 0 {
			problems = append(problems, adjudicator.Problem{Line: lineOf(lines, out, i), Text: fmt.Sprintf("spotter %s moves this turn: a spotter may not move", o.Spotter), Hint: "remove the spotter's move, or fire without a spotter"})
			out[i].Spotter = ""
		}
	}
	slices.SortStableFunc(problems, func(a, b adjudicator.Problem) int { return a.Line - b.Line })
	return out, problems
}

// lineOf finds the line of the i-th accepted order.
func lineOf(lines []adjudicator.OrderLine, out []Order, i int) int {
	want := out[i].Verb + " " + strings.ToLower(out[i].Unit)
	for _, l := range lines {
		if strings.HasPrefix(strings.Join(strings.Fields(strings.ToLower(l.Text)), " "), want) {
			return l.Line
		}
	}
	return 0
}

func bad(text, hint string, args ...any) *orderError {
	return &orderError{text: fmt.Sprintf(text, args...), hint: hint}
}

// unitOf finds one of the seat's units (or a team a split creates).
func (p *orderParser) unitOf(id string) (*UnitState, *orderError) {
	u := p.s.unit(id)
	if u == nil {
		u = p.teams[strings.ToLower(id)]
	}
	if u == nil {
		return nil, bad("there is no unit %s", "your units are "+strings.Join(p.mine(), ", "), strings.ToUpper(id))
	}
	if u.Side != p.seat {
		return nil, bad("%s is not yours: it is %s's", "your units are "+strings.Join(p.mine(), ", "), u.ID, u.Side)
	}
	if u.Eliminated() {
		return nil, bad("%s is out of the game", "give orders to units still in play", u.ID)
	}
	return u, nil
}

func (p *orderParser) mine() []string {
	var out []string
	for _, u := range p.s.Units {
		if u.Side == p.seat && !u.Eliminated() {
			out = append(out, u.ID)
		}
	}
	slices.Sort(out)
	return out
}

// where is a unit's hex now: its own, its vehicle's, or none.
func (p *orderParser) where(u *UnitState) (board.ID, bool) {
	return position(p.s, p.f, u)
}

func (p *orderParser) line(text string) (Order, *orderError) {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(text, ",", " , ")))
	if len(f) < 2 {
		return Order{}, bad("%q is not an order", grammarHint, text)
	}
	if !slices.Contains(verbs, f[0]) {
		return Order{}, bad("%q is not an order of Per Rote", grammarHint, f[0])
	}
	u, err := p.unitOf(f[1])
	if err != nil {
		return Order{}, err
	}
	o := Order{Verb: f[0], Unit: u.ID}
	args := slices.DeleteFunc(slices.Clone(f[2:]), func(s string) bool { return s == "," && f[0] != "shoot" && f[0] != "stand" && f[0] != "casualties" })
	pl := p.plans[u.ID]
	if pl == nil {
		pl = &planned{u: u}
		p.plans[u.ID] = pl
	}
	if u.Reserve && o.Verb != "enter" && o.Verb != "casualties" && o.Verb != "hold" && !(o.Verb == "shoot" && pl.move != nil) {
		return o, bad("%s is off table", "bring it on first: enter "+u.ID+" HEX (a sneak attack)", u.ID)
	}
	if len(u.Teams) > 0 && p.teams[strings.ToLower(u.ID+u.Teams[0])] != nil && o.Verb != "split" && o.Verb != "casualties" {
		return o, bad("%s splits this turn: give orders to its teams", "its teams are "+strings.Join(teamIDs(u), ", "), u.ID)
	}
	if u.Kind == KindVehicle && u.StunnedTurn == p.s.Turn+1 && o.Verb != "casualties" {
		return o, bad("%s is stunned: it misses this turn", "give it no orders this turn (Vehicle Damage)", u.ID)
	}
	var e *orderError
	switch o.Verb {
	case "move", "charge":
		e = p.move(&o, u, pl, args)
	case "face":
		e = p.face(&o, u, pl, args)
	case "shoot", "stand":
		e = p.shoot(&o, u, pl, args)
	case "mortar":
		e = p.mortar(&o, u, pl, args)
	case "smoke":
		e = p.smoke(&o, u, pl, args)
	case "embark", "disembark", "enter":
		e = p.transit(&o, u, pl, args)
	case "split":
		if len(args) > 0 || len(u.Teams) == 0 || u.Aboard != "" && false {
			e = bad("%s cannot split", "only squads with fire teams split (US squads, British squads, Pathfinders): split U", u.ID)
		}
		if pl.move != nil || pl.fire != nil || len(pl.other) > 0 {
			e = bad("%s splits: its own orders are void", "give orders to its teams ("+strings.Join(teamIDs(u), ", ")+")", u.ID)
		}
		pl.other = append(pl.other, "split")
	case "casualties":
		e = p.casualties(&o, u, args)
	case "hold":
		if len(args) > 0 {
			e = bad("hold takes only a unit", "write hold "+u.ID)
		} else if pl.move != nil || pl.fire != nil {
			e = bad("%s already has orders: hold would cancel them", "remove the hold line or the other orders", u.ID)
		}
		pl.other = append(pl.other, "hold")
	}
	if e != nil {
		return o, e
	}
	return o, nil
}

// maxMove is the unit's movement allowance and the most it may move and
// still shoot (Movement, Vehicle Damage).
func maxMove(u *UnitState) (all, andShoot int) {
	if !u.IsVehicle() {
		return 2, 1
	}
	switch u.Motive {
	case "crippled":
		return 0, 0
	case "damaged":
		return 2, 1
	}
	return 4, 2
}

func (p *orderParser) claimMove(o *Order, pl *planned, hexes int) *orderError {
	if pl.move != nil {
		return bad("%s already has a movement order (%s)", "one of move, charge, face, embark, disembark, enter a unit a turn", o.Unit, pl.move.Verb)
	}
	if slices.Contains(pl.other, "hold") {
		return bad("%s holds", "remove the hold line", o.Unit)
	}
	if pl.fire != nil {
		if pl.fire.Verb == "stand" && hexes > 0 {
			return bad("%s stands and shoots: it may not move", "use shoot instead of stand to move and shoot", o.Unit)
		}
		if o.Verb == "charge" || o.Verb == "embark" {
			return bad("%s shoots: it cannot also %s", "a unit that charges or embarks does not shoot (Hand to Hand)", o.Unit, o.Verb)
		}
		if _, shoot := maxMove(pl.u); hexes > shoot {
			return bad("%s moves %d hexes: too far to shoot as well", fmt.Sprintf("a %s moves at most %d hexes and shoots (Movement)", kindWord(pl.u), shoot), o.Unit, hexes)
		}
	}
	pl.move, pl.moved, pl.hasMov = o, hexes, true
	return nil
}

func kindWord(u *UnitState) string {
	if u.IsVehicle() {
		return "vehicle"
	}
	return "unit of troops"
}

func (p *orderParser) hexArg(a string) (board.ID, *orderError) {
	h, ok := p.f.parse(a)
	if !ok {
		return h, bad("%q is not a hex of the map", fmt.Sprintf("hexes are like %s, from %s to %s", p.f.format(board.ID{Col: p.f.g.FirstCol + 1, Row: p.f.g.FirstRow + 2}),
			p.f.format(board.ID{Col: p.f.g.FirstCol, Row: p.f.g.FirstRow}), p.f.format(board.ID{Col: p.f.g.FirstCol + p.f.g.Cols - 1, Row: p.f.g.FirstRow + p.f.g.Rows - 1})), a)
	}
	return h, nil
}

func (p *orderParser) move(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	if o.Verb == "charge" && u.Kind != KindTroops {
		return bad("%s is a vehicle: only troops charge", "vehicles move and shoot (Hand to Hand)", u.ID)
	}
	if u.Aboard != "" {
		return bad("%s is aboard %s", "disembark it first: disembark "+u.ID+" [HEX]", u.ID, u.Aboard)
	}
	if i := slices.Index(args, "face"); i >= 0 {
		if o.Verb == "charge" || !u.IsVehicle() || u.Kind == KindLightVehicle || i != len(args)-2 {
			return bad("face DIR goes last, and only on a vehicle's move", "move "+u.ID+" HEX HEX face DIR")
		}
		if _, ok := parseDirection(p.f.g, args[i+1]); !ok {
			return bad("facing %q: not a direction", "directions are "+strings.Join(compass(p.f.g), ", "), args[i+1])
		}
		o.Face = args[i+1]
		args = args[:i]
	}
	if len(args) == 0 {
		return bad("%s %s: give the hexes of the path", "list each hex entered, in order: move "+u.ID+" HEX HEX", o.Verb, u.ID)
	}
	all, _ := maxMove(u)
	if o.Verb == "charge" {
		all = 2
	}
	if len(args) > all {
		return bad("%s moves %d hexes: at most %d", fmt.Sprintf("troops move 1 and shoot or 2 and not shoot; vehicles 2 and shoot or 4 and not (Movement)%s", damageNote(u)), u.ID, len(args), all)
	}
	from, ok := p.where(u)
	if !ok {
		return bad("%s is not on the map", "", u.ID)
	}
	for i, a := range args {
		h, e := p.hexArg(a)
		if e != nil {
			return e
		}
		if !p.f.g.Adjacent(from, h) {
			what := "its hex " + p.f.format(from)
			if i > 0 {
				what = p.f.format(from)
			}
			return bad("%s is not next to %s", "a path lists adjacent hexes, one step each, starting next to the unit", p.f.format(h), what)
		}
		if !p.f.passable(h) {
			return bad("%s is impassable (%s)", "go round it", p.f.format(h), p.f.names[h])
		}
		o.Path = append(o.Path, p.f.format(h))
		from = h
	}
	if o.Verb == "charge" {
		found := false
		for _, e := range p.s.Units {
			if e.Side != u.Side && e.Kind == KindTroops && e.Hex == o.Path[len(o.Path)-1] && !e.Eliminated() {
				found = true
			}
		}
		if !found {
			return bad("no enemy troops are at %s to charge", "a charge ends in the hex of the enemy squad it attacks (Hand to Hand)", o.Path[len(o.Path)-1])
		}
	}
	if p.stunnedOrCrippled(u) {
		return bad("%s cannot move (motive crippled)", "it may still shoot or face (Vehicle Damage)", u.ID)
	}
	return p.claimMove(o, pl, len(o.Path))
}

func damageNote(u *UnitState) string {
	if u.Motive == "damaged" {
		return "; motive damage halves it"
	}
	return ""
}

func (p *orderParser) stunnedOrCrippled(u *UnitState) bool { return u.Motive == "crippled" }

func (p *orderParser) face(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	if u.Kind != KindVehicle {
		return bad("only vehicles have a facing", "")
	}
	if len(args) != 1 {
		return bad("face takes one direction", "face "+u.ID+" "+compass(p.f.g)[0])
	}
	if _, ok := parseDirection(p.f.g, args[0]); !ok {
		return bad("facing %q: not a direction", "directions are "+strings.Join(compass(p.f.g), ", "), args[0])
	}
	if u.Motive == "crippled" {
		return bad("%s cannot turn (motive crippled)", "", u.ID)
	}
	o.Face = args[0]
	return p.claimMove(o, pl, 0)
}

// shoot reads: [at] T [with W,W|all] [kill|suppress].
func (p *orderParser) shoot(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	hint := o.Verb + " " + u.ID + " at TARGET [with WEAPON,WEAPON] [kill|suppress]"
	if len(args) > 0 && args[0] == "at" {
		args = args[1:]
	}
	if len(args) == 0 {
		return bad("%s %s: at whom?", hint, o.Verb, u.ID)
	}
	t := p.s.unit(args[0])
	if t == nil {
		return bad("there is no unit %s to shoot at", "shoot at an enemy unit on the map: "+strings.Join(p.enemies(), ", "), strings.ToUpper(args[0]))
	}
	if t.Side == u.Side || t.Eliminated() || t.Hex == "" {
		return bad("%s is not an enemy unit on the map", "shoot at an enemy unit on the map: "+strings.Join(p.enemies(), ", "), t.ID)
	}
	o.Target, o.Mode = t.ID, "kill"
	args = args[1:]
	for len(args) > 0 {
		switch args[0] {
		case "kill", "suppress", "suppression":
			o.Mode = strings.TrimSuffix(args[0], "ion")
			args = args[1:]
		case "with":
			args = args[1:]
			for len(args) > 0 && args[0] != "kill" && args[0] != "suppress" && args[0] != "suppression" {
				if args[0] != "," && args[0] != "all" {
					if !carries(u, args[0]) {
						return bad("%s carries no %s", "its weapons are "+strings.Join(weaponsOf(u), ", "), u.ID, args[0])
					}
					if !slices.Contains(o.With, args[0]) {
						o.With = append(o.With, args[0])
					}
				}
				args = args[1:]
			}
		default:
			return bad("%q: not understood", hint, args[0])
		}
	}
	if slices.Contains(o.With, "mortar") {
		return bad("mortars fire at a hex", "mortar "+u.ID+" at HEX [spotter UNIT]")
	}
	if u.Aboard != "" {
		v := p.s.unit(u.Aboard)
		if v == nil || !v.Ports {
			return bad("%s is aboard %s, which has no firing ports", "disembark first", u.ID, u.Aboard)
		}
	}
	if u.Kind == KindVehicle && u.FireControl == "crippled" {
		return bad("%s cannot fire (fire control crippled)", "", u.ID)
	}
	return p.claimFire(o, pl)
}

func (p *orderParser) claimFire(o *Order, pl *planned) *orderError {
	if pl.fire != nil {
		return bad("%s already fires this turn (%s)", "one of shoot, stand, mortar, smoke a unit a turn", o.Unit, pl.fire.Verb)
	}
	if slices.Contains(pl.other, "hold") {
		return bad("%s holds", "remove the hold line", o.Unit)
	}
	if m := pl.move; m != nil {
		switch {
		case m.Verb == "charge" || m.Verb == "embark":
			return bad("%s %ss: it cannot also fire", "a unit that charges or embarks does not shoot (Hand to Hand)", o.Unit, m.Verb)
		case o.Verb == "stand" && pl.moved > 0:
			return bad("%s moves: it cannot stand and shoot", "use shoot to move and shoot", o.Unit)
		}
		if _, shoot := maxMove(pl.u); pl.moved > shoot {
			return bad("%s moves %d hexes: too far to shoot as well", fmt.Sprintf("a %s moves at most %d hexes and shoots (Movement)", kindWord(pl.u), shoot), o.Unit, pl.moved)
		}
	}
	pl.fire = o
	return nil
}

func (p *orderParser) enemies() []string {
	var out []string
	for _, u := range p.s.Units {
		if u.Side != p.seat && !u.Eliminated() && u.Hex != "" {
			out = append(out, u.ID)
		}
	}
	slices.Sort(out)
	return out
}

// carries reports whether the unit has the weapon (a model's, a vehicle
// group's).
func carries(u *UnitState, key string) bool { return slices.Contains(weaponsOf(u), key) }

func weaponsOf(u *UnitState) []string {
	var out []string
	add := func(a Arm) {
		if !slices.Contains(out, a.Weapon) {
			out = append(out, a.Weapon)
		}
	}
	for _, m := range u.Models {
		for _, a := range m.Arms {
			add(a)
		}
	}
	for _, g := range u.Groups {
		for _, a := range g {
			add(a)
		}
	}
	return out
}

func (p *orderParser) mortar(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	hint := "mortar " + u.ID + " at HEX [spotter UNIT] [kill|smoke]"
	if !carries(u, "mortar") {
		return bad("%s has no mortar", "", u.ID)
	}
	if u.Aboard != "" {
		return bad("%s is aboard %s", "disembark first", u.ID, u.Aboard)
	}
	if len(args) > 0 && args[0] == "at" {
		args = args[1:]
	}
	if len(args) == 0 {
		return bad("mortar: at which hex?", hint)
	}
	h, e := p.hexArg(args[0])
	if e != nil {
		return e
	}
	o.Target, o.Mode = p.f.format(h), "kill"
	args = args[1:]
	for len(args) > 0 {
		switch {
		case args[0] == "kill" || args[0] == "smoke":
			o.Mode = args[0]
			args = args[1:]
		case args[0] == "spotter" && len(args) > 1:
			s, err := p.unitOf(args[1])
			if err != nil {
				return err
			}
			if s.ID == u.ID {
				return bad("the spotter is another unit", hint)
			}
			o.Spotter = s.ID
			args = args[2:]
		default:
			return bad("%q: not understood", hint, args[0])
		}
	}
	return p.claimFire(o, pl)
}

func (p *orderParser) smoke(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	if len(args) > 0 {
		return bad("smoke takes only a vehicle", "smoke "+u.ID)
	}
	if u.Kind != KindVehicle || !u.Smoke {
		return bad("%s has no smoke launchers", "troops fire smoke from a mortar: mortar U at HEX smoke", u.ID)
	}
	if u.FireControl == "crippled" {
		return bad("%s cannot fire (fire control crippled)", "", u.ID)
	}
	return p.claimFire(o, pl)
}

func (p *orderParser) transit(o *Order, u *UnitState, pl *planned, args []string) *orderError {
	switch o.Verb {
	case "embark":
		if len(args) > 0 && (args[0] == "in" || args[0] == "into") {
			args = args[1:]
		}
		if len(args) != 1 {
			return bad("embark takes a vehicle", "embark "+u.ID+" VEHICLE")
		}
		if u.Kind != KindTroops || u.Aboard != "" || u.Hex == "" {
			return bad("%s cannot embark", "troops on the map embark into a vehicle in or next to their hex", u.ID)
		}
		v, err := p.unitOf(args[0])
		if err != nil {
			return err
		}
		if v.Kind != KindVehicle || v.Capacity == 0 {
			return bad("%s carries no passengers", "", v.ID)
		}
		if load := passengerLoad(p.s, v); load+len(u.Models) > v.Capacity {
			return bad("%s has room for %d more, not %d", "", v.ID, v.Capacity-load, len(u.Models))
		}
		o.Target = v.ID
		return p.claimMove(o, pl, 1)
	case "disembark":
		if u.Aboard == "" {
			return bad("%s is not aboard a vehicle", "", u.ID)
		}
		if len(args) > 1 {
			return bad("disembark takes at most a hex", "disembark "+u.ID+" [HEX]")
		}
		if len(args) == 1 {
			h, e := p.hexArg(args[0])
			if e != nil {
				return e
			}
			if !p.f.passable(h) {
				return bad("%s is impassable", "", p.f.format(h))
			}
			o.Target = p.f.format(h)
		}
		return p.claimMove(o, pl, 1)
	}
	// enter (Sneak Attack/Forward Deployment)
	if !u.Reserve {
		return bad("%s is not off table", "only sneak attack units held off table enter", u.ID)
	}
	if len(args) != 1 {
		return bad("enter takes a hex", "enter "+u.ID+" HEX")
	}
	h, e := p.hexArg(args[0])
	if e != nil {
		return e
	}
	if !p.f.passable(h) {
		return bad("%s is impassable", "", p.f.format(h))
	}
	if u.Sneak == "edge" && !onEdge(p.f.g, h) {
		return bad("%s enters from a board edge", "choose a hex on the edge of the map", u.ID)
	}
	o.Target = p.f.format(h)
	return p.claimMove(o, pl, 0)
}

func onEdge(g board.Grid, h board.ID) bool {
	return len(g.Neighbours(h)) < 6
}

func (p *orderParser) casualties(o *Order, u *UnitState, args []string) *orderError {
	if u.Kind == KindVehicle {
		return bad("vehicles have no casualty priority", "")
	}
	for _, a := range args {
		if a == "," {
			continue
		}
		if !carries(u, a) {
			return bad("%s carries no %s", "its weapons are "+strings.Join(weaponsOf(u), ", "), u.ID, a)
		}
		if !slices.Contains(o.Priority, a) {
			o.Priority = append(o.Priority, a)
		}
	}
	if len(o.Priority) == 0 {
		return bad("casualties: name weapons", "casualties "+u.ID+" assault lmg: the carriers of the first fall first")
	}
	return nil
}

func passengerLoad(s *State, v *UnitState) int {
	n := 0
	for _, o := range s.Units {
		if o.Aboard == v.ID {
			n += len(o.Models)
		}
	}
	return n
}

// position is where a unit is: its hex, or its vehicle's.
func position(s *State, f *field, u *UnitState) (board.ID, bool) {
	h := u.Hex
	if u.Aboard != "" {
		if v := s.unit(u.Aboard); v != nil {
			h = v.Hex
		}
	}
	if h == "" {
		return board.ID{}, false
	}
	return f.parse(h)
}

// splitTeams are the units a squad splits into (the army lists): one per
// team, named after the squad and the team, each with its men and its
// share of the original size.
func splitTeams(u *UnitState) []*UnitState {
	var out []*UnitState
	for _, t := range u.Teams {
		n := &UnitState{ID: u.ID + t, Side: u.Side, Name: u.Name + " team " + t, Type: u.Type, Kind: u.Kind, Hex: u.Hex, Aboard: u.Aboard,
			Special: u.Special, Heroic: u.Heroic, Priority: u.Priority, Suppression: u.Suppression}
		for _, m := range u.Models {
			if m.Team == t {
				m.Team = ""
				n.Models = append(n.Models, m)
			}
		}
		// the team's original size counts its fallen too (Morale).
		n.Original = max(u.TeamSizes[t], len(n.Models))
		out = append(out, n)
	}
	return out
}

func teamIDs(u *UnitState) []string {
	var out []string
	for _, t := range u.Teams {
		out = append(out, u.ID+t)
	}
	return out
}
