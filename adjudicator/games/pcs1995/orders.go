package pcs1995

// This file reads order lines (docs/orders-pcs1995.md): the set-up and
// placement, the air allocation script and strategic bombing orders, the
// activation queue with its conditions, the answers to decisions and the
// standing orders. Every line is checked when it arrives against what can
// be known then; the canonical form is what the adjudication reads.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// verbs is 1995's order table: the parser reads a line's kind from it
// (lineKind: the activation and standing verbs are its phases' verbs, and
// a word not in it is no order), and `help pcs1995` mails it.
var verbs = adjudicator.Verbs{
	{Name: "place", Form: "place UNIT HEX", Phases: []string{"set-up", "turn start"}, Rules: "12.0, 5.0, 5.3", Example: "place HR-1GB 1904",
		Summary: "set-up: a unit in a hex of its side's set-up area (12.0); a turn's first step: a unit arriving this turn, in or next to an eligible entry hex (the receipt lists the legal hexes)"},
	{Name: "air", Form: "air UNIT BOX [if enemy BOX OP N [and ...]] [else BOX]", Phases: []string{"turn start"}, Rules: "6.0", Example: "air US-F15 patrol",
		Summary: "the air allocation script, in order: F to suppression or patrol, G to bombing, airstrike, gs or interdiction; a condition reads the other side's placements so far"},
	{Name: "bomb", Form: "bomb [escort F,F]", Phases: []string{"turn start"}, Rules: "6.1.2", Example: "bomb escort US-F16",
		Summary: "every G placed in the bombing box flies the strategic bombing, with these escorts"},
	{Name: "airstrike", Form: "airstrike UNIT with G,G [escort F,F]", Phases: []string{"turn start"}, Rules: "6.1.3", Example: "airstrike SR-SRP4 with US-A10 escort US-F16",
		Summary: "strike an enemy unit with G placed in the airstrike box"},
	{Name: "move", Form: "move UNIT HEX...", Phases: activationPhase, Rules: "7.1", Example: "move US-1-3ID 1912 2013",
		Summary: "Regular Movement: every hex entered, each next to the one before"},
	{Name: "sm", Form: "sm UNIT HEX...", Phases: activationPhase, Rules: "7.2", Example: "sm HR-1GB 2005 2105 2205",
		Summary: "Strategic Movement: double MA, never next to an enemy unit"},
	{Name: "me", Form: "me UNIT [HEX...] attack HEX bid N [gs G,G] [interdict G] [escort F,F] [advance] [HEX...] [attack ...]", Phases: activationPhase, Rules: "7.3, 8.4", Example: "me UK-4AB 2816 attack 2915 bid 3",
		Summary: "Meeting Engagement: move, attack paying the enemy hex's cost + N (1-4), advance into the vacated hex"},
	{Name: "pa", Form: "pa UNIT HEX [with UNIT,UNIT] [gs G,G] [interdict G] [escort F,F] [advance none|lead|UNIT>HEX>HEX,UNIT]", Phases: activationPhase, Rules: "7.4, 8.4, 9.6", Example: "pa HR-5GB 3007",
		Summary: "Prepared Assault: UNIT leads, the with units support; advance says who advances if the hex is vacated"},
	{Name: "airmobile", Form: "airmobile UNIT HEX [via HEX...] [escort F,F]", Phases: activationPhase, Rules: "3.3.1, 6.2", Example: "airmobile US-1-82 2013",
		Summary: "airmobile movement to an empty land hex: the via hexes, then a straight line"},
	{Name: "deescalate", Form: "deescalate [UNIT,UNIT]", Phases: activationPhase, Rules: "7.5", Example: "deescalate",
		Summary: "the de-escalation roll, once a turn; on success the first fresh unit listed flips"},
	{Name: "pass", Form: "pass", Phases: activationPhase, Rules: "7.0", Example: "pass",
		Summary: "no more activations this turn"},
	{Name: "ask", Form: "ask", Phases: activationPhase, Rules: "7.0", Example: "ask",
		Summary: "stop the queue here: ask me for more"},
	{Name: "absorb", Form: "absorb static|support|retreat|vp|rout... | absorb ask", Phases: standingPhase, Rules: "8.3", Example: "absorb static support retreat vp rout",
		Summary: "how your units absorb LP, the options tried in your order"},
	{Name: "defend", Form: "defend gs N|all|none interdict N|all|none escort N|all|none | defend none|ask", Phases: standingPhase, Rules: "6.3.2, 6.5", Example: "defend gs all interdict none escort 1",
		Summary: "the air you commit when your unit is attacked"},
	{Name: "intercept", Form: "intercept bombing|airstrike|airmobile|interdiction|all N|all|none|ask", Phases: standingPhase, Rules: "6.2", Example: "intercept airstrike 2",
		Summary: "patrol F intercepting the enemy's missions"},
	{Name: "interdict", Form: "interdict sm N|all|none [escort N|all|none] | interdict ask", Phases: standingPhase, Rules: "6.3.1", Example: "interdict sm 1 escort none",
		Summary: "G from your interdiction box against each enemy Strategic Movement"},
	{Name: "advancing", Form: "advancing lead|none|ask", Phases: standingPhase, Rules: "8.4", Example: "advancing lead",
		Summary: "who advances after your PA when the line does not say"},
	{Name: "entry", Form: "entry HEX...", Phases: standingPhase, Rules: "5.0", Example: "entry 1407",
		Summary: "where arrivals enter, in order of preference"},
	{Name: "italians", Form: "italians HEX...", Phases: standingPhase, Rules: "5.1.2", Example: "italians 1105 1104",
		Summary: "NATO: where the Italians go if Trieste is entered first"},
	{Name: "oncall", Form: "oncall UNIT BOX|stay", Phases: standingPhase, Rules: "6.7", Example: "oncall US-F15 patrol",
		Summary: "the box an air unit goes to after a successful On-Call check"},
	{Name: "stop", Form: "stop after attack on HEX...|any | stop none", Phases: standingPhase, Rules: "7.0", Example: "stop after attack on 2607 2508",
		Summary: "hold my queue and ask me after an enemy attack on these hexes (or any)"},
	{Name: "decide", Form: "decide ANSWER", Phases: []string{"decision"}, Rules: "6.2, 6.3, 8.3, 8.4", Example: "decide static support retreat vp",
		Summary: "a decision step's answer, this time only (the standing order's words: absorb, defend, intercept, interdict or advance)"},
}

// activationPhase and standingPhase are the table's phases of the queue's
// lines and of the standing orders.
var (
	activationPhase = []string{"activations"}
	standingPhase   = []string{"standing"}
)

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

// The verbs of an activation (7.0, 7.5, 3.3.1) and of the queue: the
// table's activations.
var activationVerbs = verbs.InPhase(activationPhase[0]).Names()

// standingVerbs are the standing orders, accepted in any step: the
// table's.
var standingVerbs = verbs.InPhase(standingPhase[0]).Names()

const (
	hintActivation = "activations: move UNIT HEX..., sm UNIT HEX..., me UNIT [HEX...] attack HEX bid 1-4 [advance], pa UNIT HEX [with UNIT,...], airmobile UNIT HEX, deescalate [UNIT,...], pass, ask; add if CONDITION / else ..."
	hintStanding   = "standing orders: absorb, defend, intercept, interdict, advancing, entry, italians, oncall, stop (docs/orders-pcs1995.md)"
)

// activation is one parsed activation (7.0).
type activation struct {
	Kind      string // move, sm, me, pa, airmobile, deescalate, pass, ask
	Unit      string
	Path      []board.ID // move, sm: the hexes entered
	Steps     []meStep   // me
	Target    board.ID   // pa: the enemy hex; airmobile: the destination
	With      []string   // pa: supporting units
	Air       combatAir  // pa
	Escort    []string   // airmobile
	Via       []board.ID // airmobile: the first hexes of its path, the rest a straight line
	Advance   []advance  // pa: nil unsaid
	AdvanceBy string     // pa: "", "none", "lead" or "list"
	Targets   []string   // deescalate
}

// meStep is one step of an ME activation: a hex entered, an attack, or an
// advance into the hex just vacated.
type meStep struct {
	Hex     board.ID
	Attack  bool
	Bid     int
	Air     combatAir
	Advance bool
}

// combatAir is what one side commits to a combat (6.3.2, 6.5).
type combatAir struct {
	GS, Interdict, Escort []string
}

func (c combatAir) empty() bool { return len(c.GS)+len(c.Interdict)+len(c.Escort) == 0 }

// advance is a unit advancing after a PA, with its onward path (8.4).
type advance struct {
	Unit string
	Path []board.ID
}

// Cond is one condition of a queue line.
type Cond struct {
	Kind string // enemy, empty, friendly, mine, theirs, fresh, static, at, vp
	Hex  board.ID
	Unit string
	Op   string
	N    int
}

// alt is one alternative of a queue line: an activation with its
// conditions, or skip.
type alt struct {
	Act   *activation
	Conds []Cond
	Skip  bool
}

// parser reads one seat's lines against a state.
type parser struct {
	g    *game
	seat string
	side faction
}

func (p *parser) hexArg(s string) (board.ID, error) {
	id, err := p.g.grid.Parse(s)
	if err != nil {
		return id, adjudicator.Refuse("hexes are four digits, such as 3507", "%q is not a hex of the map", s)
	}
	return id, nil
}

func (p *parser) landHex(s string) (board.ID, error) {
	id, err := p.hexArg(s)
	if err != nil {
		return id, err
	}
	if !p.g.sc.Land(id) {
		return id, adjudicator.Refuse("units stand only on land hexes in Italy, Slovenia, Croatia, Bosnia, Serbia or Montenegro", "%s is sea or off the theatre", s)
	}
	return id, nil
}

// ownUnit is one of the seat's ground units.
func (p *parser) ownUnit(s string) (*Unit, error) {
	u := p.g.byID[strings.ToUpper(s)]
	if u == nil {
		if p.g.airBy[strings.ToUpper(s)] != nil {
			return nil, adjudicator.Refuse("ground units activate; air units are placed with air lines", "%s is an air unit", strings.ToUpper(s))
		}
		return nil, adjudicator.Refuse(adjudicator.UnitHint(s, p.g.unitIDs(p.side)), "there is no unit %s", strings.ToUpper(s))
	}
	if u.side() != p.side {
		return nil, adjudicator.Refuse("give orders to your own units; "+adjudicator.UnitHint(s, p.g.unitIDs(p.side)), "%s is not yours: it is %s's", u.ID, u.side())
	}
	return u, nil
}

// mapUnit is one of the seat's units on the map and fresh.
func (p *parser) mapUnit(s string) (*Unit, error) {
	u, err := p.ownUnit(s)
	if err != nil {
		return nil, err
	}
	if !u.onMap() {
		return nil, adjudicator.Refuse("your units on the map are "+strings.Join(p.g.unitIDs(p.side), " "), "%s is not on the map (%s)", u.ID, statusName(u))
	}
	return u, nil
}

func (p *parser) enemyUnit(s string) (*Unit, error) {
	u := p.g.byID[strings.ToUpper(s)]
	if u == nil || u.side() == p.side || !u.onMap() {
		return nil, adjudicator.Refuse("name an enemy unit on the map: "+strings.Join(p.g.unitIDs(other(p.side)), " "), "%s is not an enemy unit on the map", strings.ToUpper(s))
	}
	return u, nil
}

func (p *parser) ownAir(s, typ string) (*air, error) {
	a := p.g.airBy[strings.ToUpper(s)]
	if a == nil || a.c.Side != p.side {
		return nil, adjudicator.Refuse("your air units are "+strings.Join(p.g.airIDs(p.side), " "), "%s is not one of your air units", strings.ToUpper(s))
	}
	if typ != "" && a.c.Type != typ {
		what := map[string]string{"F": "an F (fighter)", "G": "a G (ground support)"}[typ]
		return nil, adjudicator.Refuse("escorts and interceptors are F; ground support, interdiction, bombing and airstrikes are G (3.3)", "%s is not %s air unit", a.ID, what)
	}
	if a.Box == boxEliminated || a.Box == boxPool {
		return nil, adjudicator.Refuse("air units in play are "+strings.Join(p.g.airIDs(p.side), " "), "%s is not in play (%s)", a.ID, a.Box)
	}
	return a, nil
}

// airList reads a comma list of one's own air units of a type.
func (p *parser) airList(s, typ string) ([]string, error) {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x == "" {
			continue
		}
		a, err := p.ownAir(x, typ)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, a.ID) {
			return nil, adjudicator.Refuse("name each air unit once", "%s is named twice", a.ID)
		}
		out = append(out, a.ID)
	}
	if len(out) == 0 {
		return nil, adjudicator.Refuse("list air units separated by commas: US-A10,UK-HARR", "an empty list of air units")
	}
	return out, nil
}

func (g *game) unitIDs(side faction) []string {
	var out []string
	for _, u := range g.Units {
		if u.side() == side && u.onMap() {
			out = append(out, u.ID)
		}
	}
	return out
}

func (g *game) airIDs(side faction) []string {
	var out []string
	for _, a := range g.Air {
		if a.c.Side == side && a.Box != boxPool && a.Box != boxEliminated {
			out = append(out, a.ID)
		}
	}
	return out
}

func statusName(u *Unit) string {
	switch u.Status {
	case pool:
		return "a reinforcement not yet arrived"
	case arriving:
		return "waiting to be placed"
	case routed:
		return "routed"
	case statusSurrendered:
		return "surrendered"
	case removed:
		return "removed from the game"
	}
	return "on the map"
}

// combatAirArgs reads "gs G,G interdict G escort F,F" from f, returning
// the rest.
func (p *parser) combatAirArgs(f []string) (combatAir, []string, error) {
	var ca combatAir
	for more := adjudicator.Consuming(&f); more(); {
		typ, hint := "G", "gs G,G: your G air units flying ground support, such as US-A10,UK-HARR (6.5)"
		switch f[0] {
		case "interdict":
			hint = "interdict G: your G air units flying interdiction, such as US-A10 (6.3.2)"
		case "escort":
			typ, hint = "F", "escort F,F: your F air units escorting them, such as US-F15 (6.2)"
		case "gs":
		default:
			return ca, f, nil
		}
		if len(f) < 2 {
			return ca, nil, adjudicator.Refuse(hint, "%s needs air units", f[0])
		}
		list, err := p.airList(f[1], typ)
		if err != nil {
			return ca, nil, err
		}
		switch f[0] {
		case "gs":
			ca.GS = list
		case "interdict":
			ca.Interdict = list
		case "escort":
			ca.Escort = list
		}
		f = f[2:]
	}
	return ca, f, nil
}

func (c combatAir) String() string {
	var parts []string
	if len(c.GS) > 0 {
		parts = append(parts, "gs "+strings.Join(c.GS, ","))
	}
	if len(c.Interdict) > 0 {
		parts = append(parts, "interdict "+strings.Join(c.Interdict, ","))
	}
	if len(c.Escort) > 0 {
		parts = append(parts, "escort "+strings.Join(c.Escort, ","))
	}
	return strings.Join(parts, " ")
}

// parseActivation reads one activation; from is the hex the unit is taken
// to start from ("at" conditions move it), nil for its hex now.
func (p *parser) parseActivation(f []string, from map[string]board.ID) (*activation, error) {
	a := &activation{Kind: f[0]}
	args := f[1:]
	start := func(u *Unit) board.ID {
		if h, ok := from[u.ID]; ok {
			return h
		}
		return u.pos
	}
	switch a.Kind {
	case "pass", "ask":
		if len(args) > 0 {
			return nil, adjudicator.Refuse(a.Kind+" takes nothing after it", "%s takes no arguments", a.Kind)
		}
		return a, nil
	case "deescalate":
		if len(args) > 1 {
			return nil, adjudicator.Refuse("deescalate US-1-1AD,UK-4AB: the fresh enemy units to flip, in order", "deescalate takes one comma list of enemy units")
		}
		if len(args) == 1 {
			for _, s := range strings.Split(args[0], ",") {
				if s == "" {
					continue
				}
				u, err := p.enemyUnit(s)
				if err != nil {
					return nil, err
				}
				if slices.Contains(a.Targets, u.ID) {
					return nil, adjudicator.Refuse("name each enemy unit once, in your order of preference", "%s is named twice", u.ID)
				}
				a.Targets = append(a.Targets, u.ID)
			}
		}
		return a, nil
	}
	if len(args) < 2 {
		return nil, adjudicator.Refuse(hintActivation, "%s needs a unit and where it goes", a.Kind)
	}
	u, err := p.mapUnit(args[0])
	if err != nil {
		return nil, err
	}
	a.Unit = u.ID
	pos := start(u)
	rest := args[1:]
	switch a.Kind {
	case "move", "sm":
		for _, s := range rest {
			id, err := p.landHex(s)
			if err != nil {
				return nil, err
			}
			if !p.g.grid.Adjacent(pos, id) {
				return nil, adjudicator.Refuse(fmt.Sprintf("list every hex entered, each next to the one before, starting next to %s's hex %s", u.ID, p.g.hex(start(u))), "%s is not next to %s", s, p.g.hex(pos))
			}
			a.Path = append(a.Path, id)
			pos = id
		}
	case "me":
		for more := adjudicator.Consuming(&rest); more(); {
			switch rest[0] {
			case "attack":
				if len(rest) < 4 || rest[2] != "bid" {
					return nil, adjudicator.Refuse("attack HEX bid 1-4: the MP spent for the ME CSA (7.3)", "an ME attack needs a hex and a bid")
				}
				id, err := p.landHex(rest[1])
				if err != nil {
					return nil, err
				}
				if !p.g.grid.Adjacent(pos, id) {
					return nil, adjudicator.Refuse("an ME attacks a hex next to the unit (7.3)", "%s is not next to %s, where the unit is then", rest[1], p.g.hex(pos))
				}
				bid, err := strconv.Atoi(rest[3])
				if err != nil || bid < 1 || bid > 4 {
					return nil, adjudicator.Refuse("bid 1 (-2 CSA), 2 (-1), 3 (0) or 4 (+1) (7.3)", "bid %q: want 1 to 4 MP", rest[3])
				}
				air, more, err := p.combatAirArgs(rest[4:])
				if err != nil {
					return nil, err
				}
				a.Steps = append(a.Steps, meStep{Hex: id, Attack: true, Bid: bid, Air: air})
				rest = more
				continue
			case "advance":
				if len(a.Steps) == 0 || !a.Steps[len(a.Steps)-1].Attack {
					return nil, adjudicator.Refuse("advance follows an attack: it enters the hex the attack vacated (8.4)", "advance without an attack before it")
				}
				last := a.Steps[len(a.Steps)-1]
				a.Steps = append(a.Steps, meStep{Hex: last.Hex, Advance: true})
				pos = last.Hex
			default:
				id, err := p.landHex(rest[0])
				if err != nil {
					return nil, adjudicator.Refuse(hintActivation, "%q is not a hex, attack or advance", rest[0])
				}
				if !p.g.grid.Adjacent(pos, id) {
					return nil, adjudicator.Refuse(fmt.Sprintf("list every hex entered, each next to the one before, starting next to %s's hex %s", u.ID, p.g.hex(start(u))), "%s is not next to %s", rest[0], p.g.hex(pos))
				}
				a.Steps = append(a.Steps, meStep{Hex: id})
				pos = id
			}
			rest = rest[1:]
		}
		if !slices.ContainsFunc(a.Steps, func(s meStep) bool { return s.Attack }) {
			return nil, adjudicator.Refuse("an ME moves and attacks: me UNIT [HEX...] attack HEX bid N; without an attack, use move", "the ME has no attack")
		}
	case "pa":
		id, err := p.landHex(rest[0])
		if err != nil {
			return nil, err
		}
		if !p.g.grid.Adjacent(pos, id) {
			return nil, adjudicator.Refuse("a PA's lead unit is next to the enemy hex (7.4)", "%s is not next to %s's hex %s", rest[0], u.ID, p.g.hex(pos))
		}
		a.Target = id
		rest = rest[1:]
		for more := adjudicator.Consuming(&rest); more(); {
			switch rest[0] {
			case "with":
				if len(rest) < 2 {
					return nil, adjudicator.Refuse("with UNIT,UNIT: the supporting units next to the enemy hex", "with needs units")
				}
				for _, s := range strings.Split(rest[1], ",") {
					if s == "" {
						continue
					}
					su, err := p.mapUnit(s)
					if err != nil {
						return nil, err
					}
					if su.ID == u.ID || slices.Contains(a.With, su.ID) {
						return nil, adjudicator.Refuse("name each supporting unit once, not the lead", "%s is named twice", su.ID)
					}
					if !p.g.grid.Adjacent(start(su), id) {
						return nil, adjudicator.Refuse("supporting units of a PA are next to the enemy hex (7.4)", "%s at %s is not next to %s", su.ID, p.g.hex(start(su)), p.g.hex(id))
					}
					a.With = append(a.With, su.ID)
				}
				rest = rest[2:]
			case "gs", "interdict", "escort":
				air, more, err := p.combatAirArgs(rest)
				if err != nil {
					return nil, err
				}
				a.Air = mergeAir(a.Air, air)
				rest = more
			case "advance":
				if len(rest) < 2 {
					return nil, adjudicator.Refuse("advance none, advance lead, or advance UNIT[>HEX>HEX],UNIT (8.4)", "advance needs who")
				}
				adv, by, err := p.parseAdvance(rest[1], u, a.With, id)
				if err != nil {
					return nil, err
				}
				a.Advance, a.AdvanceBy = adv, by
				rest = rest[2:]
			default:
				return nil, adjudicator.Refuse("pa UNIT HEX [with UNIT,UNIT] [gs G,G] [interdict G] [escort F,F] [advance ...]", "%q is not part of a PA", rest[0])
			}
		}
	case "airmobile":
		if !u.c.Airmobile() {
			return nil, adjudicator.Refuse("only units with an MA of A fly airmobile (3.3.1); move it on the ground with move", "%s is not airmobile", u.ID)
		}
		id, err := p.landHex(rest[0])
		if err != nil {
			return nil, err
		}
		if why := p.g.airmobileBar(u, id); why != "" {
			return nil, adjudicator.Refuse("an airmobile unit lands on any empty hex of the map (3.3.1)", "%s", why)
		}
		a.Target = id
		rest = rest[1:]
		if len(rest) > 0 && rest[0] == "via" {
			rest = rest[1:]
			for more := adjudicator.Consuming(&rest); more() && rest[0] != "escort"; {
				v, err := p.landHex(rest[0])
				if err != nil {
					return nil, err
				}
				if !p.g.grid.Adjacent(pos, v) {
					return nil, adjudicator.Refuse("via lists the first hexes of the flight, each next to the one before, starting next to the unit; the rest is a straight line to the destination", "%s is not next to %s", rest[0], p.g.hex(pos))
				}
				if v == start(u) || slices.Contains(a.Via, v) {
					return nil, adjudicator.Refuse("a flight path passes each hex once (3.3.1): leave out the loop", "the flight path passes %s twice", rest[0])
				}
				a.Via = append(a.Via, v)
				pos = v
				rest = rest[1:]
			}
		}
		if len(rest) > 0 {
			if len(rest) != 2 || rest[0] != "escort" {
				return nil, adjudicator.Refuse("airmobile UNIT HEX [via HEX...] [escort F,F] (3.3.1)", "%q is not part of an airmobile move", strings.Join(rest, " "))
			}
			if a.Escort, err = p.airList(rest[1], "F"); err != nil {
				return nil, err
			}
		}
	default: // lineKind lets no other verb through
		return nil, fmt.Errorf("%q is not an activation", a.Kind)
	}
	return a, nil
}

func mergeAir(a, b combatAir) combatAir {
	a.GS = append(a.GS, b.GS...)
	a.Interdict = append(a.Interdict, b.Interdict...)
	a.Escort = append(a.Escort, b.Escort...)
	return a
}

// parseAdvance reads "none", "lead" or "UNIT>HEX>HEX,UNIT".
func (p *parser) parseAdvance(s string, lead *Unit, with []string, target board.ID) ([]advance, string, error) {
	switch s {
	case "none", "lead":
		return nil, s, nil
	}
	var out []advance
	for _, part := range strings.Split(s, ",") {
		f := strings.Split(part, ">")
		u, err := p.mapUnit(f[0])
		if err != nil {
			return nil, "", err
		}
		if u.ID != lead.ID && !slices.Contains(with, u.ID) {
			return nil, "", adjudicator.Refuse("only the lead and the units named with it advance (8.4); put with before advance", "%s does not take part in the PA", u.ID)
		}
		if slices.ContainsFunc(out, func(o advance) bool { return o.Unit == u.ID }) {
			return nil, "", adjudicator.Refuse("name each advancing unit once, with its whole path: UNIT>HEX>HEX (8.4)", "%s is named twice", u.ID)
		}
		ad := advance{Unit: u.ID}
		pos := target
		for _, h := range f[1:] {
			id, err := p.landHex(h)
			if err != nil {
				return nil, "", err
			}
			if !p.g.grid.Adjacent(pos, id) {
				return nil, "", adjudicator.Refuse("an advancing unit enters the combat hex, then each hex of its path next to the one before (8.4)", "%s is not next to %s", h, p.g.hex(pos))
			}
			ad.Path = append(ad.Path, id)
			pos = id
		}
		out = append(out, ad)
	}
	return out, "list", nil
}

// String is the activation in canonical form.
func (a *activation) String(g *game) string {
	hexes := func(ids []board.ID) string {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = g.hex(id)
		}
		return strings.Join(s, " ")
	}
	switch a.Kind {
	case "pass", "ask":
		return a.Kind
	case "deescalate":
		if len(a.Targets) == 0 {
			return "deescalate"
		}
		return "deescalate " + strings.Join(a.Targets, ",")
	case "move", "sm":
		return a.Kind + " " + a.Unit + " " + hexes(a.Path)
	case "me":
		parts := []string{"me", a.Unit}
		for _, s := range a.Steps {
			switch {
			case s.Attack:
				parts = append(parts, "attack", g.hex(s.Hex), "bid", strconv.Itoa(s.Bid))
				if !s.Air.empty() {
					parts = append(parts, s.Air.String())
				}
			case s.Advance:
				parts = append(parts, "advance")
			default:
				parts = append(parts, g.hex(s.Hex))
			}
		}
		return strings.Join(parts, " ")
	case "pa":
		parts := []string{"pa", a.Unit, g.hex(a.Target)}
		if len(a.With) > 0 {
			parts = append(parts, "with", strings.Join(a.With, ","))
		}
		if !a.Air.empty() {
			parts = append(parts, a.Air.String())
		}
		switch a.AdvanceBy {
		case "none", "lead":
			parts = append(parts, "advance", a.AdvanceBy)
		case "list":
			var advs []string
			for _, ad := range a.Advance {
				s := ad.Unit
				for _, h := range ad.Path {
					s += ">" + g.hex(h)
				}
				advs = append(advs, s)
			}
			parts = append(parts, "advance", strings.Join(advs, ","))
		}
		return strings.Join(parts, " ")
	case "airmobile":
		s := "airmobile " + a.Unit + " " + g.hex(a.Target)
		if len(a.Via) > 0 {
			s += " via " + hexes(a.Via)
		}
		if len(a.Escort) > 0 {
			s += " escort " + strings.Join(a.Escort, ",")
		}
		return s
	}
	return a.Kind
}

// parseCond reads one condition.
func (p *parser) parseCond(f []string) (Cond, error) {
	hint := "conditions: HEX enemy|empty|friendly|mine|theirs, UNIT fresh|static, UNIT at HEX, vp >=|<=|<|>|= N"
	switch {
	case len(f) == 3 && f[0] == "vp":
		n, err := strconv.Atoi(f[2])
		if err != nil || !slices.Contains([]string{">=", "<=", "<", ">", "="}, f[1]) {
			return Cond{}, adjudicator.Refuse(hint, "%q is not a VP condition", strings.Join(f, " "))
		}
		return Cond{Kind: "vp", Op: f[1], N: n}, nil
	case len(f) == 2 && slices.Contains([]string{"enemy", "empty", "friendly", "mine", "theirs"}, f[1]):
		id, err := p.hexArg(f[0])
		if err != nil {
			return Cond{}, err
		}
		return Cond{Kind: f[1], Hex: id}, nil
	case len(f) == 2 && (f[1] == "fresh" || f[1] == "static"):
		u := p.g.byID[strings.ToUpper(f[0])]
		if u == nil {
			return Cond{}, adjudicator.Refuse(hint, "there is no unit %s", strings.ToUpper(f[0]))
		}
		return Cond{Kind: f[1], Unit: u.ID}, nil
	case len(f) == 3 && f[1] == "at":
		u := p.g.byID[strings.ToUpper(f[0])]
		if u == nil {
			return Cond{}, adjudicator.Refuse(hint, "there is no unit %s", strings.ToUpper(f[0]))
		}
		id, err := p.hexArg(f[2])
		if err != nil {
			return Cond{}, err
		}
		return Cond{Kind: "at", Unit: u.ID, Hex: id}, nil
	}
	return Cond{}, adjudicator.Refuse(hint, "%q is not a condition", strings.Join(f, " "))
}

func (c Cond) String(g *game) string {
	switch c.Kind {
	case "vp":
		return fmt.Sprintf("vp %s %d", c.Op, c.N)
	case "fresh", "static":
		return c.Unit + " " + c.Kind
	case "at":
		return c.Unit + " at " + g.hex(c.Hex)
	}
	return g.hex(c.Hex) + " " + c.Kind
}

// The most alternatives a queue line has and the most conditions an
// alternative (or an air line) has: caps no real order needs, so that no
// line can grow the state without end (docs/orders-pcs1995.md).
const (
	maxAlts  = 10
	maxConds = 10
)

// parseQueueLine reads "ACT [if COND [and COND]] [else ACT ...] [else skip]".
func (p *parser) parseQueueLine(f []string) ([]alt, error) {
	var alts []alt
	var cur []string
	flush := func() error {
		if len(cur) == 0 {
			return adjudicator.Refuse("else is followed by another activation or skip", "an empty alternative")
		}
		if len(cur) == 1 && cur[0] == "skip" {
			if len(alts) == 0 { // skip alone is no order: lineKind refuses it
				return fmt.Errorf("a line cannot start with skip")
			}
			alts = append(alts, alt{Skip: true})
			cur = nil
			return nil
		}
		if len(alts) > 0 && alts[len(alts)-1].Skip {
			return adjudicator.Refuse("else skip is the last alternative", "nothing may follow else skip")
		}
		act, cond := cur, []string(nil)
		if i := slices.Index(cur, "if"); i >= 0 {
			act, cond = cur[:i], cur[i+1:]
			if len(cond) == 0 {
				return adjudicator.Refuse("if CONDITION [and CONDITION]", "if without a condition")
			}
		}
		if len(act) == 0 {
			return adjudicator.Refuse(hintActivation, "a condition without an activation")
		}
		from := map[string]board.ID{}
		var conds []Cond
		for more := adjudicator.Consuming(&cond); more(); {
			j := slices.Index(cond, "and")
			part := cond
			if j >= 0 {
				part, cond = cond[:j], cond[j+1:]
			} else {
				cond = nil
			}
			c, err := p.parseCond(part)
			if err != nil {
				return err
			}
			if slices.Contains(conds, c) {
				return adjudicator.Refuse("give each condition once", "the condition %s is given twice", c.String(p.g))
			}
			if len(conds) == maxConds {
				return adjudicator.Refuse(fmt.Sprintf("at most %d conditions an alternative: split the line, or use else", maxConds), "more than %d conditions", maxConds)
			}
			if c.Kind == "at" {
				from[c.Unit] = c.Hex
			}
			conds = append(conds, c)
		}
		if len(alts) == maxAlts {
			return adjudicator.Refuse(fmt.Sprintf("at most %d alternatives a line: put the others on a line of their own", maxAlts), "more than %d alternatives", maxAlts)
		}
		a, err := p.parseActivation(act, from)
		if err != nil {
			return err
		}
		alts = append(alts, alt{Act: a, Conds: conds})
		cur = nil
		return nil
	}
	for _, w := range f {
		if w == "else" {
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		}
		cur = append(cur, w)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return alts, nil
}

func altsString(g *game, alts []alt) string {
	var parts []string
	for _, a := range alts {
		if a.Skip {
			parts = append(parts, "skip")
			continue
		}
		s := a.Act.String(g)
		if len(a.Conds) > 0 {
			cs := make([]string, len(a.Conds))
			for i, c := range a.Conds {
				cs[i] = c.String(g)
			}
			s += " if " + strings.Join(cs, " and ")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " else ")
}

// normalise lower-cases keywords and words it does not know, and
// upper-cases unit ids, hexes and lists of them: unit ids are upper case,
// keywords lower case, and a refusal quotes an unknown word as written.
func (g *game) normalise(text string) []string {
	f := strings.Fields(text)
	for i, w := range f {
		lw, uw := strings.ToLower(w), strings.ToUpper(w)
		switch {
		case keywords[lw]:
			f[i] = lw
		case g.byID[uw] != nil || g.airBy[uw] != nil || strings.ContainsAny(w, ",>-0123456789"):
			f[i] = uw
		default:
			f[i] = lw
		}
	}
	return f
}

var keywords = map[string]bool{}

func init() {
	for _, list := range [][]string{activationVerbs, standingVerbs, {
		"place", "air", "bomb", "airstrike", "decide", "if", "and", "else", "skip", "attack", "bid", "advance", "with",
		"gs", "interdict", "escort", "enemy", "empty", "friendly", "mine", "theirs", "fresh", "static", "at", "vp",
		"all", "none", "ask", "lead", "static", "support", "retreat", "rout", "sm", "bombing", "airstrike", "via",
		"airmobile", "interdiction", "after", "on", "any", "suppression", "patrol", "spent", "stay", ">=", "<=", "<", ">", "=",
	}} {
		for _, w := range list {
			keywords[w] = true
		}
	}
}

// lineKind says what a line is: "standing", "activation", "place", "air",
// "mission", "decide" or "".
func lineKind(f []string) string {
	switch {
	case !verbs.Has(f[0]):
		return ""
	case slices.Contains(standingVerbs, f[0]):
		return "standing"
	case slices.Contains(activationVerbs, f[0]):
		return "activation"
	case f[0] == "place":
		return "place"
	case f[0] == "air":
		return "air"
	case f[0] == "bomb" || f[0] == "airstrike":
		return "mission"
	case f[0] == "decide":
		return "decide"
	}
	return ""
}

// line checks one line against the step open and returns its canonical
// form.
func (p *parser) line(f []string) (out string, alts []alt, err error) {
	g := p.g
	kind := lineKind(f)
	allowed := map[string][]string{
		phaseSetup:    {"standing", "place"},
		phaseTurn:     {"standing", "place", "air", "mission", "activation"},
		phaseQueue:    {"standing", "activation"},
		phaseAir:      {"standing", "air"},
		phaseDecision: {"standing", "activation", "decide"},
	}[g.Phase]
	stepHint := map[string]string{
		phaseSetup:    "set-up orders: place UNIT HEX, and standing orders",
		phaseTurn:     "this step takes place, air, bomb, airstrike, activations and standing orders",
		phaseQueue:    "this step takes activations and standing orders",
		phaseAir:      "this step takes one air placement: air UNIT BOX",
		phaseDecision: "this step takes your decision (decide ...), standing orders and activations",
	}[g.Phase]
	if kind == "" {
		return "", nil, adjudicator.Refuse(verbs.Hint(f[0], stepHint), "%q is not an order", f[0])
	}
	if !slices.Contains(allowed, kind) {
		return "", nil, adjudicator.Refuse(stepHint, "%s orders are not taken in this step (%s)", f[0], g.label())
	}
	switch kind {
	case "standing":
		out, err = p.standing(f)
		return out, nil, err
	case "place":
		out, err = p.place(f)
		return out, nil, err
	case "air":
		out, err = p.airLine(f)
		return out, nil, err
	case "mission":
		out, err = p.mission(f)
		return out, nil, err
	case "decide":
		out, err = p.decide(f)
		return out, nil, err
	}
	alts, err = p.parseQueueLine(f)
	if err != nil {
		return "", nil, err
	}
	for _, a := range alts {
		if err := p.receiptBar(a); err != nil {
			return "", nil, err
		}
	}
	return altsString(g, alts) + g.forecast(alts[0]), alts, nil
}

// forecast is the receipt's note on a move: where it would end and with
// how many MP if it were carried out now ("" for other lines). The map
// may change before the line's turn comes.
func (g *game) forecast(a alt) string {
	act := a.Act
	if act == nil || (act.Kind != "move" && act.Kind != "sm") || len(a.Conds) > 0 {
		return ""
	}
	u := g.byID[act.Unit]
	mp := u.c.MA * 2
	if act.Kind == "sm" {
		mp *= 2
	}
	steps, why := g.walk(u, u.pos, act.Path, mp, act.Kind == "sm")
	steps, trimmed := g.trimStack(u, steps)
	end, left := u.Hex, mp
	if len(steps) > 0 {
		end, left = g.hex(steps[len(steps)-1].hex), steps[len(steps)-1].left
	}
	note := fmt.Sprintf(" # now: to %s, %s of %d MP", end, halves(mp-left), mp/2)
	switch {
	case why == "ezoc":
		note += ", stops in an enemy zone of control"
	case why != "":
		note += ", stops: " + why
	case trimmed:
		note += ", stops short of a friendly unit"
	}
	return note
}

func (p *parser) place(f []string) (string, error) {
	if len(f) != 3 {
		return "", adjudicator.Refuse("place UNIT HEX", "place needs a unit and a hex")
	}
	u, err := p.ownUnit(f[1])
	if err != nil {
		return "", err
	}
	id, err := p.landHex(f[2])
	if err != nil {
		return "", err
	}
	if p.g.Phase == phaseSetup {
		if u.Status != onMap {
			return "", adjudicator.Refuse("only units that start on the map set up (12.0)", "%s does not set up: it is %s", u.ID, statusName(u))
		}
		if why := p.g.setupBar(u.c, id); why != "" {
			return "", adjudicator.Refuse(p.g.setupHint(u.c), "%s may not set up in %s: %s", u.ID, f[2], why)
		}
		return "place " + u.ID + " " + p.g.hex(id), nil
	}
	if u.Status != arriving {
		return "", adjudicator.Refuse("place names units arriving this turn: "+strings.Join(p.g.arriving(p.side), " "), "%s is not arriving (%s)", u.ID, statusName(u))
	}
	if why := p.g.entryBar(u, id, nil); why != "" {
		return "", adjudicator.Refuse("reinforcements and recovered units enter in or next to an eligible, controlled entry hex (5.0): "+strings.Join(p.g.entryList(u), " "), "%s may not enter at %s: %s", u.ID, f[2], why)
	}
	return "place " + u.ID + " " + p.g.hex(id), nil
}

func (g *game) arriving(side faction) []string {
	var out []string
	for _, u := range g.Units {
		if u.side() == side && u.Status == arriving {
			out = append(out, u.ID)
		}
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

var boxes = []string{boxSuppression, boxBombing, boxAirstrike, boxPatrol, boxGS, boxInterdiction}

const hintAir = "air UNIT BOX [if enemy BOX >= N] [else BOX]; boxes: F suppression|patrol, G bombing|airstrike|gs|interdiction (6.0)"

// airLine reads "air UNIT BOX [if enemy BOX OP N [and ...]] [else BOX]".
func (p *parser) airLine(f []string) (string, error) {
	if len(f) < 3 {
		return "", adjudicator.Refuse(hintAir, "air needs a unit and a box")
	}
	a, err := p.ownAir(f[1], "")
	if err != nil {
		return "", err
	}
	box := f[2]
	if err := boxFits(a, box); err != nil {
		return "", err
	}
	out := []string{"air", a.ID, box}
	rest := f[3:]
	if len(rest) > 0 && rest[0] == "if" {
		rest = rest[1:]
		var conds []string
		for more := adjudicator.Consuming(&rest); more() && rest[0] != "else"; {
			if len(rest) < 4 || rest[0] != "enemy" || !slices.Contains(boxes, rest[1]) || !slices.Contains([]string{">=", "<=", "<", ">", "="}, rest[2]) {
				return "", adjudicator.Refuse(hintAir, "%q is not an air condition: want enemy BOX >= N", strings.Join(rest, " "))
			}
			if _, err := strconv.Atoi(rest[3]); err != nil {
				return "", adjudicator.Refuse(hintAir, "%q is not a number", rest[3])
			}
			c := strings.Join(rest[:4], " ")
			if slices.Contains(conds, c) {
				return "", adjudicator.Refuse("give each condition once", "the condition %s is given twice", c)
			}
			if len(conds) == maxConds {
				return "", adjudicator.Refuse(fmt.Sprintf("at most %d conditions an air line (6.0)", maxConds), "more than %d conditions", maxConds)
			}
			conds = append(conds, c)
			rest = rest[4:]
			if len(rest) > 0 && rest[0] == "and" {
				rest = rest[1:]
			}
		}
		if len(conds) == 0 {
			return "", adjudicator.Refuse(hintAir, "if without a condition")
		}
		out = append(out, "if", strings.Join(conds, " and "))
	}
	if len(rest) > 0 {
		if len(rest) != 2 || rest[0] != "else" {
			return "", adjudicator.Refuse(hintAir, "%q: after the conditions only else BOX may follow", strings.Join(rest, " "))
		}
		if err := boxFits(a, rest[1]); err != nil {
			return "", err
		}
		out = append(out, "else", rest[1])
	}
	return strings.Join(out, " "), nil
}

func boxFits(a *air, box string) error {
	if !slices.Contains(boxes, box) {
		return adjudicator.Refuse(hintAir, "%q is not a mission box", box)
	}
	if a.c.Type == "F" && !slices.Contains(fBoxes, box) || a.c.Type == "G" && !slices.Contains(gBoxes, box) {
		return adjudicator.Refuse("F units go to suppression or patrol; G units to bombing, airstrike, gs or interdiction (3.3, 6.1)", "%s is %s unit: not for the %s box", a.ID, map[string]string{"F": "an F", "G": "a G"}[a.c.Type], box)
	}
	return nil
}

// mission reads "bomb [escort F,F]" and "airstrike UNIT with G,G [escort F,F]".
func (p *parser) mission(f []string) (string, error) {
	if f[0] == "bomb" {
		out := "bomb"
		if len(f) > 1 {
			if len(f) != 3 || f[1] != "escort" {
				return "", adjudicator.Refuse("bomb [escort F,F]: every G in your bombing box flies (6.1.2)", "%q is not part of a bombing order", strings.Join(f[1:], " "))
			}
			es, err := p.airList(f[2], "F")
			if err != nil {
				return "", err
			}
			out += " escort " + strings.Join(es, ",")
		}
		return out, nil
	}
	if len(f) < 4 || f[2] != "with" {
		return "", adjudicator.Refuse("airstrike UNIT with G,G [escort F,F] (6.1.3)", "airstrike needs a target and its G")
	}
	t, err := p.enemyUnit(f[1])
	if err != nil {
		return "", err
	}
	gs, err := p.airList(f[3], "G")
	if err != nil {
		return "", err
	}
	out := "airstrike " + t.ID + " with " + strings.Join(gs, ",")
	if len(f) > 4 {
		if len(f) != 6 || f[4] != "escort" {
			return "", adjudicator.Refuse("airstrike UNIT with G,G [escort F,F] (6.1.3)", "%q is not part of an airstrike", strings.Join(f[4:], " "))
		}
		es, err := p.airList(f[5], "F")
		if err != nil {
			return "", err
		}
		out += " escort " + strings.Join(es, ",")
	}
	return out, nil
}

// The absorption options (8.3).
var absorbOptions = []string{"static", "support", "retreat", "vp", "rout"}

// interceptKinds are the missions a standing intercept order covers.
var interceptKinds = []string{"bombing", "airstrike", "airmobile", "interdiction", "all"}

// quantity reads all, none or a number.
func quantity(s string) (string, bool) {
	if s == "all" || s == "none" {
		return s, true
	}
	n, err := strconv.Atoi(s)
	return strconv.Itoa(n), err == nil && n >= 0 && n < 100
}

// standing reads a standing order.
func (p *parser) standing(f []string) (string, error) {
	g := p.g
	args := f[1:]
	switch f[0] {
	case "absorb":
		if len(args) == 1 && args[0] == "ask" {
			return "absorb ask", nil
		}
		if len(args) == 0 {
			return "", adjudicator.Refuse("absorb OPTION... from static support retreat vp rout, in your order of preference (8.3); absorb ask", "absorb needs options")
		}
		for i, a := range args {
			if !slices.Contains(absorbOptions, a) {
				return "", adjudicator.Refuse("absorb OPTION... from static support retreat vp rout (8.3)", "%q is not a way to absorb LP", a)
			}
			if slices.Contains(args[:i], a) {
				return "", adjudicator.Refuse("name each option once, in your order of preference (8.3)", "%s is named twice", a)
			}
		}
		return "absorb " + strings.Join(args, " "), nil
	case "defend":
		s, err := defendArgs(args)
		return "defend " + s, err
	case "intercept":
		if len(args) != 2 || !slices.Contains(interceptKinds, args[0]) {
			return "", adjudicator.Refuse("intercept bombing|airstrike|airmobile|interdiction|all N|all|none|ask: how many patrol F intercept (6.2)", "intercept needs a mission and how many")
		}
		if args[1] == "ask" {
			return "intercept " + args[0] + " ask", nil
		}
		q, ok := quantity(args[1])
		if !ok {
			return "", adjudicator.Refuse("a number, all, none or ask", "%q is not how many", args[1])
		}
		return "intercept " + args[0] + " " + q, nil
	case "interdict":
		if len(args) == 1 && args[0] == "ask" {
			return "interdict ask", nil
		}
		if len(args) < 2 || args[0] != "sm" {
			return "", adjudicator.Refuse("interdict sm N|all|none [escort N|all|none]: G from your interdiction box against each enemy SM (6.3.1); interdict ask", "interdict needs sm and how many")
		}
		q, ok := quantity(args[1])
		if !ok {
			return "", adjudicator.Refuse("a number, all or none", "%q is not how many", args[1])
		}
		out := "interdict sm " + q
		if len(args) > 2 {
			if len(args) != 4 || args[2] != "escort" {
				return "", adjudicator.Refuse("interdict sm N [escort N|all|none]", "%q is not part of an interdict order", strings.Join(args[2:], " "))
			}
			e, ok := quantity(args[3])
			if !ok {
				return "", adjudicator.Refuse("a number, all or none", "%q is not how many", args[3])
			}
			out += " escort " + e
		}
		return out, nil
	case "advancing":
		if len(args) != 1 || !slices.Contains([]string{"lead", "none", "ask"}, args[0]) {
			return "", adjudicator.Refuse("advancing lead|none|ask: who advances after a PA that does not say (8.4)", "advancing takes lead, none or ask")
		}
		return "advancing " + args[0], nil
	case "entry", "italians":
		if len(args) == 0 {
			return "", adjudicator.Refuse(f[0]+" HEX...: the hexes to place in, in order of preference", "%s needs hexes", f[0])
		}
		var hs []string
		for _, a := range args {
			id, err := p.landHex(a)
			if err != nil {
				return "", err
			}
			if f[0] == "italians" && g.sc.Map.Area[id] != Italy {
				return "", adjudicator.Refuse("the Italians are placed in Italy (5.1.2)", "%s is not in Italy", a)
			}
			if f[0] == "entry" && !g.mayEnter(p.side, id) {
				return "", adjudicator.Refuse("your units enter in or next to: "+strings.Join(g.entryHexList(p.side), " ")+" (5.0, 5.3)", "no unit of yours ever enters at %s: it is not in or next to one of your entry hexes", a)
			}
			if slices.Contains(hs, g.hex(id)) {
				return "", adjudicator.Refuse("name each hex once, in your order of preference", "%s is named twice", g.hex(id))
			}
			hs = append(hs, g.hex(id))
		}
		if f[0] == "italians" && p.side != NATO {
			return "", adjudicator.Refuse(hintStanding, "only NATO places the Italians (5.1.2)")
		}
		return f[0] + " " + strings.Join(hs, " "), nil
	case "oncall":
		if len(args) != 2 {
			return "", adjudicator.Refuse("oncall UNIT BOX: where the air unit goes after a successful On-Call check (6.7)", "oncall needs an air unit and a box")
		}
		a, err := p.ownAir(args[0], "")
		if err != nil {
			return "", err
		}
		if args[1] != "stay" {
			if err := boxFits(a, args[1]); err != nil {
				return "", err
			}
		}
		return "oncall " + a.ID + " " + args[1], nil
	case "stop":
		if len(args) == 1 && args[0] == "none" {
			return "stop none", nil
		}
		if len(args) < 4 || args[0] != "after" || args[1] != "attack" || args[2] != "on" {
			return "", adjudicator.Refuse("stop after attack on HEX...|any: hold your queue and ask you after such an enemy attack; stop none", "stop needs after attack on HEX... or any")
		}
		if len(args) == 4 && args[3] == "any" {
			return "stop after attack on any", nil
		}
		var hs []string
		for _, a := range args[3:] {
			id, err := p.landHex(a)
			if err != nil {
				return "", err
			}
			if slices.Contains(hs, g.hex(id)) {
				return "", adjudicator.Refuse("name each hex once", "%s is named twice", g.hex(id))
			}
			hs = append(hs, g.hex(id))
		}
		return "stop after attack on " + strings.Join(hs, " "), nil
	}
	return "", fmt.Errorf("%q is not a standing order", f[0]) // lineKind lets no other verb through
}

// defendArgs reads "gs N|all|none interdict N|all|none escort N|all|none",
// "none" or "ask".
func defendArgs(args []string) (string, error) {
	hint := "defend [gs N|all|none] [interdict N|all|none] [escort N|all|none]: what you commit when attacked (6.3.2, 6.5); defend none; defend ask"
	if len(args) == 1 && (args[0] == "none" || args[0] == "ask") {
		return args[0], nil
	}
	if len(args) == 0 || len(args)%2 != 0 {
		return "", adjudicator.Refuse(hint, "defend needs gs, interdict or escort with how many")
	}
	vals := map[string]string{"gs": "none", "interdict": "none", "escort": "none"}
	for i := 0; i < len(args); i += 2 {
		if _, ok := vals[args[i]]; !ok {
			return "", adjudicator.Refuse(hint, "%q is not gs, interdict or escort", args[i])
		}
		q, ok := quantity(args[i+1])
		if !ok {
			return "", adjudicator.Refuse(hint, "%q is not how many", args[i+1])
		}
		vals[args[i]] = q
	}
	return "gs " + vals["gs"] + " interdict " + vals["interdict"] + " escort " + vals["escort"], nil
}

// decide reads the answer to the pending decision: "decide ARGS".
func (p *parser) decide(f []string) (string, error) {
	g := p.g
	pd := g.Pending
	if pd == nil || pd.Kind != phaseDecision || pd.Seat != p.seat { // decide lines reach only a decision step's seat
		return "", fmt.Errorf("decide answers a question this step does not ask")
	}
	args := f[1:]
	if len(args) == 0 {
		return "", adjudicator.Refuse(pd.Hint, "decide needs the answer")
	}
	switch pd.Decide {
	case "intercept":
		if len(args) != 1 {
			return "", adjudicator.Refuse(pd.Hint, "decide takes how many F: a number, all or none")
		}
		q, ok := quantity(args[0])
		if !ok {
			return "", adjudicator.Refuse(pd.Hint, "%q is not how many", args[0])
		}
		return "decide " + q, nil
	case "defend":
		s, err := defendArgs(args)
		if err != nil || s == "ask" {
			return "", adjudicator.Refuse(pd.Hint, "%v", orAsk(err))
		}
		return "decide " + s, nil
	case "interdict":
		s, err := p.standing(append([]string{"interdict"}, args...))
		if err != nil || s == "interdict ask" {
			return "", adjudicator.Refuse(pd.Hint, "%v", orAsk(err))
		}
		return "decide " + strings.TrimPrefix(s, "interdict "), nil
	case "absorb":
		var opts, path []string
		for _, a := range args {
			if slices.Contains(absorbOptions, a) {
				if slices.Contains(opts, a) {
					return "", adjudicator.Refuse(pd.Hint, "%s is named twice", a)
				}
				opts = append(opts, a)
				continue
			}
			if len(opts) == 0 || opts[len(opts)-1] != "retreat" {
				return "", adjudicator.Refuse(pd.Hint, "%q is not a way to absorb LP (static support retreat vp rout), nor a hex after retreat", a)
			}
			id, err := p.hexArg(a)
			if err != nil {
				return "", err
			}
			path = append(path, g.hex(id))
		}
		if len(path) > 3 {
			return "", adjudicator.Refuse(pd.Hint, "a retreat is 1 to 3 hexes (8.3)")
		}
		s := "decide " + strings.Join(opts, " ")
		if len(path) > 0 {
			s = strings.Replace(s, "retreat", "retreat "+strings.Join(path, " "), 1)
		}
		return s, nil
	case "advance":
		if len(args) != 1 {
			return "", adjudicator.Refuse(pd.Hint, "decide none, decide lead, or decide UNIT[>HEX>HEX],UNIT")
		}
		if args[0] == "none" || args[0] == "lead" {
			return "decide " + args[0], nil
		}
		return p.decideAdvance(args[0])
	}
	return "", fmt.Errorf("decide does not fit this question") // every kind asked is above
}

// decideAdvance reads who advances after a PA (8.4): the lead and the
// supporting units of the PA the question is about, each once, each path
// from the combat hex and within the AACMA rolled.
func (p *parser) decideAdvance(s string) (string, error) {
	g := p.g
	pd := g.Pending
	var lead *Unit
	var with []string
	var target board.ID
	aacma := aacmaMax
	if w := pd.Work; w != nil {
		f := strings.Fields(w.Line)
		if len(f) >= 3 && f[0] == "pa" {
			lead = g.byID[f[1]]
			target, _ = g.grid.Parse(f[2])
			if i := slices.Index(f, "with"); i >= 0 && i+1 < len(f) {
				with = strings.Split(f[i+1], ",")
			}
		}
		for _, d := range w.Draws {
			if strings.HasPrefix(d.Purpose, "1995 8.4") && len(d.Values) == 1 {
				aacma = 2 * AACMA(d.Values[0])
			}
		}
	}
	if lead == nil { // no PA to read: each unit and hex must at least exist
		seen := map[string]bool{}
		for _, part := range strings.Split(s, ",") {
			parts := strings.Split(part, ">")
			u, err := p.mapUnit(parts[0])
			if err != nil {
				return "", err
			}
			if seen[u.ID] {
				return "", adjudicator.Refuse(pd.Hint, "%s is named twice", u.ID)
			}
			seen[u.ID] = true
			if len(parts) > aacmaMax+1 {
				return "", adjudicator.Refuse(pd.Hint, "%s's advance costs more than 4 MP: the AACMA is at most 4 (8.4)", u.ID)
			}
			for _, h := range parts[1:] {
				if _, err := p.landHex(h); err != nil {
					return "", err
				}
			}
		}
		return "decide " + s, nil
	}
	advs, _, err := p.parseAdvance(s, lead, with, target)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, ad := range advs {
		if err := p.advanceBar(g.byID[ad.Unit], target, ad.Path, aacma); err != nil {
			return "", err
		}
		part := ad.Unit
		for _, h := range ad.Path {
			part += ">" + g.hex(h)
		}
		parts = append(parts, part)
	}
	return "decide " + strings.Join(parts, ","), nil
}

func orAsk(err error) error {
	if err == nil {
		return fmt.Errorf("ask is a standing order, not an answer")
	}
	return err
}
