package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Answer is a procedure's result with the faces it used.
type Answer struct {
	Game      string
	Procedure string
	Dice      []int
	*Result
}

// splitDice takes dice= out of args.
func splitDice(args []string) (rest []string, faces []int, given bool, err error) {
	for _, a := range args {
		text, ok := strings.CutPrefix(a, "dice=")
		if !ok {
			rest = append(rest, a)
			continue
		}
		if given {
			return nil, nil, false, Bad("dice", "given twice")
		}
		given = true
		faces = []int{}
		if strings.TrimSpace(text) == "" {
			continue
		}
		for _, part := range strings.Split(text, ",") {
			n, err := parseInt(strings.TrimSpace(part))
			if err != nil {
				return nil, nil, false, Bad("dice", "%q is not a comma list of faces (dice=3,5)", text)
			}
			faces = append(faces, n)
		}
	}
	return rest, faces, given, nil
}

// run calls p.Run, turning a panic into an error so a bug in one procedure
// never takes the caller down.
func run(p *Procedure, in *Values, r dice.Roller) (res *Result, err error) {
	defer func() {
		if x := recover(); x != nil {
			res, err = nil, fmt.Errorf("resolve: %s failed: %v", p.Name, x)
		}
	}()
	res, err = p.Run(in, r)
	if err == nil && res == nil {
		err = fmt.Errorf("resolve: %s answered nothing", p.Name)
	}
	return res, err
}

// Resolve runs p on args (name=value words, optionally dice=a,b,...): with
// the faces given, or rolled fresh when there is no dice=.
func Resolve(g *Game, p *Procedure, args []string) (*Answer, error) {
	rest, faces, given, err := splitDice(args)
	if err != nil {
		return nil, err
	}
	in, err := Parse(p, rest)
	if err != nil {
		return nil, err
	}
	if given {
		f := NewForced(faces)
		res, err := run(p, in, f)
		if err != nil {
			return nil, err
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		return &Answer{g.ID, p.Name, faces, res}, nil
	}
	f := &Fresh{}
	res, err := run(p, in, f)
	if err != nil {
		return nil, err
	}
	return &Answer{g.ID, p.Name, facesOf(f.Drawn()), res}, nil
}

// JSON writes the answer as one JSON object: game, procedure, dice, rule,
// explain, then the procedure's outputs in order.
func (a *Answer) JSON() ([]byte, error) {
	d := a.Dice
	if d == nil {
		d = []int{}
	}
	fields := []Field{{"game", a.Game}, {"procedure", a.Procedure}, {"dice", d}, {"rule", a.Rule}, {"explain", a.Explain}}
	fields = append(fields, a.Fields...)
	return object(fields)
}

func object(fields []Field) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("resolve: output %s: %w", f.Name, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("resolve: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// MaxOutcomes bounds the runs Distribution makes.
const MaxOutcomes = 4_000_000

// Outcome is one value of a procedure's main output and its exact
// probability.
type Outcome struct {
	Value any
	P     *big.Rat
}

// enumerator answers draws along a path of faces, extending it with the
// lowest face of each new draw; advance moves to the next path.
type enumerator struct {
	path  []int
	spans []span
	pos   int
}

func (e *enumerator) Draw(_ string, sp spec.Spec, _ string) []int {
	out := make([]int, 0, sp.Draws())
	for _, s := range spans(sp) {
		if e.pos >= len(e.path) {
			e.path = append(e.path, s.lo)
			e.spans = append(e.spans, s)
		}
		out = append(out, e.path[e.pos])
		e.pos++
	}
	return out
}

// advance drops draws past those used and steps the last die that can go
// up, like an odometer; false when every path was run.
func (e *enumerator) advance() bool {
	e.path, e.spans = e.path[:e.pos], e.spans[:e.pos]
	e.pos = 0
	for i := len(e.path) - 1; i >= 0; i-- {
		if e.path[i] < e.spans[i].hi {
			e.path[i]++
			e.path, e.spans = e.path[:i+1], e.spans[:i+1]
			return true
		}
	}
	return false
}

// Enumeration says what a Distribution ran: the rule numbers the runs
// applied, how many dice combinations there were, and whether any run's
// explanation said stand-in data decided it.
type Enumeration struct {
	Rule    string
	Runs    int
	StandIn bool
}

// Distribution enumerates every dice outcome of p on args (no dice=) and
// returns the exact probability of each value of p's main output.
func Distribution(g *Game, p *Procedure, args []string) ([]Outcome, Enumeration, error) {
	rest, _, given, err := splitDice(args)
	if err != nil {
		return nil, Enumeration{}, err
	}
	if given {
		return nil, Enumeration{}, Bad("dice", "not with --distribution, which enumerates every face")
	}
	if p.Main == "" {
		return nil, Enumeration{}, Bad("--distribution", "%s has no single outcome to enumerate", p.Name)
	}
	in, err := Parse(p, rest)
	if err != nil {
		return nil, Enumeration{}, err
	}
	var (
		e       enumerator
		index   = map[string]int{}
		out     []Outcome
		rules   []string
		runs    int
		standIn bool
	)
	for {
		runs++
		if runs > MaxOutcomes {
			return nil, Enumeration{}, ErrTooManyOutcomes
		}
		res, err := run(p, in, &e)
		if err != nil {
			return nil, Enumeration{}, err
		}
		rules = append(rules, res.Rule)
		standIn = standIn || strings.Contains(strings.ToLower(res.Explain), "stand-in")
		v := res.Get(p.Main)
		key, err := json.Marshal(v)
		if err != nil {
			return nil, Enumeration{}, fmt.Errorf("resolve: output %s: %w", p.Main, err)
		}
		prob := big.NewRat(1, 1)
		for _, s := range e.spans[:e.pos] {
			prob.Mul(prob, big.NewRat(1, int64(s.hi-s.lo+1)))
		}
		if i, ok := index[string(key)]; ok {
			out[i].P.Add(out[i].P, prob)
		} else {
			index[string(key)] = len(out)
			out = append(out, Outcome{v, prob})
		}
		if !e.advance() {
			break
		}
	}
	sortOutcomes(out)
	return out, Enumeration{Rule: Rules(rules...), Runs: runs, StandIn: standIn}, nil
}

// sortOutcomes orders numeric outcomes by value and leaves the others in
// the order the enumeration met them (lowest dice first).
func sortOutcomes(out []Outcome) {
	for _, o := range out {
		if _, ok := number(o.Value); !ok {
			return
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := number(out[i].Value)
		b, _ := number(out[j].Value)
		return a < b
	})
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// DistributionJSON writes a --distribution answer.
func DistributionJSON(g *Game, p *Procedure, outcomes []Outcome, e Enumeration) ([]byte, error) {
	type row struct {
		Outcome     any     `json:"outcome"`
		Probability float64 `json:"probability"`
		Fraction    string  `json:"fraction"`
	}
	rows := make([]row, len(outcomes))
	for i, o := range outcomes {
		f, _ := o.P.Float64()
		rows[i] = row{o.Value, f, o.P.RatString()}
	}
	explain := fmt.Sprintf("Exact probabilities of %s over all %d dice outcomes.", p.Main, e.Runs)
	if e.Runs == 1 {
		explain = fmt.Sprintf("With these inputs %s draws no dice, so %s is certain.", p.Name, p.Main)
	}
	if e.StandIn {
		explain += " Stand-in table data decided outcomes: the demo tables are not the published ones."
	}
	return object([]Field{{"game", g.ID}, {"procedure", p.Name}, {"dice", []int{}}, {"rule", e.Rule}, {"explain", explain}, {"output", p.Main}, {"distribution", rows}})
}
