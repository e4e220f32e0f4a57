package adjudicator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Rules is what a game package provides: one value, listed in the registry.
// Every method is a pure function of its arguments; state is the game's own
// encoding (canonical JSON), which the judge stores and never reads.
type Rules interface {
	// ID is the short name used in game files ("perrote", "wbt").
	ID() string
	Title() string
	// Seats lists the seats of a scenario, in turn order.
	Seats(scenario string) ([]string, error)
	// New is the state before the first step.
	New(scenario string, options map[string]string) ([]byte, error)
	// Step says what the step open in state is: its phase, which seats owe
	// orders, and what no orders means for each of them.
	Step(state []byte) (StepSpec, error)
	// ParseOrders reads a seat's order lines for the step open in state. It
	// returns the orders in canonical form and a problem for each line it
	// cannot accept; a bad order never spoils the others.
	ParseOrders(state []byte, seat string, orders []OrderLine) ([]string, []Problem)
	// Adjudicate resolves the step open in state with the canonical orders
	// of each seat that sent any (a seat without orders gets its NoOrders
	// default) and returns the next state and what happened. Every random
	// draw goes through r with a purpose naming the rule.
	Adjudicate(state []byte, orders map[string][]string, r dice.Roller) ([]byte, []Event, error)
}

// StepSpec describes the step open in a state.
type StepSpec struct {
	Phase string
	// Owing lists the seats whose orders the step waits for: every seat for
	// simultaneous orders, one seat for a decision window (a retreat, an
	// interrupt).
	Owing []string
	// NoOrders says, per seat, what having no orders means ("hold",
	// "pass", "repeat": the last orders again), for reminders and reports.
	NoOrders map[string]string
	// Over is set when the game has ended: no step is open.
	Over bool
}

// Event is one thing that happened in a step, with the rule that made it
// happen. Visible lists the seats that may see it; empty means everyone.
type Event struct {
	Rule    string
	Text    string
	Visible []string
}

// Registry lists the games the judge can host.
type Registry map[string]Rules

// NewRegistry returns a registry of the given games.
func NewRegistry(games ...Rules) Registry {
	r := Registry{}
	for _, g := range games {
		r[g.ID()] = g
	}
	return r
}

// Get returns the rules of game kind id.
func (r Registry) Get(id string) (Rules, error) {
	if g, ok := r[id]; ok {
		return g, nil
	}
	ids := make([]string, 0, len(r))
	for k := range r {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	return nil, fmt.Errorf("no game %q: this judge hosts %s", id, strings.Join(ids, ", "))
}

// Bot is implemented by rules that can play a seat: the order lines a
// simple, legal player would send for seat in the step open in state. The
// demo's scripted players and the end-to-end tests use it.
type Bot interface {
	Bot(state []byte, seat string) ([]string, error)
}

// SeatSides is implemented by rules whose units' sides (Unit.Side of the
// units table) are not named as their seats: the sides seat plays. Without
// it a seat's units are those whose Side is the seat's name ('units GAME').
type SeatSides interface {
	SeatSides(seat string) []string
}

// FileOptions is implemented by rules with options that may name a data
// file on the judge's machine (a map, a table) instead of holding its text.
// A game created by mail may give only the text (a multi-line string): a
// remote game master must not make the judge read its files.
type FileOptions interface {
	FileOptions() []string
}

// OptionSeats is implemented by rules whose scenario may come with the
// game file, in an option (a game master's own Per Rote scenario): its
// seats then depend on the options.
type OptionSeats interface {
	SeatsWith(scenario string, options map[string]string) ([]string, error)
}

// Ending is implemented by rules that can say how a game ended, for
// summaries: the winner ("" for a draw) and a sentence saying why; over is
// false while the game goes on.
type Ending interface {
	Ending(state []byte) (winner, why string, over bool)
}

// HiddenStreams is implemented by rules that draw hidden values (hands,
// decks, hidden chits): the names of their hidden dice streams (1 to 64
// bytes of a-z 0-9 '-', not "open"; at most 1024), which the judge writes
// into an umpire-dice-v2 game's header when the game is created, from the
// scenario's first state. Every Roller.Draw from a stream other than
// dice.Open must name one of them; dice.Reveal publishes a stream's keys
// when its secrecy is spent. A game without the interface draws open dice
// only.
type HiddenStreams interface {
	HiddenStreams(state []byte) ([]string, error)
}

// StreamSeats is implemented by rules whose hidden streams may belong to
// one seat, such as that seat's hand: StreamSeat names the seat allowed to
// see stream's draws ("" for none). That seat's reports carry the step's key
// of the stream, so it can check its own draws at once with umpire verify
// --key; nobody else's do.
type StreamSeats interface {
	StreamSeat(state []byte, stream string) string
}

// PublicOrders is implemented by rules whose accepted orders may be
// published once their step is adjudicated (the game file's
// publish_orders = true): PublicOrders is what every seat may learn of
// seat's canonical orders (as ParseOrders gave them in state, the state in
// which the step opened), line by line, such as the orders as written, or
// each with what it hides left out. Rules whose orders hold hidden
// information (cards in hand, hidden chits, units under fog of war) do not
// implement it: the judge then publishes none of their orders, and says
// so in every report (NotPublished).
type PublicOrders interface {
	PublicOrders(state []byte, seat string, orders []string) []string
}

// DefaultOrders is implemented by rules that say in plain words what
// happens at the deadline to seat when it has sent no usable orders for the
// step open in state: a clause with the seat as its subject, such as "NATO
// passes for the rest of the turn" (receipts write "at the deadline" before
// it). "" leaves the wording to DefaultWords.
type DefaultOrders interface {
	DefaultOrders(state []byte, seat string) string
}

// DefaultWords says in plain words what no usable orders from seat mean at
// the deadline of the step open in state: the rules' DefaultOrders if they
// say it, else the step's NoOrders for the seat (no) worded as a clause.
func DefaultWords(r Rules, state []byte, seat, no string) string {
	if d, ok := r.(DefaultOrders); ok {
		if s := d.DefaultOrders(state, seat); s != "" {
			return s
		}
	}
	switch no {
	case "":
		return "the game's default for " + seat + " applies"
	case "pass":
		return seat + " passes: it gives no orders this step"
	case "hold":
		return seat + "'s units hold: they do nothing this step"
	case "repeat":
		return seat + "'s orders of the last step it sent any are used again"
	}
	return "the default for " + seat + " applies: " + no
}
