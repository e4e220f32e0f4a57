package sms1914

// This file reads order lines (docs/orders-sms1914.md): each step's orders
// and the standing orders every step accepts, checked at receipt against
// the state, in canonical form, with a forecast comment for moves. A bad
// line gets its line number and a hint; it never spoils the others.

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// the orders each step takes, besides the standing orders.
var stepHints = map[string]string{
	phaseTurn:          "attach UNIT CORPS, boundary HEX/HEX..., army ARMY HEX, extend UNIT, move FORCE HEX..., pa FORCE HEX, repulse FORCE HEX, recover UNIT, ip UNIT, marsch UNIT with MARSCH, twohex UNIT HEX, combine UNIT, integrate DET, pass",
	phaseCounter:       "move FORCE HEX..., repulse FORCE HEX, recover UNIT, ip UNIT, marsch UNIT with MARSCH, twohex UNIT HEX, pass (no PAs in the Counter Movement Phase, 7.3)",
	phaseAttack:        "attack HEX with UNIT+UNIT... [intense [if odds>=3:1]] [mandated] [advance all|none|UNIT+UNIT] [noammo] [noshells] [twohex], pass",
	phaseCounterAttack: "attack HEX with UNIT+UNIT... [intense [if odds>=3:1]] [advance all|none|UNIT+UNIT] [noammo] [noshells], pass",
	phaseDefend:        "answer HEX intense|not [withhold UNIT+UNIT] [noammo] [shells yes|no], pass",
	phaseCounterDefend: "answer HEX intense|not [withhold UNIT+UNIT] [noammo] [shells yes|no], pass",
	phaseInterPhase:    "repl UNIT..., marsch-depot DEPOT, montenegro HEX, pass",
}

const standingHint = "standing orders: react CAV|all yes|no|HEX, retire CAV|all|none, defend ask|auto|clear, defend intense|not [at HEX...] [if odds>=X:Y|odds<=X:Y|attacker], withhold UNIT...|none, ammo yes|no, shells yes|no|needed, losses UNIT...|none, retreat toward HEX|none, repulse yes|no, pontoon HEX/HEX|none, komitadji HEX..., sirmien claim, abandon ARMY, displace DEPOT HEX"

// verbs is 1914's order table: the verbs of each step and the standing
// orders are read from it (stepVerbs, standingVerbs), so a verb not in it
// is no order, and `help sms1914` mails it.
var verbs = adjudicator.Verbs{
	{Name: "attach", Form: "attach UNIT CORPS|ARMY|independent", Phases: []string{"movement"}, Rules: "5.2", Example: "attach 9/VIII VIII",
		Summary: "a Formation to a corps, or independent (A-H); Serbs: to one of the four armies"},
	{Name: "boundary", Form: "boundary HEX/HEX... | boundary keep", Phases: []string{"movement"}, Rules: "5.1.2", Example: "boundary keep",
		Summary: "A-H: replace every army boundary (each hexside of each line)"},
	{Name: "army", Form: "army ARMY HEX", Phases: []string{"movement"}, Rules: "5.1.1", Example: "army FIFTH 12.10",
		Summary: "A-H: move an army marker"},
	{Name: "extend", Form: "extend UNIT", Phases: []string{"movement"}, Rules: "15.6.1", Example: "extend ADEP",
		Summary: "flip a supply unit to its Extended Mode side in the Supply Phase"},
	{Name: "noextend", Form: "noextend UNIT", Phases: []string{"movement"}, Rules: "15.6.1", Example: "noextend ADEP",
		Summary: "never flip this supply unit to supply a Force (the umpire flips when it puts a Force in supply)"},
	{Name: "split", Form: "split UNIT", Phases: []string{"movement"}, Rules: "16.4", Example: "split 1ID",
		Summary: "a reverse combination, at the start of the Movement Phase"},
	{Name: "move", Form: "move FORCE HEX... [else HEX HEX...] [fm=N|nofm]", Phases: movePhases, Rules: "7.1, 7.2, 15.6.3, 25.1.1", Example: "move 21/VIII 41.40",
		Summary: "a Force (units joined with +) and every hex it enters, each next to the one before; else: an alternative from a hex of the move; fm: at most N Forced March MPs; a depot by rail, a squadron along the rivers"},
	{Name: "pa", Form: "pa FORCE HEX", Phases: []string{"movement"}, Rules: "7.3", Example: "pa 9/VIII 43.40",
		Summary: "a Prepared Attack marker at the hex: at least 4 MPs, none after it"},
	{Name: "repulse", Form: "repulse FORCE HEX [using FORCE] | repulse yes|no", Phases: []string{"movement", "counter movement", "standing"}, Rules: "7.4, 11.1.5", Example: "repulse 9/VIII 43.40",
		Summary: "a Repulse: 1 MP, at most two units' strength; standing repulse yes|no: whether a Repulse clears a blocked retreat"},
	{Name: "recover", Form: "recover UNIT", Phases: movePhases, Rules: "7.5", Example: "recover 9/VIII",
		Summary: "CE Recovery, 9 MPs stationary"},
	{Name: "ip", Form: "ip UNIT", Phases: movePhases, Rules: "14.3", Example: "ip 21/VIII",
		Summary: "build an IP, 13 MPs"},
	{Name: "marsch", Form: "marsch UNIT with MARSCH", Phases: movePhases, Rules: "7.7", Example: "marsch 21/VIII with Ma-1",
		Summary: "incorporate a Marsch unit stacked with it, 9 MPs"},
	{Name: "exit", Form: "exit UNIT", Phases: movePhases, Rules: "24.2", Example: "exit Sandzak",
		Summary: "Montenegrin: leave the map at an M hex for 2 MPs"},
	{Name: "enter", Form: "enter UNIT HEX", Phases: movePhases, Rules: "24.2", Example: "enter Sandzak 22.29",
		Summary: "Montenegrin: come back on the map"},
	{Name: "box", Form: "box UNIT BOX", Phases: movePhases, Rules: "24.2", Example: "box Sandzak West",
		Summary: "Montenegrin: move between the off-map boxes"},
	{Name: "twohex", Form: "twohex UNIT HEX", Phases: movePhases, Rules: "19.1.1", Example: "twohex 1ID 12.21",
		Summary: "extend a Formation into Two-Hex status"},
	{Name: "consolidate", Form: "consolidate UNIT HEX", Phases: movePhases, Rules: "19.1.3", Example: "consolidate 1ID 12.21",
		Summary: "a Two-Hex unit back into one of its hexes"},
	{Name: "wheel", Form: "wheel UNIT FROM TO", Phases: movePhases, Rules: "19.1.4", Example: "wheel 1ID 12.21 13.21",
		Summary: "a Two-Hex unit moves one half into a hex next to both halves"},
	{Name: "combine", Form: "combine UNIT", Phases: movePhases, Rules: "16.3, 16.4", Example: "combine 31/IV",
		Summary: "a combination at the end of the phase"},
	{Name: "integrate", Form: "integrate DETACHMENT", Phases: movePhases, Rules: "21.1", Example: "integrate det.29",
		Summary: "a detachment rejoins its parent stacked with it"},
	{Name: "eliminate", Form: "eliminate UNIT", Phases: movePhases, Rules: "3.1.3", Example: "eliminate Ma-1",
		Summary: "which unit goes first if a hex is over-stacked at the end of the phase"},
	{Name: "attack", Form: "attack HEX with UNIT+UNIT... [intense [if odds>=X:Y|odds<=X:Y]] [mandated] [advance all|none|UNIT+UNIT] [twohex] [noammo] [noshells]", Phases: []string{"attack declarations"}, Rules: "9.1, 9.2, 9.4, 9.8, 11.2, 23.2, 26.3.1", Example: "attack 43.40 with 9/VIII+21/VIII intense advance all",
		Summary: "an attack, in resolution order: the units (from one or more hexes), Intensity, who advances into an emptied hex, Ammo and Shells saved"},
	{Name: "answer", Form: "answer HEX intense|not [withhold UNIT+UNIT] [noammo] [shells yes|no]", Phases: []string{"defender's answers"}, Rules: "9.2.5, 9.4, 9.8, 23.2", Example: "answer 43.40 intense",
		Summary: "with defend ask: the defence of one attacked hex (a hex with no line follows the standing orders)"},
	{Name: "react", Form: "react CAV|all yes|no|HEX", Phases: standingPhase, Rules: "8.2.1", Example: "react all yes",
		Summary: "cavalry reacting to enemy moves: the umpire picks the hex, or into this hex when it may"},
	{Name: "retire", Form: "retire CAV|all|none", Phases: standingPhase, Rules: "8.3", Example: "retire all",
		Summary: "cavalry next to the enemy retires one hex in the Finishing Phase"},
	{Name: "defend", Form: "defend ask|auto|clear | defend intense|not [at HEX...] [if odds>=X:Y|odds<=X:Y|attacker]", Phases: standingPhase, Rules: "9.8", Example: "defend intense at 30.09",
		Summary: "how your defences are declared: by these lines (the first that fits), or asked in a follow-up step (ask)"},
	{Name: "withhold", Form: "withhold UNIT...|none", Phases: standingPhase, Rules: "9.2.5", Example: "withhold none",
		Summary: "withhold this CI or Demoralized Force when it may be"},
	{Name: "ammo", Form: "ammo yes|no", Phases: standingPhase, Rules: "9.4", Example: "ammo no",
		Summary: "whether to provide Ammo when defending"},
	{Name: "shells", Form: "shells yes|no|needed", Phases: standingPhase, Rules: "23.2", Example: "shells needed",
		Summary: "Serbs: Shells for a defence (needed: only when they change the Artillery DRM, the default)"},
	{Name: "losses", Form: "losses UNIT...|none", Phases: standingPhase, Rules: "9.10.2", Example: "losses none",
		Summary: "who takes SRs first within a tier"},
	{Name: "retreat", Form: "retreat toward HEX | retreat none", Phases: standingPhase, Rules: "11.1.1", Example: "retreat toward 23.16",
		Summary: "retreats prefer this direction after the rules' priorities"},
	{Name: "pontoon", Form: "pontoon HEX/HEX | pontoon none", Phases: standingPhase, Rules: "21.2.1", Example: "pontoon none",
		Summary: "begin a pontoon bridge there at your next Finishing Phase"},
	{Name: "komitadji", Form: "komitadji HEX...", Phases: standingPhase, Rules: "23.1", Example: "komitadji 23.12 20.16 29.12",
		Summary: "Serbs: where the Komitadji go at the Serbian Finishing Phase (else they stay)"},
	{Name: "sirmien", Form: "sirmien claim", Phases: standingPhase, Rules: "27.6", Example: "sirmien claim",
		Summary: "Serbs: the once-a-game Sirmien award at the end of this Serbian Player Turn"},
	{Name: "abandon", Form: "abandon ARMY", Phases: standingPhase, Rules: "26.3", Example: "abandon SIXTH",
		Summary: "A-H: abandon the army's Strategic Plan at the next Joint Preliminary Phase"},
	{Name: "displace", Form: "displace DEPOT HEX", Phases: standingPhase, Rules: "15.6.2", Example: "displace SDEP 26.11",
		Summary: "where this depot goes when it must be displaced"},
	{Name: "repl", Form: "repl UNIT...", Phases: []string{"standing", "Inter-Phase"}, Rules: "16.6.2", Example: "repl 9/VIII 21/VIII",
		Summary: "Inter-Phase: these units take REPLs first"},
	{Name: "marsch-depot", Form: "marsch-depot DEPOT", Phases: []string{"standing", "Inter-Phase"}, Rules: "16.6.3", Example: "marsch-depot ADEP",
		Summary: "Inter-Phase: the depot returning Marsch units go to"},
	{Name: "montenegro", Form: "montenegro HEX", Phases: []string{"standing", "Inter-Phase"}, Rules: "24.1", Example: "montenegro 16.29",
		Summary: "Inter-Phase: where a new Montenegrin asset appears"},
	{Name: "french", Form: "french place", Phases: standingPhase, Rules: "25.1.4", Example: "french place",
		Summary: "Serbs, GT 32 or later: the French Naval Artillery goes to Beograd"},
	{Name: "pass", Form: "pass", Phases: []string{"any step"}, Rules: "4.1", Example: "pass",
		Summary: "no orders in this step (alone on its line)"},
}

// movePhases are the phases of the movement orders; standingPhase is the
// standing orders', given in any step of the seat.
var (
	movePhases    = []string{"movement", "counter movement"}
	standingPhase = []string{"standing"}
)

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

// stepVerbs are the verbs of each step: the table's verbs of its phase.
var stepVerbs = map[string][]string{
	phaseTurn:          verbs.InPhase("movement").Names(),
	phaseCounter:       verbs.InPhase("counter movement").Names(),
	phaseAttack:        verbs.InPhase("attack declarations").Names(),
	phaseCounterAttack: verbs.InPhase("attack declarations").Names(),
	phaseDefend:        verbs.InPhase("defender's answers").Names(),
	phaseCounterDefend: verbs.InPhase("defender's answers").Names(),
	phaseInterPhase:    {},
}

// standingVerbs are the table's standing orders.
var standingVerbs = verbs.InPhase(standingPhase[0]).Names()

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	g, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Text: err.Error(), Hint: "the game's state cannot be read: tell the game master, who can restore it from the store"}}
	}
	if g.Over {
		return nil, []adjudicator.Problem{{Text: "the game is over", Hint: "no orders are due"}}
	}
	if !slices.Contains(g.owing(), seat) {
		return nil, []adjudicator.Problem{{Text: fmt.Sprintf("no orders are due from %s in this step (%s): %s's are", seat, g.phaseLabel(), strings.Join(g.owing(), " and ")),
			Hint: "wait for the report that says your orders are due"}}
	}
	return g.parseLines(seat, lines)
}

func (g *game) parseLines(seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	var out []string
	var problems []adjudicator.Problem
	acted := map[string]int{}                 // Force lead -> line of its activation
	paLine := map[string]int{}                // Force lead -> line of its PA
	cleared := map[string]map[board.ID]bool{} // Force lead -> hexes its Repulse lines aim at
	lastLead := ""
	attacked, attackers := map[string]int{}, map[string]int{} // hex or unit -> line of its attack
	answered := map[string]int{}                              // attacked hex -> line of its answer
	mayEnd := map[string][]board.ID{}                         // Force lead -> where its lines so far may leave it
	actedUnits := map[*unit]bool{}                            // units of Forces that acted on an earlier line
	certainPA := map[board.ID][]paMark{}                      // PAs earlier lines are sure to place, by hex
	defer func() { g.cleared, g.mayEnd, g.actedEarlier = nil, nil, false }()
	// the standing orders as they will stand after each line (storeStanding)
	store := map[string][]string{}
	for k, v := range g.Standing {
		store[k] = slices.Clone(v)
	}
	for at, text := range kit.Lines(lines) {
		// a move may enter a hex an earlier Repulse of the same Force is to
		// clear (7.4.4); a Two-Hex order reads from where its move ends
		g.cleared, g.mayEnd, g.actedEarlier = nil, nil, false
		if f := strings.Fields(text); len(f) > 1 {
			lead := strings.ToLower(strings.Split(f[1], "+")[0])
			g.cleared = cleared[lead]
			g.mayEnd = mayEnd[lead]
			// the Force acted before if any of its units did, whichever leads
			_, g.actedEarlier = acted[lead]
			for _, id := range strings.Split(f[1], "+") {
				if u := g.unitByID(id); u != nil && actedUnits[u] {
					g.actedEarlier = true
				}
			}
		}
		canon, err := g.parseLine(seat, text)
		if err == nil {
			// one activation a Force, its lines together (7.1.2)
			f := strings.Fields(kit.StripComment(canon))
			standingRepulse := len(f) == 2 && f[0] == "repulse" // repulse yes|no, a standing order
			if len(f) > 1 && !standingRepulse && slices.Contains([]string{"move", "pa", "repulse", "recover", "ip", "marsch", "twohex", "consolidate", "wheel", "exit", "enter", "box"}, f[0]) {
				lead := strings.ToLower(strings.Split(f[1], "+")[0])
				if n, ok := acted[lead]; ok && lastLead != lead {
					err = adjudicator.Refuse("give a Force's move, PA, Repulse and task lines one after another", "%s already acted on line %d: a Force finishes its movement before another begins (7.1.2)", strings.Split(f[1], "+")[0], n)
				} else if n, ok := paLine[lead]; ok {
					err = adjudicator.Refuse("give the Force's move, Repulse or task before its pa line", "%s placed a PA on line %d: once a unit has placed a PA it spends no more MPs that phase (7.3)", strings.Split(f[1], "+")[0], n)
				} else {
					if f[0] == "pa" && !g.actedEarlier {
						// 7.3: at most 2 1/4 DE of a hex bear PA markers
						err = g.paStack(f[1], f[2], at, actedUnits, certainPA)
					}
				}
				if err == nil {
					acted[lead] = at
					lastLead = lead
					units := g.forceUnits(f[1])
					for _, u := range units {
						actedUnits[u] = true
					}
					if _, ok := mayEnd[lead]; !ok && len(units) > 0 {
						mayEnd[lead] = units[0].hexes()
					}
					switch f[0] {
					case "move":
						// any hex of its paths: the Force may stop anywhere on them
						for _, t := range f[2:] {
							if strings.HasPrefix(t, "#") {
								break
							}
							if h, err := g.grid.Parse(t); err == nil && !slices.Contains(mayEnd[lead], h) {
								mayEnd[lead] = append(mayEnd[lead], h)
							}
						}
					case "pa":
						paLine[lead] = at
					case "repulse", "twohex", "wheel":
						// a Repulse across the Sava moves into the hex it clears (7.4.7)
						if h, err := g.grid.Parse(f[len(f)-1]); err == nil {
							mayEnd[lead] = append(mayEnd[lead], h)
							if f[0] == "repulse" {
								if cleared[lead] == nil {
									cleared[lead] = map[board.ID]bool{}
								}
								cleared[lead][h] = true
							}
						}
					}
				}
			} else {
				lastLead = ""
			}
			// one answer an attacked hex: a second would silently replace the first
			if err == nil && len(f) > 1 && f[0] == "answer" {
				if n, ok := answered[f[1]]; ok {
					err = adjudicator.Refuse("one answer a hex: put its intensity, withholding, Ammo and Shells on one line", "%s is already answered on line %d", f[1], n)
				} else {
					answered[f[1]] = at
				}
			}
			// 9.2: no hex is attacked twice, no unit attacks twice in a phase
			if err == nil && len(f) > 3 && f[0] == "attack" {
				if n, ok := attacked[f[1]]; ok {
					err = adjudicator.Refuse("one attack order a hex: put every attacker of it on one line", "%s is already attacked on line %d: no hex is attacked more than once a phase (9.2)", f[1], n)
				}
				for _, id := range strings.Split(f[3], "+") {
					if n, ok := attackers[id]; ok && err == nil {
						err = adjudicator.Refuse("each unit attacks once a phase", "%s already attacks on line %d: no unit attacks more than once a phase (9.2)", id, n)
					}
				}
				if err == nil {
					attacked[f[1]] = at
					for _, id := range strings.Split(f[3], "+") {
						attackers[id] = at
					}
				}
			}
		}
		if err == nil && canon != "" {
			// a newer standing order replaces its twin; the receipt says which
			replaced, cerr := storeStanding(store, seat, canon)
			switch {
			case cerr != nil:
				err = adjudicator.Refuse(fmt.Sprintf("a defend line of the same at and if as a kept one replaces it; defend clear forgets them all (%s are kept)", strings.Join(defendLines(store[seat+":defend"]), "; ")),
					"a seat keeps at most %d standing defend lines of different scopes: %v", maxDefendLines, cerr)
			case len(replaced) > 0 && strings.Contains(canon, "#"):
				canon += "; replaces: " + strings.Join(replaced, "; ")
			case len(replaced) > 0:
				canon += " # replaces: " + strings.Join(replaced, "; ")
			}
		}
		if err != nil {
			hint := stepHints[g.Phase]
			if oe, ok := err.(*adjudicator.Refusal); ok && oe.Hint != "" {
				hint = oe.Hint
			}
			problems = append(problems, adjudicator.Problem{Line: at, Text: err.Error(), Hint: hint})
			continue
		}
		if canon != "" {
			out = append(out, canon)
		}
	}
	return out, problems
}

// defendLines are the stored defend orders as the seat writes them.
func defendLines(stored []string) []string {
	var out []string
	for _, x := range stored {
		out = append(out, "defend "+x)
	}
	return out
}

// paMark is a PA an earlier line of the file is sure to place: its units
// and the line.
type paMark struct {
	units []*unit
	line  int
}

// paStack refuses a PA line of a Force that has not acted before in the
// file (so its hex is where it stands) when the PA markers of its hex
// would then cover more than 2 1/4 division-equivalents (7.3): the markers
// already there on units that do not act before it, and those earlier
// lines of the file are sure to place. A PA sure to be placed (no MPs owed
// to a task or a reaction, its cost within the phase's MPs) is noted.
func (g *game) paStack(spec, target string, line int, acted map[*unit]bool, certain map[board.ID][]paMark) error {
	units := g.forceUnits(spec)
	if len(units) == 0 {
		return nil
	}
	lead := units[0]
	h := lead.pos
	var parts []string
	q := 0
	for _, u := range g.sideAt(h, lead.c.Side) {
		if u.PA != "" && !acted[u] && !slices.Contains(units, u) {
			q += u.quarters()
			parts = append(parts, u.ID+" (marked)")
		}
	}
	for _, m := range certain[h] {
		n := 0
		for _, u := range m.units {
			if !slices.Contains(units, u) {
				n += u.quarters()
			}
		}
		if n > 0 {
			q += n
			parts = append(parts, fmt.Sprintf("%s (line %d)", strings.Join(unitIDs(m.units), "+"), m.line))
		}
	}
	own := 0
	for _, u := range units {
		own += u.quarters()
	}
	if q+own > 9 {
		return adjudicator.Refuse(fmt.Sprintf("at most 2 1/4 division-equivalents of a hex bear PA markers (7.3, 3.1.2): %s already make %s in %s; place this PA with a Force of %s DE or less, or from another hex",
			strings.Join(parts, ", "), formatDEorZero(big.NewRat(int64(q), 4)), g.hex(h), formatDEorZero(big.NewRat(int64(max(9-q, 0)), 4))),
			"%s would bring the PA markers in %s to %s division-equivalents, more than 2 1/4 (7.3)", spec, g.hex(h), formatDEorZero(big.NewRat(int64(q+own), 4)))
	}
	sure := !slices.ContainsFunc(units, func(u *unit) bool { return u.Task != "" || u.React > 0 })
	allowance := 9
	if g.Phase == phaseCounter {
		allowance = 5
	}
	if sure {
		if t, err := g.grid.Parse(target); err == nil && g.paCost(units, t) <= allowance+fmLimit(units) {
			certain[h] = append(certain[h], paMark{units: units, line: line})
		}
	}
	return nil
}

// parseLine reads one line; "" means a line that gives nothing (pass).
func (g *game) parseLine(seat, text string) (string, error) {
	f := strings.Fields(text)
	verb := strings.ToLower(f[0])
	args := f[1:]
	side := seatSide(seat)
	hint := stepHints[g.Phase]
	if verb == "pass" {
		if len(args) > 0 {
			return "", adjudicator.Refuse("write pass alone to give no orders in this step, or put the order you meant on a line of its own; # starts a comment",
				"pass takes no words: %q would be dropped", strings.Join(args, " "))
		}
		return "", nil
	}
	if slices.Contains(standingVerbs, verb) && !(verb == "repulse") {
		return g.parseStanding(side, verb, args)
	}
	if verb == "repulse" && len(args) == 1 && (strings.EqualFold(args[0], "yes") || strings.EqualFold(args[0], "no")) {
		return "repulse " + strings.ToLower(args[0]), nil
	}
	notHere := func() error {
		h := hint + "; " + standingHint
		if !verbs.Has(f[0]) {
			h = verbs.Hint(f[0], h)
		}
		return adjudicator.Refuse(h, "%q is not an order of this step (%s)", f[0], g.phaseLabel())
	}
	if !slices.Contains(stepVerbs[g.Phase], verb) {
		if verb == "pa" && g.Phase == phaseCounter {
			return "", adjudicator.Refuse(hint, "no Prepared Attacks in the Counter Movement Phase (7.3)")
		}
		return "", notHere()
	}
	switch verb {
	case "attach":
		return g.parseAttach(side, args)
	case "boundary":
		return g.parseBoundary(side, args)
	case "army":
		if side != ah || len(args) != 2 {
			return "", adjudicator.Refuse("army FIFTH 12.10", "army ARMY HEX moves an A-H army marker (5.1.1)")
		}
		a := g.army(strings.ToUpper(args[0]))
		if a == nil {
			return "", adjudicator.Refuse("the armies are "+armyIDs(g), "no army %s", args[0])
		}
		h, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		return "army " + a.ID + " " + g.hex(h), nil
	case "extend", "noextend":
		if len(args) != 1 {
			return "", adjudicator.Refuse(verb+" Depot-FIFTH", "%s takes one supply unit", verb)
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		if !u.c.Supply() {
			return "", adjudicator.Refuse("extend a Depot or Corps Train; twohex UNIT HEX extends a Force into two hexes", "%s is not a supply unit (15.6.1)", u.ID)
		}
		return verb + " " + u.ID, nil
	case "move":
		return g.parseMove(side, args)
	case "pa":
		return g.parsePA(side, args)
	case "repulse":
		return g.parseRepulse(side, args)
	case "recover", "ip":
		if len(args) != 1 {
			return "", adjudicator.Refuse(verb+" UNIT", "%s takes one Formation", verb)
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		if verb == "ip" {
			if why := g.ipBar(u); why != "" {
				return "", adjudicator.Refuse("IPs: infantry Formations, not Demoralized, outside Mountainous terrain, within four hexes of the enemy, with IP rights left", "%s cannot build an IP: %s", u.ID, why)
			}
		} else if !u.c.Formation || u.CE == statusNone {
			return "", adjudicator.Refuse("recover a Formation with a CE status below full", "%s has no CE level to recover (7.5)", u.ID)
		}
		return verb + " " + u.ID, nil
	case "marsch":
		if len(args) != 3 || !strings.EqualFold(args[1], "with") {
			return "", adjudicator.Refuse("marsch 29/IV with Ma-1", "marsch UNIT with MARSCH")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		m, err := g.own(side, args[2])
		if err != nil {
			return "", err
		}
		if !m.c.Marsch || m.pos != u.pos || !u.c.InfantryType() {
			return "", adjudicator.Refuse("the Marsch unit (M) must be stacked with the infantry unit absorbing it", "%s cannot incorporate %s (7.7)", u.ID, m.ID)
		}
		return "marsch " + u.ID + " with " + m.ID, nil
	case "exit", "enter", "box":
		return g.parseMontenegrin(side, verb, args)
	case "twohex", "consolidate":
		if len(args) != 2 {
			return "", adjudicator.Refuse(verb+" UNIT HEX", "%s UNIT HEX", verb)
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		h, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		// where the unit may stand: its hex, or after the Force's earlier
		// lines any hex they may leave it in
		where := []board.ID{u.pos}
		if g.actedEarlier && g.mayEnd != nil {
			where = g.mayEnd
		}
		near := slices.ContainsFunc(where, func(x board.ID) bool { return g.grid.Adjacent(x, h) })
		if verb == "twohex" && (u.c.Kind == kArtillery || !u.c.Combat()) {
			return "", adjudicator.Refuse("a Force of combat units enters Two-Hex status (19.0, 19.1.1); artillery and supply units never do", "%s cannot enter Two-Hex status: it is no combat unit (19.1.1)", u.ID)
		}
		if verb == "twohex" && (!near || u.Hex2 != "" && !g.actedEarlier) {
			return "", adjudicator.Refuse("twohex UNIT HEX: HEX next to the unit's hex", "%s cannot extend into %s (19.1.1)", u.ID, args[1])
		}
		if verb == "consolidate" && !g.actedEarlier && (u.Hex2 == "" || !u.in(h)) {
			return "", adjudicator.Refuse("consolidate a Two-Hex unit into one of its two hexes", "%s is not in Two-Hex status in %s", u.ID, args[1])
		}
		return verb + " " + u.ID + " " + g.hex(h), nil
	case "wheel":
		if len(args) != 3 {
			return "", adjudicator.Refuse("wheel UNIT FROM TO", "wheel UNIT FROM TO")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		a, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		b, err := g.parseHex(args[2])
		if err != nil {
			return "", err
		}
		if !g.actedEarlier {
			// 19.1.4: one half pivots around the other, whose hexes are known now
			if u.Hex2 == "" {
				return "", adjudicator.Refuse("only a Two-Hex unit wheels: twohex UNIT HEX extends it first", "%s is not in Two-Hex status", u.ID)
			}
			if !u.in(a) {
				return "", adjudicator.Refuse(fmt.Sprintf("wheel %s %s HEX or wheel %s %s HEX: the half that moves is in one of its hexes", u.ID, u.Hex, u.ID, u.Hex2), "%s is not one of %s's hexes", g.hex(a), u.ID)
			}
			keep := u.pos
			if a == u.pos {
				keep = u.p2
			}
			if b == a || b == keep || !g.grid.Adjacent(keep, b) || !g.grid.Adjacent(a, b) {
				var to []string
				for _, n := range g.nbrs(a) {
					if n != keep && g.grid.Adjacent(keep, n) {
						to = append(to, g.hex(n))
					}
				}
				return "", adjudicator.Refuse(fmt.Sprintf("a wheel pivots around %s into a hex next to both halves (19.1.4): %s", g.hex(keep), strings.Join(to, " or ")),
					"%s cannot wheel from %s to %s", u.ID, g.hex(a), g.hex(b))
			}
		}
		return "wheel " + u.ID + " " + g.hex(a) + " " + g.hex(b), nil
	case "combine", "split":
		if len(args) != 1 {
			return "", adjudicator.Refuse(verb+" UNIT", "%s names the combined unit", verb)
		}
		for _, cb := range g.sc.Setup.Combos {
			if strings.EqualFold(cb.Into, args[0]) && (verb == "combine" || cb.Reverse) {
				if g.byID[cb.Into].c.Side != side {
					break
				}
				return verb + " " + cb.Into, nil
			}
		}
		return "", adjudicator.Refuse("the combinations are "+comboList(g), "%s is no combination of yours (16.3, 16.4)", args[0])
	case "integrate":
		if len(args) != 1 {
			return "", adjudicator.Refuse("integrate det.29", "integrate names a detachment")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		if g.sc.Setup.Detachments[u.ID] == "" {
			return "", adjudicator.Refuse("detachments have ids beginning det.", "%s is no detachment (21.1)", u.ID)
		}
		return "integrate " + u.ID, nil
	case "eliminate":
		if len(args) != 1 {
			return "", adjudicator.Refuse("eliminate UNIT", "eliminate names one unit")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		return "eliminate " + u.ID, nil
	case "attack":
		return g.parseAttackLine(side, args)
	case "answer":
		return g.parseAnswer(side, args)
	}
	return "", notHere()
}

func armyIDs(g *game) string {
	var out []string
	for _, a := range g.Armies {
		out = append(out, a.ID)
	}
	return strings.Join(out, " ")
}

func comboList(g *game) string {
	var out []string
	for _, cb := range g.sc.Setup.Combos {
		out = append(out, cb.Into+" = "+strings.Join(cb.From, " + "))
	}
	return strings.Join(out, ", ")
}

// own finds one of the side's units in play.
func (g *game) own(side side, id string) (*unit, error) {
	u := g.unitByID(id)
	if u == nil || u.Out || u.Gone {
		var ids []string
		for _, x := range g.Units {
			if x.c.Side == side && !x.Out && !x.Gone {
				ids = append(ids, x.ID)
			}
		}
		return nil, adjudicator.Refuse(adjudicator.UnitHint(id, ids), "there is no unit %s of yours in play", id)
	}
	if u.c.Side != side {
		return nil, adjudicator.Refuse("give orders to your own units", "%s is not yours", u.ID)
	}
	return u, nil
}

func (g *game) parseHex(s string) (board.ID, error) {
	id, err := g.grid.Parse(s)
	if err != nil || !g.playable(id) {
		return id, adjudicator.Refuse("hexes are column.row, such as 30.09", "%q is not a hex of the playing area", s)
	}
	return id, nil
}

// parseForce reads "A+B+C": a Force of the side's units stacked together,
// at most one Formation and two assets; supply units and squadrons alone.
func (g *game) parseForce(side side, spec string) ([]*unit, string, error) {
	var units []*unit
	var ids []string
	for _, id := range strings.Split(spec, "+") {
		u, err := g.own(side, id)
		if err != nil {
			return nil, "", err
		}
		if slices.Contains(units, u) {
			return nil, "", adjudicator.Refuse("name each unit once", "%s is named twice", u.ID)
		}
		units = append(units, u)
		ids = append(ids, u.ID)
	}
	forms, assets := 0, 0
	for _, u := range units {
		if u.Box == "" && u.pos != units[0].pos {
			return nil, "", adjudicator.Refuse("a Force is units stacked in one hex (1.1)", "%s (%s) and %s (%s) are not stacked together", units[0].ID, units[0].Hex, u.ID, u.Hex)
		}
		if u.c.Formation {
			forms++
		} else if !u.isFort() {
			assets++
		}
		if (u.c.Supply() || u.c.Kind == kSquadron) && len(units) > 1 {
			return nil, "", adjudicator.Refuse("move supply units and squadrons alone", "%s moves alone (15.6.3, 25.1)", u.ID)
		}
		if u.isFort() {
			return nil, "", adjudicator.Refuse("forts never move (8.5.1)", "%s is a fort", u.ID)
		}
	}
	if forms > 1 || assets > 2 {
		return nil, "", adjudicator.Refuse("a Force is one Formation with at most two assets, or one or two assets (1.1)", "%s is not one Force", spec)
	}
	return units, strings.Join(ids, "+"), nil
}

// parseMove reads "move FORCE HEX... [else HEX...] [fm=N|nofm]": every hex
// entered, each next to the one before (the start hex may lead); an else
// path starts at a hex of the path. The receipt forecasts the MPs.
func (g *game) parseMove(side side, args []string) (string, error) {
	hint := "move 9/VIII+Art 20.12 21.12 [else 20.12 20.13] [fm=2|nofm]: each hex next to the one before"
	if len(args) < 2 {
		return "", adjudicator.Refuse(hint, "move needs a Force and the hexes it enters")
	}
	units, spec, err := g.parseForce(side, args[0])
	if err != nil {
		return "", err
	}
	lead := units[0]
	if lead.Inactive {
		return "", adjudicator.Refuse("Inactive units are activated when an enemy comes next to them or on their scheduled turn (1.1)", "%s is Inactive and cannot move", lead.ID)
	}
	var paths [][]string
	cur := []string{}
	opts := ""
	for _, t := range args[1:] {
		switch {
		case strings.EqualFold(t, "else"):
			paths = append(paths, cur)
			cur = []string{}
		case strings.EqualFold(t, "nofm"):
			opts = " nofm"
		case strings.HasPrefix(strings.ToLower(t), "fm="):
			n, err := strconv.Atoi(t[3:])
			if err != nil || n < 0 || n > 7 {
				return "", adjudicator.Refuse("fm=0 to fm=7 caps the Forced March MPs (7.2.1)", "%q is not a Forced March cap", t)
			}
			opts = " fm=" + strconv.Itoa(n)
		default:
			cur = append(cur, t)
		}
	}
	paths = append(paths, cur)
	if len(paths[0]) == 1 {
		// a path of the start hex alone enters no hex: the Force would stay
		// where it stands (docs/rulings.md, issue 31 (no-ops))
		if h, err := g.parseHex(paths[0][0]); err == nil && h == lead.pos {
			return "", adjudicator.Refuse(fmt.Sprintf("after the start hex list every hex the Force enters, each next to the one before, as in move %s %s HEX", spec, g.hex(h)),
				"the move of %s enters no hex: %s is where it stands (7.1)", spec, g.hex(h))
		}
	}
	if lead.c.Kind == kDepot || lead.c.Kind == kSquadron {
		return g.parseSpecialMove(lead, paths[0])
	}
	var canon [][]string
	var onPath []string
	// the fewest MPs that can bring the Force to each hex of its paths
	// (leastCost: no EZOC); -1 where a step cannot be priced now
	reach := map[board.ID]int{lead.pos: 0}
	budget := g.moveBudget(units, opts)
	for pi, p := range paths {
		if len(p) == 0 {
			return "", adjudicator.Refuse(hint, "an empty path")
		}
		var hs []string
		prev := lead.pos
		for i, s := range p {
			h, err := g.parseHex(s)
			if err != nil {
				return "", err
			}
			if i == 0 && pi > 0 {
				if !slices.Contains(onPath, g.hex(h)) {
					return "", adjudicator.Refuse("an else path starts at a hex of the move (the start or a hex entered)", "the else path starts at %s, not on the move", g.hex(h))
				}
				prev = h
				hs = append(hs, g.hex(h))
				continue
			}
			if i == 0 && h == lead.pos {
				hs = append(hs, g.hex(h))
				continue
			}
			if !g.grid.Adjacent(prev, h) {
				return "", adjudicator.Refuse(hint, "%s is not next to %s", g.hex(h), g.hex(prev))
			}
			if g.enemyIn(h, side) && !g.cleared[h] {
				return "", adjudicator.Refuse("units never enter enemy-held hexes (7.1.2); a Repulse may clear one (7.4)", "enemy units hold %s", g.hex(h))
			}
			if f := g.feature(prev, h); isDonau(f) && side == sb {
				return "", adjudicator.Refuse("the Serbs never cross the Donau (7.1.4a)", "%s/%s is a Donau hexside", g.hex(prev), g.hex(h))
			}
			if g.terrain(h) == "impassable" || g.feature(prev, h) == sideImpass {
				return "", adjudicator.Refuse("impassable mountain hexes and hexsides are never entered or crossed", "%s cannot be entered from %s", g.hex(h), g.hex(prev))
			}
			if why := g.restricted(lead, h); why != "" {
				return "", adjudicator.Refuse("mind the unit's restrictions (8.6, 8.7, 25.2, 5.4)", "%s", why)
			}
			if mh := g.roadOnly(units, prev, h); mh != (board.ID{}) {
				legal := "no hex: no roadway leads out of " + g.hex(prev)
				if e := g.entries(units, prev); len(e) > 0 {
					legal = strings.Join(e, " ")
				}
				return "", adjudicator.Refuse(fmt.Sprintf("cavalry and corps trains enter or leave Foothills, Low and High Mountains only along a roadway (7.9): from %s this Force may enter %s", g.hex(prev), legal),
					"%s cannot enter or leave %s (%s) but along a roadway (7.9)", spec, g.hex(mh), strings.ReplaceAll(g.terrain(mh), "_", " "))
			}
			switch g.riverClosed(side, lead.pos, prev, h) {
			case "7.1.4b":
				return "", adjudicator.Refuse(fmt.Sprintf("without a bridge or pontoon a Force crosses the Sava only where it began the phase next to the hexside (7.1.4b): end this move next to it and cross next phase, or cross at %s", orNone(g.crossings(false))),
					"%s did not begin the phase next to the Sava hexside %s/%s: without a bridge or pontoon it cannot cross (7.1.4b)", spec, g.hex(prev), g.hex(h))
			case "7.1.4a":
				return "", adjudicator.Refuse(fmt.Sprintf("A-H crosses the Donau at a bridge, a ferry (one Force a phase) or a pontoon (7.1.4a, 7.1.5, 7.1.5a): %s", orNone(g.crossings(true))),
					"%s/%s is a Donau hexside with no bridge, ferry or pontoon (7.1.4a)", g.hex(prev), g.hex(h))
			}
			if at, ok := reach[prev]; ok && at >= 0 {
				c, ok := g.leastCost(units, prev, h)
				if !ok {
					c = -1
				} else {
					c += at
					if c > budget {
						return "", adjudicator.Refuse(fmt.Sprintf("%s has %d MPs this phase with its Forced March (7.1.1, 7.2.1): end the move at %s (%d MPs at least), or go on in a later phase", spec, budget, g.hex(prev), at),
							"%s needs at least %d MPs to reach %s (terrain alone, no EZOC), more than the %d it has (7.1.1, 7.2.1)", spec, c, g.hex(h), budget)
					}
				}
				if old, seen := reach[h]; !seen || c >= 0 && (old < 0 || c < old) {
					reach[h] = c
				}
			} else {
				reach[h] = -1
			}
			hs = append(hs, g.hex(h))
			onPath = append(onPath, g.hex(prev))
			prev = h
		}
		onPath = append(onPath, g.hex(prev))
		canon = append(canon, hs)
		if pi == 0 {
			if lead.c.Kind == kRiver && !g.riverSide(prev) {
				return "", adjudicator.Refuse("River Protection units end their moves next to the Sava or Donau (8.7)", "%s would end in %s, away from the rivers", lead.ID, g.hex(prev))
			}
			if a := g.planBound(lead); a != nil && prev != lead.pos && !g.closer(a.ID, lead.pos, prev) {
				return "", adjudicator.Refuse(fmt.Sprintf("%s's objectives are %s (26.1.2); a bound Formation that moves ends a hex closer to one", a.ID, strings.Join(planObjectives[a.ID], " ")),
					"%s is bound by %s's Strategic Plan: %s is no closer to an objective than %s (26.2.1)", lead.ID, a.ID, g.hex(prev), lead.Hex)
			}
		}
	}
	var parts []string
	for _, p := range canon {
		parts = append(parts, strings.Join(p, " "))
	}
	forecast := g.forecast(side, units, canon[0])
	return fmt.Sprintf("move %s %s%s # %s", spec, strings.Join(parts, " else "), opts, forecast), nil
}

// moveBudget is the most MPs a Force can spend in this phase: the
// allowance (7.1.1) and the Forced March MPs it may gain (7.2.1, 7.2.2a),
// no more than its fm=N cap or none with nofm.
func (g *game) moveBudget(units []*unit, opts string) int {
	allowance := 9
	if g.Phase == phaseCounter {
		allowance = 5
	}
	fm := fmLimit(units)
	switch {
	case opts == " nofm":
		fm = 0
	case strings.HasPrefix(opts, " fm="):
		n, _ := strconv.Atoi(opts[4:])
		fm = min(fm, n)
	}
	return allowance + fm
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none on this map"
	}
	return strings.Join(list, ", ")
}

// restricted says why a unit may not enter a hex ("" if it may): a
// garrison's range (8.6.2), SYRMIEN and BANAT units' regions (25.2), an
// army unit's area (5.4).
func (g *game) restricted(u *unit, h board.ID) string {
	if u.c.Kind == kGarrison && !u.Released {
		d := g.grid.Distance(h, u.c.Home)
		limit := u.c.Garrison
		if g.enemyDistance(u.c.Home, u.c.Side) > u.c.Garrison {
			limit *= 2
		}
		if d > limit {
			return fmt.Sprintf("%s is a garrison of %s: %s is %d hexes away, beyond its range of %d (8.6.2)", u.ID, g.hex(u.c.Home), g.hex(h), d, limit)
		}
	}
	switch u.c.Army {
	case "SYRMIEN":
		if g.area(h) != "Syrmien" {
			return fmt.Sprintf("%s must stay inside Syrmien (25.2)", u.ID)
		}
	case "BANAT":
		if g.area(h) != "Banat" {
			return fmt.Sprintf("%s must stay inside the Banat (25.2)", u.ID)
		}
	}
	return ""
}

// forecast is the MPs a move would cost now: "8 MP (2 by Forced March)",
// or where it would stop.
func (g *game) forecast(side side, units []*unit, path []string) string {
	m := g.newPhaseMove(side, g.Phase == phaseCounter)
	cost := 0
	prev := units[0].pos
	for _, s := range path {
		h := g.parse(s)
		if h == prev {
			continue
		}
		si, err := g.stepCost(m, units, prev, h, false)
		if err != nil {
			return fmt.Sprintf("stops in %s: %v", g.hex(prev), err)
		}
		cost += si.cost
		prev = h
	}
	limit := fmLimit(units)
	switch {
	case cost > m.allowance+limit:
		return fmt.Sprintf("%d MP: more than %d with a Forced March, it would stop short", cost, m.allowance+limit)
	case cost > m.allowance:
		return fmt.Sprintf("%d MP (%d by Forced March: an EC at +%d, 7.2.3)", cost, cost-m.allowance, cost-m.allowance)
	}
	return fmt.Sprintf("%d MP of %d", cost, m.allowance)
}

// parseSpecialMove reads a depot's rail move (hexes or off-map places) or
// a squadron's river move. What the map fixes is checked now, from a unit
// on the map: each hex next to the one before, a depot's hexes linked by
// a railroad (15.6.3) and its off-map stretches by a line of the
// off-map railroad, A-H's only (15.6.3a), a squadron's steps along a
// river (25.1.1); and a move of more hexes than the phase has MPs (1 a
// hex). Whether a railroad hex is friendly operational, or an enemy holds
// it, is checked when the unit moves.
func (g *game) parseSpecialMove(u *unit, path []string) (string, error) {
	var out []string
	for _, t := range path {
		if strings.Contains(t, ".") {
			h, err := g.parseHex(t)
			if err != nil {
				return "", err
			}
			out = append(out, g.hex(h))
			continue
		}
		known := false
		for _, l := range g.sc.offmap {
			if strings.EqualFold(l.From, t) || strings.EqualFold(l.To, t) {
				known = true
				if strings.EqualFold(l.From, t) {
					t = l.From
				} else {
					t = l.To
				}
			}
		}
		if !known {
			return "", adjudicator.Refuse("off-map places are "+offNames(g), "%q is neither a hex nor an off-map place (15.6.3a)", t)
		}
		out = append(out, t)
	}
	if u.Off != "" || u.Hex == "" {
		return "move " + u.ID + " " + strings.Join(out, " "), nil
	}
	river := u.c.Kind == kSquadron
	prev := u.Hex
	if !river && g.Phase == phaseTurn {
		// the Supply Phase before the move may displace the depot
		// (15.4 (1)): only the steps between the hexes written are sure
		prev = out[0]
	}
	var stepped []string // the hexes entered, one MP each
	offMap := false
	for _, t := range out {
		if t == prev {
			continue
		}
		a, aHex := g.grid.Parse(prev)
		b, bHex := g.grid.Parse(t)
		if aHex == nil && bHex == nil && strings.Contains(prev, ".") && strings.Contains(t, ".") {
			if !g.grid.Adjacent(a, b) {
				return "", adjudicator.Refuse("each hex of a move is next to the one before", "%s is not next to %s", t, prev)
			}
			switch {
			case river && !(g.squadronHex(b) && g.alongRiver(a, b)):
				return "", adjudicator.Refuse(fmt.Sprintf("a squadron sails from hex to hex along the Sava and Donau (25.1.1, 25.1.3): from %s to %s", prev, orNone(g.sailable(a))),
					"%s cannot sail from %s to %s along the river (25.1.1)", u.ID, prev, t)
			case !river && !g.railLink(a, b):
				return "", adjudicator.Refuse(fmt.Sprintf("a depot moves only along railroad lines (15.6.3): from %s to %s", prev, orNone(g.railNext(a))),
					"no railroad links %s and %s (15.6.3)", prev, t)
			}
			stepped = append(stepped, t)
		} else if !river {
			if u.c.Side != ah {
				return "", adjudicator.Refuse("move the depot along the railroad lines of the map", "only A-H depots use the off-map railroad (15.6.3a)")
			}
			linked := false
			for _, l := range g.offLinks(false) {
				if l.From == prev && l.To == t || l.To == prev && l.From == t {
					linked = true
				}
			}
			if !linked {
				return "", adjudicator.Refuse("the off-map railroad's stretches are "+offStretches(g), "no off-map railroad leads from %s to %s (15.6.3a)", prev, t)
			}
			offMap = true
		} else {
			offMap = true // a squadron's way to and from an off-map base
		}
		prev = t
	}
	if allowance := g.moveBudget([]*unit{u}, ""); !offMap && len(stepped) > allowance {
		return "", adjudicator.Refuse(fmt.Sprintf("%s has %d MPs this phase, 1 a hex (15.6.3, 25.1.1): end the move at %s", u.ID, allowance, stepped[allowance-1]),
			"%s moves %d hexes, more than the %d MPs it has (15.6.3, 25.1.1)", u.ID, len(stepped), allowance)
	}
	return "move " + u.ID + " " + strings.Join(out, " "), nil
}

// sailable lists the hexes a squadron may sail to from a (25.1.1).
func (g *game) sailable(a board.ID) []string {
	var out []string
	for _, n := range g.nbrs(a) {
		if g.squadronHex(n) && g.alongRiver(a, n) {
			out = append(out, g.hex(n))
		}
	}
	return out
}

// railNext lists the hexes a railroad links to a (15.6.3).
func (g *game) railNext(a board.ID) []string {
	var out []string
	for _, n := range g.nbrs(a) {
		if g.railLink(a, n) {
			out = append(out, g.hex(n))
		}
	}
	return out
}

func offStretches(g *game) string {
	var out []string
	for _, l := range g.offLinks(false) {
		out = append(out, fmt.Sprintf("%s-%s (%d)", l.From, l.To, l.Hexes))
	}
	return strings.Join(out, ", ")
}

func offNames(g *game) string {
	var out []string
	for _, l := range g.sc.offmap {
		for _, n := range []string{l.From, l.To} {
			if !strings.Contains(n, ".") && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return strings.Join(out, " ")
}

// parsePA reads "pa FORCE HEX" (7.3).
func (g *game) parsePA(side side, args []string) (string, error) {
	if len(args) != 2 {
		return "", adjudicator.Refuse("pa 9/VIII 21.12", "pa FORCE HEX")
	}
	units, spec, err := g.parseForce(side, args[0])
	if err != nil {
		return "", err
	}
	h, err := g.parseHex(args[1])
	if err != nil {
		return "", err
	}
	if why := g.paBar(units, false); why != "" {
		return "", adjudicator.Refuse("PAs: infantry-type Forces, not CI or Demoralized, not Two-Hex, in the Movement Phase", "%s cannot place a PA: %s", spec, why)
	}
	if !g.actedEarlier {
		// the Force places it where it stands: what 7.3 and 7.3.2 ask of
		// the hex is known now
		lead := units[0]
		if !g.grid.Adjacent(lead.pos, h) {
			var next []string
			for _, n := range g.nbrs(lead.pos) {
				next = append(next, g.hex(n))
			}
			return "", adjudicator.Refuse(fmt.Sprintf("a PA points at a hex next to the Force (7.3): from %s, one of %s; or move the Force first, on the line before its pa line", lead.Hex, strings.Join(next, " ")),
				"%s in %s is not next to %s", spec, lead.Hex, g.hex(h))
		}
		if as := g.paStrength(units, h); as.Cmp(big.NewRat(1, 1)) < 0 {
			return "", adjudicator.Refuse("a PA needs an attack strength of 1 or more after terrain (7.3.2): point it at a hex across gentler terrain, or attack without one",
				"%s cannot place a PA at %s: after terrain its attack strength would be %s, below 1 (7.3.2)", spec, g.hex(h), decimal(as))
		}
		return "pa " + spec + " " + g.hex(h) + fmt.Sprintf(" # %d MPs", g.paCost(units, h)), nil
	}
	if g.mayEnd != nil && !slices.ContainsFunc(g.mayEnd, func(x board.ID) bool { return g.grid.Adjacent(x, h) }) {
		var at []string
		for _, x := range g.mayEnd {
			at = append(at, g.hex(x))
		}
		return "", adjudicator.Refuse(fmt.Sprintf("a PA points at a hex next to where the Force ends its move (7.3): it may end in %s; point it at a hex next to one of them, or move the Force next to %s", strings.Join(at, " "), g.hex(h)),
			"%s cannot end its move next to %s", spec, g.hex(h))
	}
	return "pa " + spec + " " + g.hex(h) + " # after any move of the Force: it must be next to " + g.hex(h), nil
}

// parseRepulse reads "repulse FORCE HEX [using A+B]" (7.4).
func (g *game) parseRepulse(side side, args []string) (string, error) {
	if len(args) != 2 && len(args) != 4 {
		return "", adjudicator.Refuse("repulse 9/VIII 21.12 [using 9/VIII+Art-X]", "repulse FORCE HEX [using UNIT+UNIT]")
	}
	units, spec, err := g.parseForce(side, args[0])
	if err != nil {
		return "", err
	}
	h, err := g.parseHex(args[1])
	if err != nil {
		return "", err
	}
	for _, u := range units {
		if u.c.Formation && u.CE >= statusCI {
			return "", adjudicator.Refuse("CI and Demoralized units cannot Repulse (7.4.2)", "%s is %s", u.ID, u.CE)
		}
	}
	if lead := units[0]; !g.actedEarlier && !slices.ContainsFunc(lead.hexes(), func(x board.ID) bool { return g.grid.Adjacent(x, h) }) {
		// it Repulses from where it stands (7.4: a Force next to the enemy)
		var next []string
		for _, n := range g.nbrs(lead.pos) {
			if g.enemyIn(n, side) {
				next = append(next, g.hex(n))
			}
		}
		return "", adjudicator.Refuse(fmt.Sprintf("a Force Repulses an enemy stack next to it (7.4): from %s, %s; or move it first, on the line before", lead.Hex, orNone(next)),
			"%s in %s is not next to %s", spec, lead.Hex, g.hex(h))
	}
	out := "repulse " + spec + " " + g.hex(h)
	if len(args) == 4 {
		if !strings.EqualFold(args[2], "using") {
			return "", adjudicator.Refuse("repulse FORCE HEX using UNIT+UNIT", "%q: want using", args[2])
		}
		us, uspec, err := g.parseForce(side, args[3])
		if err != nil {
			return "", err
		}
		if len(us) > 2 {
			return "", adjudicator.Refuse("only two units of a Force add their strength to a Repulse (7.4.1)", "%s names %d units", uspec, len(us))
		}
		out += " using " + uspec
	}
	return out, nil
}

func (g *game) parseMontenegrin(side side, verb string, args []string) (string, error) {
	if len(args) < 1 {
		return "", adjudicator.Refuse("exit UNIT, enter UNIT HEX, box UNIT BOX", "%s needs a unit", verb)
	}
	u, err := g.own(side, args[0])
	if err != nil {
		return "", err
	}
	if u.c.Nation != "Montenegro" {
		return "", adjudicator.Refuse("only Montenegrin units use the off-map boxes (24.2)", "%s is not Montenegrin", u.ID)
	}
	switch verb {
	case "exit":
		return "exit " + u.ID, nil
	case "enter":
		if len(args) != 2 || u.Box == "" {
			return "", adjudicator.Refuse("enter UNIT HEX, from its off-map box into one of the box's M hexes", "%s is not in an off-map box", u.ID)
		}
		h, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		return "enter " + u.ID + " " + g.hex(h), nil
	}
	if len(args) != 2 {
		return "", adjudicator.Refuse("box UNIT NAME", "box needs the box's name")
	}
	return "box " + u.ID + " " + args[1], nil
}

func (g *game) parseAttach(side side, args []string) (string, error) {
	if len(args) != 2 {
		return "", adjudicator.Refuse("attach 9/VIII VIII, attach 10KD independent", "attach UNIT CORPS")
	}
	u, err := g.own(side, args[0])
	if err != nil {
		return "", err
	}
	corps := args[1]
	if strings.EqualFold(corps, "independent") {
		corps = "independent"
	} else {
		for _, co := range g.sc.Corps {
			if strings.EqualFold(co.ID, corps) {
				corps = co.ID
			}
		}
	}
	if err := g.sc.checkAttach(u.c, corps); err != nil {
		var ids []string
		for _, co := range g.sc.Corps {
			if co.Side == side {
				ids = append(ids, co.ID)
			}
		}
		return "", adjudicator.Refuse("your corps are "+strings.Join(ids, " "), "%v", err)
	}
	return "attach " + u.ID + " " + corps, nil
}

func (g *game) parseBoundary(side side, args []string) (string, error) {
	if side != ah {
		return "", adjudicator.Refuse("the Serbs have no Areas of Attachment (5.0)", "only A-H draws army boundaries")
	}
	if len(args) == 1 && strings.EqualFold(args[0], "keep") {
		return "boundary keep", nil
	}
	if len(args) == 0 {
		return "", adjudicator.Refuse("boundary HEX/HEX HEX/HEX ... (every hexside of the line), or boundary keep", "boundary needs hexsides")
	}
	var out []string
	for _, a := range args {
		p, err := g.grid.ParsePair(a)
		if err != nil {
			return "", adjudicator.Refuse("a hexside is its two hexes, such as 12.18/12.19", "%q: %v", a, err)
		}
		out = append(out, p.Format(board.Dotted))
	}
	return "boundary " + strings.Join(out, " "), nil
}

// parseStanding reads a standing order.
func (g *game) parseStanding(side side, verb string, args []string) (string, error) {
	hint := standingHint
	low := make([]string, len(args))
	for i, a := range args {
		low[i] = strings.ToLower(a)
	}
	one := func(allowed ...string) (string, error) {
		if len(args) != 1 || !slices.Contains(allowed, low[0]) {
			return "", adjudicator.Refuse(verb+" "+strings.Join(allowed, "|"), "%s takes %s", verb, strings.Join(allowed, " or "))
		}
		return verb + " " + low[0], nil
	}
	units := func() (string, error) {
		if len(args) == 1 && low[0] == "none" {
			return verb + " none", nil
		}
		if len(args) == 0 {
			return "", adjudicator.Refuse(verb+" UNIT... or "+verb+" none", "%s needs units", verb)
		}
		var ids []string
		for _, a := range args {
			u, err := g.own(side, a)
			if err != nil {
				return "", err
			}
			if slices.Contains(ids, u.ID) {
				return "", adjudicator.Refuse("name each unit once", "%s is named twice", u.ID)
			}
			ids = append(ids, u.ID)
		}
		return verb + " " + strings.Join(ids, " "), nil
	}
	switch verb {
	case "react":
		if len(args) != 2 {
			return "", adjudicator.Refuse("react CAV yes|no|HEX, react all yes|no", "react takes a cavalry unit or all, then yes, no or a hex")
		}
		who := "all"
		if low[0] != "all" {
			u, err := g.own(side, args[0])
			if err != nil {
				return "", err
			}
			if u.c.Kind != kCavalry {
				return "", adjudicator.Refuse("only cavalry reacts (8.2)", "%s is not cavalry", u.ID)
			}
			who = u.ID
		}
		what := low[1]
		if what != "yes" && what != "no" {
			h, err := g.parseHex(args[1])
			if err != nil {
				return "", err
			}
			what = g.hex(h)
		}
		return "react " + who + " " + what, nil
	case "retire":
		if len(args) != 1 {
			return "", adjudicator.Refuse("retire CAV, retire all, retire none", "retire takes one cavalry unit, all or none")
		}
		if low[0] == "all" || low[0] == "none" {
			return "retire " + low[0], nil
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		if u.c.Kind != kCavalry {
			return "", adjudicator.Refuse("only cavalry retires (8.3)", "%s is not cavalry", u.ID)
		}
		return "retire " + u.ID, nil
	case "defend":
		if len(args) == 1 && (low[0] == "ask" || low[0] == "auto" || low[0] == "clear") {
			return "defend " + low[0], nil
		}
		if len(args) == 0 || low[0] != "intense" && low[0] != "not" {
			return "", adjudicator.Refuse("defend ask|auto|clear, or defend intense|not [at HEX...] [if odds>=3:1|odds<=2:1|attacker]", "defend takes ask, auto, clear, intense or not")
		}
		out := []string{"defend", low[0]}
		for i := 1; i < len(args); i++ {
			switch low[i] {
			case "at":
				var at []string
				for ; i+1 < len(args) && low[i+1] != "if"; i++ {
					h, err := g.parseHex(args[i+1])
					if err != nil {
						return "", err
					}
					if slices.Contains(at, g.hex(h)) {
						return "", adjudicator.Refuse("name each hex once", "%s is named twice", g.hex(h))
					}
					at = append(at, g.hex(h))
				}
				// in hex order: the line's scope is its set of hexes and its condition
				slices.Sort(at)
				out = append(append(out, "at"), at...)
			case "if":
				if i+1 >= len(args) {
					return "", adjudicator.Refuse("if odds>=3:1, if odds<=2:1, if attacker", "if needs a condition")
				}
				i++
				c, err := g.parseCond(args[i])
				if err != nil {
					return "", err
				}
				out = append(out, "if", c)
			default:
				return "", adjudicator.Refuse("defend intense|not [at HEX...] [if COND]", "%q is not part of a defend order", args[i])
			}
		}
		return strings.Join(out, " "), nil
	case "withhold", "losses", "repl":
		return units()
	case "ammo":
		return one("yes", "no")
	case "shells":
		if side != sb {
			return "", adjudicator.Refuse(hint, "only the Serbs have Shells (23.2)")
		}
		return one("yes", "no", "needed")
	case "retreat":
		if len(args) == 1 && low[0] == "none" {
			return "retreat none", nil
		}
		if len(args) != 2 || low[0] != "toward" {
			return "", adjudicator.Refuse("retreat toward HEX, retreat none", "retreat toward HEX")
		}
		h, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		return "retreat toward " + g.hex(h), nil
	case "pontoon":
		if len(args) == 1 && low[0] == "none" {
			return "pontoon none", nil
		}
		if len(args) != 1 {
			return "", adjudicator.Refuse("pontoon HEX/HEX", "pontoon takes one hexside")
		}
		p, err := g.grid.ParsePair(args[0])
		if err != nil {
			return "", adjudicator.Refuse("a hexside is its two hexes, such as 21.07/21.08", "%q: %v", args[0], err)
		}
		f := g.feature(p.A, p.B)
		if !isSava(f) && f != sideDonauIsle {
			return "", adjudicator.Refuse("pontoons span Sava hexsides and Donau-island hexsides (21.2.1, 21.2.3)", "%s is neither", p.Format(board.Dotted))
		}
		return "pontoon " + p.Format(board.Dotted), nil
	case "komitadji":
		if side != sb {
			return "", adjudicator.Refuse(hint, "only the Serbs place Komitadji (23.1)")
		}
		var hs []string
		for _, a := range args {
			h, err := g.parseHex(a)
			if err != nil {
				return "", err
			}
			if !g.southOfRivers(h) {
				return "", adjudicator.Refuse("Komitadji go south of the Sava/Donau (23.1)", "%s is north of the rivers", g.hex(h))
			}
			for _, o := range hs {
				if g.grid.Distance(g.parse(o), h) < 5 {
					return "", adjudicator.Refuse("Komitadji markers are five or more hexes apart (23.1)", "%s and %s are too close", o, g.hex(h))
				}
			}
			hs = append(hs, g.hex(h))
		}
		if len(hs) > g.KomitadjiN {
			return "", adjudicator.Refuse(fmt.Sprintf("you have %d Komitadji markers", g.KomitadjiN), "%d hexes for %d markers", len(hs), g.KomitadjiN)
		}
		return "komitadji " + strings.Join(hs, " "), nil
	case "sirmien":
		if side != sb || len(args) != 1 || low[0] != "claim" || g.done("27.6") {
			return "", adjudicator.Refuse("sirmien claim (once a game, Serbs, 27.6)", "the Sirmien award is claimed once, by the Serbs")
		}
		return "sirmien claim", nil
	case "abandon":
		if side != ah || len(args) != 1 {
			return "", adjudicator.Refuse("abandon SIXTH", "only A-H abandons a Strategic Plan (26.3)")
		}
		a := g.army(strings.ToUpper(args[0]))
		if a == nil || a.Plan != "active" {
			return "", adjudicator.Refuse("armies with an active plan: "+activePlans(g), "%s has no active Strategic Plan", args[0])
		}
		return "abandon " + a.ID, nil
	case "displace":
		if len(args) != 2 {
			return "", adjudicator.Refuse("displace Depot-FIFTH 11.08", "displace DEPOT HEX")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		h, err := g.parseHex(args[1])
		if err != nil {
			return "", err
		}
		if u.c.Kind != kDepot || !g.sc.rail[h] {
			return "", adjudicator.Refuse("a depot is displaced to a friendly operational RR hex (15.6.2b)", "%s to %s is not a depot to a railroad hex", u.ID, g.hex(h))
		}
		return "displace " + u.ID + " " + g.hex(h), nil
	case "montenegro":
		if side != sb || len(args) != 1 || !slices.Contains([]string{"16.29", "22.29", "30.29"}, args[0]) {
			return "", adjudicator.Refuse("montenegro 16.29|22.29|30.29 (24.1)", "Montenegrin assets appear in 16.29, 22.29 or 30.29")
		}
		return "montenegro " + args[0], nil
	case "marsch-depot":
		if side != ah || len(args) != 1 {
			return "", adjudicator.Refuse("marsch-depot Depot-FIFTH", "A-H names the depot returning Marsch units go to (16.6.3)")
		}
		u, err := g.own(side, args[0])
		if err != nil {
			return "", err
		}
		if u.c.Kind != kDepot {
			return "", adjudicator.Refuse("name a depot", "%s is not a depot", u.ID)
		}
		return "marsch-depot " + u.ID, nil
	case "french":
		if side != sb || g.GT < 32 || g.French {
			return "", adjudicator.Refuse("french place, on GT 32 or later (25.1.4)", "the French Naval Artillery arrives on GT 32 or later")
		}
		return "french place", nil
	}
	// every verb of standingVerbs has its case above
	return "", fmt.Errorf("sms1914: no reader for the standing order %q", verb)
}

func activePlans(g *game) string {
	var out []string
	for _, a := range g.Armies {
		if a.Plan == "active" {
			out = append(out, a.ID)
		}
	}
	return strings.Join(out, " ")
}

// parseCond reads an intensity condition: odds>=3:1, odds<=2:1, attacker.
func (g *game) parseCond(s string) (string, error) {
	low := strings.ToLower(s)
	if low == "attacker" {
		return low, nil
	}
	if strings.HasPrefix(low, "odds>=") || strings.HasPrefix(low, "odds<=") {
		if _, ok := g.sc.CRT.Scale.Find(low[6:]); ok {
			return low, nil
		}
	}
	return "", adjudicator.Refuse("odds>=3:1, odds<=2:1 (a column of the CRT: "+columnList(g)+"), or attacker", "%q is not a condition", s)
}

func columnList(g *game) string {
	s := g.sc.CRT.Scale
	var out []string
	for i := 0; i < s.Columns(); i++ {
		out = append(out, s.Name(position(i)))
	}
	return strings.Join(out, " ")
}

// parseAttackLine reads "attack HEX with UNIT+UNIT... [options]" (9.1, 9.2).
func (g *game) parseAttackLine(side side, args []string) (string, error) {
	hint := "attack 21.12 with 9/VIII+21/VIII [intense [if odds>=3:1]] [mandated] [advance all|none|UNIT+UNIT] [noammo] [noshells] [twohex]"
	if len(args) < 3 || !strings.EqualFold(args[1], "with") {
		return "", adjudicator.Refuse(hint, "attack HEX with UNITS")
	}
	t, err := g.parseHex(args[0])
	if err != nil {
		return "", err
	}
	if !g.enemyIn(t, side) {
		return "", adjudicator.Refuse("attack a hex enemy units hold", "no enemy unit is in %s", g.hex(t))
	}
	var ids []string
	key := ""
	for _, id := range strings.Split(args[2], "+") {
		u, err := g.own(side, id)
		if err != nil {
			return "", err
		}
		if slices.Contains(ids, u.ID) {
			return "", adjudicator.Refuse("name each unit once", "%s is named twice", u.ID)
		}
		if why := g.attackBar(u, t); why != "" {
			return "", adjudicator.Refuse("attackers: combat units next to the hex, not CI or Demoralized, without an MPs Expended marker (9.2)", "%s cannot attack %s: %s", u.ID, g.hex(t), why)
		}
		k := g.corpsKey(u)
		if u.c.Kind != kArtillery && !u.asset() {
			if key != "" && k != key {
				return "", adjudicator.Refuse("units of different corps or armies do not combine in an attack; each Independent stack is its own corps (9.2.2)", "%s is not of the same corps as the other attackers", u.ID)
			}
			key = k
		}
		ids = append(ids, u.ID)
	}
	// 8.8.1: artillery fights only with a Combat unit of its hex that attacks too
	for _, id := range ids {
		u := g.unitByID(id)
		if u.c.Kind != kArtillery {
			continue
		}
		with := false
		for _, o := range ids {
			if x := g.unitByID(o); x.c.Combat() && x.pos == u.pos {
				with = true
			}
		}
		if !with {
			return "", adjudicator.Refuse("add a Combat unit stacked with the artillery to the attack", "%s cannot attack alone: artillery fights only with a Combat unit it is stacked with (8.8.1)", u.ID)
		}
	}
	out := []string{"attack", g.hex(t), "with", strings.Join(ids, "+")}
	for i := 3; i < len(args); i++ {
		w := strings.ToLower(args[i])
		switch w {
		case "intense":
			out = append(out, "intense")
			if i+2 < len(args) && strings.EqualFold(args[i+1], "if") {
				c, err := g.parseCond(args[i+2])
				if err != nil {
					return "", err
				}
				out = append(out, "if", c)
				i += 2
			}
		case "mandated":
			if side != ah {
				return "", adjudicator.Refuse(hint, "only A-H armies make Mandated Attacks (26.3.1)")
			}
			out = append(out, "mandated")
		case "noammo", "noshells", "twohex":
			out = append(out, w)
		case "advance":
			if i+1 >= len(args) {
				return "", adjudicator.Refuse("advance all, advance none, advance UNIT+UNIT", "advance needs all, none or units")
			}
			i++
			a := strings.ToLower(args[i])
			if a != "all" && a != "none" {
				var us []string
				for _, id := range strings.Split(args[i], "+") {
					u, err := g.own(side, id)
					if err != nil {
						return "", err
					}
					if slices.Contains(us, u.ID) {
						return "", adjudicator.Refuse("name each unit once", "%s is named twice", u.ID)
					}
					us = append(us, u.ID)
				}
				a = strings.Join(us, "+")
			}
			out = append(out, "advance", a)
		default:
			return "", adjudicator.Refuse(hint, "%q is not part of an attack order", args[i])
		}
	}
	return strings.Join(out, " "), nil
}

// parseAnswer reads "answer HEX intense|not [withhold UNIT+UNIT] [noammo] [shells yes|no]".
func (g *game) parseAnswer(side side, args []string) (string, error) {
	hint := "answer 21.12 intense|not [withhold UNIT+UNIT] [noammo] [shells yes|no]"
	if len(args) < 2 {
		return "", adjudicator.Refuse(hint, "answer needs the attacked hex and intense or not")
	}
	t, err := g.parseHex(args[0])
	if err != nil {
		return "", err
	}
	found := false
	for _, a := range g.Attacks {
		if a.Target == g.hex(t) {
			found = true
		}
	}
	if !found {
		var ts []string
		for _, a := range g.Attacks {
			ts = append(ts, a.Target)
		}
		return "", adjudicator.Refuse("the attacked hexes are "+strings.Join(ts, " "), "%s is not attacked", g.hex(t))
	}
	out := []string{"answer", g.hex(t)}
	for i := 1; i < len(args); i++ {
		w := strings.ToLower(args[i])
		switch w {
		case "intense", "not", "noammo":
			out = append(out, w)
		case "withhold":
			if i+1 >= len(args) {
				return "", adjudicator.Refuse(hint, "withhold needs units")
			}
			i++
			var us []string
			for _, id := range strings.Split(args[i], "+") {
				u, err := g.own(side, id)
				if err != nil {
					return "", err
				}
				if slices.Contains(us, u.ID) {
					return "", adjudicator.Refuse("name each unit once", "%s is named twice", u.ID)
				}
				us = append(us, u.ID)
			}
			out = append(out, "withhold", strings.Join(us, "+"))
		case "shells":
			if i+1 >= len(args) || !slices.Contains([]string{"yes", "no", "needed"}, strings.ToLower(args[i+1])) {
				return "", adjudicator.Refuse(hint, "shells takes yes, no or needed")
			}
			i++
			out = append(out, "shells", strings.ToLower(args[i]))
		default:
			return "", adjudicator.Refuse(hint, "%q is not part of an answer", args[i])
		}
	}
	return strings.Join(out, " "), nil
}
