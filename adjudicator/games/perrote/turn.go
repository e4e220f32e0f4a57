package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// This file runs one turn (Turn Order): splits and sneak attack
// placements, the d20 rolls, then the units acting from the highest number
// down, units on the same number together, their casualties and effects
// applied when all of them have acted; then the end of the turn.

// turn is one turn being adjudicated.
type turn struct {
	s      *State
	f      *field
	r      dice.Roller
	n      int // the turn's number
	events []adjudicator.Event
	orders map[string]*unitOrders
	roll   map[string]int
	number map[string]int
	acted  map[string]bool
	placed map[string]bool
	moved  map[string]int
	// ports: a vehicle whose passengers fired through its ports (it may
	// fire only its lighter weapons); heavy: a vehicle that fired its main
	// or heavy weapons (its passengers may not fire).
	ports, heavy map[string]bool
	pend         *pending
	melees       map[string]string // hex -> the attacking side
	// nbc: units whose turn order number took the NBC attack's -5 this
	// turn (it does not add to morale suppression: docs/rulings.md 33).
	nbc map[string]bool
}

// unitOrders are one unit's orders for the turn.
type unitOrders struct {
	move, fire *order
	hold       bool
}

// pending are the effects of the units acting at the same time, applied
// once all of them have acted (Turn Order).
type pending struct {
	casualties map[string]int
	damage     map[string][]damageEffect
	suppress   map[string]int
	smoke      []smoke
}

func newPending() *pending {
	return &pending{casualties: map[string]int{}, damage: map[string][]damageEffect{}, suppress: map[string]int{}}
}

func (t *turn) event(rule, format string, args ...any) {
	t.events = append(t.events, adjudicator.Event{Rule: rule, Text: fmt.Sprintf(format, args...)})
}

// adjudicate resolves turn s.Turn+1 with each seat's canonical orders.
func adjudicate(s *State, orders map[string][]string, r dice.Roller) ([]adjudicator.Event, error) {
	if s.Over {
		return nil, fmt.Errorf("perrote: the game is over")
	}
	t := &turn{s: s, f: newField(s), r: r, n: s.Turn + 1, orders: map[string]*unitOrders{}, roll: map[string]int{}, number: map[string]int{},
		acted: map[string]bool{}, placed: map[string]bool{}, moved: map[string]int{}, ports: map[string]bool{}, heavy: map[string]bool{},
		melees: map[string]string{}, nbc: map[string]bool{}}
	s.Trace = nil
	for _, u := range s.Units {
		u.Roll, u.Number, u.Moved, u.Suppressed = 0, 0, 0, false
	}
	t.event(ruleTurnOrder, "Turn %d of %d.", t.n, s.Turns)
	t.readOrders(orders)
	t.splits()
	t.sneak()
	t.nbcStart()
	t.rollTurnOrder()
	t.meleesAtStart()
	for {
		group := t.nextGroup()
		if len(group) == 0 {
			break
		}
		t.act(group)
	}
	t.endOfTurn()
	s.Turn = t.n
	return t.events, nil
}

// readOrders parses each seat's canonical orders (they were checked on
// receipt; a line that no longer parses is reported and skipped).
func (t *turn) readOrders(orders map[string][]string) {
	for _, seat := range t.s.seats() {
		var lines []adjudicator.OrderLine
		for i, l := range orders[seat] {
			lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		parsed, problems := parseOrders(t.s, seat, lines)
		for _, p := range problems {
			t.event(ruleMovement, "%s's order %q is void: %s.", seat, orders[seat][p.Line-1], p.Text)
		}
		for _, o := range parsed {
			uo := t.orders[o.Unit]
			if uo == nil {
				uo = &unitOrders{}
				t.orders[o.Unit] = uo
			}
			switch o.Verb {
			case "move", "charge", "face", "embark", "disembark", "enter":
				uo.move = &o
			case "shoot", "stand", "mortar", "smoke":
				uo.fire = &o
			case "hold":
				uo.hold = true
			case "casualties":
				if u := t.s.unit(o.Unit); u != nil {
					u.Priority = o.Priority
					t.event(ruleCasualties, "%s will lose its %s carriers first.", u.ID, strings.Join(o.Priority, ", then "))
				}
			case "split":
				t.orders[o.Unit].move = &o
			}
		}
	}
}

// splits replaces each squad ordered to split by its teams (the army
// lists: fire teams act as independent squads).
func (t *turn) splits() {
	for _, id := range t.unitIDs() {
		uo := t.orders[id]
		if uo == nil || uo.move == nil || uo.move.Verb != "split" {
			continue
		}
		u := t.s.unit(id)
		teams := splitTeams(u)
		t.s.Units = slices.DeleteFunc(t.s.Units, func(x *unitState) bool { return x == u })
		var names []string
		for _, tm := range teams {
			if len(tm.Models) == 0 {
				continue
			}
			t.s.Units = append(t.s.Units, tm)
			names = append(names, fmt.Sprintf("%s (%d)", tm.ID, len(tm.Models)))
		}
		slices.SortFunc(t.s.Units, func(a, b *unitState) int { return strings.Compare(a.ID, b.ID) })
		t.event("Army lists", "%s splits into %s, which act as independent squads.", id, strings.Join(names, ", "))
		delete(t.orders, id)
	}
}

// sneak places the units entering by sneak attack before the turn order
// rolls; they count as rolling a one (Sneak Attack/Forward Deployment).
func (t *turn) sneak() {
	for _, id := range t.unitIDs() {
		uo := t.orders[id]
		if uo == nil || uo.move == nil || uo.move.Verb != "enter" {
			continue
		}
		u := t.s.unit(id)
		h, _ := t.f.parse(uo.move.Target)
		if t.s.SneakRoll {
			ok, rolled := sneakArrivesFor(t.r, t.n, fmt.Sprintf(" for %s on turn %d (needs %d+)", u.ID, t.n, sneakNeed(t.n)))
			if !ok {
				t.event(ruleSneak, "%s does not show up this turn (it needed %d+).", u.ID, sneakNeed(t.n))
				uo.move, uo.fire = nil, nil
				continue
			}
			if rolled {
				t.event(ruleSneak, "%s shows up (it needed %d+).", u.ID, sneakNeed(t.n))
			}
		}
		if why := t.blockedFor(u, h, false); why != "" {
			t.event(ruleSneak, "%s cannot be placed at %s: %s; it stays off table.", u.ID, uo.move.Target, why)
			uo.move, uo.fire = nil, nil
			continue
		}
		u.Reserve, u.Hex = false, t.f.format(h)
		t.placed[u.ID] = true
		uo.move = nil
		t.event(ruleSneak, "%s is placed at %s by sneak attack: it counts as rolling a one for turn order.", u.ID, u.Hex)
	}
}

// nbcStart rolls how long an NBC attack lasts, on the first turn (NBC
// Attack!).
func (t *turn) nbcStart() {
	if t.s.NBC == nil || t.s.NBC.Turns > 0 || !t.s.inForce("nbc") {
		return
	}
	t.s.NBC.Turns = dice.Roll(t.r, 1, 6, "Per Rote NBC Attack!: turns the enemy counts as suppressed")[0]
	who := "every side but " + t.s.NBC.Side
	if !t.s.NBC.Protected {
		who = "every side, " + t.s.NBC.Side + " too (no protective clothing)"
	}
	t.event("NBC Attack!", "%s's NBC attack: %s counts as suppressed for %d turns, unless a unit rolls 15+ for turn order.", t.s.NBC.Side, who, t.s.NBC.Turns)
}

func (t *turn) nbcAffects(u *unitState) bool {
	n := t.s.NBC
	if n == nil || t.n > n.Turns || u.NBCFree || !t.s.inForce("nbc") {
		return false
	}
	return u.Side != n.Side || !n.Protected
}

// unitIDs lists the units' ids in order.
func (t *turn) unitIDs() []string {
	out := make([]string, 0, len(t.s.Units))
	for _, u := range t.s.Units {
		out = append(out, u.ID)
	}
	slices.Sort(out)
	return out
}

// inPlay lists the units on the map or aboard a vehicle, by id.
func (t *turn) inPlay() []*unitState {
	var out []*unitState
	for _, u := range t.s.Units {
		if !u.Eliminated() && !u.Reserve {
			out = append(out, u)
		}
	}
	return out
}

// heroic reports whether the unit ignores morale now (Heroic).
func (t *turn) heroic(u *unitState) bool {
	switch u.Heroic {
	case "always":
		return true
	case "near":
		h, ok := position(t.s, t.f, u)
		return ok && t.nearestEnemy(u, h) <= 1
	case "loss":
		return u.Lost() > 0
	case "charge":
		uo := t.orders[u.ID]
		return uo != nil && uo.move != nil && uo.move.Verb == "charge"
	}
	return false
}

// morale is the unit's morale state now (Morale, Heroic).
func (t *turn) morale(u *unitState) moraleState {
	if u.Kind == kindVehicle {
		return steady
	}
	return morale(u.Lost(), u.Original, u.Special, t.heroic(u))
}

// rollTurnOrder rolls each unit's d20 (Turn Order), with suppression fire
// taken after it acted last turn, morale and NBC; stunned vehicles miss
// the turn (Vehicle Damage).
func (t *turn) rollTurnOrder() {
	var units []unit
	var who []*unitState
	for _, u := range t.inPlay() {
		if u.Kind == kindVehicle && u.StunnedTurn == t.n {
			t.event(ruleDamage, "%s is stunned and misses this turn.", u.ID)
			t.acted[u.ID] = true
			continue
		}
		pu := unit{Name: u.ID, Suppression: u.Suppression, Special: u.Special, Heroic: t.heroic(u), Placed: t.placed[u.ID]}
		if u.Kind != kindVehicle {
			pu.Lost, pu.Original = u.Lost(), u.Original
		}
		if t.nbcAffects(u) && pu.Morale() == steady {
			pu.Suppression++
			pu.NBC = true
			t.nbc[u.ID] = true
		}
		units = append(units, pu)
		who = append(who, u)
	}
	order := rollTurnOrder(t.r, units)
	var parts []string
	for i, u := range who {
		t.roll[u.ID], t.number[u.ID] = order.Rolls[i], order.Modified[i]
		u.Roll, u.Number = order.Rolls[i], order.Modified[i]
		note := ""
		var why []string
		if units[i].Placed {
			why = append(why, "placed")
		}
		// suppression fire and morale are named among the roll's terms
		if u.Suppression > 0 || units[i].Morale() != steady {
			u.Suppressed = true
		}
		if t.nbcAffects(u) {
			if !units[i].NBC { // else named among the roll's terms
				why = append(why, "NBC")
			}
			u.Suppressed = true
			if order.Rolls[i] >= 15 {
				u.NBCFree = true
			}
		}
		if units[i].Heroic && u.Lost() > 0 {
			why = append(why, "heroic")
		}
		if len(why) > 0 {
			note = " (" + strings.Join(why, ", ") + ")"
		}
		parts = append(parts, fmt.Sprintf("%s %s%s", u.ID, kit.Roll(order.Rolls[i], units[i].NumberMods(order.Rolls[i])), note))
		u.Suppression = 0
	}
	if len(parts) > 0 {
		t.event(ruleTurnOrder, "Turn order rolls: %s.", strings.Join(parts, ", "))
	}
	for _, u := range who {
		if u.NBCFree && t.s.NBC != nil && t.roll[u.ID] >= 15 && t.n <= t.s.NBC.Turns {
			t.event("NBC Attack!", "%s rolled %d: it shakes off the NBC attack from next turn.", u.ID, t.roll[u.ID])
		}
	}
}

// meleesAtStart finds the close combats going on from last turn: troops of
// two sides in one hex (Hand to Hand).
func (t *turn) meleesAtStart() {
	for _, h := range t.meleeHexes() {
		t.event(ruleHandToHand, "Close combat goes on at %s: it is fought at the highest turn order number of the units in it.", h)
	}
}

// meleeHexes lists the hexes where troops of two sides stand.
func (t *turn) meleeHexes() []string {
	sides := map[string]map[string]bool{}
	for _, u := range t.inPlay() {
		if u.Kind == kindTroops && u.Hex != "" {
			if sides[u.Hex] == nil {
				sides[u.Hex] = map[string]bool{}
			}
			sides[u.Hex][u.Side] = true
		}
	}
	var out []string
	for h, ss := range sides {
		if len(ss) > 1 {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// nextGroup is the units that act next: those that have not acted on the
// highest number left (Turn Order).
func (t *turn) nextGroup() []*unitState {
	best := 0
	for _, u := range t.inPlay() {
		if n, ok := t.number[u.ID]; ok && !t.acted[u.ID] && n > best {
			best = n
		}
	}
	if best == 0 {
		return nil
	}
	var out []*unitState
	for _, u := range t.inPlay() {
		if n, ok := t.number[u.ID]; ok && !t.acted[u.ID] && n == best {
			out = append(out, u)
		}
	}
	return out
}

// act runs a group: every unit's movement, then every unit's fire, then
// close combat; then the casualties and effects of all of it (Turn Order:
// units on the same number act at the same time).
func (t *turn) act(group []*unitState) {
	t.pend = newPending()
	var ids []string
	for _, u := range group {
		ids = append(ids, u.ID)
		t.acted[u.ID] = true
	}
	if len(group) > 1 {
		t.event(ruleTurnOrder, "On %d, %s act at the same time: casualties and effects are taken when all have acted.", t.number[group[0].ID], strings.Join(ids, ", "))
	}
	var movers, firers []*unitState
	for _, u := range group {
		if u.Eliminated() {
			continue
		}
		if u.Kind == kindTroops && u.Hex != "" && t.enemyTroopsAt(u, u.Hex) {
			t.joinMelee(u)
			continue
		}
		movers = append(movers, u)
	}
	for _, u := range movers {
		t.moveUnit(u)
		firers = append(firers, u)
	}
	for _, u := range firers {
		if uo := t.orders[u.ID]; uo != nil && uo.fire != nil && !t.charged(u) {
			t.fire(u, uo.fire)
		}
	}
	t.fightMelees()
	t.apply()
}

func (t *turn) charged(u *unitState) bool {
	uo := t.orders[u.ID]
	return uo != nil && uo.move != nil && uo.move.Verb == "charge"
}

// apply takes the group's casualties and effects (Turn Order, Casualties,
// Vehicle Damage, Kill fire/suppression fire, Morale).
func (t *turn) apply() {
	p := t.pend
	before := map[string]moraleState{}
	for _, id := range sortedKeys(p.casualties) {
		if u := t.s.unit(id); u != nil {
			before[id] = t.morale(u)
		}
	}
	for _, id := range sortedKeys(p.casualties) {
		u := t.s.unit(id)
		if u == nil || u.Eliminated() {
			continue
		}
		t.removeCasualties(u, p.casualties[id], "")
	}
	for _, id := range sortedKeys(p.damage) {
		t.applyDamage(t.s.unit(id), p.damage[id])
	}
	for _, id := range sortedKeys(p.suppress) {
		u := t.s.unit(id)
		if u == nil || u.Eliminated() {
			continue
		}
		k := p.suppress[id]
		u.Suppressed = true
		if n, ok := t.number[id]; ok && !t.acted[id] {
			t.number[id] = max(n-moraleSuppression*k, 1)
			u.Number = t.number[id]
			if n == 1 {
				t.event(ruleSuppression, "%s is suppressed (%d×-5): its turn order number is already 1.", id, k)
			} else {
				t.event(ruleSuppression, "%s is suppressed (%d×-5): its turn order number drops from %d to %d.", id, k, n, t.number[id])
			}
		} else {
			u.Suppression += k
			t.event(ruleSuppression, "%s is suppressed (%d×-5) after acting: it counts against its next turn order roll.", id, k)
		}
	}
	for _, sm := range p.smoke {
		t.s.Smoke = append(t.s.Smoke, sm)
		t.f.addSmoke(sm)
	}
	for _, id := range sortedKeys(before) {
		u := t.s.unit(id)
		if u == nil || u.Eliminated() {
			continue
		}
		if m := t.morale(u); m != before[id] {
			pct := 100 * u.Lost() / u.Original
			switch m {
			case suppressed:
				t.event(ruleMorale, "%s has lost %d%% of its men: it counts as suppressed (-5 to turn order).", id, pct)
			case pinned:
				t.event(ruleMorale, "%s has lost %d%%: pinned, it may not move toward the enemy unless it rolls 15+.", id, pct)
			case fallingBack:
				t.event(ruleMorale, "%s has lost %d%%: it must move away from the enemy or into hard cover.", id, pct)
			}
			t.moraleDrop(u, before[id], m)
		}
	}
	t.pend = nil
}

// moraleDrop: a unit that has not acted yet and becomes suppressed by its
// casualties counts as suppressed at once, as suppression fire does (Morale:
// "once you've taken 25% casualties your squad counts as suppressed", -5 to
// the turn order roll; Kill fire/suppression fire: the Baddie drops from 18
// to 13 before it acts). The -5 is taken once: not again at 50% or 75%, nor
// on top of the NBC attack's (docs/rulings.md 12, 33).
func (t *turn) moraleDrop(u *unitState, was, now moraleState) {
	n, ok := t.number[u.ID]
	if !ok || t.acted[u.ID] || was != steady || now == steady || t.nbc[u.ID] {
		return
	}
	t.number[u.ID] = max(n-moraleSuppression, 1)
	u.Number = t.number[u.ID]
	u.Suppressed = true
	if n == 1 {
		t.event(ruleMorale, "%s has not acted yet: its turn order number is already 1.", u.ID)
		return
	}
	t.event(ruleMorale, "%s has not acted yet: its turn order number drops from %d to %d.", u.ID, n, t.number[u.ID])
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// removeCasualties takes n models off the unit, the owner's priority first
// (Casualties): carriers of the priority's first weapon, then the next;
// then the carriers of the least weapons first, from the back.
func (t *turn) removeCasualties(u *unitState, n int, why string) {
	n = min(n, len(u.Models))
	if n <= 0 {
		return
	}
	var gone []string // what the lost models carried, in the order they fell
	count := map[string]int{}
	for range n {
		i := casualtyIndex(u)
		w := modelWord(u.Models[i])
		if count[w] == 0 {
			gone = append(gone, w)
		}
		count[w]++
		u.Models = slices.Delete(u.Models, i, i+1)
	}
	for i, w := range gone {
		gone[i] = fmt.Sprintf("%d with %s", count[w], w)
	}
	left := fmt.Sprintf("%d of %d left", len(u.Models), u.Original)
	if len(u.Models) == 0 {
		left = "the unit is wiped out"
	}
	t.event(ruleCasualties, "%s loses %d %s%s (%s): %s.", u.ID, n, plural1(n, "model", "models"), why, strings.Join(gone, ", "), left)
}

func plural1(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// modelWord says what a model carries, by the weapons' names: "RPG and
// assault weapon", "no weapon".
func modelWord(m model) string {
	var ks []string
	for _, a := range m.Arms {
		name := strings.ReplaceAll(a.Weapon, "_", " ")
		if w, err := weaponByKey(a.Weapon); err == nil {
			name = w.Name
		}
		ks = append(ks, name)
	}
	switch len(ks) {
	case 0:
		return "no weapon"
	case 1:
		return ks[0]
	}
	return strings.Join(ks[:len(ks)-1], ", ") + " and " + ks[len(ks)-1]
}

// weaponValue ranks weapons for the default casualty order: the lowest
// fall first.
var weaponValue = map[string]int{"pistol": 0, "assault": 1, "ap_grenade": 2, "at_grenade": 3, "lmg": 4, "sniper": 5, "flamethrower": 6, "mortar": 7, "rpg": 8, "hmg": 9, "heavy_missile": 10}

func casualtyIndex(u *unitState) int {
	for _, key := range u.Priority {
		for i := len(u.Models) - 1; i >= 0; i-- {
			for _, a := range u.Models[i].Arms {
				if a.Weapon == key && !a.Spent {
					return i
				}
			}
		}
	}
	best, bestV := len(u.Models)-1, 1<<30
	for i := len(u.Models) - 1; i >= 0; i-- {
		v := 0
		for _, a := range u.Models[i].Arms {
			if !a.Spent {
				v = max(v, weaponValue[a.Weapon]+1)
			}
		}
		if v < bestV {
			best, bestV = i, v
		}
	}
	return best
}

// applyDamage takes a vehicle's damage results (Vehicle Damage).
func (t *turn) applyDamage(v *unitState, effects []damageEffect) {
	if v == nil || v.Destroyed {
		return
	}
	for _, e := range effects {
		if v.Destroyed {
			return
		}
		switch e.Result {
		case 1:
			v.StunnedTurn = t.n + 1
		case 2:
			if v.Motive == "" {
				v.Motive = "damaged"
			}
		case 3:
			v.Motive = "crippled"
		case 4:
			v.Motive = "crippled"
			if v.FireControl == "" {
				v.FireControl = "damaged"
			}
		case 5, 6:
			v.Motive, v.FireControl = "crippled", "crippled"
		}
		t.event(ruleDamage, "%s: %s.", v.ID, e.Text)
		if e.CrewKilled {
			t.killPassengers(v, e.Result)
			v.Destroyed = true
			if e.Result == 5 {
				t.event(ruleDamage, "%s's crew is killed: the vehicle is out of the game.", v.ID)
			}
		}
	}
}

// killPassengers kills the passengers a 5 (half, rounded up) or a 6 (all)
// kills; the survivors of a 5 get out into the vehicle's hex.
func (t *turn) killPassengers(v *unitState, result int) {
	var aboard []*unitState
	total := 0
	for _, u := range t.s.Units {
		if u.Aboard == v.ID && !u.Eliminated() {
			aboard = append(aboard, u)
			total += len(u.Models)
		}
	}
	dead := passengersKilled(result, total)
	for _, u := range aboard {
		k := min(dead, len(u.Models))
		if k > 0 {
			t.removeCasualties(u, k, " aboard "+v.ID)
			dead -= k
		}
		if !u.Eliminated() {
			u.Aboard, u.Hex = "", v.Hex
			t.event(ruleDamage, "%s gets out of the wrecked %s at %s.", u.ID, v.ID, v.Hex)
		}
	}
}

// endOfTurn rolls for smoke and checks victory.
func (t *turn) endOfTurn() {
	var keep []smoke
	for _, sm := range t.s.Smoke {
		where := strings.Join(sm.Hexes, ", ")
		if sm.Placed < t.n {
			t.event(ruleSmoke, "The smoke at %s disperses after lasting a turn.", where)
			continue
		}
		if smokeDispersesFor(t.r, " of the smoke at "+where) {
			t.event(ruleSmoke, "The smoke at %s disperses (1-4).", where)
			continue
		}
		sm.Lasts = true
		t.event(ruleSmoke, "The smoke at %s lasts the next turn (5-6).", where)
		keep = append(keep, sm)
	}
	t.s.Smoke = keep
	for _, u := range t.s.Units {
		u.Moved = t.moved[u.ID]
	}
	t.victory()
}

// enemyTroopsAt reports whether troops of another side than u's stand in
// hex h.
func (t *turn) enemyTroopsAt(u *unitState, h string) bool {
	for _, o := range t.s.Units {
		if o.Side != u.Side && o.Kind == kindTroops && o.Hex == h && !o.Eliminated() && !o.Reserve {
			return true
		}
	}
	return false
}

// unitsAt lists the units standing in hex h (not aboard), by id.
func (t *turn) unitsAt(h string) []*unitState {
	var out []*unitState
	for _, o := range t.s.Units {
		if o.Hex == h && !o.Eliminated() && !o.Reserve {
			out = append(out, o)
		}
	}
	return out
}

// nearestEnemy is the distance from h to the nearest enemy unit on the
// map (99 when there is none).
func (t *turn) nearestEnemy(u *unitState, h board.ID) int {
	best := 99
	for _, o := range t.inPlay() {
		if o.Side == u.Side || o.Hex == "" {
			continue
		}
		if p, ok := t.f.parse(o.Hex); ok {
			best = min(best, t.f.g.Distance(h, p))
		}
	}
	return best
}
