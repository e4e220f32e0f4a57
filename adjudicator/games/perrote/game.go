package perrote

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Game is Per Rote OSR as a hosted game: one step a turn, every seat
// ordering at once, each unit acting on its d20 (Turn Order).
var Game adjudicator.Rules = rules{}

type rules struct{}

func (rules) ID() string    { return "perrote" }
func (rules) Title() string { return "Per Rote OSR" }

// Seats lists a scenario's sides.
func (rules) Seats(scenario string) ([]string, error) {
	sc, err := loadScenario(scenario)
	if err != nil {
		return nil, err
	}
	return sc.Seats, nil
}

// custom is the scenario name of a game whose scenario file comes in its
// game file: the option "scenario" holds the file's text.
const custom = "custom"

// scenarioFor loads a shipped scenario, or the custom one of the options.
func scenarioFor(scenario string, options map[string]string) (*scenario, error) {
	if scenario != custom {
		return loadScenario(scenario)
	}
	text, ok := options["scenario"]
	if !ok || strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("perrote: scenario %q: put the scenario file's text in the option scenario (docs/scenario-perrote.md)", custom)
	}
	return parseScenario(custom, "option scenario", []byte(text))
}

// SeatsWith implements adjudicator.OptionSeats: a custom scenario's seats
// are in its text.
func (rules) SeatsWith(scenario string, options map[string]string) ([]string, error) {
	sc, err := scenarioFor(scenario, options)
	if err != nil {
		return nil, err
	}
	return sc.Seats, nil
}

// New is the state before the first turn. Option "turns" changes the turn
// limit.
func (rules) New(scenario string, options map[string]string) ([]byte, error) {
	sc, err := scenarioFor(scenario, options)
	if err != nil {
		return nil, err
	}
	s := sc.Start
	for k, v := range options {
		switch k {
		case "turns":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 99 {
				return nil, fmt.Errorf("perrote: option turns %q: want a whole number from 1 to 99", v)
			}
			s.Turns = n
		case "scenario":
			if scenario != custom {
				return nil, fmt.Errorf("perrote: option scenario is the text of a custom scenario: give scenario = %q in the game file", custom)
			}
		default:
			return nil, fmt.Errorf("perrote: no option %q (options: turns, scenario)", k)
		}
	}
	return encode(&s)
}

// newFromScenario is the state before the first turn of a parsed
// scenario (tests and game masters' own scenario files).
func newFromScenario(sc *scenario) ([]byte, error) {
	s := sc.Start
	return encode(&s)
}

func (rules) Step(state []byte) (adjudicator.StepSpec, error) {
	s, err := decode(state)
	if err != nil {
		return adjudicator.StepSpec{}, err
	}
	if s.Over {
		return adjudicator.StepSpec{Over: true}, nil
	}
	no := map[string]string{}
	for _, sd := range s.seats() {
		no[sd] = "hold"
	}
	return adjudicator.StepSpec{Phase: fmt.Sprintf("turn-%d", s.Turn+1), Owing: s.seats(), NoOrders: no}, nil
}

func (rules) ParseOrders(state []byte, seat string, lines []adjudicator.OrderLine) ([]string, []adjudicator.Problem) {
	// a refusal of the whole file names its first line with an order
	at := 1
	if len(lines) > 0 {
		at = lines[0].Line
	}
	for _, l := range lines {
		if strings.TrimSpace(stripComment(l.Text)) != "" {
			at = l.Line
			break
		}
	}
	s, err := decode(state)
	if err != nil {
		return nil, []adjudicator.Problem{{Line: at, Text: err.Error(), Hint: "the judge cannot read this game's state: tell the game master"}}
	}
	if !slices.Contains(s.seats(), seat) {
		return nil, []adjudicator.Problem{{Line: at, Text: fmt.Sprintf("there is no seat %q in this game", seat), Hint: "the seats are " + strings.Join(s.seats(), ", ")}}
	}
	if s.Over {
		return nil, []adjudicator.Problem{{Line: at, Text: "the game is over", Hint: "no orders are due"}}
	}
	orders, problems := parseOrders(s, seat, lines)
	out := make([]string, len(orders))
	for i, o := range orders {
		out[i] = o.Echo()
	}
	return out, problems
}

func (rules) Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []adjudicator.Event, error) {
	s, err := decode(state)
	if err != nil {
		return nil, nil, err
	}
	events, err := adjudicate(s, orders, r)
	if err != nil {
		return nil, nil, err
	}
	next, err := encode(s)
	return next, events, err
}

// Bot implements adjudicator.Bot.
func (rules) Bot(state []byte, seat string) ([]string, error) { return Bot(state, seat) }

// Ending implements adjudicator.Ending.
func (rules) Ending(state []byte) (winner, why string, over bool) {
	s, err := decode(state)
	if err != nil || !s.Over {
		return "", "", false
	}
	return s.Winner, s.Result, true
}
