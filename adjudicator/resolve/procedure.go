package resolve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Game is one game's calculator: its id (wbt, pcs1995, bu, sms1914,
// perrote), title and procedures.
type Game struct {
	ID         string
	Title      string
	Procedures []*Procedure
}

// Procedure finds a procedure by name.
func (g *Game) Procedure(name string) *Procedure {
	for _, p := range g.Procedures {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names lists the game's procedure names in order.
func (g *Game) Names() []string {
	names := make([]string, len(g.Procedures))
	for i, p := range g.Procedures {
		names[i] = p.Name
	}
	return names
}

// Procedure is one rules procedure.
type Procedure struct {
	// Name is the contract name (odds, combat, weather...).
	Name string
	// Summary is one line saying what it answers, with its rule numbers.
	Summary string
	// Dice describes what it draws, for the listing ("2d6: white then
	// black"); empty when it never draws.
	Dice string
	// Inputs are every name=value the procedure takes.
	Inputs []Input
	// Outputs name and describe the fields of its answer, in order.
	Outputs []Output
	// Main is the output --distribution enumerates.
	Main string
	// Run answers the procedure. It draws every die through r. A bad input
	// the declared kinds cannot catch is an error from Bad.
	Run func(in *Values, r dice.Roller) (*Result, error)
}

// Output names one field of an answer.
type Output struct {
	Name string
	Help string
}

// Kind is what an input's value is.
type Kind uint8

// The input kinds.
const (
	Int     Kind = iota // an integer, optionally bounded
	Decimal             // a decimal number
	Word                // one of Allowed, compared without case
	Bool                // yes or no
	Ints                // a comma list of integers
	Words               // a comma list of words (Allowed, if set, for each)
	Text                // free text the procedure parses (a path, a list of pairs)
)

// Input declares one name=value.
type Input struct {
	Name string
	Kind Kind
	// Help says what the value means, shown in the listing.
	Help string
	// Allowed lists the words a Word or Words input takes.
	Allowed []string
	// Min and Max bound an Int (or each element of Ints) when Bounded.
	Bounded  bool
	Min, Max int
	// Required inputs have no neutral value; the others default to Default
	// (or the kind's neutral value when Default is empty: 0, no, an empty
	// list).
	Required bool
	Default  string
	// Unset, when set, says in the listing what leaving the input out
	// means, where that is not a value ("attacker_cf").
	Unset string
}

// usage says what the input takes, in the words the listing and errors use.
func (in Input) usage() string {
	switch in.Kind {
	case Int:
		if in.Bounded {
			return fmt.Sprintf("an integer from %d to %d", in.Min, in.Max)
		}
		return "an integer"
	case Decimal:
		return "a number"
	case Word:
		return "one of " + strings.Join(in.Allowed, ", ")
	case Bool:
		return "yes or no"
	case Ints:
		if in.Bounded {
			return fmt.Sprintf("a comma list of integers from %d to %d", in.Min, in.Max)
		}
		return "a comma list of integers"
	case Words:
		if len(in.Allowed) > 0 {
			return "a comma list of " + strings.Join(in.Allowed, ", ")
		}
		return "a comma list of words"
	}
	return "text"
}

// Result is a procedure's answer: the rule numbers applied, one sentence a
// player can read, and the output fields in order.
type Result struct {
	Rule    string
	Explain string
	Fields  []Field
}

// Field is one output of a Result.
type Field struct {
	Name  string
	Value any
}

// Set sets (or replaces) the output field name. Values are JSON values:
// numbers, strings, bools, nil, slices of them.
func (r *Result) Set(name string, v any) *Result {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			r.Fields[i].Value = v
			return r
		}
	}
	r.Fields = append(r.Fields, Field{name, v})
	return r
}

// Get returns the output field name, or nil.
func (r *Result) Get(name string) any {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Rules joins rule numbers, dropping repeats and keeping their order:
// Rules("11.5", "11.13", "11.5") is "11.5, 11.13".
func Rules(nums ...string) string {
	var out []string
	seen := map[string]bool{}
	for _, n := range nums {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part != "" && !seen[part] {
				seen[part] = true
				out = append(out, part)
			}
		}
	}
	return strings.Join(out, ", ")
}

// validate checks a Game's declarations; the registry test runs it on every
// game so a typo in a declaration fails a test, not a player.
func (g *Game) validate() error {
	names := map[string]bool{}
	for _, p := range g.Procedures {
		if names[p.Name] {
			return fmt.Errorf("game %s: procedure %s declared twice", g.ID, p.Name)
		}
		names[p.Name] = true
		if p.Run == nil {
			return fmt.Errorf("game %s: procedure %s has no Run", g.ID, p.Name)
		}
		ins := map[string]bool{}
		for _, in := range p.Inputs {
			if in.Name == "dice" || in.Name == "" || ins[in.Name] {
				return fmt.Errorf("game %s: procedure %s: input %q is reserved, empty or declared twice", g.ID, p.Name, in.Name)
			}
			ins[in.Name] = true
			if (in.Kind == Word) && len(in.Allowed) == 0 {
				return fmt.Errorf("game %s: procedure %s: word input %s allows nothing", g.ID, p.Name, in.Name)
			}
			if !in.Required && in.Default != "" {
				if _, err := parseValue(in, in.Default); err != nil {
					return fmt.Errorf("game %s: procedure %s: default of %s: %v", g.ID, p.Name, in.Name, err)
				}
			}
		}
		outs := map[string]bool{}
		for _, o := range p.Outputs {
			switch o.Name {
			case "game", "procedure", "dice", "rule", "explain", "distribution":
				return fmt.Errorf("game %s: procedure %s: output %s is reserved", g.ID, p.Name, o.Name)
			}
			outs[o.Name] = true
		}
		if p.Main != "" && !outs[p.Main] {
			return fmt.Errorf("game %s: procedure %s: main output %s is not an output", g.ID, p.Name, p.Main)
		}
	}
	return nil
}

// Registry is every game's calculator by id.
type Registry struct{ games map[string]*Game }

// NewRegistry lists games; it panics on a bad declaration, which the tests
// catch.
func NewRegistry(games ...*Game) *Registry {
	r := &Registry{games: map[string]*Game{}}
	for _, g := range games {
		if err := g.validate(); err != nil {
			panic(err)
		}
		r.games[g.ID] = g
	}
	return r
}

// Game returns a game by id, or nil.
func (r *Registry) Game(id string) *Game { return r.games[id] }

// Games returns the games sorted by id.
func (r *Registry) Games() []*Game {
	out := make([]*Game, 0, len(r.games))
	for _, g := range r.games {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
