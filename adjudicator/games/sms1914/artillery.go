package sms1914

import (
	"fmt"
	"math/big"
	"strings"
)

// artilleryTable is the Artillery Table (10.1.2): the enemy's total AV
// (rows, each the lowest AV it covers) against the friendly
// division-equivalents in the combat (columns, each the lowest DE it
// covers) gives the EC DRM to the friendly Forces. It is not in the rule
// text; it comes from the table file.
type artilleryTable struct {
	DE  []*big.Rat
	AV  []int
	DRM [][]int
}

// artilleryAV totals a side's AV: a fractional total rounds up (10.1.1a).
func artilleryAV(total *big.Rat) int {
	q := new(big.Int).Quo(total.Num(), total.Denom())
	if new(big.Rat).SetInt(q).Cmp(total) < 0 {
		q.Add(q, big.NewInt(1))
	}
	return int(q.Int64())
}

// Lookup is the EC DRM an enemy AV total inflicts on friendly Forces of de
// division-equivalents (10.1.2): the row is the last whose AV is at most
// av, the column the last whose DE is at most de (DE below the first
// column uses the first).
func (a *artilleryTable) Lookup(av int, de *big.Rat) (drm, row, col int) {
	for i, v := range a.AV {
		if v <= av {
			row = i
		}
	}
	for i, d := range a.DE {
		if d.Cmp(de) <= 0 {
			col = i
		}
	}
	return a.DRM[row][col], row, col
}

// parseDE reads a division-equivalent count: a quarter-multiple above 0,
// written 0.75, 3/4 or 2 1/2 (1.1; a defending Fort counts 1/2, 10.1.2).
func parseDE(text string) (*big.Rat, error) {
	text = strings.Trim(strings.TrimSpace(text), `"'`)
	r := new(big.Rat)
	var whole, frac string
	if n, err := fmt.Sscanf(text, "%s %s", &whole, &frac); err == nil && n == 2 {
		w, ok1 := new(big.Rat).SetString(whole)
		f, ok2 := new(big.Rat).SetString(frac)
		if !ok1 || !ok2 || !w.IsInt() || f.Sign() <= 0 || f.Cmp(big.NewRat(1, 1)) >= 0 {
			return nil, fmt.Errorf("%q is not a number of division-equivalents", text)
		}
		r.Add(w, f)
	} else if _, ok := r.SetString(text); !ok {
		return nil, fmt.Errorf("%q is not a number of division-equivalents", text)
	}
	q := new(big.Rat).Mul(r, big.NewRat(4, 1))
	if r.Sign() <= 0 || !q.IsInt() {
		return nil, fmt.Errorf("%q is not a positive multiple of 1/4 division-equivalent", text)
	}
	return r, nil
}

// formatDE writes a DE count with quarters as fractions: 2 1/2, 1/4, 1.
func formatDE(de *big.Rat) string {
	q := new(big.Rat).Mul(de, big.NewRat(4, 1))
	n := q.Num().Int64()
	whole, rest := n/4, n%4
	frac := [...]string{"", "1/4", "1/2", "3/4"}[rest]
	switch {
	case rest == 0:
		return fmt.Sprint(whole)
	case whole == 0:
		return frac
	}
	return fmt.Sprintf("%d %s", whole, frac)
}
