package bu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Game is Brotherhood & Unity as a hosted game for three seats (Serb, Croat,
// Bosniak) or two (Serb against the Bosniak-Croat player, 14.0): a set-up
// step, a start-of-turn step each turn that every seat owes (6.2, 6.3), one
// step per action round owed by the active seat (7.0), and a follow-up step
// only where a seat's standing orders do not decide (losses 13.4.6.2,
// retreats 13.4.8, advances 13.4.9, the 2-player ties of 14.6). Hands are
// dealt from each seat's hidden dice stream (deck-serb...), whose key only
// that seat's reports carry.
var Game adjudicator.Rules = rules{}

type rules struct{}

func (rules) ID() string    { return "bu" }
func (rules) Title() string { return "Brotherhood & Unity" }

func (rules) Seats(scenario string) ([]string, error) {
	switch scenario {
	case "three", "":
		return []string{seatSerb, seatCroat, seatBosniak}, nil
	case "two":
		return []string{seatSerb, seatBC}, nil
	}
	return nil, fmt.Errorf("bu: no scenario %q: the scenarios are three (Serb, Croat, Bosniak) and two (Serb against the Bosniak-Croat player, 14.0)", scenario)
}

// FileOptions implements adjudicator.FileOptions: the data files.
func (rules) FileOptions() []string { return []string{"map", "counters", "cards", "tracks"} }

var optionNames = []string{"map", "counters", "cards", "tracks", "extended", "fight_to_the_end", "last_turn"}

func (r rules) New(scenario string, options map[string]string) ([]byte, error) {
	seats, err := r.Seats(scenario)
	if err != nil {
		return nil, err
	}
	for k := range options {
		if !slices.Contains(optionNames, k) {
			return nil, fmt.Errorf("bu: no option %q (options: %s)", k, strings.Join(optionNames, ", "))
		}
	}
	data, err := readData(options)
	if err != nil {
		return nil, err
	}
	s := &State{Data: data, Seats: seats, Turn: 1, Phase: phaseSetup, LastTurn: gameTurns}
	switch v := options["extended"]; v {
	case "", "0", "no":
	case "1", "2":
		s.Extended, _ = strconv.Atoi(v)
	default:
		return nil, fmt.Errorf("bu: option extended %q: want 1 or 2 extra cards a hand (15.1), or 0", v)
	}
	switch v := options["fight_to_the_end"]; v {
	case "", "no":
	case "yes":
		s.FightToEnd = true
	default:
		return nil, fmt.Errorf("bu: option fight_to_the_end %q: want yes or no (15.2)", v)
	}
	if v := options["last_turn"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > gameTurns {
			return nil, fmt.Errorf("bu: option last_turn %q: want a turn from 1 to %d (a shortened game; the rules play 4)", v, gameTurns)
		}
		if s.FightToEnd && n < gameTurns {
			return nil, fmt.Errorf("bu: option last_turn %q: Fight To The End plays turn 4 again and again (15.2); leave last_turn out", v)
		}
		s.LastTurn = n
	}
	g := &game{State: s}
	if g.sc, err = data.Load(); err != nil {
		return nil, err
	}
	g.setUp()
	return g.encode()
}

// setUp places the units, markers and decks (4.1, 14.2).
func (g *game) setUp() {
	m := g.sc.Map
	g.Sides = map[Side]*sideState{}
	for _, side := range sides {
		g.Sides[side] = &sideState{SW: 30} // 4.1.4, 4.1.5
	}
	g.Control, g.Regions = map[string]Side{}, map[string]Side{}
	for _, sp := range m.Spaces {
		if !sp.Foreign() {
			g.Control[sp.ID] = sp.Control
		}
	}
	for _, reg := range m.Regions {
		if reg.Control != "" && !(reg.Choose2P && !g.TwoPlayer()) {
			g.Regions[reg.ID] = reg.Control
		}
	}
	placed := map[string]string{}
	for space, units := range g.sc.Setup {
		for _, u := range units {
			placed[u] = space
		}
	}
	arrives := map[string]int{}
	for _, r := range g.sc.Counters.Reinforcements {
		for _, u := range r.Units {
			arrives[u] = r.Turn
		}
	}
	for _, d := range g.sc.Counters.Units {
		u := &unit{ID: d.ID, Box: pool, def: d, Arrives: arrives[d.ID]}
		if sp, ok := placed[d.ID]; ok {
			u.Box, u.Space = onMap, sp
		}
		g.Units = append(g.Units, u)
	}
	g.Decks, g.Hands = map[string]*deckState{}, map[string][]string{}
	for _, seat := range g.Seats {
		d := &deckState{}
		for _, c := range g.sc.Deck.Cards {
			if !slices.Contains(g.seatSides(seat), c.Deck) {
				continue
			}
			switch {
			case g.TwoPlayer() && seat == seatBC && c.Remove2P: // 14.2.6
				d.Out = append(d.Out, c.ID)
			case c.Period == late: // 4.1.6
				d.Late = append(d.Late, c.ID)
			default:
				d.Draw = append(d.Draw, c.ID)
			}
		}
		g.Decks[seat], g.Hands[seat] = d, []string{}
	}
}

// label names the step open in reports and the dice log.
func (g *game) label() string {
	switch g.Phase {
	case phaseSetup:
		return "set-up"
	case phaseStart:
		return fmt.Sprintf("turn %d: start of turn", g.Turn)
	case phaseRound:
		return fmt.Sprintf("turn %d, round %d: %s", g.Turn, g.Rounds+1, g.Active)
	case phaseDecide:
		return fmt.Sprintf("turn %d, round %d: %s", g.Turn, g.Rounds+1, g.Pending.Label)
	}
	return "over"
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	g, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if g.Over {
		return adjudicator.StepSpec{Over: true, Phase: phaseOver}, nil
	}
	no := map[string]string{}
	var owing []string
	switch g.Phase {
	case phaseSetup:
		owing = slices.Clone(g.Seats)
		for _, s := range owing {
			no[s] = "no standing orders"
			if s == seatBC {
				no[s] = "no standing orders; the regions' markers go to the side controlling more of their spaces (14.2.2)"
			}
		}
	case phaseStart:
		owing = g.order()
		for _, s := range owing {
			no[s] = "standing orders unchanged; the umpire places your reinforcements; no Foreign Unit changes"
		}
	case phaseRound:
		owing = []string{g.Active}
		no[g.Active] = "the umpire plays your lowest-value card for a Diplomatic Action (11.1)"
	case phaseDecide:
		owing = slices.Clone(g.Pending.Seats)
		for _, s := range owing {
			no[s] = g.Pending.Default
		}
	}
	return adjudicator.StepSpec{Phase: g.label(), Owing: owing, NoOrders: no}, nil
}

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	g, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Text: err.Error(), Hint: "tell the game master: the game's state cannot be read"}}
	}
	if g.Over {
		return nil, []adjudicator.Problem{{Text: "the game is over", Hint: "no orders are due"}}
	}
	if !slices.Contains(g.Seats, seat) {
		return nil, []adjudicator.Problem{{Text: fmt.Sprintf("%q is not a seat of this game", seat), Hint: "the seats are " + strings.Join(g.Seats, ", ")}}
	}
	return g.parse(seat, lines)
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	g, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	if g.Over {
		return nil, nil, fmt.Errorf("bu: the game is over")
	}
	g.r = r
	g.Arrows = nil
	switch g.Phase {
	case phaseSetup:
		g.adjudicateSetup(orders)
	case phaseStart:
		g.adjudicateStart(orders)
	case phaseRound:
		g.adjudicateRound(orders[g.Active])
	case phaseDecide:
		g.adjudicateDecision(orders)
	default:
		return nil, nil, fmt.Errorf("bu: unknown phase %q", g.Phase)
	}
	next, err := g.encode()
	if err != nil {
		return nil, nil, err
	}
	events := make([]adjudicator.Event, len(g.events))
	for i, e := range g.events {
		events[i] = adjudicator.Event{Rule: e.rule, Text: e.text, Visible: e.visible}
	}
	return next, events, nil
}

// deckStream is the hidden dice stream a seat's deck is shuffled from
// before each of its draws: one a deck, never one for everything.
func deckStream(seat string) string { return "deck-" + strings.ToLower(seat) }

// HiddenStreams implements adjudicator.HiddenStreams: one stream a deck.
func (rules) HiddenStreams(state []byte) ([]string, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range g.Seats {
		out = append(out, deckStream(s))
	}
	slices.Sort(out)
	return out, nil
}

// StreamSeat implements adjudicator.StreamSeats: a deck's shuffles are its
// seat's to check at once (the shuffle before a draw shows the seat its own
// new hand and the order of cards the next draw shuffles again).
func (rules) StreamSeat(state []byte, stream string) string {
	g, err := decode(state)
	if err != nil {
		return ""
	}
	for _, s := range g.Seats {
		if deckStream(s) == stream {
			return s
		}
	}
	return ""
}
