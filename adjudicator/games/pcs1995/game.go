package pcs1995

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// Game is 1995: Milosevic's Last Gamble as a hosted game. A game turn is
// one step for both seats (placement, the air allocation script, the
// strategic bombing orders and an activation queue each); the judge
// interleaves the two queues in strict alternation and opens a one-seat
// step only when a queue runs out, a line cannot be carried out, a stop
// order holds a queue, or a decision inside an activation is not given by
// the seat's standing orders (docs/orders-pcs1995.md). Option strict makes
// every activation and air placement its own step.
var Game adjudicator.Rules = rules{}

type rules struct{}

func (rules) ID() string    { return "pcs1995" }
func (rules) Title() string { return "1995: Milosevic's Last Gamble" }

// Scenarios lists the scenarios: the demo, whose map, counters and chits
// a game master may replace with files (options map, counters, chits).
func Scenarios() []string { return []string{"demo"} }

func (rules) Seats(scenario string) ([]string, error) {
	if scenario != "demo" && scenario != "" {
		return nil, fmt.Errorf("pcs1995: no scenario %q: the scenario is demo (load the published map, counters and chits with the options map, counters and chits)", scenario)
	}
	return []string{seatNATO, seatRS}, nil
}

// FileOptions implements adjudicator.FileOptions: map, counters and chits
// name a file or hold its text (a game created by mail gives the text).
func (rules) FileOptions() []string { return []string{"map", "counters", "chits"} }

// New is the state before the set-up. Options: map, counters, chits (a
// game master's data files, docs/scenario-pcs1995.md); strict = yes makes
// every activation and air placement its own step.
func (r rules) New(scenario string, options map[string]string) ([]byte, error) {
	if _, err := r.Seats(scenario); err != nil {
		return nil, err
	}
	for k := range options {
		if !slices.Contains([]string{"map", "counters", "chits", "strict"}, k) {
			return nil, fmt.Errorf("pcs1995: no option %q (options: map, counters, chits, strict)", k)
		}
	}
	data, err := readData(options["map"], options["counters"], options["chits"])
	if err != nil {
		return nil, err
	}
	s := &State{Data: data, Core: Core{Phase: phaseSetup, VP: startVP}}
	switch options["strict"] {
	case "", "no":
	case "yes":
		s.Strict = true
	default:
		return nil, fmt.Errorf("pcs1995: option strict %q: want yes or no", options["strict"])
	}
	sc, err := data.Load()
	if err != nil {
		return nil, err
	}
	for _, c := range sc.Counters {
		u := &Unit{ID: c.ID}
		if c.Reinforcement != "" {
			u.Status = pool
		} else {
			u.Hex = sc.Map.Grid.Format(c.Hex)
		}
		s.Units = append(s.Units, u)
	}
	for _, c := range sc.Air {
		a := &air{ID: c.ID, Box: boxPatrol}
		if c.Type == "G" {
			a.Box = boxGS
		}
		if c.Reinforcement != "" {
			a.Box = boxPool
		}
		s.Air = append(s.Air, a)
	}
	for _, ch := range sc.Chits {
		s.Cup = append(s.Cup, ch.ID)
	}
	s.Control = map[string]faction{}
	for id, side := range sc.initial {
		s.Control[sc.Map.Grid.Format(id)] = side
	}
	g, err := load(s)
	if err != nil {
		return nil, err
	}
	return g.encode()
}

// label names the step open.
func (g *game) label() string {
	switch g.Phase {
	case phaseSetup:
		return "set-up (12.0)"
	case phaseTurn:
		return fmt.Sprintf("turn %d: reinforcements, air commitment and activation queues", g.Turn)
	case phaseQueue:
		return fmt.Sprintf("turn %d: Action Phase, %s's activations", g.Turn, g.Pending.Seat)
	case phaseAir:
		return fmt.Sprintf("turn %d: air commitment, %s's next placement", g.Turn, g.Pending.Seat)
	case phaseDecision:
		return fmt.Sprintf("turn %d: %s's %s decision", g.Turn, g.Pending.Seat, g.Pending.Decide)
	}
	return "the game is over"
}

// owing lists the seats the step waits for and what no orders means.
func (g *game) owing() ([]string, map[string]string) {
	switch g.Phase {
	case phaseSetup:
		no := "the set-up hexes of the counter list"
		return []string{seatNATO, seatRS}, map[string]string{seatNATO: no, seatRS: no}
	case phaseTurn:
		no := "arrivals placed by your entry order (else the first eligible entry hex), air units in their default boxes, no strategic missions, and an empty queue (you are asked at your first activation)"
		return []string{seatNATO, seatRS}, map[string]string{seatNATO: no, seatRS: no}
	case phaseQueue, phaseAir:
		return []string{g.Pending.Seat}, map[string]string{g.Pending.Seat: g.Pending.Default}
	case phaseDecision:
		return []string{g.Pending.Seat}, map[string]string{g.Pending.Seat: "the default answer: " + g.Pending.Default}
	}
	return nil, nil
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if g.Over {
		return adjudicator.StepSpec{Over: true, Phase: phaseOver}, nil
	}
	seats, no := g.owing()
	return adjudicator.StepSpec{Phase: g.label(), Owing: seats, NoOrders: no}, nil
}

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	g, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Text: err.Error(), Hint: "the judge cannot read this game's state: tell the game master"}}
	}
	if g.Over {
		return nil, []adjudicator.Problem{{Text: "the game is over", Hint: "no orders are due"}}
	}
	seats, _ := g.owing()
	if !slices.Contains(seats, seat) {
		return nil, []adjudicator.Problem{{Text: fmt.Sprintf("no orders are due from %s in this step (%s): %s's are", seat, g.label(), strings.Join(seats, " and ")),
			Hint: "send your orders when a step asks for them; the report's Next says whose are due"}}
	}
	return g.parseLines(seat, lines)
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	g, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	if g.Over {
		return nil, nil, fmt.Errorf("pcs1995: the game is over")
	}
	g.r = &workRoller{base: r, g: g}
	clean := map[string][]string{}
	for seat, lines := range orders {
		for _, l := range lines {
			if l = kit.StripComment(l); l != "" {
				clean[seat] = append(clean[seat], l)
			}
		}
	}
	if err := g.step(clean); err != nil {
		return nil, nil, err
	}
	next, err := g.encode()
	return next, g.events, err
}

// step adjudicates the step open with the seats' canonical orders.
func (g *game) step(orders map[string][]string) error {
	g.Arrows, g.Marks = nil, nil
	var resume *work
	switch g.Phase {
	case phaseSetup:
		for _, seat := range []string{seatNATO, seatRS} {
			g.applyStanding(seat, orders[seat])
		}
		g.setup(orders)
		g.beginTurn(1)
		return nil
	case phaseTurn:
		for _, seat := range []string{seatNATO, seatRS} {
			g.applyStanding(seat, orders[seat])
			for _, l := range orders[seat] {
				switch lineKind(strings.Fields(l)) {
				case "air":
					g.Script[seat] = append(g.Script[seat], l)
				case "mission":
					g.Missions[seat] = append(g.Missions[seat], l)
				case "activation":
					g.Queue[seat] = append(g.Queue[seat], l)
				}
			}
		}
		g.placement(orders)
		g.Stage = stageAir
	case phaseQueue:
		p := g.Pending
		g.Pending = nil
		seat := p.Seat
		g.applyStanding(seat, orders[seat])
		acts := linesOf(orders[seat], "activation")
		switch {
		case len(acts) > 0:
			g.Queue[seat], g.Held[seat] = acts, false
		case p.Resume:
			g.Held[seat] = false
			g.ev("7.0", "%s sends no new activations: its held queue goes on.", seat)
		case len(orders[seat]) == 0:
			g.Passed[seat] = true
			g.ev("7.0", "%s sends no activations: it passes for the rest of the turn.", seat)
		}
	case phaseAir:
		p := g.Pending
		g.Pending = nil
		g.applyStanding(p.Seat, orders[p.Seat])
		g.Script[p.Seat] = linesOf(orders[p.Seat], "air")
		if len(g.Script[p.Seat]) == 0 {
			if left := g.unplaced(sideOf(p.Seat)); len(left) > 0 {
				left[0].Box = defaultBox(left[0])
				g.ev("6.0", "%s sends no air placement: %s goes to its default %s box.", p.Seat, left[0].ID, left[0].Box)
				g.AirNext = other(sideOf(p.Seat))
			}
		}
	case phaseDecision:
		p := g.Pending
		w := p.Work
		if err := g.restore(w.Snapshot); err != nil {
			return err
		}
		g.Arrows, g.Marks = nil, nil
		g.applyStanding(p.Seat, orders[p.Seat])
		if acts := linesOf(orders[p.Seat], "activation"); len(acts) > 0 {
			g.Queue[p.Seat] = acts
		}
		answer := ""
		for _, l := range linesOf(orders[p.Seat], "decide") {
			answer = strings.TrimPrefix(l, "decide ")
		}
		switch {
		case answer != "":
			w.Decisions = append(w.Decisions, answer)
		case len(orders[p.Seat]) > 0:
			if _, ok := g.standingAnswer(p.Seat, p.Decide, p.Key); !ok {
				w.Decisions = append(w.Decisions, p.Default)
				g.ev(decisionRule[p.Decide], "%s gives no answer to the %s question: the default applies (%s).", p.Seat, p.Decide, p.Default)
			}
		default:
			w.Decisions = append(w.Decisions, p.Default)
			g.ev(decisionRule[p.Decide], "%s sends no orders for the %s decision: the default applies (%s).", p.Seat, p.Decide, p.Default)
		}
		w.Snapshot = nil
		resume = w
	default:
		return fmt.Errorf("pcs1995: state: unknown phase %q", g.Phase)
	}
	g.runStages(resume)
	switch {
	case g.Over:
		g.Phase = phaseOver
	case g.Pending != nil:
		g.Phase = g.Pending.Kind
	}
	return nil
}

// decisionRule is the rule each decision belongs to, for events.
var decisionRule = map[string]string{
	"intercept": "6.2", "defend": "6.5", "interdict": "6.3.1", "absorb": "8.3", "advance": "8.4",
}

func linesOf(lines []string, kind string) []string {
	var out []string
	for _, l := range lines {
		if lineKind(strings.Fields(l)) == kind {
			out = append(out, l)
		}
	}
	return out
}

// applyStanding keeps a seat's standing orders.
func (g *game) applyStanding(seat string, lines []string) {
	for _, l := range lines {
		f := strings.Fields(l)
		if lineKind(f) != "standing" {
			continue
		}
		st := g.Standing[seat]
		if st == nil {
			st = map[string]string{}
			g.Standing[seat] = st
		}
		rest := strings.Join(f[1:], " ")
		switch f[0] {
		case "intercept":
			st["intercept:"+f[1]] = f[2]
		case "oncall":
			st["oncall:"+f[1]] = f[2]
		case "interdict":
			st["interdict"] = rest
		default:
			st[f[0]] = rest
		}
	}
}

// runStages carries the turn's work on from where it stands until orders
// are needed: the air allocation, the strategic bombing missions, the
// Action Phase, then the Cleanup and the next turn's Reinforcement &
// Recovery Phase.
func (g *game) runStages(resume *work) {
	for !g.Over {
		switch g.Stage {
		case stagePlacement:
			g.Stage = stageAir
		case stageAir:
			if !g.allocate() {
				return
			}
			g.Plan = g.planMissions()
			g.Stage = stageBombing
		case stageBombing:
			var r *work
			if resume != nil && resume.Kind == "mission" {
				r, resume = resume, nil
			}
			if !g.bombing(r) {
				return
			}
			g.Stage, g.Current = stageAction, g.Initiative
			g.ev("7.0", "Action Phase: %s activates first.", g.Initiative)
		case stageAction:
			if !g.actionPhase(resume) {
				return
			}
			g.endTurn()
			return
		default:
			return
		}
	}
}

// DefaultOrders says in plain words what no usable orders from seat mean
// at the deadline of an Action Phase step: passing for the rest of the turn
// (7.0), or the held queue going on; other steps leave it to their
// NoOrders.
func (rules) DefaultOrders(state []byte, seat string) string {
	g, err := decode(state)
	if err != nil || g.Pending == nil || g.Phase != phaseQueue || g.Pending.Seat != seat {
		return ""
	}
	if g.Pending.Resume {
		return seat + "'s held queue goes on as it is"
	}
	return seat + " passes for the rest of the turn (7.0)"
}
