// Package fake is a small game for testing the judge: it has every kind of
// step the real games have (all seats ordering at once, a decision window
// for one seat, information hidden from the other seats) and dice on both
// streams. It is not a game anyone plays; its rules are this comment.
//
// Scenarios: "duel" (seats A and B), "trio" (A, B and C) and "quartet" (A,
// B, C and D). Each seat owns units named after it (A1, A2; B1, B2; ...).
// Option "turns" (default 3, at most MaxTurns) sets the number of order steps; option
// "no_orders" (pass or repeat) what a seat without orders does.
//
// In an order step every seat may give, one per line:
//
//	roll N            roll N d6 (N from 1 to 3) and add them to the score
//	move UNIT HEX     move one of the seat's own units to a hex (4 digits)
//	challenge SEAT    the next step is a window in which SEAT alone decides
//	secret            draw a hidden card (1-9) that only this seat sees
//	show              show every hidden card this seat has drawn to all
//	pass
//
// No orders means pass, or with option no_orders = "repeat" the seat's last
// orders again. A challenged seat answers "accept" (both roll 1d6,
// the higher gains 5) or "refuse" (the challenger gains 2); no answer means
// refuse.
//
// Hidden cards are drawn from the seat's own hidden dice stream, "hand-a"
// for seat A (dice-v2 streams, HiddenStreams): that seat's reports carry the
// stream's key, and "show" publishes its keys (dice.Reveal), since the cards
// are no secret any more. No order names a card, so with the game file's
// publish_orders every seat's orders are published as accepted
// (PublicOrders).
package fake

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// MaxTurns is the most order steps a fake game may have.
const MaxTurns = 99

// Game is the fake game's rules.
var Game adjudicator.Rules = rules{}

type rules struct{}

// State is the fake game's state.
type State struct {
	Seats      []string          `json:"seats"`
	Turn       int               `json:"turn"`  // order steps done
	Turns      int               `json:"turns"` // order steps in the game
	Score      map[string]int    `json:"score"`
	Units      map[string]string `json:"units"` // unit -> hex
	Secrets    map[string][]int  `json:"secrets"`
	Window     string            `json:"window,omitempty"`     // seat deciding in a window step
	Challenger string            `json:"challenger,omitempty"` // who opened it
	NoOrders   string            `json:"no_orders,omitempty"`  // a seat's default in order steps: pass or repeat
}

func (rules) ID() string    { return "fake" }
func (rules) Title() string { return "Fake (a test game)" }

func (rules) Seats(scenario string) ([]string, error) {
	switch scenario {
	case "duel":
		return []string{"A", "B"}, nil
	case "trio":
		return []string{"A", "B", "C"}, nil
	case "quartet":
		return []string{"A", "B", "C", "D"}, nil
	}
	return nil, fmt.Errorf("no scenario %q: the fake game has duel, trio and quartet", scenario)
}

func (r rules) New(scenario string, options map[string]string) ([]byte, error) {
	seats, err := r.Seats(scenario)
	if err != nil {
		return nil, err
	}
	s := State{Seats: seats, Turns: 3, Score: map[string]int{}, Units: map[string]string{}, Secrets: map[string][]int{}}
	if t, ok := options["turns"]; ok {
		if s.Turns, err = strconv.Atoi(t); err != nil || s.Turns < 1 || s.Turns > MaxTurns {
			return nil, fmt.Errorf("option turns %q: want a whole number from 1 to %d", t, MaxTurns)
		}
	}
	switch s.NoOrders = options["no_orders"]; s.NoOrders {
	case "", "pass", "repeat":
	default:
		return nil, fmt.Errorf("option no_orders %q: want pass or repeat", s.NoOrders)
	}
	for i, seat := range seats {
		s.Score[seat] = 0
		for u := 1; u <= 2; u++ {
			s.Units[fmt.Sprintf("%s%d", seat, u)] = fmt.Sprintf("%02d%02d", i+1, u)
		}
	}
	return json.Marshal(s)
}

func decode(state []byte) (State, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return s, fmt.Errorf("fake: state: %w", err)
	}
	return s, nil
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	s, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if s.Window != "" {
		return adjudicator.StepSpec{Phase: fmt.Sprintf("turn-%d window %s", s.Turn, s.Window), Owing: []string{s.Window},
			NoOrders: map[string]string{s.Window: "refuse"}}, nil
	}
	if s.Turn >= s.Turns {
		return adjudicator.StepSpec{Over: true}, nil
	}
	no := map[string]string{}
	for _, seat := range s.Seats {
		no[seat] = "pass"
		if s.NoOrders == "repeat" {
			no[seat] = "repeat"
		}
	}
	return adjudicator.StepSpec{Phase: fmt.Sprintf("turn-%d", s.Turn+1), Owing: slices.Clone(s.Seats), NoOrders: no}, nil
}

// verbs is the fake game's order table: ParseOrders takes only its verbs,
// and `help fake` mails it.
var verbs = adjudicator.Verbs{
	{Name: "roll", Form: "roll N", Phases: []string{"order step"}, Rules: "fake", Example: "roll 2",
		Summary: "roll N six-sided dice (N from 1 to 3) on the open stream and add them to the seat's score"},
	{Name: "move", Form: "move UNIT HEX", Phases: []string{"order step"}, Rules: "fake", Example: "move A1 0303",
		Summary: "move one of the seat's own units (A1, A2 for seat A) to a hex of four digits"},
	{Name: "challenge", Form: "challenge SEAT", Phases: []string{"order step"}, Rules: "fake", Example: "challenge B",
		Summary: "the next step is a window in which SEAT alone decides"},
	{Name: "secret", Form: "secret", Phases: []string{"order step"}, Rules: "fake", Example: "secret",
		Summary: "draw a hidden card (1 to 9) that only this seat, and the game master, see"},
	{Name: "show", Form: "show", Phases: []string{"order step"}, Rules: "fake", Example: "show",
		Summary: "show every hidden card this seat has drawn to all"},
	{Name: "pass", Form: "pass", Phases: []string{"order step"}, Rules: "fake", Example: "pass",
		Summary: "do nothing (no orders means pass, or with no_orders = \"repeat\" the seat's last orders again)"},
	{Name: "accept", Form: "accept", Phases: []string{"window"}, Rules: "fake", Example: "accept",
		Summary: "take the challenge: both seats roll one die, the higher gains 5 points (the challenger wins ties)"},
	{Name: "refuse", Form: "refuse", Phases: []string{"window"}, Rules: "fake", Example: "refuse",
		Summary: "refuse the challenge: the challenger gains 2 (no answer means refuse)"},
}

// Verbs implements adjudicator.Grammar.
func (rules) Verbs() adjudicator.Verbs { return verbs }

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	s, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Text: err.Error(), Hint: "the judge cannot read this game's state: tell the game master"}}
	}
	var out []string
	var problems []adjudicator.Problem
	bad := func(l adjudicator.OrderLine, text, hint string) {
		problems = append(problems, adjudicator.Problem{Line: l.Line, Text: text, Hint: hint})
	}
	for _, l := range lines {
		f := strings.Fields(strings.ToLower(l.Text))
		verb := ""
		if len(f) > 0 && verbs.Has(f[0]) {
			verb = f[0] // a word not in the table is no verb
		}
		if s.Window != "" {
			if len(f) == 1 && (verb == "accept" || verb == "refuse") {
				out = append(out, f[0])
			} else {
				bad(l, fmt.Sprintf("%q is not an answer to the challenge", l.Text), "write accept or refuse")
			}
			continue
		}
		switch {
		case len(f) == 1 && (verb == "pass" || verb == "secret" || verb == "show"):
			out = append(out, f[0])
		case len(f) == 2 && verb == "roll":
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 3 {
				bad(l, fmt.Sprintf("roll %s: roll 1 to 3 dice", f[1]), "write roll 2")
				continue
			}
			out = append(out, "roll "+f[1])
		case len(f) == 3 && verb == "move":
			unit := strings.ToUpper(f[1])
			if _, ok := s.Units[unit]; !ok {
				bad(l, fmt.Sprintf("there is no unit %s", unit), "your units are "+strings.Join(unitsOf(s, seat), ", "))
				continue
			}
			if !strings.HasPrefix(unit, seat) {
				bad(l, fmt.Sprintf("%s is not yours: it belongs to %s", unit, unit[:len(unit)-1]), "your units are "+strings.Join(unitsOf(s, seat), ", "))
				continue
			}
			if len(f[2]) != 4 || strings.Trim(f[2], "0123456789") != "" {
				bad(l, fmt.Sprintf("%q is not a hex", f[2]), "hexes have four digits, such as 0102")
				continue
			}
			out = append(out, "move "+unit+" "+f[2])
		case len(f) == 2 && verb == "challenge":
			target := strings.ToUpper(f[1])
			if !slices.Contains(s.Seats, target) || target == seat {
				bad(l, fmt.Sprintf("cannot challenge %s", f[1]), "challenge another seat: "+strings.Join(s.Seats, ", "))
				continue
			}
			out = append(out, "challenge "+target)
		default:
			bad(l, fmt.Sprintf("%q is not an order of this game", l.Text), "orders are roll N, move UNIT HEX, challenge SEAT, secret, show, pass")
		}
	}
	return out, problems
}

func unitsOf(s State, seat string) []string {
	var us []string
	for u := range s.Units {
		if strings.HasPrefix(u, seat) {
			us = append(us, u)
		}
	}
	slices.Sort(us)
	return us
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	s, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	var events []adjudicator.Event
	ev := func(text string, visible ...string) {
		events = append(events, adjudicator.Event{Rule: "fake", Text: text, Visible: visible})
	}
	if s.Window != "" {
		answer := "refuse"
		if o := orders[s.Window]; len(o) > 0 {
			answer = o[0]
		}
		if answer == "accept" {
			a := dice.Roll(r, 1, 6, "fake: challenge, "+s.Challenger)[0]
			b := dice.Roll(r, 1, 6, "fake: challenge, "+s.Window)[0]
			winner := s.Challenger
			if b > a {
				winner = s.Window
			}
			s.Score[winner] += 5
			ev(fmt.Sprintf("%s accepts %s's challenge: %d against %d, %s gains 5", s.Window, s.Challenger, b, a, winner))
		} else {
			s.Score[s.Challenger] += 2
			ev(fmt.Sprintf("%s refuses %s's challenge: %s gains 2", s.Window, s.Challenger, s.Challenger))
		}
		s.Window, s.Challenger = "", ""
		next, err := json.Marshal(s)
		return next, events, err
	}
	s.Turn++
	for _, seat := range s.Seats { // seats in turn order: a deterministic draw order
		given := orders[seat]
		if len(given) == 0 {
			ev(seat + " passes (no orders)")
		}
		for _, o := range given {
			f := strings.Fields(o)
			switch f[0] {
			case "roll":
				n, _ := strconv.Atoi(f[1])
				faces := dice.Roll(r, n, 6, fmt.Sprintf("fake: %s rolls %dd6", seat, n))
				sum := 0
				for _, v := range faces {
					sum += v
				}
				s.Score[seat] += sum
				ev(fmt.Sprintf("%s rolls %v: +%d", seat, faces, sum))
			case "move":
				s.Units[f[1]] = f[2]
				ev(fmt.Sprintf("%s moves %s to %s", seat, f[1], f[2]))
			case "secret":
				card := 1 + r.Draw(handStream(seat), spec.Chit(9), "fake: hidden card for "+seat)[0]
				s.Secrets[seat] = append(s.Secrets[seat], card)
				ev(fmt.Sprintf("%s draws card %d", seat, card), seat)
				ev(seat + " draws a hidden card")
			case "show":
				ev(fmt.Sprintf("%s shows its cards: %v", seat, s.Secrets[seat]))
				dice.Reveal(r, handStream(seat))
			case "challenge":
				if s.Window == "" {
					s.Window, s.Challenger = f[1], seat
					ev(fmt.Sprintf("%s challenges %s", seat, f[1]))
				}
			case "pass":
				ev(seat + " passes")
			}
		}
	}
	next, err := json.Marshal(s)
	return next, events, err
}

// handStream is the hidden dice stream of seat's cards.
func handStream(seat string) string { return "hand-" + strings.ToLower(seat) }

// HiddenStreams implements adjudicator.HiddenStreams: one hand per seat.
func (rules) HiddenStreams(state []byte) ([]string, error) {
	s, err := decode(state)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(s.Seats))
	for i, seat := range s.Seats {
		out[i] = handStream(seat)
	}
	return out, nil
}

// PublicOrders implements adjudicator.PublicOrders: the orders as
// accepted, since none names a card (the card "secret" draws is in the
// seat's own events and hand only).
func (rules) PublicOrders(_ []byte, _ string, orders []string) []string {
	return slices.Clone(orders)
}

// StreamSeat implements adjudicator.StreamSeats: a hand is its seat's.
func (rules) StreamSeat(state []byte, stream string) string {
	s, err := decode(state)
	if err != nil {
		return ""
	}
	for _, seat := range s.Seats {
		if handStream(seat) == stream {
			return seat
		}
	}
	return ""
}

// seatColors are the counters' colours, by seat.
var seatColors = map[string]string{"A": "#5b9bd5", "B": "#c8553d", "C": "#7fae4e", "D": "#d8b33a"}

// Situation implements adjudicator.Reporter: the score and turn tracks,
// the units on a small hex map, and the reader's own hidden cards (seat ""
// is everything, every seat's cards: the judge asks for it for the game
// master only after the end or with the game file's gm_sees_hands).
func (rules) Situation(state []byte, seat string) (adjudicator.Situation, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return adjudicator.Situation{}, fmt.Errorf("fake: state: %w", err)
	}
	sit := adjudicator.Situation{Notices: []string{"The fake game is a test game: its map is a stand-in."}}
	sit.Tracks = append(sit.Tracks, board.Track{Name: "Turn", Value: s.Turn, Min: 0, Max: s.Turns})
	for _, st := range s.Seats {
		sit.Tracks = append(sit.Tracks, board.Track{Name: "Score " + st, Value: s.Score[st]})
	}
	grid := board.Grid{Cols: 8, Rows: 6, Orientation: board.FlatTop, IDStyle: board.FourDigit, FirstCol: 1, FirstRow: 1}
	units := slices.Sorted(maps.Keys(s.Units))
	var counters []board.Counter
	for _, u := range units {
		side := strings.TrimRight(u, "0123456789")
		sit.Units = append(sit.Units, adjudicator.Unit{Side: side, ID: u, Type: "inf", Where: s.Units[u], Strength: "1"})
		id, err := board.ParseID(s.Units[u], board.FourDigit)
		if err != nil {
			continue
		}
		grid.Cols, grid.Rows = max(grid.Cols, id.Col), max(grid.Rows, id.Row)
		counters = append(counters, board.Counter{Hex: id, Side: side, Color: seatColors[side], ID: u, Type: "I", Strength: "1"})
	}
	for _, st := range s.Seats {
		if seat != "" && st != seat {
			continue
		}
		for _, c := range s.Secrets[st] {
			card := fmt.Sprintf("card %d", c)
			if seat == "" {
				card = st + ": " + card
			}
			sit.Hand = append(sit.Hand, card)
		}
	}
	sit.Picture = &board.Picture{
		Title:    "Fake (a test game)",
		Subtitle: fmt.Sprintf("after turn %d of %d", s.Turn, s.Turns),
		Notice:   "stand-in map",
		Grid:     &grid,
		Counters: counters,
		Tracks:   sit.Tracks,
	}
	return sit, nil
}

// Bot implements adjudicator.Bot: roll one die in an order step, accept a
// challenge in a window.
func (rules) Bot(state []byte, seat string) ([]string, error) {
	var s State
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("fake: state: %w", err)
	}
	if s.Window != "" {
		return []string{"accept"}, nil
	}
	return []string{"roll 1"}, nil
}
