package resolve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"strings"
)

// Case is one rules test case in the game-agnostic case format (see
// ParseCases): a procedure run on inputs and forced dice, and what its answer
// must say.
type Case struct {
	File    string
	Line    int    // line of the run
	Comment string // the comment lines before it: what the case is, with its rule
	Args    []string
	Proc    string
	// Distribution runs --distribution instead of resolving.
	Distribution bool
	Want         []Want
	// Error, when set, is the input the run must refuse (exit 2).
	Error string
	// Explain lists words the explanation must contain.
	Explain []string
}

// Want is one expected output: a name and its value as JSON (a bare word is a
// string), or for a distribution an outcome and its probability.
type Want struct {
	Line  int
	Name  string
	Value any
}

// ParseCases reads a case file. Cases are separated by blank lines; within a
// case:
//
//	# WbT 11.8: the Serb 2:1 column rolling 3 is 1/2   (comments: say what and cite the rule)
//	run combat side=Serb attack=6 defense=3 dice=3     (the procedure and its inputs)
//	want column=2:1 result=1/2                         (outputs; values are JSON or bare words)
//	explain stand-in                                   (words the explanation contains)
//	error attack                                       (instead of want: the input refused)
//	dist run odds ...   then   want 3:1=1/6            (a --distribution run: outcome=probability)
//
// A run without dice= is given none, so a case that draws must force them.
func ParseCases(name string, r io.Reader) ([]*Case, error) {
	var (
		out     []*Case
		cur     *Case
		comment []string
		sc      = bufio.NewScanner(r)
		n       int
	)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	flush := func() {
		if cur != nil {
			out = append(out, cur)
		}
		cur, comment = nil, nil
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			flush()
			continue
		case strings.HasPrefix(line, "#"):
			comment = append(comment, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		switch word {
		case "run", "dist":
			if cur != nil {
				return nil, fail("a second run in one case: separate cases with a blank line")
			}
			toks, err := tokens(rest)
			if err != nil || len(toks) == 0 {
				return nil, fail("run needs a procedure and its inputs")
			}
			cur = &Case{File: name, Line: n, Comment: strings.Join(comment, " "), Proc: toks[0], Args: toks[1:], Distribution: word == "dist"}
			if word == "dist" && strings.HasPrefix(toks[0], "run") {
				return nil, fail("write dist PROCEDURE inputs...")
			}
		case "want", "error", "explain":
			if cur == nil {
				return nil, fail("%s before run", word)
			}
			switch word {
			case "error":
				cur.Error = rest
			case "explain":
				cur.Explain = append(cur.Explain, rest)
			default:
				toks, err := tokens(rest)
				if err != nil {
					return nil, fail("%v", err)
				}
				for _, t := range toks {
					k, v, ok := strings.Cut(t, "=")
					if cur.Distribution {
						// outcomes may contain '=' only as the last one
						i := strings.LastIndex(t, "=")
						if i < 0 {
							return nil, fail("want %q is not outcome=probability", t)
						}
						k, v = t[:i], t[i+1:]
						p, ok := new(big.Rat).SetString(v)
						if !ok {
							return nil, fail("probability %q is not a fraction or decimal", v)
						}
						cur.Want = append(cur.Want, Want{n, k, p})
						continue
					}
					if !ok || k == "" {
						return nil, fail("want %q is not name=value", t)
					}
					cur.Want = append(cur.Want, Want{n, k, jsonValue(v)})
				}
			}
		default:
			return nil, fail("unknown line %q: a case has run/dist, want, error, explain and # comments", word)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	flush()
	for _, c := range out {
		if len(c.Want) == 0 && c.Error == "" && len(c.Explain) == 0 {
			return nil, fmt.Errorf("%s:%d: case checks nothing: add want, error or explain", name, c.Line)
		}
	}
	return out, nil
}

// tokens splits on spaces, keeping "quoted strings" and [brackets] whole.
func tokens(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	depth, quoted := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
			b.WriteByte(c)
		case c == '[' || c == '{':
			depth++
			b.WriteByte(c)
		case c == ']' || c == '}':
			depth--
			b.WriteByte(c)
		case (c == ' ' || c == '\t') && depth == 0:
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteByte(c)
		}
	}
	if quoted || depth != 0 {
		return nil, fmt.Errorf("unbalanced quotes or brackets in %q", s)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out, nil
}

// jsonValue reads v as JSON, or as a string when it is not JSON.
func jsonValue(v string) any {
	var x any
	if err := json.Unmarshal([]byte(v), &x); err == nil {
		return x
	}
	return v
}

// Check runs the case against g and returns what differs; nil when it
// holds.
func (c *Case) Check(g *Game) []string {
	p := g.Procedure(c.Proc)
	if p == nil {
		return []string{fmt.Sprintf("no procedure %q in %s (has %s)", c.Proc, g.ID, strings.Join(g.Names(), ", "))}
	}
	if c.Distribution {
		return c.checkDistribution(g, p)
	}
	args := c.Args
	if !hasDice(args) {
		args = append(append([]string{}, args...), "dice=")
	}
	ans, err := Resolve(g, p, args)
	if c.Error != "" {
		if err == nil {
			return []string{fmt.Sprintf("want input %s refused, got an answer", c.Error)}
		}
		ie, ok := err.(*InputError)
		if !ok || ie.Name != c.Error {
			return []string{fmt.Sprintf("want input %s refused, got %v", c.Error, err)}
		}
		return nil
	}
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	raw, err := ans.JSON()
	if err != nil {
		return []string{err.Error()}
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		return []string{err.Error()}
	}
	for _, w := range c.Want {
		v, ok := got[w.Name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("line %d: no output %s in %s", w.Line, w.Name, raw))
			continue
		}
		if !reflect.DeepEqual(v, w.Value) {
			gj, _ := json.Marshal(v)
			wj, _ := json.Marshal(w.Value)
			diffs = append(diffs, fmt.Sprintf("line %d: %s = %s, want %s", w.Line, w.Name, gj, wj))
		}
	}
	for _, e := range c.Explain {
		if !strings.Contains(strings.ToLower(ans.Explain), strings.ToLower(e)) {
			diffs = append(diffs, fmt.Sprintf("explain %q does not say %q", ans.Explain, e))
		}
	}
	if len(diffs) > 0 {
		diffs = append(diffs, "answer: "+strings.Join(strings.Fields(string(raw)), " "))
	}
	return diffs
}

func (c *Case) checkDistribution(g *Game, p *Procedure) []string {
	outs, _, err := Distribution(g, p, c.Args)
	if c.Error != "" {
		ie, ok := err.(*InputError)
		if !ok || ie.Name != c.Error {
			return []string{fmt.Sprintf("want input %s refused, got %v", c.Error, err)}
		}
		return nil
	}
	if err != nil {
		return []string{err.Error()}
	}
	got := map[string]*big.Rat{}
	var all []string
	for _, o := range outs {
		k := outcomeKey(o.Value)
		got[k] = o.P
		all = append(all, k+"="+o.P.RatString())
	}
	var diffs []string
	for _, w := range c.Want {
		k := outcomeKey(jsonValue(w.Name))
		p, ok := got[k]
		if !ok {
			p = new(big.Rat)
		}
		if p.Cmp(w.Value.(*big.Rat)) != 0 {
			diffs = append(diffs, fmt.Sprintf("line %d: P(%s) = %s, want %s (all: %s)", w.Line, w.Name, p.RatString(), w.Value.(*big.Rat).RatString(), strings.Join(all, " ")))
		}
	}
	return diffs
}

func outcomeKey(v any) string {
	b, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.Marshal(x)
	return string(b)
}

func hasDice(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "dice=") {
			return true
		}
	}
	return false
}
