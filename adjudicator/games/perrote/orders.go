package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// This file holds the order grammar (docs/orders-perrote.md): one order a
// line, each for one unit, read against the state of the turn open.

// order is one parsed order.
type order struct {
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
	// Note is the receipt's forecast: what is checked only when the unit
	// acts, and why. It is not part of the canonical form.
	Note string
}

// String is the order's canonical form.
func (o order) String() string {
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
	case "smoke":
		if o.Target != "" {
			return "smoke " + o.Unit + " at " + o.Target
		}
	}
	return o.Verb + " " + o.Unit
}

// Echo is the order as the receipt shows it: the canonical form, then the
// forecast after "#".
func (o order) Echo() string {
	if o.Note == "" {
		return o.String()
	}
	return o.String() + "  # " + o.Note
}

// verbs is Per Rote's order table, in the grammar's order: the parser
// takes only its verbs, and `help perrote` mails it. Every order is of the
// one phase, the turn's orders.
var verbs = adjudicator.Verbs{
	{Name: "move", Form: "move U HEX [HEX...] [face DIR]", Phases: turnPhase, Rules: "Movement", Example: "move R3 0611",
		Summary: "move along a path of adjacent hexes, the first next to the unit: troops 1 hex and shoot, or 2 and not shoot; vehicles 2 and shoot, 3-4 and not shoot, ending facing their last step unless face DIR says otherwise"},
	{Name: "face", Form: "face U DIR", Phases: turnPhase, Rules: "Movement, Facing", Example: "face T1 ne",
		Summary: "a vehicle turns in place (not a move)"},
	{Name: "shoot", Form: "shoot U at T [with W,W...] [kill|suppress]", Phases: turnPhase, Rules: "Shooting", Example: "shoot R3 at A3 with assault",
		Summary: "fire at enemy unit T; without with, each man (or the vehicle's best weapon group) fires what scores best; suppress: suppression fire"},
	{Name: "stand", Form: "stand U at T [with W,W...] [kill|suppress]", Phases: turnPhase, Rules: "Movement, Shooting", Example: "stand T1 at A3",
		Summary: "shoot without moving: every weapon gets its extra die"},
	{Name: "charge", Form: "charge U HEX [HEX]", Phases: turnPhase, Rules: "Hand to Hand", Example: "charge R3 0710 0810",
		Summary: "move up to 2 hexes into an enemy squad's hex and fight hand to hand; no shooting"},
	{Name: "mortar", Form: "mortar U at HEX [spotter S] [kill|smoke]", Phases: turnPhase, Rules: "Mortars", Example: "mortar M at 0810 spotter R3",
		Summary: "fire the unit's mortars at a hex: 3+ to hit when the mortar or spotter S (which may not move) sees it, else 5+; smoke lays smoke"},
	{Name: "smoke", Form: "smoke U [at HEX]", Phases: turnPhase, Rules: "Smoke", Example: "smoke T1",
		Summary: "a vehicle's smoke launchers (the three hexes touching its front), or troops' grenade launcher at one hex 1 to 2 away"},
	{Name: "embark", Form: "embark U V", Phases: turnPhase, Rules: "Transport", Example: "embark R3 BMP2",
		Summary: "troops get into vehicle V in or next to their hex (a 1-hex move; no fire)"},
	{Name: "disembark", Form: "disembark U [HEX]", Phases: turnPhase, Rules: "Transport", Example: "disembark R1 0506",
		Summary: "passengers get out into their vehicle's hex or one next to it (a 1-hex move; they may then shoot)"},
	{Name: "split", Form: "split U", Phases: turnPhase, Rules: "Fire Teams", Example: "split S1",
		Summary: "a squad splits into its fire teams (U and a team letter: S1A, S1B, S1L) before turn order; give the teams their orders in the same file"},
	{Name: "casualties", Form: "casualties U W [W...]", Phases: turnPhase, Rules: "Casualties", Example: "casualties R3 assault",
		Summary: "standing casualty priority: carriers of these weapons fall first (kept until changed)"},
	{Name: "enter", Form: "enter U HEX", Phases: turnPhase, Rules: "Sneak Attack", Example: "enter SN 0101",
		Summary: "a sneak attack unit comes on (an edge hex for edge units); it counts as rolling a one"},
	{Name: "hold", Form: "hold U", Phases: turnPhase, Rules: "Turn Order", Example: "hold T2",
		Summary: "do nothing (the default for a unit without orders)"},
}

// turnPhase is Per Rote's one phase: every seat's orders for the turn.
var turnPhase = []string{"turn"}

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

const grammarHint = "orders are: move U HEX.. [face DIR], face U DIR, shoot U at T [with W,..] [kill|suppress], stand U at T .., charge U HEX.., mortar U at HEX [spotter S] [kill|smoke], smoke U [at HEX], embark U V, disembark U [HEX], split U, casualties U W.., enter U HEX, hold U"

// planned is a unit's orders so far in one file, to find conflicts.
type planned struct {
	u      *unitState
	move   *order // move, charge, embark, disembark, enter, face
	fire   *order // shoot, stand, mortar, smoke
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
	teams map[string]*unitState
}

// parseOrders reads a seat's order lines; it returns the orders and the
// problems, in line order. Each line is checked against the turn's
// position; then the orders are checked against each other (a spotter that
// moves, a weapon that cannot move and fire, a mortar out of range from
// where the unit will stand) and given their forecasts.
func parseOrders(s *State, seat string, lines []adjudicator.OrderLine) ([]order, []adjudicator.Problem) {
	p := &orderParser{s: s, f: newField(s), seat: seat, plans: map[string]*planned{}, teams: map[string]*unitState{}}
	// splits first: the teams they create may be given orders on any line.
	for _, l := range lines {
		f := strings.Fields(strings.ToLower(kit.StripComment(l.Text)))
		if len(f) == 2 && f[0] == "split" {
			if u := s.unit(f[1]); u != nil && u.Side == seat && len(u.Teams) > 0 && !u.Eliminated() {
				for _, t := range splitTeams(u) {
					p.teams[strings.ToLower(t.ID)] = t
				}
			}
		}
	}
	var out []order
	var at []int
	var problems []adjudicator.Problem
	for _, l := range lines {
		o, err := p.line(kit.StripComment(l.Text))
		if err != nil {
			problems = append(problems, adjudicator.Problem{Line: l.Line, Text: err.Text, Hint: err.Hint})
			continue
		}
		out, at = append(out, o), append(at, l.Line)
	}
	var kept []order
	for i := range out {
		if err := p.across(&out[i]); err != nil {
			problems = append(problems, adjudicator.Problem{Line: at[i], Text: err.Text, Hint: err.Hint})
			continue
		}
		kept = append(kept, out[i])
	}
	slices.SortStableFunc(problems, func(a, b adjudicator.Problem) int { return a.Line - b.Line })
	return kept, problems
}

// unitOf finds one of the seat's units (or a team a split creates).
func (p *orderParser) unitOf(id string) (*unitState, *adjudicator.Refusal) {
	u := p.s.unit(id)
	if u == nil {
		u = p.teams[strings.ToLower(id)]
	}
	if u == nil {
		return nil, adjudicator.Refuse(adjudicator.UnitHint(id, p.mine()), "there is no unit %s", strings.ToUpper(id))
	}
	if u.Side != p.seat {
		return nil, adjudicator.Refuse("give orders to your own units; "+adjudicator.UnitHint(id, p.mine()), "%s is not yours: it is %s's", u.ID, u.Side)
	}
	if u.Eliminated() {
		return nil, adjudicator.Refuse("give orders to units still in play", "%s is out of the game", u.ID)
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
func (p *orderParser) where(u *unitState) (board.ID, bool) {
	return position(p.s, p.f, u)
}

func (p *orderParser) line(text string) (order, *adjudicator.Refusal) {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(text, ",", " , ")))
	if len(f) < 2 {
		return order{}, adjudicator.Refuse(grammarHint, "%q is not an order", text)
	}
	if !verbs.Has(f[0]) {
		return order{}, adjudicator.Refuse(verbs.Hint(f[0], grammarHint), "%q is not an order of Per Rote", f[0])
	}
	u, err := p.unitOf(f[1])
	if err != nil {
		return order{}, err
	}
	o := order{Verb: f[0], Unit: u.ID}
	args := slices.DeleteFunc(slices.Clone(f[2:]), func(s string) bool { return s == "," && f[0] != "shoot" && f[0] != "stand" && f[0] != "casualties" })
	pl := p.plans[u.ID]
	if pl == nil {
		pl = &planned{u: u}
		p.plans[u.ID] = pl
	}
	if u.Reserve && o.Verb != "enter" && o.Verb != "casualties" && o.Verb != "hold" && !(o.Verb == "shoot" && pl.move != nil) {
		return o, adjudicator.Refuse("bring it on first: enter "+u.ID+" HEX (a sneak attack)", "%s is off table", u.ID)
	}
	if len(u.Teams) > 0 && p.teams[strings.ToLower(u.ID+u.Teams[0])] != nil && o.Verb != "split" && o.Verb != "casualties" {
		return o, adjudicator.Refuse("its teams are "+strings.Join(teamIDs(u), ", "), "%s splits this turn: give orders to its teams", u.ID)
	}
	if u.Kind == kindVehicle && u.StunnedTurn == p.s.Turn+1 && o.Verb != "casualties" {
		return o, adjudicator.Refuse("give it no orders this turn (Vehicle Damage)", "%s is stunned: it misses this turn", u.ID)
	}
	if h, fight := p.inCloseCombat(u); fight && o.Verb != "casualties" && o.Verb != "hold" {
		return o, adjudicator.Refuse("give it no orders this turn, or only casualties (Hand to Hand: the fight goes on at the highest turn order number of its units)", "%s is in close combat at %s: it fights there this turn and does nothing else", u.ID, h)
	}
	var e *adjudicator.Refusal
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
		if len(args) > 0 || len(u.Teams) == 0 {
			e = adjudicator.Refuse("only squads with fire teams split (US squads, British squads, Pathfinders): split U", "%s cannot split", u.ID)
		}
		if slices.Contains(pl.other, "split") {
			e = adjudicator.Refuse("give orders to its teams ("+strings.Join(teamIDs(u), ", ")+")", "%s already splits: one split order is enough", u.ID)
		}
		if e == nil {
			pl.other = append(pl.other, "split")
		}
	case "casualties":
		e = p.casualties(&o, u, args)
	case "hold":
		if len(args) > 0 {
			e = adjudicator.Refuse("write hold "+u.ID, "hold takes only a unit")
		} else if pl.move != nil || pl.fire != nil {
			e = adjudicator.Refuse("remove the hold line or the other orders", "%s already has orders: hold would cancel them", u.ID)
		}
		if e == nil {
			pl.other = append(pl.other, "hold")
		}
	}
	if e != nil {
		return o, e
	}
	return o, nil
}

// maxMove is the unit's movement allowance and the most it may move and
// still shoot (Movement, Vehicle Damage).
func maxMove(u *unitState) (all, andShoot int) {
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

func (p *orderParser) claimMove(o *order, pl *planned, hexes int) *adjudicator.Refusal {
	if pl.move != nil {
		return adjudicator.Refuse("one of move, charge, face, embark, disembark, enter a unit a turn", "%s already has a movement order (%s)", o.Unit, pl.move.Verb)
	}
	if slices.Contains(pl.other, "hold") {
		return adjudicator.Refuse("remove the hold line", "%s holds", o.Unit)
	}
	if pl.fire != nil {
		if pl.fire.Verb == "stand" && hexes > 0 {
			return adjudicator.Refuse("use shoot instead of stand to move and shoot", "%s stands and shoots: it may not move", o.Unit)
		}
		if o.Verb == "charge" || o.Verb == "embark" {
			return adjudicator.Refuse("a unit that charges or embarks does not shoot (Hand to Hand)", "%s shoots: it cannot also %s", o.Unit, o.Verb)
		}
		if _, shoot := maxMove(pl.u); hexes > shoot {
			return adjudicator.Refuse(fmt.Sprintf("a %s moves at most %s and shoots (Movement)", kindWord(pl.u), hexCount(shoot)), "%s moves %s: too far to shoot as well", o.Unit, hexCount(hexes))
		}
	}
	pl.move, pl.moved, pl.hasMov = o, hexes, true
	return nil
}

func kindWord(u *unitState) string {
	if u.IsVehicle() {
		return "vehicle"
	}
	return "unit of troops"
}

func (p *orderParser) hexArg(a string) (board.ID, *adjudicator.Refusal) {
	h, ok := p.f.parse(a)
	if !ok {
		return h, adjudicator.Refuse(fmt.Sprintf("hexes are like %s, from %s to %s", p.f.format(board.ID{Col: p.f.g.FirstCol + 1, Row: p.f.g.FirstRow + 2}),
			p.f.format(board.ID{Col: p.f.g.FirstCol, Row: p.f.g.FirstRow}), p.f.format(board.ID{Col: p.f.g.FirstCol + p.f.g.Cols - 1, Row: p.f.g.FirstRow + p.f.g.Rows - 1})), "%q is not a hex of the map", a)
	}
	return h, nil
}

func (p *orderParser) move(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	if o.Verb == "charge" && u.Kind != kindTroops {
		return adjudicator.Refuse("vehicles move and shoot (Hand to Hand)", "%s is a vehicle: only troops charge", u.ID)
	}
	if u.Aboard != "" {
		return adjudicator.Refuse("disembark it first: disembark "+u.ID+" [HEX]", "%s is aboard %s", u.ID, u.Aboard)
	}
	if u.Motive == "crippled" {
		return adjudicator.Refuse("it may still shoot (Vehicle Damage)", "%s cannot move (motive crippled)", u.ID)
	}
	if i := slices.Index(args, "face"); i >= 0 {
		if o.Verb == "charge" || !u.IsVehicle() || u.Kind == kindLightVehicle || i != len(args)-2 {
			return adjudicator.Refuse("move "+u.ID+" HEX HEX face DIR", "face DIR goes last, and only on a vehicle's move")
		}
		if _, ok := parseDirection(p.f.g, args[i+1]); !ok {
			return adjudicator.Refuse("directions are "+strings.Join(compass(p.f.g), ", "), "facing %q: not a direction", args[i+1])
		}
		o.Face = args[i+1]
		args = args[:i]
	}
	if len(args) == 0 {
		return adjudicator.Refuse("list each hex entered, in order: move "+u.ID+" HEX HEX", "%s %s: give the hexes of the path", o.Verb, u.ID)
	}
	all, _ := maxMove(u)
	if o.Verb == "charge" {
		all = 2
	}
	if len(args) > all {
		return adjudicator.Refuse(fmt.Sprintf("troops move 1 and shoot or 2 and not shoot; vehicles 2 and shoot or 4 and not (Movement)%s", damageNote(u)), "%s moves %s: at most %d", u.ID, hexCount(len(args)), all)
	}
	from, ok := p.where(u)
	if !ok {
		return adjudicator.Refuse("bring it on with enter "+u.ID+" HEX, or give orders to units on the map", "%s is not on the map", u.ID)
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
			return adjudicator.Refuse("a path lists adjacent hexes, one step each, starting next to the unit", "%s is not next to %s", p.f.format(h), what)
		}
		if !p.f.passable(h) {
			return adjudicator.Refuse("go round it", "%s is impassable (%s)", p.f.format(h), p.f.names[h])
		}
		o.Path = append(o.Path, p.f.format(h))
		from = h
	}
	if start, _ := p.where(u); from == start && o.Face == "" && o.Verb == "move" {
		// a path back to the unit's own hex moves nothing and costs its
		// fire (docs/rulings.md, issue 31 (no-ops))
		return adjudicator.Refuse(fmt.Sprintf("end the move in another hex, or leave %s out of the movement orders: it then stays and may shoot (Movement)", u.ID),
			"%s's move ends where it starts, at %s", u.ID, p.f.format(start))
	}
	if o.Verb == "charge" {
		found := false
		for _, e := range p.s.Units {
			if e.Side != u.Side && e.Kind == kindTroops && e.Hex == o.Path[len(o.Path)-1] && !e.Eliminated() {
				found = true
			}
		}
		if !found {
			return adjudicator.Refuse("a charge ends in the hex of the enemy squad it attacks (Hand to Hand)", "no enemy troops are at %s to charge", o.Path[len(o.Path)-1])
		}
	}
	return p.claimMove(o, pl, len(o.Path))
}

func damageNote(u *unitState) string {
	if u.Motive == "damaged" {
		return "; motive damage halves it"
	}
	return ""
}

func (p *orderParser) face(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	if u.Kind != kindVehicle {
		return adjudicator.Refuse("troops and light vehicles need no facing: move "+u.ID+" HEX.. (Vehicles)", "%s has no facing: only vehicles have a facing", u.ID)
	}
	if len(args) != 1 {
		return adjudicator.Refuse("face "+u.ID+" "+compass(p.f.g)[0], "face takes one direction")
	}
	if _, ok := parseDirection(p.f.g, args[0]); !ok {
		return adjudicator.Refuse("directions are "+strings.Join(compass(p.f.g), ", "), "facing %q: not a direction", args[0])
	}
	if u.Motive == "crippled" {
		return adjudicator.Refuse("a crippled vehicle keeps its facing; it may still shoot (Vehicle Damage)", "%s cannot turn (motive crippled)", u.ID)
	}
	o.Face = args[0]
	return p.claimMove(o, pl, 0)
}

// shoot reads: [at] T [with W,W|all] [kill|suppress].
func (p *orderParser) shoot(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	hint := o.Verb + " " + u.ID + " at TARGET [with WEAPON,WEAPON] [kill|suppress]"
	if len(args) > 0 && args[0] == "at" {
		args = args[1:]
	}
	if len(args) == 0 {
		return adjudicator.Refuse(hint, "%s %s: at whom?", o.Verb, u.ID)
	}
	t := p.s.unit(args[0])
	if t == nil {
		return adjudicator.Refuse(adjudicator.DidYouMean(args[0], "shoot at an enemy unit: 'units GAME' lists them", p.enemies()), "there is no unit %s to shoot at", strings.ToUpper(args[0]))
	}
	switch {
	case t.Side == u.Side:
		return adjudicator.Refuse("shoot at an enemy unit: 'units GAME' lists them", "%s is your own unit", t.ID)
	case t.Eliminated():
		return adjudicator.Refuse("shoot at an enemy unit: 'units GAME' lists them", "%s is out of the game", t.ID)
	case t.Aboard != "":
		return adjudicator.Refuse("shoot at the vehicle: "+o.Verb+" "+u.ID+" at "+t.Aboard+" (its damage may kill them)", "%s is aboard %s: passengers are not shot at", t.ID, t.Aboard)
	case t.Hex == "" && !t.Reserve:
		return adjudicator.Refuse("shoot at an enemy unit on the map: 'units GAME' lists them", "%s is not on the map", t.ID)
	}
	o.Target, o.Mode = t.ID, "kill"
	args = args[1:]
	for more := adjudicator.Consuming(&args); more(); {
		switch args[0] {
		case "kill", "suppress", "suppression":
			o.Mode = strings.TrimSuffix(args[0], "ion")
			args = args[1:]
		case "with":
			args = args[1:]
			for more := adjudicator.Consuming(&args); more() && args[0] != "kill" && args[0] != "suppress" && args[0] != "suppression"; {
				if args[0] != "," && args[0] != "all" {
					if !carries(u, args[0]) {
						return adjudicator.Refuse("its weapons are "+strings.Join(weaponsOf(u), ", "), "%s carries no %s", u.ID, args[0])
					}
					if !slices.Contains(o.With, args[0]) {
						o.With = append(o.With, args[0])
					}
				}
				args = args[1:]
			}
		default:
			return adjudicator.Refuse(hint, "%q: not understood", args[0])
		}
	}
	if slices.Contains(o.With, "mortar") {
		return adjudicator.Refuse("mortar "+u.ID+" at HEX [spotter UNIT]", "mortars fire at a hex")
	}
	for _, w := range o.With {
		if spent(u, w) {
			return adjudicator.Refuse("its weapons left are "+strings.Join(unspent(u), ", "), "%s's %s is spent (one shot a game)", u.ID, w)
		}
	}
	if u.Aboard != "" {
		v := p.s.unit(u.Aboard)
		if v == nil || !v.Ports {
			return adjudicator.Refuse("disembark first: disembark "+u.ID+" [HEX] (then it may shoot: a one-hex move)", "%s is aboard %s, which has no firing ports", u.ID, u.Aboard)
		}
		for _, key := range o.With {
			if w, _ := weaponByKey(key); !w.SmallArms {
				return adjudicator.Refuse("name small arms (rifles, machineguns), or disembark first (Vehicles: firing ports)", "%s is aboard %s: only small arms fire through its ports, not the %s", u.ID, u.Aboard, w.Name)
			}
		}
	}
	if u.Kind == kindVehicle {
		if e := p.fireControl(u); e != nil {
			return e
		}
		if len(o.With) > 1 && groupOf(u, o.With) < 0 {
			return adjudicator.Refuse("its weapon groups are "+groupsText(u)+"; name weapons of one group (Vehicle Weapons)",
				"%s fires %s: a vehicle fires its main weapon, or a heavy secondary weapon, or all its lighter weapons, never two of these at once", u.ID, strings.Join(o.With, " and "))
		}
	}
	if t.Reserve {
		o.Note = fmt.Sprintf("%s is off table now; checked when %s acts: it may be placed this turn by sneak attack", t.ID, u.ID)
	}
	return p.claimFire(o, pl)
}

// fireControl refuses fire the vehicle's damage forbids (Vehicle Damage):
// crippled fire control, or damaged fire control that fired last turn.
func (p *orderParser) fireControl(u *unitState) *adjudicator.Refusal {
	switch {
	case u.FireControl == "crippled":
		return adjudicator.Refuse("it may still move if its motive allows: give it a move order, or none (Vehicle Damage)", "%s cannot fire (fire control crippled)", u.ID)
	case u.FireControl == "damaged" && u.LastFired > 0 && u.LastFired == p.s.Turn:
		return adjudicator.Refuse(fmt.Sprintf("it may fire again on turn %d (Vehicle Damage)", p.s.Turn+2), "%s fired last turn: with damaged fire control it fires every other turn", u.ID)
	}
	return nil
}

// groupOf is the index of the vehicle's weapon group that holds every
// named weapon, or -1 (Vehicle Weapons).
func groupOf(u *unitState, with []string) int {
	for gi, g := range u.Groups {
		all := true
		for _, w := range with {
			if !slices.ContainsFunc(g, func(a arm) bool { return a.Weapon == w }) {
				all = false
			}
		}
		if all {
			return gi
		}
	}
	return -1
}

// groupsText lists a vehicle's weapon groups: "tank_gun | heavy_missile |
// lmg,hmg".
func groupsText(u *unitState) string {
	var gs []string
	for _, g := range u.Groups {
		var ks []string
		for _, a := range g {
			if !slices.Contains(ks, a.Weapon) {
				ks = append(ks, a.Weapon)
			}
		}
		gs = append(gs, strings.Join(ks, ","))
	}
	return strings.Join(gs, " | ")
}

// spent reports whether every arm of the weapon the unit carries is spent
// (one shot a game: Javelin, LAW80).
func spent(u *unitState, key string) bool {
	n, left := 0, 0
	each(u, func(a arm) {
		if a.Weapon == key {
			n++
			if !a.Spent {
				left++
			}
		}
	})
	return n > 0 && left == 0
}

// unspent lists the weapons the unit may still fire.
func unspent(u *unitState) []string {
	var out []string
	each(u, func(a arm) {
		if !a.Spent && !slices.Contains(out, a.Weapon) {
			out = append(out, a.Weapon)
		}
	})
	return out
}

// each calls fn for every arm of the unit's men and weapon groups.
func each(u *unitState, fn func(arm)) {
	for _, m := range u.Models {
		for _, a := range m.Arms {
			fn(a)
		}
	}
	for _, g := range u.Groups {
		for _, a := range g {
			fn(a)
		}
	}
}

func (p *orderParser) claimFire(o *order, pl *planned) *adjudicator.Refusal {
	if pl.fire != nil {
		return adjudicator.Refuse("one of shoot, stand, mortar, smoke a unit a turn", "%s already fires this turn (%s)", o.Unit, pl.fire.Verb)
	}
	if slices.Contains(pl.other, "hold") {
		return adjudicator.Refuse("remove the hold line", "%s holds", o.Unit)
	}
	if m := pl.move; m != nil {
		switch {
		case m.Verb == "charge" || m.Verb == "embark":
			return adjudicator.Refuse("a unit that charges or embarks does not shoot (Hand to Hand)", "%s %ss: it cannot also fire", o.Unit, m.Verb)
		case o.Verb == "stand" && pl.moved > 0:
			return adjudicator.Refuse("use shoot to move and shoot", "%s moves: it cannot stand and shoot", o.Unit)
		}
		if _, shoot := maxMove(pl.u); pl.moved > shoot {
			return adjudicator.Refuse(fmt.Sprintf("a %s moves at most %s and shoots (Movement)", kindWord(pl.u), hexCount(shoot)), "%s moves %s: too far to shoot as well", o.Unit, hexCount(pl.moved))
		}
	}
	pl.fire = o
	return nil
}

func (p *orderParser) enemies() []string {
	var out []string
	for _, u := range p.s.Units {
		switch {
		case u.Side == p.seat || u.Eliminated():
		case u.Hex != "":
			out = append(out, u.ID)
		case u.Reserve:
			out = append(out, u.ID+" (off table)")
		}
	}
	slices.Sort(out)
	return out
}

// carries reports whether the unit has the weapon (a model's, a vehicle
// group's).
func carries(u *unitState, key string) bool { return slices.Contains(weaponsOf(u), key) }

func weaponsOf(u *unitState) []string {
	var out []string
	add := func(a arm) {
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

func (p *orderParser) mortar(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	hint := "mortar " + u.ID + " at HEX [spotter UNIT] [kill|smoke]"
	if !carries(u, "mortar") {
		return adjudicator.Refuse("fire its weapons at a unit: shoot "+u.ID+" at TARGET; its weapons are "+strings.Join(weaponsOf(u), ", "), "%s has no mortar", u.ID)
	}
	if u.Aboard != "" {
		return adjudicator.Refuse("disembark first: disembark "+u.ID+" [HEX]", "%s is aboard %s", u.ID, u.Aboard)
	}
	if len(args) > 0 && args[0] == "at" {
		args = args[1:]
	}
	if len(args) == 0 {
		return adjudicator.Refuse(hint, "mortar: at which hex?")
	}
	h, e := p.hexArg(args[0])
	if e != nil {
		return e
	}
	o.Target, o.Mode = p.f.format(h), "kill"
	args = args[1:]
	for more := adjudicator.Consuming(&args); more(); {
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
				return adjudicator.Refuse(hint, "the spotter is another unit")
			}
			if s.Aboard != "" || s.Hex == "" {
				return adjudicator.Refuse("a spotter is one of your units on the map that does not move this turn (Mortars)", "spotter %s is not on the map", s.ID)
			}
			o.Spotter = s.ID
			args = args[2:]
		default:
			return adjudicator.Refuse(hint, "%q: not understood", args[0])
		}
	}
	return p.claimFire(o, pl)
}

// smoke reads a vehicle's smoke launchers (smoke U: Smoke Launchers) or a
// grenade launcher's smoke round (smoke U at HEX: the M203 fires smoke out
// to two hexes, Americans).
func (p *orderParser) smoke(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	if len(args) > 0 && args[0] == "at" {
		args = args[1:]
	}
	if u.Kind != kindVehicle {
		r := launcherRange(u)
		if r == 0 {
			return adjudicator.Refuse("mortar "+u.ID+" at HEX smoke, if it has a mortar; its weapons are "+strings.Join(weaponsOf(u), ", "), "%s has no smoke: troops lay smoke with a grenade launcher (M203) or a mortar", u.ID)
		}
		if len(args) != 1 {
			return adjudicator.Refuse(fmt.Sprintf("smoke %s at HEX: a hex up to %d away (Americans: the M203)", u.ID, r), "smoke %s: at which hex?", u.ID)
		}
		if u.Aboard != "" {
			return adjudicator.Refuse("disembark first: disembark "+u.ID+" [HEX]", "%s is aboard %s", u.ID, u.Aboard)
		}
		h, e := p.hexArg(args[0])
		if e != nil {
			return e
		}
		o.Target = p.f.format(h)
		return p.claimFire(o, pl)
	}
	if len(args) > 0 {
		return adjudicator.Refuse("smoke "+u.ID+" (no hex: turn the vehicle first with face or a move's face to aim it)", "a vehicle's smoke launchers fill the three hexes touching its front")
	}
	if !u.Smoke {
		return adjudicator.Refuse("fire its weapons instead: shoot "+u.ID+" at TARGET (the scenario gives it no smoke launchers)", "%s has no smoke launchers", u.ID)
	}
	if e := p.fireControl(u); e != nil {
		return e
	}
	return p.claimFire(o, pl)
}

// launcherRange is the range of the unit's grenade launchers, which also
// fire smoke (Americans: "antipersonnel/smoke grenades out to two hexes"),
// or 0: an antipersonnel grenade arm that reaches beyond the hand grenade's
// one hex is a launcher (docs/rulings.md).
func launcherRange(u *unitState) int {
	r := 0
	for _, m := range u.Models {
		for _, a := range m.Arms {
			if a.Weapon == "ap_grenade" && a.Range > 1 {
				r = max(r, a.Range)
			}
		}
	}
	return r
}

func (p *orderParser) transit(o *order, u *unitState, pl *planned, args []string) *adjudicator.Refusal {
	switch o.Verb {
	case "embark":
		if len(args) > 0 && (args[0] == "in" || args[0] == "into") {
			args = args[1:]
		}
		if len(args) != 1 {
			return adjudicator.Refuse("embark "+u.ID+" VEHICLE", "embark takes a vehicle")
		}
		switch {
		case u.Kind != kindTroops:
			return adjudicator.Refuse("move it instead: move "+u.ID+" HEX.. (Vehicles)", "%s cannot embark: only troops ride in vehicles", u.ID)
		case u.Aboard != "":
			return adjudicator.Refuse("disembark "+u.ID+" [HEX] gets it out", "%s is already aboard %s", u.ID, u.Aboard)
		case u.Hex == "":
			return adjudicator.Refuse("bring it on first: enter "+u.ID+" HEX", "%s is not on the map", u.ID)
		}
		v, err := p.unitOf(args[0])
		if err != nil {
			return err
		}
		if v.Kind != kindVehicle || v.Capacity == 0 {
			return adjudicator.Refuse("embark into one of your vehicles with room: "+p.carriers(u), "%s carries no passengers", v.ID)
		}
		if load := passengerLoad(p.s, v); load+len(u.Models) > v.Capacity {
			return adjudicator.Refuse("embark into a vehicle with room for all its men: "+p.carriers(u)+", or split the squad first", "%s has room for %d more, not %d", v.ID, v.Capacity-load, len(u.Models))
		}
		o.Target = v.ID
		return p.claimMove(o, pl, 1)
	case "disembark":
		if u.Aboard == "" {
			return adjudicator.Refuse("to get into one: embark "+u.ID+" VEHICLE; to move: move "+u.ID+" HEX..", "%s is not aboard a vehicle", u.ID)
		}
		if len(args) > 1 {
			return adjudicator.Refuse("disembark "+u.ID+" [HEX]", "disembark takes at most a hex")
		}
		if len(args) == 1 {
			h, e := p.hexArg(args[0])
			if e != nil {
				return e
			}
			if !p.f.passable(h) {
				return adjudicator.Refuse("get out into the vehicle's hex or a passable hex next to it", "%s is impassable", p.f.format(h))
			}
			o.Target = p.f.format(h)
		}
		return p.claimMove(o, pl, 1)
	}
	// enter (Sneak Attack/Forward Deployment)
	if !u.Reserve {
		return adjudicator.Refuse("only sneak attack units held off table enter", "%s is not off table", u.ID)
	}
	if len(args) != 1 {
		return adjudicator.Refuse("enter "+u.ID+" HEX", "enter takes a hex")
	}
	h, e := p.hexArg(args[0])
	if e != nil {
		return e
	}
	if !p.f.passable(h) {
		return adjudicator.Refuse("choose a passable hex (Sneak Attack/Forward Deployment)", "%s is impassable", p.f.format(h))
	}
	if u.Sneak == "edge" && !onEdge(p.f.g, h) {
		return adjudicator.Refuse("choose a hex on the edge of the map", "%s enters from a board edge", u.ID)
	}
	if why := p.turn().blockedFor(u, h, false); why != "" {
		return adjudicator.Refuse("choose a hex free of the enemy, of other vehicles for a vehicle, and with room (Sneak Attack: units are placed before anything moves)", "%s cannot be placed at %s: %s", u.ID, p.f.format(h), why)
	}
	o.Target = p.f.format(h)
	return p.claimMove(o, pl, 0)
}

func onEdge(g board.Grid, h board.ID) bool {
	return len(g.Neighbours(h)) < 6
}

func (p *orderParser) casualties(o *order, u *unitState, args []string) *adjudicator.Refusal {
	if u.Kind == kindVehicle {
		return adjudicator.Refuse("a vehicle is damaged, not thinned (Vehicle Damage); casualties orders are for troops", "vehicles have no casualty priority")
	}
	for _, a := range args {
		if a == "," {
			continue
		}
		if !carries(u, a) {
			return adjudicator.Refuse("its weapons are "+strings.Join(weaponsOf(u), ", "), "%s carries no %s", u.ID, a)
		}
		if !slices.Contains(o.Priority, a) {
			o.Priority = append(o.Priority, a)
		}
	}
	if len(o.Priority) == 0 {
		return adjudicator.Refuse("casualties "+u.ID+" assault lmg: the carriers of the first fall first", "casualties: name weapons")
	}
	return nil
}

func passengerLoad(s *State, v *unitState) int {
	n := 0
	for _, o := range s.Units {
		if o.Aboard == v.ID {
			n += len(o.Models)
		}
	}
	return n
}

// position is where a unit is: its hex, or its vehicle's.
func position(s *State, f *field, u *unitState) (board.ID, bool) {
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
func splitTeams(u *unitState) []*unitState {
	var out []*unitState
	for _, t := range u.Teams {
		n := &unitState{ID: u.ID + t, Side: u.Side, Name: u.Name + " team " + t, Type: u.Type, Kind: u.Kind, Hex: u.Hex, Aboard: u.Aboard,
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

func teamIDs(u *unitState) []string {
	var out []string
	for _, t := range u.Teams {
		out = append(out, u.ID+t)
	}
	return out
}

// turn is a turn before anything happens: the position the receipt checks
// orders against.
func (p *orderParser) turn() *turn {
	return &turn{s: p.s, f: p.f, orders: map[string]*unitOrders{}, roll: map[string]int{}, moved: map[string]int{}}
}

// inCloseCombat reports whether troops stand in a hex with enemy troops: a
// close combat goes on there (Hand to Hand).
func (p *orderParser) inCloseCombat(u *unitState) (string, bool) {
	if u.Kind != kindTroops || u.Hex == "" {
		return "", false
	}
	return u.Hex, p.turn().enemyTroopsAt(u, u.Hex)
}

// carriers lists the seat's vehicles that carry passengers, with their
// room.
func (p *orderParser) carriers(u *unitState) string {
	var out []string
	for _, v := range p.s.Units {
		if v.Side == p.seat && v.Kind == kindVehicle && v.Capacity > 0 && !v.Eliminated() {
			out = append(out, fmt.Sprintf("%s (room for %d)", v.ID, v.Capacity-passengerLoad(p.s, v)))
		}
	}
	if len(out) == 0 {
		return "you have none"
	}
	return strings.Join(out, ", ")
}

// planOf is the unit's plan in this file (nil if it has no orders).
func (p *orderParser) planOf(id string) *planned { return p.plans[id] }

// endHex is where the unit will stand when it fires: the end of its move
// in this file, or where it is.
func (p *orderParser) endHex(u *unitState) (board.ID, bool) {
	pl := p.planOf(u.ID)
	if pl != nil && pl.move != nil {
		switch m := pl.move; m.Verb {
		case "move", "charge":
			return p.f.parse(m.Path[len(m.Path)-1])
		case "disembark", "enter":
			if m.Target != "" {
				return p.f.parse(m.Target)
			}
		}
	}
	return p.where(u)
}

// movedHexes is the hexes the unit's carrier moves this turn by the
// file's orders (its own move, or its vehicle's for passengers).
func (p *orderParser) movedHexes(u *unitState) int {
	if u.Aboard != "" {
		if pl := p.planOf(u.Aboard); pl != nil && pl.hasMov {
			return pl.moved
		}
		if pl := p.planOf(u.ID); pl != nil && pl.hasMov {
			return pl.moved // disembarking passengers
		}
		return 0
	}
	if pl := p.planOf(u.ID); pl != nil && pl.hasMov {
		return pl.moved
	}
	return 0
}

// across checks one accepted order against the file's other orders, and
// writes its forecast: what only the turn can tell.
func (p *orderParser) across(o *order) *adjudicator.Refusal {
	u := p.s.unit(o.Unit)
	if u == nil {
		u = p.teams[strings.ToLower(o.Unit)]
	}
	if u == nil {
		return nil
	}
	switch o.Verb {
	case "shoot", "stand":
		return p.acrossShoot(o, u)
	case "mortar":
		return p.acrossMortar(o, u)
	case "smoke":
		if o.Target != "" {
			return p.acrossGrenadeSmoke(o, u)
		}
	case "move", "charge":
		p.forecastMove(o, u)
	case "embark":
		return p.acrossEmbark(o, u)
	case "disembark":
		return p.acrossDisembark(o, u)
	}
	return nil
}

// acrossShoot refuses weapons that cannot fire after the unit's move
// (Sniper Rifles; Heavy Machineguns and Heavy Missiles carried by troops;
// the TOW) and writes where the target stands now.
func (p *orderParser) acrossShoot(o *order, u *unitState) *adjudicator.Refusal {
	moved := p.movedHexes(u)
	if moved > 0 {
		var still []string
		for _, key := range o.With {
			if !firesAfterMove(u, key) {
				still = append(still, key)
			}
		}
		if len(still) > 0 {
			return adjudicator.Refuse("fire it without moving (stand "+u.ID+" at "+o.Target+" with "+strings.Join(still, ",")+"), or name weapons that fire on the move", "%s moves this turn: its %s cannot move and fire", u.ID, strings.Join(still, ", "))
		}
		if len(o.With) == 0 && !slices.ContainsFunc(unspent(u), func(k string) bool { return firesAfterMove(u, k) }) {
			return adjudicator.Refuse("stand still to shoot (stand "+u.ID+" at "+o.Target+"), or move without shooting", "%s moves this turn, and none of its weapons (%s) can move and fire", u.ID, strings.Join(unspent(u), ", "))
		}
	}
	t := p.s.unit(o.Target)
	if t == nil || t.Hex == "" {
		return nil // off table: the note says so
	}
	from, ok := p.endHex(u)
	to, ok2 := p.f.parse(t.Hex)
	if !ok || !ok2 {
		return nil
	}
	dist := p.f.g.Distance(from, to)
	tt := p.turn()
	sight := "in sight"
	if see, why := tt.lineOfFire(from, to, tt.occupied()); !see {
		sight = "not in sight (" + why + ")"
	}
	reach := p.reach(u, o.With, moved)
	where := "from " + p.f.format(from)
	if moved == 0 {
		where = "from its hex"
	}
	o.Note = fmt.Sprintf("%s is %d hex%s away %s now, %s; its weapons reach %d; checked when %s acts: %s may move first", t.ID, dist, plural2(dist), where, sight, reach, u.ID, t.ID)
	return nil
}

func plural2(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// firesAfterMove reports whether some unspent arm of weapon key may fire
// when the unit (or its carrier) has moved.
func firesAfterMove(u *unitState, key string) bool {
	w, err := weaponByKey(key)
	if err != nil {
		return false
	}
	ok := false
	each(u, func(a arm) {
		if a.Weapon == key && !a.Spent && !(w.NoMoveAndFire || a.NotOnMove || w.TroopsFireStill && u.Kind == kindTroops) {
			ok = true
		}
	})
	return ok
}

// reach is the longest range of the weapons that may fire.
func (p *orderParser) reach(u *unitState, with []string, moved int) int {
	r := 0
	each(u, func(a arm) {
		w, err := weaponByKey(a.Weapon)
		if err != nil || w.Indirect || a.Spent || len(with) > 0 && !slices.Contains(with, a.Weapon) {
			return
		}
		if moved > 0 && (w.NoMoveAndFire || a.NotOnMove || w.TroopsFireStill && u.Kind == kindTroops) {
			return
		}
		r = max(r, rangeOf(a, w))
	})
	return r
}

// acrossMortar refuses a target beyond the mortar's range from where the
// unit will stand, and a spotter that moves (Mortars).
func (p *orderParser) acrossMortar(o *order, u *unitState) *adjudicator.Refusal {
	if o.Spotter != "" {
		if pl := p.planOf(o.Spotter); pl != nil && pl.hasMov && pl.moved > 0 {
			return adjudicator.Refuse("remove the spotter's move, or fire without a spotter (Mortars)", "spotter %s moves this turn: a spotter may not move", o.Spotter)
		}
	}
	from, ok := p.endHex(u)
	to, ok2 := p.f.parse(o.Target)
	if !ok || !ok2 {
		return nil
	}
	w, _ := weaponByKey("mortar")
	r := 0
	each(u, func(a arm) {
		if a.Weapon == "mortar" && !a.Spent {
			r = max(r, rangeOf(a, w))
		}
	})
	dist := p.f.g.Distance(from, to)
	where := "its hex " + p.f.format(from)
	if p.movedHexes(u) > 0 {
		where = p.f.format(from) + ", where its move ends"
	}
	if dist > r {
		return adjudicator.Refuse(fmt.Sprintf("a mortar fires at a hex up to %d hexes away (Mortars)", r), "%s is %d hexes from %s: beyond the mortar's %d", p.f.format(to), dist, where, r)
	}
	tt := p.turn()
	see, _ := tt.lineOfFire(from, to, tt.occupied())
	need := "5+ (indirect, no spotter)"
	switch {
	case o.Spotter != "":
		need = "3+ if spotter " + o.Spotter + " sees it when the mortar fires, else 5+"
	case see:
		need = "3+ if the mortar still sees it when it fires, else 5+"
	}
	o.Note = fmt.Sprintf("%d hexes, to hit %s", dist, need)
	return nil
}

// acrossGrenadeSmoke checks a grenade launcher's smoke round: within its
// range of where the unit will stand, and in sight now.
func (p *orderParser) acrossGrenadeSmoke(o *order, u *unitState) *adjudicator.Refusal {
	from, ok := p.endHex(u)
	to, ok2 := p.f.parse(o.Target)
	if !ok || !ok2 {
		return nil
	}
	r := launcherRange(u)
	if d := p.f.g.Distance(from, to); d > r || d == 0 {
		return adjudicator.Refuse(fmt.Sprintf("choose a hex 1 to %d hexes from where %s fires (Americans: the M203)", r, u.ID), "%s is %d hexes from %s: a grenade launcher's smoke lands 1 to %d hexes away", p.f.format(to), d, p.f.format(from), r)
	}
	tt := p.turn()
	if see, why := tt.lineOfFire(from, to, tt.occupied()); !see {
		o.Note = fmt.Sprintf("not in sight now (%s); checked when %s acts", why, u.ID)
	}
	return nil
}

// acrossEmbark checks the vehicle is in or next to the troops' hex, unless
// it moves first this turn.
func (p *orderParser) acrossEmbark(o *order, u *unitState) *adjudicator.Refusal {
	v := p.s.unit(o.Target)
	if v == nil || v.Hex == "" {
		return nil
	}
	uh, _ := p.f.parse(u.Hex)
	vh, _ := p.f.parse(v.Hex)
	if pl := p.planOf(v.ID); pl != nil && pl.hasMov && pl.moved > 0 {
		o.Note = fmt.Sprintf("%s moves this turn; checked when %s acts: %s must then be in or next to %s", v.ID, u.ID, v.ID, u.Hex)
		return nil
	}
	if p.f.g.Distance(uh, vh) > 1 {
		return adjudicator.Refuse("move the troops next to the vehicle first, or bring the vehicle to them this turn", "%s is at %s, not in or next to %s's hex %s", v.ID, v.Hex, u.ID, u.Hex)
	}
	return nil
}

// acrossDisembark checks the hex is the vehicle's or next to it, unless the
// vehicle moves first.
func (p *orderParser) acrossDisembark(o *order, u *unitState) *adjudicator.Refusal {
	v := p.s.unit(u.Aboard)
	if v == nil || v.Hex == "" || o.Target == "" {
		return nil
	}
	if pl := p.planOf(v.ID); pl != nil && pl.hasMov && pl.moved > 0 {
		o.Note = fmt.Sprintf("%s moves this turn; checked when %s acts: %s must then be %s's hex or next to it", v.ID, u.ID, o.Target, v.ID)
		return nil
	}
	vh, _ := p.f.parse(v.Hex)
	h, _ := p.f.parse(o.Target)
	if p.f.g.Distance(vh, h) > 1 {
		return adjudicator.Refuse("passengers get out into their vehicle's hex or a hex next to it: disembark "+u.ID+" [HEX]", "%s is not in or next to %s's hex %s", o.Target, v.ID, v.Hex)
	}
	return nil
}

// forecastMove notes what only the turn can tell about a move: enemy units
// and vehicles on the path now, and morale.
func (p *orderParser) forecastMove(o *order, u *unitState) {
	tt := p.turn()
	var notes []string
	for i, hs := range o.Path {
		last := i == len(o.Path)-1
		for _, x := range tt.unitsAt(hs) {
			if x == u {
				continue
			}
			switch {
			case x.Side != u.Side && !(o.Verb == "charge" && last):
				notes = append(notes, fmt.Sprintf("%s holds %s now", hs, x.ID))
			case x.Side == u.Side && last && x.IsVehicle() && u.IsVehicle():
				notes = append(notes, fmt.Sprintf("your %s stands at %s now", x.ID, hs))
			}
		}
	}
	if u.Kind == kindTroops {
		m := morale(u.Lost(), u.Original, u.Special, tt.heroic(u))
		switch m {
		case pinned:
			notes = append(notes, u.ID+" is pinned: it moves toward the enemy only on a turn order roll of 15+")
		case fallingBack:
			notes = append(notes, u.ID+" is falling back: a move that takes it neither away from the enemy nor into hard cover becomes a one-hex fall back")
		}
	}
	if len(notes) > 0 {
		o.Note = strings.Join(notes, "; ") + "; checked when " + u.ID + " acts: it stops where its path is blocked"
	}
}

// hexCount is "1 hex" or "N hexes".
func hexCount(n int) string {
	if n == 1 {
		return "1 hex"
	}
	return fmt.Sprintf("%d hexes", n)
}
