package sms1914

import (
	"fmt"
	"strings"
)

// forcedMarchTable is the Forced March Results Table (7.2.3a): the amount
// a Forced March EC failed by (rows, each the lowest margin it covers)
// against the unit type that marched (columns). It is not in the rule
// text; it comes from the table file.
type forcedMarchTable struct {
	Units    []string
	FailedBy []int
	results  [][]marchResult
}

// marchResult is one Forced March Results Table cell (7.2.3a).
type marchResult struct {
	Printed       string
	CELReductions int  // -#E: # CEL reductions (one that cannot be allocated becomes an S)
	SRs           int  // S: one unit of the Force reduced per S
	RemovePA      bool // ↑: remove the PA marker
}

// parseMarchResult reads a cell: "-" (no effect) or space-separated marks
// -#E, S and ↑ (7.2.3a).
func parseMarchResult(cell string) (marchResult, error) {
	m := marchResult{Printed: strings.TrimSpace(cell)}
	if m.Printed == "-" || m.Printed == "" {
		m.Printed = "-"
		return m, nil
	}
	for _, f := range strings.Fields(m.Printed) {
		var n int
		switch {
		case f == "S":
			m.SRs++
			if m.SRs > maxS {
				return m, fmt.Errorf("%q: at most %d S in a result (9.10.3)", cell, maxS)
			}
		case f == "↑":
			m.RemovePA = true
		default:
			if _, err := fmt.Sscanf(f, "-%dE", &n); err != nil || n <= 0 || f != fmt.Sprintf("-%dE", n) {
				return m, fmt.Errorf("%q: unknown mark %q (want -#E, S or ↑, separated by spaces)", cell, f)
			}
			m.CELReductions += n
			if m.CELReductions > maxE {
				return m, fmt.Errorf("%q: at most %d CEL reductions in a result (6.1.4)", cell, maxE)
			}
		}
	}
	return m, nil
}

// Lookup reads the result for a failure margin (1 or more) and a unit type.
func (f *forcedMarchTable) Lookup(failedBy int, unit string) (marchResult, bool) {
	col := -1
	for i, u := range f.Units {
		if strings.EqualFold(u, unit) {
			col = i
		}
	}
	if col < 0 || failedBy < 1 {
		return marchResult{}, false
	}
	row := 0
	for i, v := range f.FailedBy {
		if v <= failedBy {
			row = i
		}
	}
	return f.results[row][col], true
}

// forcedMarchMax is the most Forced March MPs a unit type may gain in a
// movement phase (7.2.1): 3 for infantry, 7 for cavalry (3 when moving with
// an assigned Infantry Asset, 7.2.2a).
func forcedMarchMax(cavalry, withInfantryAsset bool) int {
	if cavalry && !withInfantryAsset {
		return 7
	}
	return 3
}
