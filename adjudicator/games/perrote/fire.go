package perrote

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// This file fires the turn's weapons (Shooting and the weapon sections,
// Vehicle Weapons, Kill fire/suppression fire, Mortars, Smoke Launchers):
// range and line of sight over the hex grid, which weapons fire, the shots
// and their effects, which wait for the end of the group.

// fire carries out a unit's fire order.
func (t *turn) fire(u *unitState, o *order) {
	if u.Eliminated() {
		return
	}
	moved, ok := t.mayFire(u)
	if !ok {
		return
	}
	switch o.Verb {
	case "shoot", "stand":
		t.shoot(u, o, moved)
	case "mortar":
		t.mortar(u, o, moved)
	case "smoke":
		if o.Target != "" {
			t.grenadeSmoke(u, o)
			return
		}
		t.smokeLaunch(u)
	}
}

// carrier is the vehicle whose movement counts for a unit's fire: its own
// for a vehicle, its vehicle's for passengers.
func (t *turn) carrier(u *unitState) *unitState {
	if u.Aboard != "" {
		if v := t.s.unit(u.Aboard); v != nil {
			return v
		}
	}
	return u
}

// mayFire checks the unit may fire after what it moved (Movement, Vehicle
// Damage) and returns the hexes moved.
func (t *turn) mayFire(u *unitState) (int, bool) {
	c := t.carrier(u)
	moved := t.moved[c.ID]
	if _, shoot := maxMove(c); moved > shoot {
		t.event(ruleMovement, "%s moved %d hexes: too far to fire this turn.", u.ID, moved)
		return moved, false
	}
	if u.Kind == kindVehicle {
		switch {
		case u.FireControl == "crippled":
			t.event(ruleDamage, "%s cannot fire: its fire control is crippled.", u.ID)
			return moved, false
		case u.FireControl == "damaged" && u.LastFired > 0 && u.LastFired == t.n-1:
			t.event(ruleDamage, "%s fired last turn: with damaged fire control it fires every other turn.", u.ID)
			return moved, false
		}
	}
	if u.Aboard != "" && t.heavy[u.Aboard] {
		t.event(ruleVehicleWeapons, "%s cannot fire from %s: the vehicle fired its main or heavy weapons this turn.", u.ID, u.Aboard)
		return moved, false
	}
	return moved, true
}

// occupied lists the hexes units stand in.
func (t *turn) occupied() map[board.ID]bool {
	out := map[board.ID]bool{}
	for _, u := range t.inPlay() {
		if h, ok := t.f.parse(u.Hex); ok {
			out[h] = true
		}
	}
	return out
}

// lineOfFire says whether from sees to (Shooting: not through cover or
// units, friend or foe; Cover: fired into, not through) and, if not, what
// blocks it.
func (t *turn) lineOfFire(from, to board.ID, occ map[board.ID]bool) (bool, string) {
	blocks := func(h board.ID) bool { return occ[h] || t.f.blocksFire(h) }
	if t.f.g.Visible(from, to, blocks) {
		return true, ""
	}
	for _, h := range board.Between(t.f.g.Line(from, to)) {
		if blocks(h) {
			if occ[h] {
				return false, "units at " + t.f.format(h) + " are in the way"
			}
			what := t.f.names[h]
			if t.f.smoke[h] {
				what = "smoke"
			}
			return false, what + " at " + t.f.format(h) + " is in the way"
		}
	}
	return false, "the line is blocked"
}

// rangeOf is an arm's range: its own, or the table's.
func rangeOf(a arm, w weapon) int {
	if a.Range > 0 {
		return a.Range
	}
	return w.Range
}

// armUsable reports whether an arm may fire this turn at dist hexes:
// unspent, in range, not a move-and-fire it forbids (Sniper Rifles, Heavy
// Machineguns and Heavy Missiles carried by troops, the TOW), not indirect
// (mortars fire at hexes), and named by the order if it names weapons.
func armUsable(u *unitState, a arm, w weapon, dist, moved int, with []string) bool {
	switch {
	case a.Spent || w.Indirect || dist > rangeOf(a, w):
		return false
	case moved > 0 && (w.NoMoveAndFire || a.NotOnMove || w.TroopsFireStill && u.Kind == kindTroops):
		return false
	case len(with) > 0 && !slices.Contains(with, a.Weapon):
		return false
	}
	return true
}

// shotAt is one weapon's shot from hex from at unit x in hex to (Shooting):
// its target class, armor and the side struck, cover, movement, body or
// reactive armor.
func (t *turn) shotAt(w weapon, from board.ID, x *unitState, to board.ID, moved int) shot {
	s := shot{Weapon: w, Models: x.ModelCount(), WeaponMoved: moved > 0}
	switch x.Kind {
	case kindVehicle:
		s.Target = vehicle
		s.Armor = map[string]armor{"mbt": mbt, "afv": afv}[x.Armor]
		s.Facing = facingStruck(t.f.g, to, x.Facing, from)
	case kindLightVehicle:
		s.Target = lightVehicle
	}
	s.Cover = max(t.f.cover(to), t.f.linearCover(from, to))
	if !w.Indirect && t.f.screened(from, to) && s.Cover < lightCover {
		s.Cover = lightCover // fired through a smoke screen (Smoke Launchers)
	}
	maxed := 2
	if x.IsVehicle() {
		maxed = 4
	}
	s.MovedMax = t.moved[x.ID] >= maxed
	side := t.s.side(x.Side)
	opt := ""
	switch {
	case s.Target.ShotAsTroops() && t.s.inForce("body_armor"):
		opt = side.BodyArmor
	case s.Target == vehicle && x.Reactive && t.s.inForce("reactive_armor"):
		opt = side.Reactive
		if opt == "" {
			opt = "plus1"
		}
	}
	s.BodyArmor = bodyArmors[opt]
	return s
}

// expected is the hits a shot scores on average.
func expected(s shot) float64 {
	w := s.WoundNumber()
	if w > 6 {
		return 0
	}
	return float64(s.DiceCount()) * float64(7-w) / 6
}

// volley is the arms of one kind firing together.
type volley struct {
	arm  arm
	w    weapon
	refs []*arm
}

// chooseArms picks what fires at target x (Vehicle Weapons, Shooting): a
// vehicle fires one of its weapon groups (the main weapon, a heavy
// secondary weapon, or all its lighter weapons) or with damaged fire
// control a single weapon; each man fires one of his weapons. Without a
// weapon named, each picks what scores best; suppression fire prefers the
// weapons that kill as they suppress.
func (t *turn) chooseArms(u *unitState, o *order, x *unitState, from, to board.ID, dist, moved int) ([]volley, int) {
	score := func(a arm) float64 {
		w, _ := weaponByKey(a.Weapon)
		s := t.shotAt(w, from, x, to, moved)
		e := expected(s)
		if o.Mode == "suppress" && w.AlwaysSuppresses {
			e += 100
		}
		return e
	}
	var picked []*arm
	group := -1
	if u.Kind == kindVehicle {
		best := -1.0
		last := len(u.Groups) - 1
		for gi := range u.Groups {
			if t.ports[u.ID] && gi != last {
				continue
			}
			var arms []*arm
			val := 0.0
			named := len(o.With) == 0
			for ai := range u.Groups[gi] {
				a := &u.Groups[gi][ai]
				w, _ := weaponByKey(a.Weapon)
				if slices.Contains(o.With, a.Weapon) {
					named = true
				}
				if armUsable(u, *a, w, dist, moved, nil) {
					arms = append(arms, a)
					val += score(*a)
				}
			}
			if !named || len(arms) == 0 {
				continue
			}
			if val > best+1e-9 || (o.Mode == "suppress" && best < 0) {
				best, picked, group = val, arms, gi
			}
		}
		if u.FireControl == "damaged" && len(picked) > 1 {
			slices.SortStableFunc(picked, func(a, b *arm) int {
				sa, sb := score(*a), score(*b)
				switch {
				case sa > sb:
					return -1
				case sa < sb:
					return 1
				}
				return 0
			})
			picked = picked[:1]
		}
	} else {
		for mi := range u.Models {
			var best, first *arm
			bestV := 0.0
			for ai := range u.Models[mi].Arms {
				a := &u.Models[mi].Arms[ai]
				w, _ := weaponByKey(a.Weapon)
				if !armUsable(u, *a, w, dist, moved, o.With) || u.Aboard != "" && !w.SmallArms {
					continue
				}
				if first == nil {
					first = a
				}
				v := score(*a)
				if v > bestV+1e-9 || best == nil && o.Mode == "suppress" {
					best, bestV = a, v
				}
			}
			if best != nil {
				picked = append(picked, best)
			} else if first != nil && len(o.With) > 0 {
				picked = append(picked, first) // named, in range, but harmless: say so
			}
		}
	}
	var out []volley
	for _, a := range picked {
		key := formatArm(arm{Weapon: a.Weapon, Range: a.Range, OneShot: a.OneShot})
		i := slices.IndexFunc(out, func(v volley) bool {
			return formatArm(arm{Weapon: v.arm.Weapon, Range: v.arm.Range, OneShot: v.arm.OneShot}) == key
		})
		if i < 0 {
			w, _ := weaponByKey(a.Weapon)
			out = append(out, volley{arm: *a, w: w})
			i = len(out) - 1
		}
		out[i].refs = append(out[i].refs, a)
	}
	slices.SortStableFunc(out, func(a, b volley) int {
		return slices.Index(weaponKeys(), a.w.Key) - slices.Index(weaponKeys(), b.w.Key)
	})
	return out, group
}

// shoot fires at a unit (Shooting, Kill fire/suppression fire).
func (t *turn) shoot(u *unitState, o *order, moved int) {
	x := t.s.unit(o.Target)
	if x == nil || x.Eliminated() || x.Hex == "" {
		t.event(ruleShooting, "%s holds its fire: %s is no longer on the map.", u.ID, o.Target)
		return
	}
	from, ok := position(t.s, t.f, u)
	if !ok {
		return
	}
	to, _ := t.f.parse(x.Hex)
	dist := t.f.g.Distance(from, to)
	occ := t.occupied()
	if see, why := t.lineOfFire(from, to, occ); !see {
		t.event(ruleShooting, "%s cannot fire at %s (%s): %s.", u.ID, x.ID, x.Hex, why)
		return
	}
	vols, group := t.chooseArms(u, o, x, from, to, dist, moved)
	if len(vols) == 0 {
		what := "no weapon that can hurt it is in range"
		if len(o.With) > 0 {
			what = "its " + strings.Join(o.With, ", ") + " cannot fire at it (out of range, spent, or moved)"
		}
		t.event(ruleShooting, "%s cannot fire at %s, %d hexes away: %s.", u.ID, x.ID, dist, what)
		return
	}
	if u.Kind == kindVehicle {
		if group >= 0 && group != len(u.Groups)-1 {
			t.heavy[u.ID] = true
		}
		if u.FireControl == "damaged" {
			u.LastFired = t.n
		}
	}
	if u.Aboard != "" {
		t.ports[u.Aboard] = true
	}
	t.s.Trace = append(t.s.Trace, trace{Kind: "attack", Unit: u.ID, From: t.f.format(from), To: x.Hex})
	suppresses := o.Mode == "suppress"
	for _, v := range vols {
		for _, a := range v.refs {
			if a.OneShot {
				a.Spent = true
			}
		}
		n := len(v.refs)
		what := fmt.Sprintf("%s fires %s at %s (%s, %d hexes)", u.ID, countWord(n, v.w.Name), x.ID, x.Hex, dist)
		if o.Mode == "suppress" && !v.w.AlwaysSuppresses {
			t.event(ruleSuppression, "%s as suppression fire: no dice, it keeps %s's head down.", what, x.ID)
			continue
		}
		if v.w.AlwaysSuppresses {
			suppresses = true
		}
		targets := []*unitState{x}
		if v.w.Hex {
			targets = nil
			for _, y := range t.unitsAt(x.Hex) {
				if y != u {
					targets = append(targets, y)
				}
			}
		}
		for _, y := range targets {
			t.resolveShot(what, u, v, n, from, y, to, moved)
		}
	}
	if suppresses {
		t.pend.suppress[x.ID]++
	}
}

func countWord(n int, name string) string {
	if n == 1 {
		return article(name) + " " + name
	}
	if strings.HasSuffix(name, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(name, "y"))
	}
	return fmt.Sprintf("%d %ss", n, name)
}

// resolveShot rolls one volley at one unit and queues its hits:
// casualties, or a vehicle damage roll per hit with the points it went
// over (Shooting, Vehicle Damage).
func (t *turn) resolveShot(what string, u *unitState, v volley, n int, from board.ID, y *unitState, to board.ID, moved int) {
	s := t.shotAt(v.w, from, y, to, moved)
	s.Weapons = n
	rule := v.w.Rule
	mods := modsText(s)
	if y != nil && v.w.Hex {
		what += fmt.Sprintf(", hitting %s in the hex", y.ID)
	}
	wound := s.WoundNumber()
	if wound > 6 {
		t.event(rule, "%s: it needs %d (%s) and cannot hurt %s.", what, wound, mods, y.ID)
		return
	}
	if s.Target == vehicle {
		what += ", " + s.Facing.String()
	}
	arms := v.w.Name
	if n > 1 {
		arms = countWord(n, v.w.Name)
	}
	s.Purpose = fmt.Sprintf("Per Rote %s: %s's %s at %s, needing %d+", v.w.Rule, u.ID, arms, y.ID, wound)
	res := s.Fire(t.r)
	text := fmt.Sprintf("%s: %d+ to hit (%s), %d %s %v", what, wound, mods, res.DiceRolled, plural1(res.DiceRolled, "die", "dice"), res.Faces)
	if len(res.Rerolled) > 0 {
		text += fmt.Sprintf(", armor re-rolls %v", res.Rerolled)
	}
	text += fmt.Sprintf(": %d %s.", res.Hits, plural1(res.Hits, "hit", "hits"))
	t.event(rule, "%s", text)
	if res.Hits == 0 {
		return
	}
	if s.Target != vehicle {
		t.pend.casualties[y.ID] += res.Hits
		return
	}
	for _, over := range res.Over {
		m, e := rollVehicleDamageFor(t.r, over, fmt.Sprintf("Per Rote Vehicle Damage: %s hit by %s's %s, +%d over", y.ID, u.ID, v.w.Name, over))
		t.event(ruleDamage, "%s is hit: damage roll %d+%d = %d, %s.", y.ID, m-over, over, m, e.Key)
		t.pend.damage[y.ID] = append(t.pend.damage[y.ID], e)
	}
}

// modsText writes a shot's wound number sum: "base 6, +2 armor facing...".
func modsText(s shot) string {
	parts := []string{fmt.Sprintf("base %d", s.Target.BaseWound())}
	for _, m := range s.Modifiers() {
		parts = append(parts, fmt.Sprintf("%+d %s", m.Value, m.Why))
	}
	if s.Weapon.IgnoresCover && s.Cover != noCover {
		parts = append(parts, "cover ignored")
	}
	return strings.Join(parts, " ")
}

// mortar fires a unit's mortars at a hex (Mortars): not blocked by
// terrain; each mortar hits the hex on 5+, or 3+ with a spotter that does
// not move or when the mortar sees the hex; a miss lands in a hex next to
// it (1 toward the mortar, then clockwise).
func (t *turn) mortar(u *unitState, o *order, moved int) {
	from, ok := position(t.s, t.f, u)
	if !ok {
		return
	}
	h, _ := t.f.parse(o.Target)
	dist := t.f.g.Distance(from, h)
	var arms []*arm
	for mi := range u.Models {
		for ai := range u.Models[mi].Arms {
			a := &u.Models[mi].Arms[ai]
			if a.Weapon == "mortar" && !a.Spent {
				arms = append(arms, a)
				break
			}
		}
	}
	w, _ := weaponByKey("mortar")
	if len(arms) == 0 || dist > rangeOf(*arms[0], w) {
		t.event(ruleMortars, "%s cannot fire its mortar at %s: %d hexes is out of range (%d).", u.ID, o.Target, dist, w.Range)
		return
	}
	occ := t.occupied()
	visible, _ := t.lineOfFire(from, h, occ)
	spotter := false
	if o.Spotter != "" {
		sp := t.s.unit(o.Spotter)
		sh, on := position(t.s, t.f, sp)
		switch {
		case sp == nil || sp.Eliminated() || !on:
			t.event(ruleMortars, "%s's spotter %s is gone.", u.ID, o.Spotter)
		case t.moved[sp.ID] > 0:
			t.event(ruleMortars, "%s's spotter %s moved this turn and cannot radio in fire directions.", u.ID, sp.ID)
		default:
			if see, why := t.lineOfFire(sh, h, occ); see {
				spotter = true
			} else {
				t.event(ruleMortars, "%s's spotter %s cannot see %s: %s.", u.ID, sp.ID, o.Target, why)
			}
		}
	}
	need := mortarNeed(spotter, visible)
	how := "fired indirectly without a spotter"
	switch {
	case spotter:
		how = "spotted by " + o.Spotter
	case visible:
		how = "the mortar sees the hex"
	}
	for i, a := range arms {
		hit, sc := mortarHexFor(t.r, spotter, visible, fmt.Sprintf(" for %s's mortar %d at %s (needs %d+)", u.ID, i+1, o.Target, need))
		land := h
		text := fmt.Sprintf("%s's mortar fires at %s (%s, needs %d+)", u.ID, o.Target, how, need)
		if hit {
			text += ": on target"
		} else {
			land = scatterHex(t.f.g, h, from, sc)
			text += fmt.Sprintf(": it misses and lands in hex %d around it, %s", sc, t.f.format(land))
		}
		t.s.Trace = append(t.s.Trace, trace{Kind: "attack", Unit: u.ID, From: t.f.format(from), To: t.f.format(land)})
		if !t.f.g.Contains(land) {
			t.event(ruleMortars, "%s, off the map.", text)
			continue
		}
		if o.Mode == "smoke" {
			t.event(ruleSmoke, "%s: smoke fills %s (light cover, blocks fire through it).", text, t.f.format(land))
			t.pend.smoke = append(t.pend.smoke, smoke{Hexes: []string{t.f.format(land)}, Placed: t.n})
			continue
		}
		victims := t.unitsAt(t.f.format(land))
		if len(victims) == 0 {
			t.event(ruleMortars, "%s; nobody is there.", text)
			continue
		}
		t.event(ruleMortars, "%s.", text)
		for _, y := range victims {
			if y != u {
				t.resolveShot(fmt.Sprintf("%s's mortar round at %s", u.ID, t.f.format(land)), u, volley{arm: *a, w: w}, 1, from, y, land, moved)
			}
		}
	}
}

// scatterHex is where a missed mortar round lands (Mortars): roll 1 is
// the hex next to the target toward the mortar, 2 to 6 the others
// clockwise from it.
func scatterHex(g board.Grid, target, mortar board.ID, roll int) board.ID {
	d0 := dirToward(g, target, mortar)
	// board directions run counterclockwise on the page (y down), so
	// clockwise is the next lower direction.
	return g.Neighbour(target, d0-(roll-1))
}

// smokeLaunch fires a vehicle's smoke launchers: smoke in the three hexes
// touching its front (Smoke Launchers).
func (t *turn) smokeLaunch(v *unitState) {
	at, ok := t.f.parse(v.Hex)
	if !ok {
		return
	}
	var hexes []string
	for _, d := range []int{v.Facing + 1, v.Facing, v.Facing - 1} {
		if n := t.f.g.Neighbour(at, d); t.f.g.Contains(n) {
			hexes = append(hexes, t.f.format(n))
		}
	}
	slices.Sort(hexes)
	if v.FireControl == "damaged" {
		v.LastFired = t.n
	}
	t.event(ruleSmoke, "%s fires its smoke launchers: smoke fills %s (light cover to a unit fired at through it or in it).", v.ID, strings.Join(hexes, ", "))
	t.pend.smoke = append(t.pend.smoke, smoke{Hexes: hexes, Placed: t.n, Screen: true})
}

// grenadeSmoke fires a grenade launcher's smoke round at a hex within its
// range and sight (Americans: the M203 fires "antipersonnel/smoke grenades
// out to two hexes"). It lands where it is aimed, as the launcher's
// antipersonnel grenades do, and makes that one hex smoke as a mortar's
// smoke round does: light cover, not to be fired through (Smoke
// Launchers), dispersing by the same roll.
func (t *turn) grenadeSmoke(u *unitState, o *order) {
	from, ok := position(t.s, t.f, u)
	if !ok {
		return
	}
	h, _ := t.f.parse(o.Target)
	r := launcherRange(u)
	if d := t.f.g.Distance(from, h); d > r || d == 0 {
		t.event(ruleSmoke, "%s cannot fire smoke at %s: %d hexes away, its grenade launcher reaches 1 to %d.", u.ID, o.Target, d, r)
		return
	}
	if see, why := t.lineOfFire(from, h, t.occupied()); !see {
		t.event(ruleSmoke, "%s cannot fire smoke at %s: %s.", u.ID, o.Target, why)
		return
	}
	t.s.Trace = append(t.s.Trace, trace{Kind: "attack", Unit: u.ID, From: t.f.format(from), To: o.Target})
	t.event(ruleSmoke, "%s fires a smoke grenade at %s: smoke fills it (light cover, blocks fire through it).", u.ID, o.Target)
	t.pend.smoke = append(t.pend.smoke, smoke{Hexes: []string{o.Target}, Placed: t.n})
}

// article is "a" or "an" before name, by its sound: "an RPG", "an
// automatic cannon", "a heavy missile". An acronym is read letter by
// letter.
func article(name string) string {
	first, _, _ := strings.Cut(name, " ")
	if first == "" {
		return "a"
	}
	if len(first) > 1 && strings.ToUpper(first) == first && strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(first[0])) {
		if strings.ContainsRune("AEFHILMNORSX", rune(first[0])) {
			return "an"
		}
		return "a"
	}
	if strings.ContainsRune("aeiouAEIOU", rune(first[0])) {
		return "an"
	}
	return "a"
}
