package sms1914

import (
	_ "embed"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// demoTables is the embedded stand-in table file: the CRT, Artillery Table
// and Forced March Results Table are not in the rule text (see
// docs/tables-sms1914.md). Every cell the rulebook's examples reveal is in
// it as the rulebook gives it.
//
//go:embed demo-tables.toml
var demoTables string

// tables is a parsed table file. Each section is checked when a procedure
// first needs it, so a file holding only the CRT still serves combat.
type tables struct {
	// Name is the file's path, or "demo tables" for the embedded ones.
	Name string
	// StandIn is the file's stand_in flag: its data are not the
	// published tables, and answers say so.
	StandIn bool

	file tableFile
	md   toml.MetaData
	text []byte
}

type tableFile struct {
	StandIn     bool            `toml:"stand_in"`
	CRT         crtFile         `toml:"crt"`
	Artillery   artilleryFile   `toml:"artillery"`
	ForcedMarch forcedMarchFile `toml:"forced_march"`
	TEC         tecFile         `toml:"tec"`
}

type crtFile struct {
	Columns  []string              `toml:"columns"`
	WhiteMin int                   `toml:"white_min"`
	WhiteMax int                   `toml:"white_max"`
	Cells    map[string][][]string `toml:"cells"`
}

type artilleryFile struct {
	DE  []float64 `toml:"de"`
	AV  []int     `toml:"av"`
	DRM [][]int   `toml:"drm"`
}

type forcedMarchFile struct {
	Units    []string   `toml:"units"`
	FailedBy []int      `toml:"failed_by"`
	Results  [][]string `toml:"results"`
}

// LoadTables reads a table file; an empty path means the embedded demo
// (stand-in) tables. Errors name the file.
func LoadTables(path string) (*tables, error) {
	t := &tables{Name: path}
	text := demoTables
	if path == "" {
		t.Name = "demo tables"
	} else {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("cannot read table file %s: %v", path, err)
		}
		text = string(b)
	}
	md, err := datafile.DecodeLoose(t.Name, []byte(text), &t.file)
	if err != nil {
		return nil, fmt.Errorf("table file: %w", err)
	}
	t.md, t.text = md, []byte(text)
	t.StandIn = t.file.StandIn
	return t, nil
}

// missing refuses a file without one of the fields, naming the line of
// the table that should hold it where there is one.
func (t *tables) missing(keys ...string) error {
	for _, k := range keys {
		if !t.md.IsDefined(strings.Split(k, ".")...) {
			table := ""
			if i := strings.LastIndex(k, "."); i >= 0 {
				table = k[:i]
			}
			line := 0
			if table != "" {
				line = datafile.FieldLine(t.text, table, -1, "")
			}
			return &datafile.FileError{File: "table file " + t.Name, Line: line, Field: k, Err: "missing (docs/tables-sms1914.md)"}
		}
	}
	return nil
}

// Bounds of the table files (docs/tables-sms1914.md): what the rules let a
// table hold, with room to spare; a value beyond them is a mistake.
const (
	maxDRM      = 12  // an EC DRM: 2d6 against a CEL of at most 19 (6.2.1, 10.3)
	minWhite    = -20 // the lowest modified white die a row may start at (9.7, 9.9.1)
	maxWhite    = 30  // the highest a row may end at
	maxE        = 6   // CEL reductions in one result: the six CE status levels (6.1.4)
	maxS        = 4   // SRs in one result: a division's back, -2 and -4 (9.10.3)
	maxArtDE    = 20  // division-equivalents of an Artillery Table column (10.1.2)
	maxArtAV    = 999 // AV of an Artillery Table row
	maxFMMargin = 20  // a Forced March EC failure margin (7.2.3a): 2d6+7 against a CEL of 1 or more
	maxTECMP    = 20  // MP costs (7.1.3)
	maxTECStr   = 20  // strength changes (9.3.1, 9.3.2)
	maxColumns  = 40  // CRT columns; Artillery Table rows and columns
)

// bad is a problem with a field of the file, naming its line when it can
// be found: "table file NAME:LINE: field crt.columns: ...".
func (t *tables) bad(field, format string, args ...any) error {
	table, key := field, ""
	if i := strings.LastIndex(field, "."); i >= 0 {
		table, key = field[:i], field[i+1:]
	}
	key = strings.Trim(key, `"`)
	line := datafile.FieldLine(t.text, table, -1, key)
	if line == 0 {
		// a cell key such as crt.cells."1:4": look for it under its table
		if i := strings.Index(field, ".\""); i >= 0 {
			line = datafile.FieldLine(t.text, field[:i], -1, strings.Trim(field[i+1:], `"`))
		}
	}
	return &datafile.FileError{File: "table file " + t.Name, Line: line, Field: field, Err: fmt.Sprintf(format, args...)}
}

// badRow is bad for one row of a field's list of rows: the row's own line
// when the rows are written one a line after the field's key (as the demo
// file writes them), else the key's.
func (t *tables) badRow(field string, row int, format string, args ...any) error {
	e := t.bad(field, format, args...).(*datafile.FileError)
	if e.Line == 0 {
		return e
	}
	lines := strings.Split(string(t.text), "\n")
	if e.Line > len(lines) || strings.Contains(lines[e.Line-1][strings.Index(lines[e.Line-1], "=")+1:], "]") {
		return e // the rows share the key's line
	}
	n := 0
	for i := e.Line; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(l, "["):
			if n == row {
				e.Line = i + 1
				return e
			}
			n++
		case l == "" || strings.HasPrefix(l, "#"):
		default:
			return e // the list ended
		}
	}
	return e
}

// Scale is the odds scale from the file's crt.columns.
func (t *tables) Scale() (*scale, error) {
	if err := t.missing("crt.columns"); err != nil {
		return nil, err
	}
	s, err := newScale(t.file.CRT.Columns)
	if err != nil {
		return nil, t.bad("crt.columns", "%v", err)
	}
	return s, nil
}

// CRT is the file's Combat Results Table, checked whole.
func (t *tables) CRT() (*crt, error) {
	s, err := t.Scale()
	if err != nil {
		return nil, err
	}
	if err := t.missing("crt.white_min", "crt.white_max", "crt.cells"); err != nil {
		return nil, err
	}
	f := t.file.CRT
	if len(f.Columns) > maxColumns {
		return nil, t.bad("crt.columns", "%d columns: at most %d", len(f.Columns), maxColumns)
	}
	if f.WhiteMin < minWhite || f.WhiteMin > maxWhite {
		return nil, t.bad("crt.white_min", "%d: want the lowest modified white die a row is for, %d to %d (9.7, 9.9.1)", f.WhiteMin, minWhite, maxWhite)
	}
	if f.WhiteMax < f.WhiteMin {
		return nil, t.bad("crt.white_max", "%d is below crt.white_min %d", f.WhiteMax, f.WhiteMin)
	}
	if f.WhiteMax > maxWhite {
		return nil, t.bad("crt.white_max", "%d: want the highest modified white die a row is for, up to %d (9.7, 9.9.1)", f.WhiteMax, maxWhite)
	}
	rows := f.WhiteMax - f.WhiteMin + 1
	crt := &crt{Scale: s, WhiteMin: f.WhiteMin, WhiteMax: f.WhiteMax}
	for _, col := range f.Columns {
		field := fmt.Sprintf("crt.cells.%q", col)
		grid, ok := f.Cells[col]
		if !ok {
			return nil, t.bad(field, "missing: every column of crt.columns has its cells")
		}
		if len(grid) != rows {
			return nil, t.bad(field, "has %d rows, want %d (white %d to %d)", len(grid), rows, f.WhiteMin, f.WhiteMax)
		}
		var out [][]result
		for i, row := range grid {
			if len(row) != 6 {
				return nil, t.badRow(field, i, "row for white %d has %d cells, want 6 (black 1 to 6)", f.WhiteMin+i, len(row))
			}
			var rr []result
			for j, cell := range row {
				res, err := parseResult(cell)
				if err != nil {
					return nil, t.badRow(field, i, "white %d black %d: %v", f.WhiteMin+i, j+1, err)
				}
				rr = append(rr, res)
			}
			out = append(out, rr)
		}
		crt.cells = append(crt.cells, out)
	}
	for col := range f.Cells {
		if !slices.Contains(f.Columns, col) {
			return nil, t.bad(fmt.Sprintf("crt.cells.%q", col), "is not one of crt.columns")
		}
	}
	return crt, nil
}

// ArtilleryTable is the file's Artillery Table, checked whole.
func (t *tables) ArtilleryTable() (*artilleryTable, error) {
	if err := t.missing("artillery.de", "artillery.av", "artillery.drm"); err != nil {
		return nil, err
	}
	f := t.file.Artillery
	a := &artilleryTable{AV: f.AV, DRM: f.DRM}
	if len(f.DE) == 0 || len(f.AV) == 0 {
		return nil, t.bad("artillery.de", "artillery.de and artillery.av must not be empty")
	}
	if len(f.DE) > maxColumns || len(f.AV) > maxColumns {
		return nil, t.bad("artillery.de", "%d columns and %d rows: at most %d each", len(f.DE), len(f.AV), maxColumns)
	}
	for i, d := range f.DE {
		r, ok := new(big.Rat).SetString(fmt.Sprint(d))
		if !ok || r.Sign() <= 0 || (i > 0 && r.Cmp(a.DE[i-1]) <= 0) || d > maxArtDE {
			return nil, t.bad("artillery.de", "must rise from above 0 to at most %d division-equivalents (10.1.2)", maxArtDE)
		}
		a.DE = append(a.DE, r)
	}
	for i, v := range f.AV {
		if v < 0 || (i == 0 && v != 0) || (i > 0 && v <= f.AV[i-1]) || v > maxArtAV {
			return nil, t.bad("artillery.av", "must start at 0 and rise, to at most %d (10.1.2)", maxArtAV)
		}
	}
	if len(f.DRM) != len(f.AV) {
		return nil, t.bad("artillery.drm", "has %d rows, want %d (one per artillery.av)", len(f.DRM), len(f.AV))
	}
	for i, row := range f.DRM {
		if len(row) != len(f.DE) {
			return nil, t.badRow("artillery.drm", i, "row %d has %d cells, want %d (one per artillery.de)", i+1, len(row), len(f.DE))
		}
		for j, v := range row {
			if v < -maxDRM || v > maxDRM {
				return nil, t.badRow("artillery.drm", i, "row %d, column %d: %d: an EC DRM is %d to %d (10.1.2)", i+1, j+1, v, -maxDRM, maxDRM)
			}
		}
	}
	return a, nil
}

// ForcedMarchTable is the file's Forced March Results Table, checked whole.
func (t *tables) ForcedMarchTable() (*forcedMarchTable, error) {
	if err := t.missing("forced_march.units", "forced_march.failed_by", "forced_march.results"); err != nil {
		return nil, err
	}
	f := t.file.ForcedMarch
	fm := &forcedMarchTable{Units: f.Units, FailedBy: f.FailedBy}
	if len(f.Units) == 0 || len(f.FailedBy) == 0 || f.FailedBy[0] != 1 {
		return nil, t.bad("forced_march.failed_by", "forced_march.units and forced_march.failed_by must not be empty, and failed_by must start at 1")
	}
	for i := 1; i < len(f.FailedBy); i++ {
		if f.FailedBy[i] <= f.FailedBy[i-1] {
			return nil, t.bad("forced_march.failed_by", "must rise")
		}
	}
	if last := f.FailedBy[len(f.FailedBy)-1]; last > maxFMMargin || len(f.Units) > maxColumns {
		return nil, t.bad("forced_march.failed_by", "failure margins run from 1 to at most %d (7.2.3a), for at most %d unit types", maxFMMargin, maxColumns)
	}
	if len(f.Results) != len(f.FailedBy) {
		return nil, t.bad("forced_march.results", "has %d rows, want %d (one per failed_by)", len(f.Results), len(f.FailedBy))
	}
	for i, row := range f.Results {
		if len(row) != len(f.Units) {
			return nil, t.badRow("forced_march.results", i, "row %d has %d cells, want %d (one per unit type)", i+1, len(row), len(f.Units))
		}
		var rr []marchResult
		for j, cell := range row {
			m, err := parseMarchResult(cell)
			if err != nil {
				return nil, t.badRow("forced_march.results", i, "row %d, %s: %v", i+1, f.Units[j], err)
			}
			rr = append(rr, m)
		}
		fm.results = append(fm.results, rr)
	}
	return fm, nil
}
