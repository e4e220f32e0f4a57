package adjudicator

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

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

// ParseOrderFile reads the header and the order lines. The order file
// starts at its first header line (game:, step: or seat:); the lines above
// it (a greeting, a reply's quoted report and its "On ... wrote:" line) are
// not part of it. Comments start with '#'; blank lines are skipped; quoted
// lines ("> ...") and the attribution line above a quote are never order
// lines; a line "end", a mail signature separator ("-- ", also as "--" or
// dash-escaped "- -- ") or the start of a quoted original ("-----Original
// Message-----", a line of underscores) ends the file, and anything after
// it is ignored. Problems carry line numbers and hints; game-specific
// checks of each order come later (docs/order-file.md, docs/rulings.md).
func ParseOrderFile(text string) (ParsedOrders, []Problem) {
	var p ParsedOrders
	var problems []Problem
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	started := false             // a header line was read: the order file has begun
	misspelt := map[string]int{} // the first line whose key looks like a misspelt header
	for i, raw := range lines {
		n := i + 1
		if started && endsOrderFile(raw) {
			break
		}
		if quotedLine(raw) || attribution(lines, i) {
			continue
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
			if started {
				break
			}
			continue
		}
		key, value, isHeader := strings.Cut(line, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if isHeader && (key == "game" || key == "step" || key == "seat") {
			started = true
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
		for _, near := range misspeltHeader(key, isHeader) {
			if _, ok := misspelt[near]; !ok {
				misspelt[near] = n
			}
		}
		if !started {
			continue // above the order file: a greeting, a quoted report
		}
		p.Orders = append(p.Orders, OrderLine{Line: n, Text: line})
	}
	for _, h := range []struct {
		name string
		line int
		hint string
	}{{"game", p.GameLine, "game: club-kosovo-3"}, {"step", p.StepLine, "step: 7"}, {"seat", p.SeatLine, "seat: NATO"}} {
		if h.line == 0 {
			if n, ok := misspelt[h.name]; ok {
				problems = append(problems, Problem{Line: n, Text: fmt.Sprintf("the order file does not say which %s it is for: this line is no header", h.name),
					Hint: fmt.Sprintf("did you mean '%s:'? write it as in '%s'", h.name, h.hint)})
				continue
			}
			problems = append(problems, Problem{Text: fmt.Sprintf("the order file does not say which %s it is for", h.name), Hint: "add a line such as '" + h.hint + "' at the top"})
		}
	}
	return p, problems
}

// misspeltHeader are the headers ("game", "step", "seat") that key, the
// one word before a line's ':', looks like a misspelling of ("stpe" for
// step), nearest first; none for a header or a line without ':'.
func misspeltHeader(key string, colon bool) []string {
	if !colon || strings.ContainsAny(key, " \t") || key == "game" || key == "step" || key == "seat" {
		return nil
	}
	return nearNames(key, []string{"game", "step", "seat"})
}

// endsOrderFile reports whether line is a mail signature separator ("-- ",
// which clear-signing and some mail programs leave as "--", or dash-escaped
// "- -- ") or the line above a quoted original that mail programs write
// instead of "> " marks (Outlook's "-----Original Message-----" or a rule of
// underscores).
func endsOrderFile(line string) bool {
	l := strings.TrimRight(line, " \t\r")
	switch {
	case l == "--" || l == "- --":
		return true
	case strings.EqualFold(strings.Trim(l, "- "), "original message") && strings.HasPrefix(l, "-----"):
		return true
	case len(l) >= 10 && strings.Trim(l, "_") == "":
		return true
	}
	return false
}

// quotedLine reports whether line is quoted text of a reply ("> ...").
func quotedLine(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), ">")
}

// attribution reports whether lines[i] is the attribution line a mail
// program writes above the text it quotes ("On Mon, 3 Mar 2025, Umpire
// <judge@umpire.test> wrote:", "Am ... schrieb ...:"): a line ending in ':'
// whose next non-blank line is quoted, or the first half of one that a
// mail program broke in two ("On ..." followed by the rest).
func attribution(lines []string, i int) bool {
	endsColon := func(l string) bool { return strings.HasSuffix(strings.TrimRight(l, " \t\r"), ":") }
	quotedNext := func(j int) bool {
		for j++; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) != "" {
				return quotedLine(lines[j])
			}
		}
		return false
	}
	l := lines[i]
	if quotedLine(l) || strings.TrimSpace(l) == "" {
		return false
	}
	if endsColon(l) && quotedNext(i) {
		return true
	}
	return strings.HasPrefix(strings.TrimSpace(l), "On ") && i+1 < len(lines) && !quotedLine(lines[i+1]) &&
		strings.TrimSpace(lines[i+1]) != "" && endsColon(lines[i+1]) && quotedNext(i+1)
}

// WrapLimit is the column at which mail programs that hard-wrap plain
// text break long lines (Gmail's plain text mode: 78).
const WrapLimit = 78

// CutLines returns the numbers (1-based, ascending) of the lines of text
// that look like the rest of the line above them, cut off by a mail
// program that wraps at WrapLimit columns: no line of text is longer than
// WrapLimit, the line above is at least minLen characters long and is not
// blank, a comment or quoted, and the first word of the line would not
// have fit on it. It is nil when some line is longer than WrapLimit (the
// text was not wrapped there). Intake refuses only such a line that the
// game's rules could not read either, so that a long order followed by a
// good one is never taken for a cut one (docs/rulings.md, issue 30).
func CutLines(text string, minLen int) []int {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for _, l := range lines {
		if utf8.RuneCountInString(strings.TrimRight(l, " \t")) > WrapLimit {
			return nil
		}
	}
	var cut []int
	for i := 1; i < len(lines); i++ {
		prev := strings.TrimRight(lines[i-1], " \t")
		first := strings.Fields(lines[i])
		n := utf8.RuneCountInString(prev)
		if len(first) == 0 || n < minLen || strings.TrimSpace(prev) == "" || quotedLine(prev) || strings.HasPrefix(strings.TrimSpace(prev), "#") {
			continue
		}
		if n+1+utf8.RuneCountInString(first[0]) > WrapLimit {
			cut = append(cut, i+1)
		}
	}
	return cut
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
