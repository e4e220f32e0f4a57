package sms1914

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// crt is the Combat Results Table (9.9): for each column, one row per
// modified white die value from WhiteMin to WhiteMax, each row holding the
// six results for black 1 to 6. The table is not in the rule text; it comes
// from the table file.
type crt struct {
	Scale              *scale
	WhiteMin, WhiteMax int
	cells              [][][]result // [column][white-WhiteMin][black-1]
}

// part is one side's half of a CRT result (9.9.2).
type part struct {
	DRM int // the +/- # post-combat EC DRM
	E   int // E: CEL reductions for each Force
	S   int // s: strength reductions (one unit each)
}

// result is one CRT cell (9.9.2): the attacker's part, the defender's
// part, and the defender's retreat number, black- or white-circled.
type result struct {
	Printed      string // as printed, retreats as ① / ② whatever their colour
	Attacker     part
	Defender     part
	BlackRetreat int // 1 or 2 for a black ① / ②, else 0
	WhiteRetreat int // 1 or 2 for a white ① / ②, else 0
}

// parseResult reads a cell in the table-file notation: ATTACKER/DEFENDER,
// each "-" (no effect) or made of +N / -N (EC DRM), E (one CEL reduction
// each) and s (one strength reduction each), the defender's part possibly
// ending in a retreat: b1, b2 (black ①, ②) or w1, w2 (white ①, ②).
func parseResult(cell string) (result, error) {
	cell = strings.TrimSpace(cell)
	att, def, ok := strings.Cut(cell, "/")
	if !ok || strings.Contains(def, "/") {
		return result{}, fmt.Errorf("%q is not ATTACKER/DEFENDER", cell)
	}
	r := result{}
	att, def = strings.TrimSpace(att), strings.TrimSpace(def)
	printedDef := def
	if n := len(def); n >= 2 && (def[n-2] == 'b' || def[n-2] == 'w') && (def[n-1] == '1' || def[n-1] == '2') {
		num := int(def[n-1] - '0')
		if def[n-2] == 'b' {
			r.BlackRetreat = num
		} else {
			r.WhiteRetreat = num
		}
		def = strings.TrimSpace(def[:n-2])
		glyph := "①"
		if num == 2 {
			glyph = "②"
		}
		if def == "" || def == "-" {
			printedDef = glyph
		} else {
			printedDef = def + glyph
		}
	}
	var err error
	if r.Attacker, err = parsePart(att); err != nil {
		return result{}, fmt.Errorf("%q: attacker part: %v", cell, err)
	}
	if r.Defender, err = parsePart(def); err != nil {
		return result{}, fmt.Errorf("%q: defender part: %v", cell, err)
	}
	r.Printed = att + "/" + printedDef
	return r, nil
}

func parsePart(p string) (part, error) {
	var out part
	if p == "" || p == "-" {
		return out, nil
	}
	seenDRM := false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '+' || c == '-':
			j := i + 1
			for j < len(p) && unicode.IsDigit(rune(p[j])) {
				j++
			}
			if j == i+1 || seenDRM {
				return out, fmt.Errorf("%q: a DRM is + or - then digits, at most once", p)
			}
			n := 0
			for _, d := range p[i+1 : j] {
				n = n*10 + int(d-'0')
				if n > maxDRM {
					return out, fmt.Errorf("%q: an EC DRM is %d to %d (9.9.2)", p, -maxDRM, maxDRM)
				}
			}
			if c == '-' {
				n = -n
			}
			out.DRM, seenDRM = n, true
			i = j
		case c == 'E':
			out.E++
			i++
			if out.E > maxE {
				return out, fmt.Errorf("%q: at most %d E in a result (6.1.4)", p, maxE)
			}
		case c == 's':
			out.S++
			i++
			if out.S > maxS {
				return out, fmt.Errorf("%q: at most %d s in a result (9.10.3)", p, maxS)
			}
		case c == ' ':
			i++
		default:
			return out, fmt.Errorf("%q: unknown mark %q (want +N, -N, E, s, or a final b1/b2/w1/w2 retreat)", p, string(c))
		}
	}
	return out, nil
}

// Row is the CRT row a modified white die reads: values beyond the table's
// rows use its first or last row.
func (t *crt) Row(white int) int {
	return min(max(white, t.WhiteMin), t.WhiteMax)
}

// Lookup reads the cell at a printed column, a modified white die value
// (clamped to the table's rows) and a black die 1-6 (9.9.1).
func (t *crt) Lookup(column position, white, black int) result {
	return t.cells[column][t.Row(white)-t.WhiteMin][black-1]
}

// combatRoll is the CRT roll of 9.1.1g and 9.9.1.
type combatRoll struct {
	White, Black  int
	WhiteModified int // white + PR DRM
	Row           int // the CRT row read
	Result        result
}

// RollCRT rolls the white die, then the black die, modifies the white die
// by the PR DRM (9.7) and reads the CRT at the column (9.9.1).
func (t *crt) RollCRT(r dice.Roller, column position, prDRM int, purpose string) combatRoll {
	w := dice.Roll(r, 1, 6, "1914 SmS 9.9.1 CRT white die, "+purpose)[0]
	b := dice.Roll(r, 1, 6, "1914 SmS 9.9.1 CRT black die, "+purpose)[0]
	c := combatRoll{White: w, Black: b, WhiteModified: w + prDRM}
	c.Row = t.Row(c.WhiteModified)
	c.Result = t.Lookup(column, c.WhiteModified, b)
	return c
}

// outcome applies the battle intensity to a CRT result (9.8.2, 9.9.2).
type outcome struct {
	DefenderRetreat int // hexes the defender retreats
	AttackerSRs     int // s results plus the Intensity SR
	DefenderSRs     int // s results, the SR of a ② carried out, plus the Intensity SR
	AttackerIntSR   int
	DefenderIntSR   int
}

// Apply works out a result's retreat and SRs under a battle intensity. A ②
// carries its SR only when its retreat is carried out (a ② the intensity
// ignores is ignored whole, as the 19.1.6 example ignores a white ②).
func (res result) Apply(b Battle) outcome {
	o := outcome{DefenderRetreat: b.DefenderRetreat(res.BlackRetreat, res.WhiteRetreat)}
	o.AttackerIntSR = b.AttackerSR(res.BlackRetreat)
	o.DefenderIntSR = b.DefenderSR(res.BlackRetreat, res.WhiteRetreat)
	o.AttackerSRs = res.Attacker.S + o.AttackerIntSR
	o.DefenderSRs = res.Defender.S + o.DefenderIntSR
	if o.DefenderRetreat == 2 {
		o.DefenderSRs++
	}
	return o
}

// defenderChecks reports whether the defender makes a post-combat EC: not
// when the final odds are lower than 1:4 (10.0), read on the extended scale.
func defenderChecks(final position) bool { return final >= 0 }
