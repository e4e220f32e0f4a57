package adjudicator

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// ParsedOrders is an order file read line by line (docs/order-file.md): the
// header naming game, step and seat, then one order per line until "end".
type ParsedOrders struct {
	Game, Seat                   string
	Step                         uint64
	GameLine, StepLine, SeatLine int // where each header stood (0 if missing)
	Orders                       []OrderLine
}

// OrderLine is one order as written, with its line number in the file.
type OrderLine struct {
	Line int
	Text string
}

// OrderDigest is the SHA-256 digest of an order file's signed bytes, quoted
// on its receipt and bound into the step's dice.
func OrderDigest(signed []byte) dice.Hash { return legacy.OrderDigest(signed) }

// ParseOrderFile reads the header and the order lines. Comments start with
// '#'; blank lines are skipped; a line "end" (or a mail signature separator
// "-- ") ends the file, and anything after it is ignored. Problems carry
// line numbers and hints; game-specific checks of each order come later.
func ParseOrderFile(text string) (ParsedOrders, []Problem) {
	var p ParsedOrders
	var problems []Problem
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	ended := false
	for i, raw := range lines {
		n := i + 1
		if raw == "-- " {
			ended = true
			break
		}
		line := raw
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if strings.EqualFold(line, "end") {
			ended = true
			break
		}
		key, value, isHeader := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if isHeader && (key == "game" || key == "step" || key == "seat") {
			value = strings.TrimSpace(value)
			at := map[string]*int{"game": &p.GameLine, "step": &p.StepLine, "seat": &p.SeatLine}[key]
			if *at != 0 {
				problems = append(problems, Problem{Line: n, Text: fmt.Sprintf("%q is given twice (first on line %d)", key, *at), Hint: "keep one"})
				continue
			}
			*at = n
			switch key {
			case "game":
				p.Game = value
			case "seat":
				p.Seat = value
			case "step":
				s, err := strconv.ParseUint(value, 10, 64)
				if err != nil || s == 0 {
					problems = append(problems, Problem{Line: n, Text: fmt.Sprintf("step %q is not a step number", value), Hint: "write the number of the open step, as in 'step: 7'"})
				}
				p.Step = s
			}
			if value == "" {
				problems = append(problems, Problem{Line: n, Text: fmt.Sprintf("%q has no value", key), Hint: "write it as in '" + map[string]string{"game": "game: club-kosovo-3", "step": "step: 7", "seat": "seat: NATO"}[key] + "'"})
			}
			continue
		}
		p.Orders = append(p.Orders, OrderLine{Line: n, Text: line})
	}
	for _, h := range []struct {
		name string
		line int
		hint string
	}{{"game", p.GameLine, "game: club-kosovo-3"}, {"step", p.StepLine, "step: 7"}, {"seat", p.SeatLine, "seat: NATO"}} {
		if h.line == 0 {
			problems = append(problems, Problem{Text: fmt.Sprintf("the order file does not say which %s it is for", h.name), Hint: "add a line such as '" + h.hint + "' at the top"})
		}
	}
	_ = ended // a file without "end" is read to its last line
	return p, problems
}

// Echo returns the orders in canonical form, with the line each came from.
func (p *ParsedOrders) Echo() string {
	var b strings.Builder
	fmt.Fprintf(&b, "game: %s\nstep: %d\nseat: %s\n", p.Game, p.Step, p.Seat)
	if len(p.Orders) == 0 {
		b.WriteString("(no orders: the game's default for a seat without orders applies)\n")
	}
	for _, o := range p.Orders {
		fmt.Fprintf(&b, "%-40s # line %d\n", o.Text, o.Line)
	}
	b.WriteString("end\n")
	return b.String()
}
