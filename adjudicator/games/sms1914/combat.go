package sms1914

// This file resolves the attack phases (9-11): the attacks declared (9.1,
// 9.2), withholding (9.2.5), Ammo and Shells (9.4, 23.2), strengths with
// terrain, River Crossing markers, Komitadji and Two-Hex halving (9.3,
// 7.1.4b, 23.1.1, 19.1.6), odds and every column shift (9.5, 9.6),
// intensity (9.8), the CRT with the PR-modified white die (9.7, 9.9), SRs
// with Small Magnitude (9.10), artillery (10.1), the post-combat ECs in
// order (10), retreats (11.1) and the advance (11.2).

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// battle is one combat being resolved.
type battle struct {
	g         *game
	side      side // the attacker
	target    board.ID
	atk       *attack
	attackers []*force
	defenders []*force
	withheld  []*force // defending Forces withheld (9.2.5)
	repulse   bool

	attack, defense *big.Rat
	ammo            map[*force]bool
	shells          map[*force]bool
	flanked         bool
	odds            odds
	prDRM           int
	battle          Battle
	roll            combatRoll
	outcome         outcome
	artA, artD      int // EC DRMs from the Artillery Table: to the attacker, to the defender
	avA, avD        int
	retreat         map[*force]int // retreat obligations
	ecDRM           map[*force]int
	vacated         bool
	supply          [2]*supplyCtx
	supportForces   []*force // the defender's neighbours adding AV (10.1.1)
	squadron        *unit    // an A-H squadron adding AV (25.1)
	skip            []*unit  // Two-Hex units checking in the other combat (19.1.6)
	// vals are the units' values as the combat began: SRs taken in it do
	// not lower the AV its artillery step counts (the 11.2 example adds
	// the 9/8's AV 4 after flipping it)
	vals map[*unit]values
}

// val is a unit's values as the combat began.
func (b *battle) val(u *unit) values {
	if v, ok := b.vals[u]; ok {
		return v
	}
	return u.values()
}

// combatPhase is an attack phase of side: the declared attacks, resolved
// in their order (9.1).
func (g *game) combatPhase(side side) {
	g.assign()
	g.Attacked = nil
	for _, u := range g.units(side) {
		u.Attacked, u.Retreated = false, false
	}
	for _, u := range g.units(side.Enemy()) {
		u.Attacked, u.Retreated = false, false
	}
	used := map[*unit]bool{} // AV given this phase (10.1.1)
	sup := [2]*supplyCtx{g.newSupply(ah), g.newSupply(sb)}
	squadronUsed := map[*unit]bool{}
	for _, a := range g.Attacks {
		g.Attacked = append(g.Attacked, a.Target)
	}
	done := map[*attack]bool{}
	for _, a := range g.Attacks {
		if done[a] || g.Over {
			continue
		}
		done[a] = true
		// a Two-Hex defender attacked in both hexes: the two combats together (19.1.6)
		var partner *attack
		t := g.parse(a.Target)
		for _, u := range g.sideAt(t, side.Enemy()) {
			if u.Hex2 == "" {
				continue
			}
			other := u.Hex
			if other == a.Target {
				other = u.Hex2
			}
			for _, b := range g.Attacks {
				if b != a && !done[b] && b.Target == other {
					partner = b
				}
			}
		}
		b1 := g.prepare(side, a, sup, used, squadronUsed)
		if b1 == nil {
			continue
		}
		var b2 *battle
		if partner != nil {
			done[partner] = true
			b2 = g.prepare(side, partner, sup, used, squadronUsed)
		}
		if !b1.fight() {
			continue
		}
		if b2 != nil && !b2.fight() {
			b2 = nil
		}
		if b2 != nil {
			g.ev("19.1.6", "The two combats against the Two-Hex unit in %s and %s are resolved together: it makes one EC with the worse modifier.", a.Target, partner.Target)
		}
		b1.artillery()
		if b2 != nil {
			b2.artillery()
		}
		// 9.1.1 h: the CRT retreat; j: the ECs, the attacker's results
		// first, then the defender's (10.0); k: the advance. The two
		// combats against a Two-Hex unit retreat after the ECs (19.1.7
		// example).
		g.retreatRepulsed = map[*unit]bool{}
		if b2 == nil {
			b1.crtRetreat()
			b1.attackerChecks()
			b1.attackerRetreats()
			b1.defenderChecks(nil)
			b1.defenderRetreats()
		} else {
			b1.attackerChecks()
			b1.attackerRetreats()
			b2.attackerChecks()
			b2.attackerRetreats()
			b1.defenderChecks(b2)
			b2.defenderChecks(b1)
			b1.crtRetreat()
			b2.crtRetreat()
			b1.defenderRetreats()
			b2.defenderRetreats()
		}
		g.retreatRepulsed = nil
		b1.advance()
		if b2 != nil {
			b2.advance()
		}
	}
	g.Attacks = nil
	g.removeEmptyIPs()
	g.updateControl(nil)
}

// prepare checks a declared attack and gathers its Forces (9.1.1 a-c).
func (g *game) prepare(side side, a *attack, sup [2]*supplyCtx, used map[*unit]bool, sqUsed map[*unit]bool) *battle {
	t := g.parse(a.Target)
	if !g.enemyIn(t, side) {
		g.evFor(side, "9.1", "The attack on %s is void: no enemy unit is there now.", a.Target)
		return nil
	}
	b := &battle{g: g, side: side, target: t, atk: a, ammo: map[*force]bool{}, shells: map[*force]bool{},
		retreat: map[*force]int{}, ecDRM: map[*force]int{}, supply: sup}
	// attackers: the listed units still able to attack, by Force
	seen := map[*unit]bool{}
	key := ""
	for _, id := range a.Units {
		u := g.unitByID(id)
		if u == nil || !u.onMap() || u.c.Side != side || seen[u] {
			continue
		}
		if why := g.attackBar(u, t); why != "" {
			g.evFor(side, "9.2", "%s does not attack %s: %s.", u.ID, a.Target, why)
			continue
		}
		f := g.forceOf(u)
		if u.Hex2 != "" {
			f = &force{Formation: u, Hex: u.pos}
			if !g.grid.Adjacent(u.pos, t) {
				f.Hex = u.p2
			}
		}
		for _, x := range f.Units() {
			seen[x] = true
		}
		k := g.corpsKey(f.Lead())
		if key == "" {
			key = k
		} else if k != key {
			g.evFor(side, "9.2.2", "%s is withheld from the attack on %s: units of different corps or armies do not combine.", f, a.Target)
			continue
		}
		// only the listed units of the Force attack; the rest are withheld (9.2.5)
		var in []*unit
		for _, x := range f.Units() {
			if slices.Contains(a.Units, x.ID) || slices.ContainsFunc(a.Units, func(s string) bool { return strings.EqualFold(s, x.ID) }) {
				if x.isFort() {
					continue
				}
				in = append(in, x)
			}
		}
		nf := &force{Hex: f.Hex}
		for _, x := range in {
			if x.c.Formation {
				nf.Formation = x
			} else {
				nf.Assets = append(nf.Assets, x)
			}
		}
		if nf.Lead() != nil && !slices.ContainsFunc(nf.Units(), func(x *unit) bool { return x.c.Combat() }) {
			// 8.8.1: artillery fights only beside a Combat unit it is stacked with
			g.evFor(side, "8.8.1", "%s does not attack %s: artillery fights only with a Combat unit it is stacked with.", nf, a.Target)
			continue
		}
		if nf.Lead() != nil {
			b.attackers = append(b.attackers, nf)
		}
	}
	b.attackers = g.combatLimit(b.attackers, t, side, "9.2.5")
	if len(b.attackers) == 0 {
		g.evFor(side, "9.2", "The attack on %s is void: no unit can take part.", a.Target)
		return nil
	}
	for _, f := range b.attackers {
		for _, u := range f.Units() {
			u.Attacked = true
		}
	}
	// defenders: every Force in the hex, less those withheld (9.2.5)
	ans := g.answer(a)
	all, retreated := g.splitRetreated(g.forcesAt(t, side.Enemy()))
	if len(all) == 0 {
		// every unit in the hex retreated earlier this phase: none may be
		// attacked again (9.2, 9.2.5 A)
		for _, f := range b.attackers {
			for _, u := range f.Units() {
				u.Attacked = false
			}
		}
		g.ev("9.2", "The attack on %s is void: every unit there retreated earlier this attack phase, and no unit is attacked twice a phase (9.2.5).", a.Target)
		return nil
	}
	// different corps: only one corps' troops defend; the one with the most DE (or the answer's choice)
	byKey := map[string][]*force{}
	var keys []string
	for _, f := range all {
		k := g.corpsKey(f.Lead())
		if f.Formation == nil && f.Fort != nil && len(f.Assets) == 0 {
			k = "fort"
		}
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], f)
	}
	bestKey := ""
	for _, k := range keys {
		if k == "fort" {
			continue
		}
		if bestKey == "" || deQuarters(byKey[k]) > deQuarters(byKey[bestKey]) {
			bestKey = k
		}
	}
	for _, k := range keys {
		for _, f := range byKey[k] {
			switch {
			case k == bestKey || k == "fort" || f.Fort != nil:
				b.defenders = append(b.defenders, f)
			default:
				b.withheld = append(b.withheld, f)
			}
		}
	}
	// the defender may withhold CI or Demoralized Forces if one Force is neither
	if ans != nil && len(ans.Withhold) > 0 {
		fit := slices.ContainsFunc(b.defenders, func(f *force) bool { return f.Formation == nil || f.Formation.CE < statusCI })
		var keep []*force
		for _, f := range b.defenders {
			if fit && f.Formation != nil && f.Formation.CE >= statusCI && f.Fort == nil && slices.ContainsFunc(ans.Withhold, func(s string) bool { return strings.EqualFold(s, f.Formation.ID) }) {
				b.withheld = append(b.withheld, f)
				continue
			}
			keep = append(keep, f)
		}
		b.defenders = keep
	}
	limited := g.combatLimit(b.defenders, t, side.Enemy(), "9.2.5")
	for _, f := range b.defenders {
		if !slices.Contains(limited, f) {
			b.withheld = append(b.withheld, f)
		}
	}
	b.defenders = limited
	for _, f := range b.defenders {
		for _, u := range f.Units() {
			u.Attacked = true
		}
	}
	// 9.1.1 b: the attacker learns the ID, type and size of every unit in the hex
	var ids []string
	for _, u := range g.at(t) {
		if u.c.Side != side && u.c.Kind != kSquadron {
			ids = append(ids, fmt.Sprintf("%s (%s%s)", u.ID, sizeWord(u), u.c.Kind))
			g.reveal(side, u.ID)
		}
	}
	var froms []string
	for _, f := range b.attackers {
		froms = append(froms, g.hex(f.Hex))
		g.arrow(f.Hex, t, "attack", side)
	}
	slices.Sort(froms)
	froms = slices.Compact(froms)
	g.ev("9.1", "%s attacks %s from %s.", side, g.placeName(t), strings.Join(froms, ", "))
	g.evFor(side, "9.1.1", "In %s: %s.", g.hex(t), strings.Join(ids, ", "))
	var atkIDs []string
	for _, f := range b.attackers {
		atkIDs = append(atkIDs, f.String())
	}
	g.evFor(side, "9.1.1", "Attacking %s: %s.", g.hex(t), strings.Join(atkIDs, ", "))
	if len(b.withheld) > 0 {
		var wh []string
		for _, f := range b.withheld {
			wh = append(wh, f.String())
		}
		g.evFor(side.Enemy(), "9.2.5", "Withheld in %s: %s.", g.hex(t), strings.Join(wh, ", "))
	}
	b.withheld = append(b.withheld, retreated...)
	// 9.1.1 c: Ammo and Shells
	for _, f := range b.attackers {
		b.ammo[f] = !a.NoAmmo && g.ammoFor(sup[side], f)
		if side == sb && b.ammo[f] && !a.NoShells && g.Shells > 0 {
			b.shells[f] = true
			g.Shells--
		}
	}
	for _, f := range b.defenders {
		b.ammo[f] = !(ans != nil && ans.NoAmmo) && g.ammoFor(sup[side.Enemy()], f)
	}
	for _, f := range b.attackers {
		if !b.ammo[f] {
			g.evFor(side, "9.4", "%s fights without Ammo: strength and AV halved.", f)
		}
	}
	for _, f := range b.defenders {
		if !b.ammo[f] {
			g.evFor(side.Enemy(), "9.4", "%s defends without Ammo: strength and AV halved.", f)
		}
	}
	b.neighbourAV(used, sqUsed)
	return b
}

// splitRetreated parts a hex's Forces into the units that may defend and
// those retreated earlier this attack phase, which must be withheld
// (9.2.5 A: no unit is attacked more than once a phase, 9.2). A Force is
// split by unit: an asset that did not retreat defends even if the
// Formation it is assigned to did; a Fort, which never retreats, stays
// with the units that defend.
func (g *game) splitRetreated(forces []*force) (fresh, retreated []*force) {
	for _, f := range forces {
		in, out := &force{Hex: f.Hex, Fort: f.Fort}, &force{Hex: f.Hex}
		for _, u := range f.Units() {
			switch {
			case u == f.Fort:
			case u.Retreated && u.c.Formation:
				out.Formation = u
			case u.Retreated:
				out.Assets = append(out.Assets, u)
			case u.c.Formation:
				in.Formation = u
			default:
				in.Assets = append(in.Assets, u)
			}
		}
		if in.Lead() != nil {
			fresh = append(fresh, in)
		}
		if out.Lead() != nil {
			retreated = append(retreated, out)
		}
	}
	if len(retreated) > 0 {
		var ids []string
		for _, f := range retreated {
			ids = append(ids, f.String())
		}
		g.evFor(forces[0].Lead().c.Side, "9.2.5", "Withheld in %s: %s, retreated earlier this attack phase (no unit is attacked twice a phase, 9.2).", g.hex(forces[0].Hex), strings.Join(ids, ", "))
	}
	return fresh, retreated
}

func sizeWord(u *unit) string {
	if u.c.Size == "" {
		return ""
	}
	return u.c.Size + " "
}

// reveal notes that a seat learnt an enemy unit's identity (3.1.6).
func (g *game) reveal(side side, id string) {
	if g.Revealed == nil {
		g.Revealed = map[string][]string{}
	}
	g.Revealed[side.Seat()] = append(g.Revealed[side.Seat()], id)
}

// attackBar says why a unit may not attack the hex ("" if it may) (9.2,
// 9.2.3, 6.3, 6.4, 7.8, 9.2.5).
func (g *game) attackBar(u *unit, t board.ID) string {
	adj := false
	for _, h := range u.hexes() {
		if g.grid.Adjacent(h, t) {
			f := g.feature(h, t)
			if isDonau(f) || f == sideImpass {
				return "no attack across the Donau or an impassable hexside (9.2.3)"
			}
			adj = true
		}
	}
	switch {
	case !adj:
		return "it is not next to the hex (9.2)"
	case u.Attacked:
		return "it has attacked this phase (9.2)"
	case u.Retreated:
		return "it retreated this phase (9.2.5)"
	case u.c.Formation && u.CE >= statusCI:
		return "CI and Demoralized units do not attack (6.3, 6.4)"
	case u.Task != "":
		return "it bears an MPs Expended marker (7.8)"
	case u.PA != "" && u.PA != g.hex(t):
		return "its PA points at another hex (9.2.5)"
	case u.isFort():
		return "forts do not attack (8.5.1)"
	case u.c.Kind == kSquadron, u.c.Supply():
		return "it does not fight"
	case u.values().AS <= 0 && u.c.Kind != kArtillery:
		return "its attack strength is zero (9.2.3)"
	}
	return ""
}

// combatLimit keeps the Forces within the combat stacking limits of each
// hex (3.1.2, 3.1.2a): 2 1/4 division-equivalents (1 1/4 in or into
// Mountainous terrain), two assets, one artillery unit (none in the
// mountains); forts do not count as assets. The rest are withheld.
func (g *game) combatLimit(forces []*force, target board.ID, side side, rule string) []*force {
	var out []*force
	// the owner keeps the strongest Forces in (9.2.5: he decides)
	forces = slices.Clone(forces)
	strength := func(f *force) int {
		n := 0
		for _, u := range f.Units() {
			v := u.values()
			if side == g.Phasing && g.Phase != phaseCounterAttack && g.Phase != phaseCounterDefend || side != g.Phasing && (g.Phase == phaseCounterAttack || g.Phase == phaseCounterDefend) {
				n += v.AS
			} else {
				n += v.DS
			}
		}
		return n
	}
	slices.SortStableFunc(forces, func(a, b *force) int {
		if f := b.Fort; f != nil {
			return 1
		}
		if a.Fort != nil {
			return -1
		}
		return strength(b) - strength(a)
	})
	type tally struct{ q, assets, art int }
	per := map[board.ID]*tally{}
	for _, f := range forces {
		t := per[f.Hex]
		if t == nil {
			t = &tally{}
			per[f.Hex] = t
		}
		mtn := g.mountainous(target) || g.mountainous(f.Hex)
		limit := 9
		if mtn {
			limit = 5
		}
		q, assets, art := 0, 0, 0
		var drop []*unit
		for _, u := range f.Units() {
			if u.isFort() {
				continue
			}
			if u.c.Kind == kArtillery && (mtn || t.art+art >= 1) {
				drop = append(drop, u)
				continue
			}
			q += u.quarters()
			if u.asset() {
				assets++
			}
			if u.c.Kind == kArtillery {
				art++
			}
		}
		if t.q+q > limit || t.assets+assets > 2 {
			g.evFor(side, rule, "%s is withheld: over the combat stacking limit in %s (3.1.2).", f, g.hex(f.Hex))
			continue
		}
		for _, u := range drop {
			// the artillery stays out of the combat
			nf := &force{Formation: f.Formation, Fort: f.Fort, Hex: f.Hex}
			for _, a := range f.Assets {
				if a != u {
					nf.Assets = append(nf.Assets, a)
				}
			}
			g.evFor(side, rule, "%s takes no part: no artillery in a Mountainous combat, one artillery unit a hex (3.1.2, 3.1.2a, 8.8.1).", u.ID)
			f = nf
		}
		if f.Lead() == nil {
			continue
		}
		t.q += q
		t.assets += assets
		t.art += art
		out = append(out, f)
	}
	return out
}

// ammoFor provides Ammo to a Force that wants it (9.4.1).
func (g *game) ammoFor(c *supplyCtx, f *force) bool {
	lead := f.Lead()
	if lead == nil || lead.isFort() && f.Formation == nil && len(f.Assets) == 0 {
		return true // forts need no supply (8.5.1)
	}
	if lead.c.Nation == "Montenegro" || lead.Box != "" {
		return true
	}
	_, ok := g.provideAmmo(c, f)
	return ok
}

// answer is the defender's answer to an attack: its follow-up answer, or
// its standing orders.
func (g *game) answer(a *attack) *answer {
	if a.Answer != nil {
		return a.Answer
	}
	ans := &answer{}
	seat := seatSide(a.Seat).Enemy().Seat()
	for _, l := range g.standing(seat, "withhold") {
		ans.Withhold = append(ans.Withhold, strings.Fields(l)...)
	}
	for _, l := range g.standing(seat, "ammo") {
		if l == "no" {
			ans.NoAmmo = true
		}
	}
	for _, l := range g.standing(seat, "shells") {
		ans.Shells = l
	}
	return ans
}

// unitStrength is a unit's AS or DS in the combat (9.3, 9.4, 7.1.4b,
// 23.1.1, 19.1.6): its printed value, less its River Crossing marker, +1
// for a Komitadji marker with a Serbian unit, halved without Ammo and
// halved again in each hex of a Two-Hex unit.
func (b *battle) unitStrength(u *unit, f *force, attacking bool) *big.Rat {
	v := u.values()
	n := v.DS
	if attacking {
		n = v.AS
	}
	str, _ := riverCrossingPenalty(u)
	n = max(n-str, 0)
	r := big.NewRat(int64(n), 1)
	if !b.ammo[f] {
		r.Quo(r, big.NewRat(2, 1))
	}
	if u.Hex2 != "" {
		r.Quo(r, big.NewRat(2, 1))
	}
	return r
}

// strengths totals both sides (9.1.1 d, 9.3).
func (b *battle) strengths() {
	g := b.g
	b.attack, b.defense = new(big.Rat), new(big.Rat)
	for _, f := range b.attackers {
		s := new(big.Rat)
		for _, u := range f.Units() {
			if u.isFort() {
				continue
			}
			s.Add(s, b.unitStrength(u, f, true))
		}
		// 9.3.2: the hexside crossed, or attacking from Bottomland with River, per Force
		mod := g.sc.TEC.Terrain[g.terrain(f.Hex)].AttackFrom
		if ft := g.feature(f.Hex, b.target); ft != "" && ft != sideImpass {
			if !(ft == sideSavaBend && g.alongArrow(f.Hex, b.target)) && !g.bridgedAttack(f.Hex, b.target) {
				mod += g.sc.TEC.Hexside[ft].Attack
			}
		}
		if f.Formation != nil && f.Formation.c.Side == sb && g.komitadjiAt(f.Hex) {
			mod++ // 23.1.1
		}
		s.Add(s, big.NewRat(int64(mod), 1))
		if s.Sign() < 0 {
			s.SetInt64(0)
		}
		b.attack.Add(b.attack, s)
	}
	for _, f := range b.defenders {
		for _, u := range f.Units() {
			b.defense.Add(b.defense, b.unitStrength(u, f, false))
		}
	}
	if len(b.defenders) > 0 {
		bonus := g.sc.TEC.Terrain[g.terrain(b.target)].Defense // one bonus a hex (9.3.1)
		if b.side == ah && g.komitadjiAt(b.target) {
			bonus++ // 23.1.1: with a Serbian unit, +1
		}
		b.defense.Add(b.defense, big.NewRat(int64(bonus), 1))
	}
	if b.defense.Sign() <= 0 {
		b.defense.SetInt64(1)
	}
}

// bridgedAttack: attacking across a bridge is still across the river; the
// TEC's strength change applies (9.3.2) — a bridge eases movement only.
func (g *game) bridgedAttack(a, b board.ID) bool { return false }

// alongArrow reports an attack from a Riverbend hex in the direction of
// its arrow (3.5.4).
func (g *game) alongArrow(from, to board.ID) bool {
	return g.feature(from, to) == sideSavaBend && g.sc.bend[from]
}

// shifts are the 9.6.1 column shifts.
func (b *battle) shifts() shifts {
	g := b.g
	sh := shifts{}
	// Prepared Attack: every attacking Combat unit has a PA at the hex
	pa := len(b.attackers) > 0
	for _, f := range b.attackers {
		for _, u := range f.Units() {
			if u.c.Combat() && u.PA != g.hex(b.target) {
				pa = false
			}
		}
	}
	sh.Prepared = pa && !b.repulse
	b.flanked = g.flanked(b)
	sh.Flanked = b.flanked
	if g.ipAt(b.target, b.side.Enemy()) {
		sh.IP = 1
	}
	// the rivers: Sava (regular, or a riverbend against its arrow) and the
	// major kinds (Major River, Sava Island, a riverbend along its arrow,
	// or attacking from Bottomland with River)
	allSava, anySava, allMajor := true, false, true
	for _, f := range b.attackers {
		ft := g.feature(f.Hex, b.target)
		sava := ft == sideSava || ft == sideSavaBend && !g.alongArrow(f.Hex, b.target)
		major := ft == sideMajor || ft == sideSavaIsle || ft == sideSavaBend && g.alongArrow(f.Hex, b.target) || g.terrain(f.Hex) == "bottomland_river"
		if sava {
			anySava = true
		} else {
			allSava = false
		}
		if !major && !sava {
			allMajor = false
		}
	}
	switch {
	case allSava && len(b.attackers) > 0:
		sh.River = savaAll
	case anySava:
		sh.River = savaSome
	case allMajor && len(b.attackers) > 0:
		sh.River = majorRiver
	default:
		sh.River = noRiver
	}
	// Up Elevation: the defender's hex is higher than every attacking Combat unit's
	up := len(b.attackers) > 0
	de := g.elevation(b.target)
	for _, f := range b.attackers {
		if g.elevation(f.Hex) >= de {
			up = false
		}
	}
	sh.UpElevation = up
	return sh
}

// flanked: the attackers' size is at least the defending stack's, and at
// least five of the six hexes around it are held by the attacker or in the
// ZOC of an attacking Formation and none is held by the defender; hexes
// across Donau, Sava or impassable hexsides do not count; a Fort prevents
// it (9.5).
func (g *game) flanked(b *battle) bool {
	if b.repulse {
		return false
	}
	for _, u := range g.at(b.target) {
		if u.isFort() {
			return false
		}
	}
	if deQuarters(b.attackers) < deQuarters(append(slices.Clone(b.defenders), b.withheld...)) {
		return false
	}
	n := 0
	for _, h := range g.nbrs(b.target) {
		if zocBlocked(g.feature(b.target, h)) || g.friendIn(h, b.side.Enemy()) {
			continue
		}
		ok := g.friendIn(h, b.side)
		for _, f := range b.attackers {
			if f.Formation != nil && g.projects(f.Formation, h) {
				ok = true
			}
		}
		if ok {
			n++
		}
	}
	return n >= 5
}

// maxPR is the highest PR among the Forces' units (9.7); artillery has none.
func (b *battle) maxPR(forces []*force) int {
	best := 0
	for _, f := range forces {
		for _, u := range f.Units() {
			if u.c.Kind != kArtillery {
				best = max(best, u.values().PR)
			}
		}
	}
	return best
}

// canIntense: a side cannot choose Intense if all its units are Infantry
// Formations that cannot take an on-map SR (a defender in an IP may), or
// cavalry or assets (9.8).
func (b *battle) canIntense(forces []*force, defender bool) bool {
	for _, f := range forces {
		for _, u := range f.Units() {
			switch {
			case u.asset(), u.c.Kind == kCavalry:
			case u.c.Formation && u.maxed() && !(defender && b.g.ipAt(b.target, u.c.Side)):
			default:
				return true
			}
		}
	}
	return false
}

// condition evaluates an intensity condition: "", "yes" (always), or
// "odds>=3:1", "odds<=2:1", "attacker" (the attacker chose Intense).
func (b *battle) condition(c string, attackerIntense bool) bool {
	switch {
	case c == "" || c == "no":
		return false
	case c == "yes":
		return true
	case c == "attacker":
		return attackerIntense
	case strings.HasPrefix(c, "odds>="), strings.HasPrefix(c, "odds<="):
		p, ok := b.g.sc.CRT.Scale.Find(c[6:])
		if !ok {
			return false
		}
		if c[4] == '>' {
			return b.odds.Final >= p
		}
		return b.odds.Final <= p
	}
	return false
}

// defenderIntense is the defender's declaration: the follow-up answer, or
// the first standing "defend" order that matches the hex.
func (b *battle) defenderIntense(attackerIntense bool) bool {
	g := b.g
	if b.atk.Answer != nil {
		return b.condition(b.atk.Answer.Intense, attackerIntense)
	}
	for _, l := range g.standing(b.side.Enemy().Seat(), "defend") {
		f := strings.Fields(l)
		// defend intense|not [at HEX...] [if COND]
		if len(f) == 0 || f[0] != "intense" && f[0] != "not" {
			continue
		}
		cond := "yes"
		var at []string
		for i := 1; i < len(f); i++ {
			switch f[i] {
			case "at":
				for i+1 < len(f) && f[i+1] != "if" {
					i++
					at = append(at, f[i])
				}
			case "if":
				if i+1 < len(f) {
					cond = f[i+1]
					i++
				}
			}
		}
		if len(at) > 0 && !slices.Contains(at, g.hex(b.target)) {
			continue
		}
		if b.condition(cond, attackerIntense) {
			return f[0] == "intense"
		}
	}
	return false
}

// fight is 9.1.1 d-h: strengths, odds, intensity, the CRT, and the SRs
// and CE losses of the result (retreats follow the ECs).
func (b *battle) fight() bool {
	g := b.g
	b.vals = map[*unit]values{}
	for _, fs := range [][]*force{b.attackers, b.defenders, b.supportForces} {
		for _, f := range fs {
			for _, u := range f.Units() {
				b.vals[u] = u.values()
			}
		}
	}
	b.strengths()
	if b.attack.Sign() <= 0 {
		g.ev("9.2.3", "The attack on %s is void: the attackers' strength after terrain is zero (9.2.3).", g.hex(b.target))
		return false
	}
	sh := b.shifts()
	s := g.sc.CRT.Scale
	b.odds = determineOdds(s, b.attack, b.defense, sh, false)
	b.prDRM = prdrm(b.maxPR(b.attackers), b.maxPR(b.defenders))
	var notes []string
	if sh.Prepared {
		notes = append(notes, "PA 1 right")
	}
	if sh.Flanked {
		notes = append(notes, "Flanked 2 right")
	}
	if sh.IP > 0 {
		notes = append(notes, "IP 1 left")
	}
	switch sh.River {
	case savaAll:
		notes = append(notes, "Sava 2 left")
	case savaSome:
		notes = append(notes, "Sava 1 left")
	case majorRiver:
		notes = append(notes, "river 1 left")
	}
	if sh.UpElevation {
		notes = append(notes, "up elevation 1 left")
	}
	shiftText := "no shifts"
	if len(notes) > 0 {
		shiftText = strings.Join(notes, ", ")
	}
	g.evFor(b.side, "9.6", "Attack on %s: your strength %s, odds %s (%s), final %s.", g.hex(b.target), decimal(b.attack), s.Name(b.odds.Initial), shiftText, s.Name(b.odds.Final))
	g.evFor(b.side.Enemy(), "9.6", "Defence of %s: your strength %s, odds %s (%s), final %s.", g.hex(b.target), decimal(b.defense), s.Name(b.odds.Initial), shiftText, s.Name(b.odds.Final))
	// intensity: the attacker first, then the defender (9.8)
	ai := b.atk.Mandated || b.condition(b.atk.Intense, false)
	if ai && !b.canIntense(b.attackers, false) {
		g.evFor(b.side, "9.8", "The attack on %s cannot be Intense: every attacking unit is cavalry, an asset or a Formation that can take no SR.", g.hex(b.target))
		ai = false
	}
	di := b.defenderIntense(ai)
	if di && !b.canIntense(b.defenders, true) {
		g.evFor(b.side.Enemy(), "9.8", "The defence of %s cannot be Intense (9.8 restrictions).", g.hex(b.target))
		di = false
	}
	b.battle = intensity(ai, di)
	if b.atk.Mandated {
		g.mandated(b, ai)
	}
	b.roll = g.sc.CRT.RollCRT(g.r, b.odds.Column, b.prDRM, fmt.Sprintf("attack on %s at %s", g.hex(b.target), s.Name(b.odds.Column)))
	b.outcome = b.roll.Result.Apply(b.battle)
	names := map[Battle]string{lowIntensity: "Low Intensity", AttackerIntense: "Attacker Intense", DefenderIntense: "Defender Intense", highIntensity: "High Intensity"}
	g.ev("9.9", "Attack on %s at %s, %s: white %d%+d (PR) = %d, black %d: %s.", g.placeName(b.target), s.Name(b.odds.Column), names[b.battle],
		b.roll.White, b.prDRM, b.roll.WhiteModified, b.roll.Black, b.roll.Result.Printed)
	if r := b.outcome.DefenderRetreat; r > 0 {
		// carried out at step h, after the SRs (crtRetreat)
	} else if b.roll.Result.BlackRetreat+b.roll.Result.WhiteRetreat > 0 {
		g.ev("9.8.2", "The retreat is not carried out in a %s combat.", names[b.battle])
	}
	// E: one CEL reduction for each Force (9.9.2)
	for i := 0; i < b.roll.Result.Attacker.E; i++ {
		for _, f := range b.attackers {
			g.reduceCE(f, 1, "9.9.2", "an E result")
		}
	}
	for i := 0; i < b.roll.Result.Defender.E; i++ {
		for _, f := range b.defenders {
			g.reduceCE(f, 1, "9.9.2", "an E result")
		}
	}
	b.applySRs(b.attackers, b.defenders, b.outcome.AttackerSRs, b.side)
	b.applySRs(b.defenders, b.attackers, b.outcome.DefenderSRs, b.side.Enemy())
	for _, f := range b.attackers {
		b.ecDRM[f] = b.roll.Result.Attacker.DRM
	}
	for _, f := range b.defenders {
		b.ecDRM[f] = b.roll.Result.Defender.DRM
		if b.flanked {
			b.ecDRM[f]++
		}
	}
	return true
}

// applySRs gives a side its SRs from the CRT and Intensity, subject to
// Small Magnitude when the enemy's Forces total less than one
// division-equivalent (9.10, 9.10.1).
func (b *battle) applySRs(own, enemy []*force, n int, side side) {
	g := b.g
	if n <= 0 {
		return
	}
	eq := deQuarters(enemy)
	if eq >= 1 && eq < 4 {
		srs := min(n, 2)
		got, rolled, _ := smallMagnitude(g.r, eq, srs)
		if rolled {
			g.ev("9.10.1", "Small Magnitude at %s: %s's enemy is %s DE: %d SR%s become %d.", g.hex(b.target), side, formatDE(big.NewRat(int64(eq), 4)), n, plural(n, "", "s"), got)
		} else {
			g.ev("9.10.1", "Small Magnitude at %s: %s's %d SRs against %s DE become 1.", g.hex(b.target), side, n, formatDE(big.NewRat(int64(eq), 4)))
		}
		n = got
	}
	for i := 0; i < n; i++ {
		g.takeSR(own, g.lossPrefs(side), "9.10")
	}
	if n > 0 {
		g.ev("9.10", "%s takes %d SR%s at %s.", side, n, plural(n, "", "s"), g.hex(b.target))
	}
}

// mandated counts a Mandated Attack (26.3.1): it includes an Infantry
// Formation and is Intense.
func (g *game) mandated(b *battle, intense bool) {
	inf := false
	army := ""
	for _, f := range b.attackers {
		if f.Formation != nil && f.Formation.c.InfantryType() {
			inf = true
			army = f.Formation.Army
		}
	}
	a := g.army(army)
	if !intense || !inf || a == nil || a.Plan != "active" {
		g.ev("26.3.1", "The attack on %s does not count as a Mandated Attack: it needs an Infantry Formation of an army with an active Strategic Plan and Intense combat.", g.hex(b.target))
		return
	}
	a.Mandated++
	g.ev("26.3.1", "%s makes a Mandated Attack on %s (%d made).", a.ID, g.hex(b.target), a.Mandated)
}

// neighbourAV and the squadron's support are chosen when the attack is
// prepared: the defender's eligible neighbours (10.1.1) and a squadron.
func (b *battle) neighbourAV(used, sqUsed map[*unit]bool) {
	g := b.g
	def := b.side.Enemy()
	attackHexes := map[board.ID]bool{}
	for _, f := range b.attackers {
		attackHexes[f.Hex] = true
	}
	var support []*force
	if len(b.defenders) > 0 && b.defenders[0].Lead() != nil {
		key := g.corpsKey(b.defenders[0].Lead())
		for _, n := range g.nbrs(b.target) {
			if slices.Contains(g.Attacked, g.hex(n)) || !g.friendIn(n, def) {
				continue
			}
			var nextTo board.ID
			ok := false
			for h := range attackHexes {
				if g.grid.Adjacent(n, h) {
					ok, nextTo = true, h
				}
			}
			if !ok {
				continue
			}
			take := 1
			if g.elevation(n) > g.elevation(nextTo) {
				take = 2
			}
			for _, f := range g.forcesAt(n, def) {
				if take == 0 || f.Lead() == nil || g.corpsKey(f.Lead()) != key {
					continue
				}
				fresh := true
				for _, u := range f.Units() {
					if used[u] {
						fresh = false
					}
				}
				if !fresh {
					continue
				}
				support = append(support, f)
				take--
			}
		}
	}
	for _, f := range support {
		for _, u := range f.Units() {
			used[u] = true
		}
	}
	for _, f := range append(slices.Clone(b.attackers), b.defenders...) {
		for _, u := range f.Units() {
			used[u] = true
		}
	}
	b.supportForces = support
	// an A-H squadron adds its AV once a combat phase (25.1)
	for _, u := range g.units(ah) {
		if u.c.Kind != kSquadron || sqUsed[u] {
			continue
		}
		if u.pos == b.target && b.side == sb || g.grid.Adjacent(u.pos, b.target) && g.riverSide(b.target) {
			sqUsed[u] = true
			b.squadron = u
			break
		}
	}
}

// riverSide reports a hex next to a Sava or Donau hexside (25.1).
func (g *game) riverSide(id board.ID) bool {
	for _, n := range g.nbrs(id) {
		f := g.feature(id, n)
		if isSava(f) || isDonau(f) {
			return true
		}
	}
	return false
}

// forceAV is a Force's AV in the combat (10.1.1, 10.1.1a): its units'
// AVs, less River Crossing markers, halved without Ammo, none for a
// Serbian Force denied Shells (23.2.1), at most 2 in or into Mountainous
// terrain; halves of a Two-Hex unit's AV per hex.
func (b *battle) forceAV(f *force, ammo, shells bool) *big.Rat {
	g := b.g
	r := new(big.Rat)
	lead := f.Lead()
	if lead != nil && lead.c.Side == sb && lead.c.Nation == "Serbia" && !shells {
		return r
	}
	for _, u := range f.Units() {
		v := b.val(u).AV
		_, av := riverCrossingPenalty(u)
		x := big.NewRat(int64(max(v-av, 0)), 1)
		if u.Hex2 != "" {
			x.Quo(x, big.NewRat(2, 1))
		}
		r.Add(r, x)
	}
	if !ammo {
		r.Quo(r, big.NewRat(2, 1))
	}
	if g.mountainous(b.target) && r.Cmp(big.NewRat(2, 1)) > 0 {
		r.SetInt64(2)
	}
	return r
}

// artillery is 9.1.1 i, 10.1: each side's AV against the other's
// division-equivalents gives the other's EC DRM.
func (b *battle) artillery() {
	g := b.g
	avA := new(big.Rat)
	for _, f := range b.attackers {
		avA.Add(avA, b.forceAV(f, b.ammo[f], b.shells[f]))
	}
	if b.squadron != nil && b.side == ah {
		avA.Add(avA, big.NewRat(int64(b.squadron.values().AV), 1))
	}
	avD := new(big.Rat)
	// Shells for the defence: one increment covers the defending Force and
	// one neighbour (23.2.1); given when they change the DRM, or as ordered
	serb := b.side.Enemy() == sb
	shellsD := map[*force]bool{}
	if serb {
		pol := "needed"
		if b.atk.Answer != nil && b.atk.Answer.Shells != "" {
			pol = b.atk.Answer.Shells
		} else if a := g.answer(b.atk); a.Shells != "" {
			pol = a.Shells
		}
		give := pol == "yes"
		if pol == "needed" && g.Shells > 0 {
			with, without := new(big.Rat), new(big.Rat)
			for _, f := range b.defenders {
				with.Add(with, b.forceAV(f, b.ammo[f], true))
				without.Add(without, b.forceAV(f, b.ammo[f], false))
			}
			for _, f := range b.supportForces {
				with.Add(with, b.forceAV(f, true, true))
				without.Add(without, b.forceAV(f, true, false))
			}
			deA := b.deOf(b.attackers, false)
			d1, _, _ := g.sc.Art.Lookup(artilleryAV(with), deA)
			d0, _, _ := g.sc.Art.Lookup(artilleryAV(without), deA)
			give = d1 != d0
		}
		n := 0
		for _, f := range b.defenders {
			if give && b.ammo[f] && g.Shells > 0 {
				shellsD[f] = true
				if n%2 == 0 {
					g.Shells--
				}
				n++
			}
		}
		for _, f := range b.supportForces {
			if give && n%2 == 1 {
				shellsD[f] = true
				n++
			}
		}
		if n > 0 {
			g.evFor(sb, "23.2.1", "Shells for the defence of %s (%d left).", g.hex(b.target), g.Shells)
		}
	}
	for _, f := range b.defenders {
		avD.Add(avD, b.forceAV(f, b.ammo[f], !serb || shellsD[f]))
	}
	for _, f := range b.supportForces {
		avD.Add(avD, b.forceAV(f, true, !serb || shellsD[f]))
	}
	if b.squadron != nil && b.side == sb {
		avD.Add(avD, big.NewRat(int64(b.squadron.values().AV), 1))
	}
	b.avA, b.avD = artilleryAV(avA), artilleryAV(avD)
	deA, deD := b.deOf(b.attackers, false), b.deOf(b.defenders, true)
	b.artD, _, _ = g.sc.Art.Lookup(b.avA, deD)
	b.artA, _, _ = g.sc.Art.Lookup(b.avD, deA)
	g.evFor(b.side, "10.1", "Artillery at %s: your AV %d against %s DE gives the defender %+d; theirs against your %s DE gives you %+d.", g.hex(b.target), b.avA, formatDEorZero(deD), b.artD, formatDEorZero(deA), b.artA)
	g.evFor(b.side.Enemy(), "10.1", "Artillery at %s: your AV %d against %s DE gives the attacker %+d; theirs against your %s DE gives you %+d.", g.hex(b.target), b.avD, formatDEorZero(deA), b.artA, formatDEorZero(deD), b.artD)
	for _, f := range b.attackers {
		b.ecDRM[f] += b.artA
	}
	for _, f := range b.defenders {
		b.ecDRM[f] += b.artD
	}
}

// deOf is the Forces' division-equivalents on the Artillery Table (10.1.2):
// a defending Fort counts 1/2.
func (b *battle) deOf(forces []*force, defending bool) *big.Rat {
	q := 0
	for _, f := range forces {
		for _, u := range f.Units() {
			if u.isFort() && defending {
				q += 2
				continue
			}
			q += u.quarters()
		}
	}
	return big.NewRat(int64(q), 4)
}

// formatDEorZero writes a DE count, 0 for none.
func formatDEorZero(de *big.Rat) string {
	if de.Sign() == 0 {
		return "0"
	}
	return formatDE(de)
}

// The post-combat ECs (10.0-10.3): one 2d6 a hex, the attacker's first
// and his retreats, then the defender's, unless the final odds were below
// 1:4. A Two-Hex defender attacked in both halves makes one EC with the
// worse modifier (19.1.6): other is that combat.

func (b *battle) attackerChecks() {
	b.hexChecks(b.attackers, b.side, "attacker")
}

func (b *battle) defenderChecks(other *battle) {
	g := b.g
	if !defenderChecks(b.odds.Final) {
		g.ev("10.0", "The odds at %s were below 1:4: the defender makes no EC.", g.hex(b.target))
		return
	}
	defs := b.defenders
	if other != nil {
		// the Two-Hex unit checks once, in the first combat, with the worse DRM
		var mine []*force
		for _, f := range defs {
			if f.Formation != nil && f.Formation.Hex2 != "" {
				for _, of := range other.defenders {
					if of.Formation == f.Formation {
						if b.g.parse(b.atk.Target) != f.Formation.pos && b.ecDRM[f] < other.ecDRM[of] {
							continue
						}
						b.ecDRM[f] = max(b.ecDRM[f], other.ecDRM[of])
						other.skip = append(other.skip, f.Formation)
					}
				}
			}
			if !slices.Contains(b.skip, f.Formation) || f.Formation == nil {
				mine = append(mine, f)
			}
		}
		defs = mine
	}
	var keep []*force
	for _, f := range defs {
		if f.Formation != nil && slices.Contains(b.skip, f.Formation) {
			continue
		}
		keep = append(keep, f)
	}
	b.hexChecks(keep, b.side.Enemy(), "defender")
}

// hexChecks rolls one EC a hex for the Forces and applies 10.3.
func (b *battle) hexChecks(forces []*force, side side, who string) {
	g := b.g
	byHex := map[board.ID][]*force{}
	var hexes []board.ID
	for _, f := range forces {
		if f.Lead() == nil || !f.Lead().onMap() {
			continue
		}
		if _, ok := byHex[f.Hex]; !ok {
			hexes = append(hexes, f.Hex)
		}
		byHex[f.Hex] = append(byHex[f.Hex], f)
	}
	board.SortIDs(hexes)
	for _, h := range hexes {
		d := dice.Roll(g.r, 2, 6, fmt.Sprintf("1914 SmS 10.0 post-combat EC of the %s in %s (attack on %s)", who, g.hex(h), g.hex(b.target)))
		sum := d[0] + d[1]
		for _, f := range byHex[h] {
			drm := b.ecDRM[f]
			e := checkEC(sum, f.CEL(), drm)
			if e.Passed {
				g.evFor(side, "10.2", "%s's post-combat EC: %d%+d = %d against CEL %d: passed.", f, sum, drm, e.Total, f.CEL())
			} else {
				g.evFor(side, "10.3", "%s's post-combat EC: %d%+d = %d against CEL %d: failed by %d.", f, sum, drm, e.Total, f.CEL(), e.FailedBy)
			}
			fail := postCombatFailure(e.FailedBy)
			before := statusNone
			if f.Formation != nil {
				before = f.Formation.CE
			}
			if fail.CELReductions > 0 {
				g.reduceCE(f, fail.CELReductions, "10.3", fmt.Sprintf("failing its EC by %d", e.FailedBy))
			}
			if fail.SR {
				g.takeSR([]*force{f}, g.lossPrefs(side), "10.3")
			}
			r := fail.Retreat
			if f.Formation != nil {
				r += statusRetreat(before, f.Formation.CE)
			}
			if r > 0 {
				b.retreat[f] += r
				g.evFor(side, "10.3", "%s must retreat %d more hex%s.", f, r, plural(r, "", "es"))
			}
		}
	}
}

// crtRetreat is step h (9.1.1): the defender's CRT retreat (9.8.2): every
// defending Force of the hex, and the withheld ones with them once the hex
// is vacated, as one stack (9.2.5 D); the hit half of a Two-Hex unit wheels
// (19.1.7).
func (b *battle) crtRetreat() {
	g := b.g
	r := b.outcome.DefenderRetreat
	if r <= 0 {
		return
	}
	var stack []*unit
	for _, f := range b.defenders {
		if f.Lead() == nil || !f.Lead().onMap() {
			continue
		}
		if f.Formation != nil && f.Formation.Hex2 != "" && r == 1 {
			g.halfRetreat(f.Formation, b.target)
			continue
		}
		stack = append(stack, f.Units()...)
	}
	if len(stack) == 0 {
		return
	}
	for _, f := range b.withheld {
		if f.Lead() != nil && f.Lead().onMap() && f.Lead().in(b.target) {
			stack = append(stack, f.Units()...)
		}
	}
	g.retreatUnits(stack, r, b.target, false, "11.1")
}

// attackerRetreats carries out the attacker's EC retreats (10.0: his
// results first).
func (b *battle) attackerRetreats() {
	g := b.g
	for _, f := range b.attackers {
		if n := b.retreat[f]; n > 0 && f.Lead() != nil && f.Lead().onMap() {
			g.retreatUnits(f.Units(), n, b.target, true, "11.1")
		}
	}
}

// defenderRetreats carries out the defender's EC retreats (10.3) from where
// the CRT retreat left each Force; withheld Forces with them follow the
// smallest obligation when every other Force of their hex leaves it, and
// stay otherwise (9.2.5 D).
func (b *battle) defenderRetreats() {
	g := b.g
	before := map[*force]board.ID{}
	for _, f := range b.defenders {
		if f.Lead() != nil && f.Lead().onMap() {
			before[f] = f.Lead().pos
		}
	}
	for _, f := range b.defenders {
		if n := b.retreat[f]; n > 0 && f.Lead() != nil && f.Lead().onMap() {
			g.retreatUnits(f.Units(), n, b.target, false, "11.1")
		}
	}
	for _, w := range b.withheld {
		l := w.Lead()
		if l == nil || !l.onMap() {
			continue
		}
		smallest, any := 0, false
		for _, f := range b.defenders {
			h, ok := before[f]
			if !ok || h != l.pos {
				continue
			}
			n := b.retreat[f]
			if n == 0 {
				smallest, any = 0, true
				break
			}
			if !any || n < smallest {
				smallest = n
			}
			any = true
		}
		if any && smallest > 0 {
			g.retreatUnits(w.Units(), smallest, b.target, false, "9.2.5")
		}
	}
	b.vacated = !g.enemyIn(b.target, b.side)
}

// halfRetreat: a 1-hex CRT retreat moves only the half of a Two-Hex unit
// that was hit: it wheels to a hex next to its other half, away from the
// enemy, or consolidates into it (19.1.7).
func (g *game) halfRetreat(u *unit, hit board.ID) {
	keep := u.pos
	if hit == u.pos {
		keep = u.p2
	}
	// the hit half wheels: into a hex next to both its own and the other half's
	best, score := board.ID{}, -1<<30
	for _, n := range g.nbrs(keep) {
		if n == hit || !g.grid.Adjacent(n, hit) || g.enemyIn(n, u.c.Side) || g.terrain(n) == "impassable" {
			continue
		}
		s := g.enemyDistance(n, u.c.Side) * 10
		if g.inEZOC(n, u.c.Side) && !g.friendIn(n, u.c.Side) {
			s -= 100
		}
		if s > score {
			best, score = n, s
		}
	}
	if best != (board.ID{}) {
		g.place(u, keep, best)
		g.arrow(hit, best, "retreat", u.c.Side)
		g.ev("19.1.7", "The hit half of a Two-Hex unit retreats from %s to %s: it wheels around %s.", g.hex(hit), g.hex(best), g.hex(keep))
	} else {
		g.place(u, keep)
		g.ev("19.1.7", "The hit half of a Two-Hex unit leaves %s: it consolidates into %s.", g.hex(hit), g.hex(keep))
	}
	u.Retreated = true
}

// advance is the advance after combat (11.2): when the defender's hex is
// emptied, the attacker's chosen units (not withheld, not retreated) may
// move into it, within the stacking limit; one may go Two-Hex.
func (b *battle) advance() {
	g := b.g
	if !b.vacated || len(b.atk.Advance) == 0 || b.atk.Advance[0] == "none" {
		if b.vacated {
			g.evFor(b.side, "11.2", "The hex %s is empty: no advance ordered.", g.hex(b.target))
		}
		return
	}
	all := b.atk.Advance[0] == "all"
	var moved []string
	for _, f := range b.attackers {
		var units []*unit
		for _, u := range f.Units() {
			if !u.onMap() || u.Retreated || u.isFort() || !(all || slices.ContainsFunc(b.atk.Advance, func(s string) bool { return strings.EqualFold(s, u.ID) })) {
				continue
			}
			if !u.combat() && u.c.Kind != kArtillery {
				continue
			}
			units = append(units, u)
		}
		if len(units) == 0 {
			continue
		}
		q := 0
		for _, u := range units {
			q += u.quarters()
		}
		if g.stackQuarters(b.target, b.side)+q > 14 {
			g.evFor(b.side, "11.2.1", "%s cannot advance into %s: over-stacking (3.1.1).", f, g.hex(b.target))
			continue
		}
		for _, u := range units {
			from := u.pos
			if b.atk.TwoHex && u.c.Formation && u.Hex2 == "" && u.c.Kind != kArtillery {
				g.place(u, u.pos, b.target)
			} else {
				g.place(u, b.target)
			}
			u.PA = ""
			g.arrow(from, b.target, "move", b.side)
			moved = append(moved, u.ID)
			g.geoVP([]*unit{u}, b.target)
		}
		g.pontoonsOccupied(b.target, b.side)
	}
	if len(moved) > 0 {
		g.ev("11.2", "%s advances into %s.", b.side, g.placeName(b.target))
		g.evFor(b.side, "11.2", "Advancing into %s: %s.", g.hex(b.target), strings.Join(moved, ", "))
		g.zocEffects(b.side.Enemy())
		g.supplyUnitsInEZOC(b.side.Enemy())
	}
}
