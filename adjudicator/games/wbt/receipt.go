package wbt

// This file holds the checks a receipt makes across the lines of one order
// file: what the file as a whole decides (the neutrals and the UK 3rd
// brought into play, where every unit sets up, which units work on a bridge
// or dismount) and the limits one line puts on another (one attack a unit
// and a hex, one attempt a bridge, no move for a unit that repairs,
// demolishes or dismounts).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// fileContext is what one order file decides as a whole, and the line
// being checked.
type fileContext struct {
	line      int
	maxEffort bool
	// Set-up: the neutrals brought in (nil: none), the UK 3rd, the line
	// of each unit's first place order, and set-up stacking refusals by
	// line.
	neutrals  []string
	uk3       bool
	firsts    map[string]int
	overstack map[int]string
	// fixed are the units that repair, demolish, dismount or remount this
	// phase, with what they do (10.18, 10.19, 10.21).
	fixed map[string]string
	// movers are the units of the move orders accepted so far; mayResupply
	// says the file places aerial supply or repairs a bridge, which may
	// put a NATO unit back in supply before it moves (8.4, 8.10, 10.18).
	movers      map[string]bool
	mayResupply bool
	// exact says the receipt's sandbox is the board a move will meet:
	// the file changes no bridge and places no aerial supply, and no move
	// accepted so far drew a die.
	exact bool
}

// demolishes reports a demolition accepted in the file (10.19).
func (fc *fileContext) demolishes() bool {
	for k := range fc.firsts {
		if strings.HasPrefix(k, "demolish ") {
			return true
		}
	}
	return false
}

// first records the line of the first accepted order with key and
// reports the line of an earlier one (0 when this is the first).
func (fc *fileContext) first(key string) int {
	if l := fc.seen(key); l > 0 {
		return l
	}
	fc.firsts[key] = fc.line
	return 0
}

// seen reports the line of an earlier accepted order with key (0 if none),
// recording nothing.
func (fc *fileContext) seen(key string) int {
	if l, ok := fc.firsts[key]; ok && l != fc.line {
		return l
	}
	return 0
}

// readFile makes the first passes over a seat's lines: the neutrals and
// the UK 3rd first (they decide where NATO may set up), then the set-up,
// bridge and dismount orders, then set-up stacking.
func (g *game) readFile(seat string, lines []adjudicator.OrderLine) *fileContext {
	fc := &fileContext{firsts: map[string]int{}, overstack: map[int]string{}, fixed: map[string]string{}, movers: map[string]bool{}, exact: true}
	for _, l := range lines {
		f := strings.Fields(strings.ToLower(kit.StripComment(l.Text)))
		switch {
		case len(f) == 1 && f[0] == "maximum-effort":
			// the movement orders of a maximum effort turn (5.6), when
			// one may be declared: otherwise the line is refused, and so
			// are the moves after it
			_, err := g.parseLine(seat, "maximum-effort", fc)
			fc.maxEffort = g.Phase == phaseSerbCombat && err == nil
		case len(f) > 0 && f[0] == "repair", len(f) == 2 && f[0] == "airsupply" && f[1] != "defend":
			fc.mayResupply, fc.exact = true, false
		case len(f) > 0 && f[0] == "demolish":
			fc.exact = false
		}
	}
	pass := func(verbs ...string) {
		for _, l := range lines {
			text := kit.StripComment(l.Text)
			f := strings.Fields(text)
			if len(f) == 0 || !slices.Contains(verbs, strings.ToLower(f[0])) {
				continue
			}
			fc.line = l.Line
			canon, err := g.parseLine(seat, text, fc)
			if err == nil {
				_ = g.across(seat, canon, fc)
			}
		}
	}
	pass("neutrals", "uk3")
	pass("place", "repair", "demolish", "dismount", "remount")
	if g.Phase == phaseSetupNATO || g.Phase == phaseSetupSerb {
		g.setupStacking(seat, lines, fc)
	}
	fc.line = 0
	return fc
}

// setupStacking finds the place orders that would over-stack a hex (3.1:
// "Stacking rules must be observed by both players when setting up"): the
// units not placed stay at their demo set-up hexes, and the placed ones are
// added in the order given.
func (g *game) setupStacking(seat string, lines []adjudicator.OrderLine, fc *fileContext) {
	side := seatSide(seat)
	placed := map[string]bool{}
	type placement struct {
		line int
		u    *unit
		at   board.ID
	}
	var ps []placement
	for _, l := range lines {
		f := strings.Fields(kit.StripComment(l.Text))
		if len(f) != 3 || !strings.EqualFold(f[0], "place") {
			continue
		}
		u := g.byID[strings.ToUpper(f[1])]
		id, err := g.grid.Parse(f[2])
		if u == nil || err != nil || fc.firsts["place "+u.ID] != l.Line {
			continue
		}
		placed[u.ID] = true
		ps = append(ps, placement{l.Line, u, id})
	}
	// A refused placement leaves its unit at its demo hex, which may
	// refuse another: repeat until nothing changes.
	for range len(ps) + 1 {
		held := map[board.ID][]*unit{}
		for _, u := range g.Units {
			if u.c.Side == side && u.Hex != "" && u.Steps > 0 && !placed[u.ID] && fc.inPlay(u.c) {
				if id, err := g.grid.Parse(u.Hex); err == nil {
					held[id] = append(held[id], u)
				}
			}
		}
		changed := false
		for _, p := range ps {
			if fc.overstack[p.line] != "" {
				continue
			}
			if stackCount(held[p.at])+stackValue(p.u.c) > stackLimit(side) {
				var ids []string
				for _, u := range held[p.at] {
					ids = append(ids, u.ID)
				}
				fc.overstack[p.line] = fmt.Sprintf("%s would then hold %s too: %s", g.hex(p.at), strings.Join(ids, ", "), stackRule(side))
				placed[p.u.ID], changed = false, true
				break
			}
			held[p.at] = append(held[p.at], p.u)
		}
		if !changed {
			return
		}
	}
}

// stackRule states a side's stacking limit.
func stackRule(side side) string {
	if side == serb {
		return "the Serbs stack up to six units a hex, a task force counting three (6.3)"
	}
	return "NATO stacks one unit a hex, the KLA not counting (6.2)"
}

// inPlay reports whether a counter is in play with the file's set-up
// decisions (3.2, 4.8).
func (fc *fileContext) inPlay(c *counter) bool {
	switch c.Needs {
	case "croatia":
		return slices.Contains(fc.neutrals, "Croatia")
	case "uk3":
		return fc.uk3
	}
	return true
}

// across checks one accepted line (its canonical form) against the rest of
// the file and the state, and records what it decides.
func (g *game) across(seat, canon string, fc *fileContext) error {
	f := strings.Fields(kit.StripComment(canon))
	if len(f) == 0 {
		return nil
	}
	switch f[0] {
	case "neutrals":
		if l := fc.first("neutrals"); l > 0 {
			return adjudicator.Refuse("keep the neutrals line of line "+fmt.Sprint(l)+" and remove this one", "NATO declares the neutrals it brings in once, on line %d (3.2, 4.2: all at once)", l)
		}
		fc.neutrals = []string{}
		if f[1] != "none" {
			fc.neutrals = f[1:]
		}
	case "uk3":
		if l := fc.first("uk3"); l > 0 {
			return adjudicator.Refuse("keep one uk3 line", "the UK 3rd Division is decided once, on line %d (4.8)", l)
		}
		fc.uk3 = f[1] == "yes"
	case "place":
		return g.acrossPlace(seat, f[1], f[2], fc)
	case "sequence":
		cond := ""
		if len(f) == 4 {
			cond = f[3]
		}
		if l := fc.first("sequence " + cond); l > 0 {
			return adjudicator.Refuse("give one sequence order, or one for each weather: sequence ... if good, sequence ... if bad", "the sequence is already given on line %d (5.4)", l)
		}
	case "repair":
		return g.acrossRepair(f[1], f[2], fc)
	case "demolish":
		return g.acrossDemolish(seat, f[1:], fc)
	case "dismount", "remount":
		if what := fc.fixed[f[1]]; what != "" && fc.seen("fix "+f[1]) > 0 {
			return adjudicator.Refuse("a unit does one of repair, demolish, dismount, remount in a player turn", "%s %s on line %d: it may not also %s (10.18, 10.21)", f[1], what, fc.firsts["fix "+f[1]], f[0])
		}
		fc.fix(f[1], f[0]+"s")
	case "move":
		for _, id := range strings.Split(f[1], "+") {
			if what := fc.fixed[id]; what != "" {
				return adjudicator.Refuse("a unit that repairs or demolishes a bridge, dismounts or remounts may not move or attack that player turn: drop the move, or the other order", "%s %s on line %d: it may not move this player turn (%s)", id, what, fc.firsts["fix "+id], fixRule(what))
			}
			u := g.byID[id]
			switch {
			case u.Fixed:
				what, rule := u.fixedWhat()
				return adjudicator.Refuse("it may move again next player turn", "%s %s this player turn: it may not move (%s)", id, what, rule)
			case u.c.AAA && u.Attacked:
				return adjudicator.Refuse("the 1st AAA moves or fights in a player turn, never both: it may rebase next player turn", "the 1st AAA attacked this player turn: it may not also move (12.2)")
			}
		}
	case "attack":
		return g.acrossAttack(seat, f, fc)
	}
	return nil
}

// fix records that a unit works on a bridge or (dis)mounts.
func (fc *fileContext) fix(id, what string) {
	if _, ok := fc.fixed[id]; !ok {
		fc.fixed[id] = what
		fc.firsts["fix "+id] = fc.line
	}
}

// fixRule is the rule that stops a unit that did what.
func fixRule(what string) string {
	switch {
	case strings.HasPrefix(what, "repairs"):
		return "10.18"
	case strings.HasPrefix(what, "demolishes"):
		return "10.19"
	}
	return "10.21"
}

// acrossPlace checks a set-up placement against the file's decisions:
// each unit placed once, the neutrals and the UK 3rd brought in (3.2, 4.8),
// and stacking (3.1, 6.2, 6.3).
func (g *game) acrossPlace(seat, id, hex string, fc *fileContext) error {
	c := g.sc.Counter(id)
	if l := fc.first("place " + id); l > 0 {
		return adjudicator.Refuse("place each unit once", "%s is already placed on line %d", id, l)
	}
	switch {
	case c.Needs == "" && (g.byID[id] == nil || g.byID[id].Out):
		return adjudicator.Refuse("place units that are in play", "%s is not in play", id)
	case c.Needs == "croatia" && !fc.inPlay(c):
		return adjudicator.Refuse("bring Croatia in with neutrals croatia, or leave "+id+" out", "%s is in play only when NATO brings Croatia in (3.2)", id)
	case c.Needs == "uk3" && !fc.inPlay(c):
		return adjudicator.Refuse("bring the division in with uk3 yes (a MePPs-loss check, 4.8), or leave "+id+" out", "%s is the UK 3rd Division: NATO has not brought it in (4.8)", id)
	}
	at, _ := g.grid.Parse(hex)
	if seatSide(seat) == nato {
		if why := g.setupArea(c, at, append([]string{}, fc.neutrals...)); why != "" {
			return adjudicator.Refuse(g.setupHint(c, fc.neutrals), "%s may not set up in %s: %s", id, hex, why)
		}
	}
	if why := fc.overstack[fc.line]; why != "" {
		return adjudicator.Refuse("place it in another hex, or move the units there too", "%s may not set up in %s: %s", id, hex, why)
	}
	return nil
}

// setupHint says where a counter may set up (3.2, 3.3).
func (g *game) setupHint(c *counter, neutrals []string) string {
	if c.Side == serb {
		return "Serbian units set up in Vojvodina, Serbia, Kosovo and Montenegro (3.3)"
	}
	if len(c.Setup) > 0 {
		return c.ID + " sets up in " + strings.Join(c.Setup, " or ") + " (3.2)"
	}
	areas := slices.Concat(alwaysIn, neutrals)
	hint := "NATO sets up in " + strings.Join(areas, ", ") + " (3.2)"
	if len(neutrals) < len(neutralsAll) {
		hint += "; bring a neutral in with a neutrals line to set up there too"
	}
	return hint
}

// acrossRepair checks a repair (10.18, 5.3): good weather, no
// reconstitution, a demolished bridge, one attempt a bridge, by a unit next
// to it that has not moved, attacked or worked on another bridge.
func (g *game) acrossRepair(id, bridge string, fc *fileContext) error {
	u := g.byID[id]
	p := mustPair(g, bridge)
	switch {
	case g.Bad:
		return adjudicator.Refuse("repair in a good-weather turn", "no bridge repair takes place in bad weather (5.3, 10.18)")
	case g.Recon != "":
		return adjudicator.Refuse("repair after the reconstitution turn", "no bridge rebuilding on a %s reconstitution turn (9.3, 9.4, 10.18)", g.Recon)
	case g.bridgeIntact(p):
		hint := "repair a demolished bridge; the intact ones are " + strings.Join(g.Intact, " ")
		if down := g.bridgesNear(nato, func(intact bool) bool { return !intact }); len(down) > 0 {
			hint += "; the demolished ones next to your units are " + strings.Join(down, ", ")
		}
		return adjudicator.Refuse(hint, "the bridge %s is intact", bridge)
	case u.Moved || u.Attacked || u.Fixed:
		return adjudicator.Refuse("repair with a unit next to the bridge that has not moved or attacked this player turn: "+g.workersHint(nato, p, "repair", fc), "%s has moved, attacked or worked on a bridge this player turn (10.18)", id)
	}
	if l := fc.seen("repair " + bridge); l > 0 {
		return adjudicator.Refuse("one repair attempt a bridge a phase: keep the one on line "+fmt.Sprint(l), "the bridge %s already has a repair attempt, on line %d (10.18)", bridge, l)
	}
	if what := fc.fixed[id]; what != "" && fc.firsts["fix "+id] != fc.line {
		return adjudicator.Refuse("a unit makes one bridge attempt (or dismounts) a player turn: use another unit next to the bridge; "+g.workersHint(nato, p, "repair", fc), "%s %s on line %d: it may not also repair %s (10.18)", id, what, fc.firsts["fix "+id], bridge)
	}
	fc.first("repair " + bridge)
	fc.fix(id, "repairs "+bridge)
	return nil
}

// acrossDemolish checks a demolition (10.19, 9.3): a standing bridge, one
// attempt a bridge; NATO's not on reconstitution turns and, in bad
// weather, only next to its units; a Serbian unit that has not moved or
// attacked, which may then not move.
func (g *game) acrossDemolish(seat string, args []string, fc *fileContext) error {
	bridge := args[len(args)-1]
	p := mustPair(g, bridge)
	if !g.bridgeIntact(p) {
		hint := "the standing bridges are " + strings.Join(g.Intact, " ")
		if len(g.Intact) == 0 {
			hint = "every bridge is down already"
		}
		return adjudicator.Refuse(hint, "the bridge %s is already down (10.18, 10.19)", bridge)
	}
	if seatSide(seat) == nato {
		switch {
		case g.Recon != "":
			return adjudicator.Refuse("demolish after the reconstitution turn", "no NATO bridge demolitions on a %s reconstitution turn (9.3, 10.19)", g.Recon)
		case g.Bad && len(g.unitsNear(nato, p)) == 0:
			hint := "in bad weather demolish bridges next to your units: none of them is next to a standing bridge"
			if near := g.bridgesNear(nato, func(intact bool) bool { return intact }); len(near) > 0 {
				hint = "in bad weather demolish bridges next to your units: " + strings.Join(near, ", ")
			}
			return adjudicator.Refuse(hint, "in bad weather NATO demolishes only bridges next to its units; none is next to %s (10.19)", bridge)
		}
	}
	if l := fc.seen("demolish " + bridge); l > 0 {
		return adjudicator.Refuse("one demolition attempt a bridge a phase: keep the one on line "+fmt.Sprint(l), "the bridge %s already has a demolition attempt, on line %d (10.19)", bridge, l)
	}
	if seatSide(seat) == serb {
		u := g.byID[args[0]]
		if u.Moved || u.Attacked {
			return adjudicator.Refuse("demolish with a unit next to the bridge that has not moved or attacked this player turn: "+g.workersHint(serb, p, "demolish", fc), "%s has moved or attacked this player turn (10.19)", u.ID)
		}
		fc.fix(u.ID, "demolishes "+bridge)
	}
	fc.first("demolish " + bridge)
	return nil
}

func mustPair(g *game, s string) board.Pair {
	p, _ := g.grid.ParsePair(s)
	return p
}

// acrossAttack checks an attack against the phase so far and the file's
// other attacks (11.3: a unit attacks once and a hex is attacked once a
// combat phase), reconstitution (9.3, 9.4) and neutral territory (3.2).
func (g *game) acrossAttack(seat string, f []string, fc *fileContext) error {
	hex := f[1]
	d, _ := g.grid.Parse(hex)
	side := seatSide(seat)
	switch {
	case side == nato && g.Recon != "":
		return adjudicator.Refuse("no attack orders on a reconstitution turn: NATO units defend normally", "no NATO attacks on a %s reconstitution turn (9.3, 9.4)", g.Recon)
	case !g.inPlay(d):
		return adjudicator.Refuse("attack a hex in rump-Yugoslavia or an in-play country", "%s is neutral territory: no unit may attack into it (3.2)", hex)
	case slices.Contains(g.AttackedHexes, hex):
		return adjudicator.Refuse("attack another hex", "%s has already been attacked this combat phase (11.3)", hex)
	}
	if l := fc.seen("attack " + hex); l > 0 {
		return adjudicator.Refuse("attack a hex once, with every unit in one order: attack "+hex+" with UNIT UNIT...", "%s is already attacked on line %d: a hex is attacked once a combat phase (11.3)", hex, l)
	}
	for _, id := range attackUnits(f) {
		if l := fc.seen("attacker " + id); l > 0 {
			return adjudicator.Refuse("an attacking unit's factor goes to one battle: give "+id+" to one attack", "%s already attacks on line %d: a unit attacks once a combat phase (11.3)", id, l)
		}
	}
	fc.first("attack " + hex)
	for _, id := range attackUnits(f) {
		fc.first("attacker " + id)
	}
	return nil
}

// attackUnits are the attacking units of a canonical attack order.
func attackUnits(f []string) []string {
	var out []string
	for _, w := range f[3:] {
		if w == "advance" || w == "losses" {
			break
		}
		out = append(out, w)
	}
	return out
}
