package sms1914

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// The columns the rule text names (9.6, 9.6.2, 7.4.3, 7.4.5 Example 2): the
// lowest is 1:4, and from 1:1 up they are 1:1, 3:2, 2:1, 3:1, 4:1, 6:1, 8:1
// (there is no 5:1 and no 7:1 column). The columns between 1:4 and 1:1 are
// not in the text and come from the table file.
var (
	lowestColumn = "1:4"
	upperColumns = []string{"1:1", "3:2", "2:1", "3:1", "4:1", "6:1", "8:1"}
)

// scale is the odds scale of 9.6: the CRT's printed columns, extended
// below 1:4 by 1:5, 1:6 ... (one column per shift) and above 8:1 by 10:1,
// 12:1 ... (two odds per shift), 9.6.2. A Position is a place on it: 0 is
// 1:4, Columns()-1 is 8:1, negative positions are below the table and
// larger ones above it.
type scale struct {
	names  []string
	values []*big.Rat
}

// position is a place on the odds Scale.
type position int

// newScale builds the scale from the CRT's column names, lowest first. They
// must start at 1:4, end with 1:1, 3:2, 2:1, 3:1, 4:1, 6:1, 8:1, and any
// columns between 1:4 and 1:1 must rise strictly (9.6, 9.9).
func newScale(columns []string) (*scale, error) {
	if len(columns) < 1+len(upperColumns) {
		return nil, fmt.Errorf("has %d columns; want 1:4, any columns between 1:4 and 1:1, then %s", len(columns), strings.Join(upperColumns, ", "))
	}
	s := &scale{}
	for i, name := range columns {
		v, err := parseRatio(name)
		if err != nil {
			return nil, fmt.Errorf("column %d %q: %v", i+1, name, err)
		}
		s.names = append(s.names, name)
		s.values = append(s.values, v)
	}
	if columns[0] != lowestColumn {
		return nil, fmt.Errorf("first column is %q; the lowest column is 1:4 (9.6.2)", columns[0])
	}
	tail := columns[len(columns)-len(upperColumns):]
	if strings.Join(tail, ",") != strings.Join(upperColumns, ",") {
		return nil, fmt.Errorf("the columns end %s; from 1:1 up the columns are %s, with no 5:1 or 7:1 (7.4.3, 7.4.5)", strings.Join(tail, ", "), strings.Join(upperColumns, ", "))
	}
	for i := 1; i < len(s.values)-len(upperColumns)+1; i++ {
		if s.values[i].Cmp(s.values[i-1]) <= 0 {
			return nil, fmt.Errorf("column %q does not rise above %q; the columns between 1:4 and 1:1 must rise", s.names[i], s.names[i-1])
		}
	}
	return s, nil
}

// parseRatio reads "a:b" with positive whole a and b.
func parseRatio(name string) (*big.Rat, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(name), ":")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || x <= 0 || y <= 0 {
		return nil, fmt.Errorf("not an odds ratio like 3:2")
	}
	return big.NewRat(int64(x), int64(y)), nil
}

// Columns is the number of printed CRT columns.
func (s *scale) Columns() int { return len(s.names) }

// Top is the position of the highest printed column, 8:1.
func (s *scale) Top() position { return position(len(s.names) - 1) }

// OneToOne is the position of the 1:1 column.
func (s *scale) OneToOne() position { return position(len(s.names) - len(upperColumns)) }

// Name names a position: a printed column, 1:5, 1:6 ... below the table,
// 10:1, 12:1 ... above it (9.6.2).
func (s *scale) Name(p position) string {
	switch {
	case p < 0:
		return fmt.Sprintf("1:%d", 4-int(p))
	case p > s.Top():
		return fmt.Sprintf("%d:1", 8+2*int(p-s.Top()))
	}
	return s.names[p]
}

// Value is a position's odds as a number.
func (s *scale) Value(p position) *big.Rat {
	switch {
	case p < 0:
		return big.NewRat(1, int64(4-int(p)))
	case p > s.Top():
		return big.NewRat(int64(8+2*int(p-s.Top())), 1)
	}
	return s.values[p]
}

// Clamp is the printed column a position is resolved on: odds beyond the
// table use its lowest or highest column (9.9, 9.6.2).
func (s *scale) Clamp(p position) position {
	return min(max(p, 0), s.Top())
}

// Find returns the position of a column name, on the table or beyond it.
func (s *scale) Find(name string) (position, bool) {
	for i, n := range s.names {
		if n == name {
			return position(i), true
		}
	}
	v, err := parseRatio(name)
	if err != nil {
		return 0, false
	}
	p := s.Round(v, false)
	return p, s.Name(p) == name
}

// Round rounds a strength ratio to the initial odds (9.1.1e, 9.6): to the
// nearer of the two neighbouring positions, measured from the midpoint
// between them; a ratio directly on the midpoint rounds up. The midpoint is
// that of the two ratios as numbers (14:8 = 1.75 is the midpoint of 3:2 and
// 2:1, so 2:1). With inverse set, ratios below 1:1 are measured the other
// way up: the midpoint of 1:2 and 1:1 is then 1:1.5 (2:3) rather than 0.75.
func (s *scale) Round(ratio *big.Rat, inverse bool) position {
	lo, hi := s.bracket(ratio)
	if lo == hi {
		return lo
	}
	lv, hv := s.Value(lo), s.Value(hi)
	if inverse && hv.Cmp(big.NewRat(1, 1)) <= 0 {
		// compare defender per attacker with the midpoint of the inverses
		inv := new(big.Rat).Inv(ratio)
		mid := new(big.Rat).Add(new(big.Rat).Inv(lv), new(big.Rat).Inv(hv))
		mid.Quo(mid, big.NewRat(2, 1))
		if inv.Cmp(mid) <= 0 {
			return hi
		}
		return lo
	}
	mid := new(big.Rat).Add(lv, hv)
	mid.Quo(mid, big.NewRat(2, 1))
	if ratio.Cmp(mid) >= 0 {
		return hi
	}
	return lo
}

// bracket finds the positions just at or below and just above a ratio (the
// same position twice when the ratio is exactly on one).
func (s *scale) bracket(r *big.Rat) (position, position) {
	top := s.Value(s.Top())
	if r.Cmp(top) >= 0 {
		// 8:1 and beyond: 8, 10, 12 ...
		over := new(big.Rat).Sub(r, top)
		over.Quo(over, big.NewRat(2, 1))
		k := floor(over)
		lo := s.Top() + position(k)
		if s.Value(lo).Cmp(r) == 0 {
			return lo, lo
		}
		return lo, lo + 1
	}
	if r.Cmp(s.Value(0)) < 0 {
		// below 1:4: 1:n with n = floor(1/r) at or above r
		n := floor(new(big.Rat).Inv(r))
		hi := position(4 - n)
		if s.Value(hi).Cmp(r) == 0 {
			return hi, hi
		}
		return hi - 1, hi
	}
	for i := s.Top(); i >= 0; i-- {
		if c := s.Value(i).Cmp(r); c == 0 {
			return i, i
		} else if c < 0 {
			return i, i + 1
		}
	}
	return 0, 0 // unreachable: r >= 1:4 here
}

func floor(r *big.Rat) int64 {
	q := new(big.Int).Quo(r.Num(), r.Denom()) // r is positive here
	return q.Int64()
}

// river is the river situation of an attack for the 9.6.1 shifts.
type river string

// The rivers of 9.6.1.
const (
	// NoRiver: no attacker crosses a Major River or Sava hexside or attacks
	// from a Bottomland with River hex (or only some do, for the Major River
	// shift).
	noRiver river = "none"
	// MajorRiver: ALL attackers attack across a Major River, Sava Island or
	// Sava River-bend hexside or from a Bottomland with River hex: 1 left.
	majorRiver river = "major"
	// SavaAll: ALL attackers attack across the Sava River: 2 left.
	savaAll river = "sava_all"
	// SavaSome: some, not all, attackers attack across the Sava: the minimum
	// of 1 left.
	savaSome river = "sava_some"
)

// shifts are the 9.6.1 odds column shifts of one combat.
type shifts struct {
	Prepared    bool  // every attacking Combat unit has a PA at the hex: 1 right (7.3, 9.6.1)
	Flanked     bool  // the defender is Flanked: 2 right (9.5.2)
	IP          int   // Level 1 IP in the defender's hex: 1 left each (14.1); only level 1 exists
	River       river // 9.6.1 river shifts
	UpElevation bool  // defender higher than every attacker: 1 left (3.6, 9.6.1)
	Other       int   // any other net shifts, + to the right
}

// Net is the net number of column shifts, + to the right (in the
// attacker's favour): each leftward shift offsets one rightward one (9.6.2).
func (sh shifts) Net() int {
	n := sh.Other
	if sh.Prepared {
		n++
	}
	if sh.Flanked {
		n += 2
	}
	n -= sh.IP
	switch sh.River {
	case majorRiver, savaSome:
		n--
	case savaAll:
		n -= 2
	}
	if sh.UpElevation {
		n--
	}
	return n
}

// odds is the outcome of odds determination (9.1.1e, 9.6).
type odds struct {
	Initial position // the ratio rounded at the midpoint
	Final   position // after the net shifts, on the extended scale
	Column  position // the printed column used (Final clamped, 9.9)
	Net     int      // the net shifts applied
}

// determineOdds rounds attack:defense to the initial odds and applies the
// net shifts along the extended scale (9.6, 9.6.2): beyond 8:1 each shift
// moves two odds (10:1, 12:1 ...), below 1:4 one column (1:5, 1:6 ...);
// the CRT column is then the final odds clamped to the table (9.9).
func determineOdds(s *scale, attack, defense *big.Rat, sh shifts, inverse bool) odds {
	ratio := new(big.Rat).Quo(attack, defense)
	o := odds{Initial: s.Round(ratio, inverse), Net: sh.Net()}
	o.Final = o.Initial + position(o.Net)
	o.Column = s.Clamp(o.Final)
	return o
}

// UsesLowColumns reports whether the columns between 1:4 and 1:1 (which
// come from the table file) decided anything: the ratio or the final odds
// lie strictly between 1:4 and 1:1, or the shifts crossed that range.
func (s *scale) UsesLowColumns(attack, defense *big.Rat, o odds) bool {
	if s.OneToOne() == 1 {
		return false
	}
	ratio := new(big.Rat).Quo(attack, defense)
	if ratio.Cmp(s.Value(0)) > 0 && ratio.Cmp(big.NewRat(1, 1)) < 0 {
		return true
	}
	lo, hi := min(o.Initial, o.Final), max(o.Initial, o.Final)
	return lo < s.OneToOne() && hi > 0
}
