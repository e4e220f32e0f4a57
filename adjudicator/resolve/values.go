package resolve

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Values are a procedure's parsed inputs, every declared input present (given
// or defaulted).
type Values struct {
	vals  map[string]any
	given map[string]bool
}

// Given reports whether the player gave name (rather than its default).
func (v *Values) Given(name string) bool { return v.given[name] }

func (v *Values) get(name string) any {
	x, ok := v.vals[name]
	if !ok {
		panic(fmt.Sprintf("resolve: input %s is not declared", name))
	}
	return x
}

// Int returns an Int input.
func (v *Values) Int(name string) int { return v.get(name).(int) }

// Float returns a Decimal input.
func (v *Values) Float(name string) float64 { return v.get(name).(float64) }

// Word returns a Word input, spelled as in Allowed.
func (v *Values) Word(name string) string { return v.get(name).(string) }

// Bool returns a Bool input.
func (v *Values) Bool(name string) bool { return v.get(name).(bool) }

// Ints returns an Ints input.
func (v *Values) Ints(name string) []int { return v.get(name).([]int) }

// Words returns a Words input.
func (v *Values) Words(name string) []string { return v.get(name).([]string) }

// Text returns a Text input.
func (v *Values) Text(name string) string { return v.get(name).(string) }

// Parse reads name=value arguments (without dice=) against the procedure's
// inputs: unknown names, repeated names, missing required inputs and bad
// values are InputErrors.
func Parse(p *Procedure, args []string) (*Values, error) {
	v := &Values{vals: map[string]any{}, given: map[string]bool{}}
	byName := map[string]Input{}
	for _, in := range p.Inputs {
		byName[in.Name] = in
	}
	for _, arg := range args {
		name, text, ok := strings.Cut(arg, "=")
		if !ok || name == "" {
			return nil, Bad(arg, "not a name=value input; %s", known(p))
		}
		in, ok := byName[name]
		if !ok {
			return nil, Bad(name, "unknown input for %s; %s", p.Name, known(p))
		}
		if v.given[name] {
			return nil, Bad(name, "given twice")
		}
		x, err := parseValue(in, text)
		if err != nil {
			return nil, Bad(name, "%q is not %s", text, in.usage())
		}
		v.vals[name] = x
		v.given[name] = true
	}
	for _, in := range p.Inputs {
		if v.given[in.Name] {
			continue
		}
		if in.Required {
			return nil, Bad(in.Name, "required (%s)", in.usage())
		}
		x, err := parseValue(in, in.Default)
		if err != nil {
			return nil, fmt.Errorf("resolve: default of %s: %w", in.Name, err)
		}
		v.vals[in.Name] = x
	}
	return v, nil
}

func known(p *Procedure) string {
	if len(p.Inputs) == 0 {
		return p.Name + " takes no inputs (only dice=)"
	}
	names := make([]string, len(p.Inputs))
	for i, in := range p.Inputs {
		names[i] = in.Name
	}
	return "it takes " + strings.Join(names, ", ") + " and dice="
}

var errValue = fmt.Errorf("bad value")

// parseValue reads one value; "" is the kind's neutral value.
func parseValue(in Input, text string) (any, error) {
	text = strings.TrimSpace(text)
	switch in.Kind {
	case Int:
		if text == "" {
			text = "0"
			if in.Bounded && (in.Min > 0 || in.Max < 0) {
				return nil, errValue
			}
		}
		n, err := parseInt(text)
		if err != nil || (in.Bounded && (n < in.Min || n > in.Max)) {
			return nil, errValue
		}
		return n, nil
	case Decimal:
		if text == "" {
			return 0.0, nil
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || f != f || f > 1e15 || f < -1e15 {
			return nil, errValue
		}
		return f, nil
	case Word:
		if text == "" {
			return nil, errValue
		}
		return word(in.Allowed, text)
	case Bool:
		switch strings.ToLower(text) {
		case "", "no", "n", "false":
			return false, nil
		case "yes", "y", "true":
			return true, nil
		}
		return nil, errValue
	case Ints:
		out := []int{}
		if text == "" {
			return out, nil
		}
		for _, part := range strings.Split(text, ",") {
			n, err := parseInt(strings.TrimSpace(part))
			if err != nil || (in.Bounded && (n < in.Min || n > in.Max)) {
				return nil, errValue
			}
			out = append(out, n)
		}
		return out, nil
	case Words:
		out := []string{}
		if text == "" {
			return out, nil
		}
		for _, part := range strings.Split(text, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				return nil, errValue
			}
			if len(in.Allowed) > 0 {
				w, err := word(in.Allowed, part)
				if err != nil {
					return nil, err
				}
				part = w
			}
			out = append(out, part)
		}
		return out, nil
	case Text:
		return text, nil
	}
	return nil, errValue
}

func parseInt(s string) (int, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 32)
	if err != nil || strings.HasPrefix(s, "+-") {
		return 0, errValue
	}
	return int(n), nil
}

func word(allowed []string, text string) (string, error) {
	i := slices.IndexFunc(allowed, func(a string) bool { return strings.EqualFold(a, text) })
	if i < 0 {
		return "", errValue
	}
	return allowed[i], nil
}
