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

// Tables is a parsed table file. Each section is checked when a procedure
// first needs it, so a file holding only the CRT still serves combat.
type Tables struct {
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
func LoadTables(path string) (*Tables, error) {
	t := &Tables{Name: path}
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

func (t *Tables) missing(keys ...string) error {
	for _, k := range keys {
		if !t.md.IsDefined(strings.Split(k, ".")...) {
			return fmt.Errorf("table file %s has no field %s", t.Name, k)
		}
	}
	return nil
}

// bad is a problem with a field of the file, naming its line when it can
// be found: "table file NAME:LINE: field crt.columns: ...".
func (t *Tables) bad(field, format string, args ...any) error {
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

// Scale is the odds scale from the file's crt.columns.
func (t *Tables) Scale() (*Scale, error) {
	if err := t.missing("crt.columns"); err != nil {
		return nil, err
	}
	s, err := NewScale(t.file.CRT.Columns)
	if err != nil {
		return nil, t.bad("crt.columns", "%v", err)
	}
	return s, nil
}

// CRT is the file's Combat Results Table, checked whole.
func (t *Tables) CRT() (*CRT, error) {
	s, err := t.Scale()
	if err != nil {
		return nil, err
	}
	if err := t.missing("crt.white_min", "crt.white_max", "crt.cells"); err != nil {
		return nil, err
	}
	f := t.file.CRT
	if f.WhiteMax < f.WhiteMin {
		return nil, t.bad("crt.white_max", "%d is below crt.white_min %d", f.WhiteMax, f.WhiteMin)
	}
	rows := f.WhiteMax - f.WhiteMin + 1
	crt := &CRT{Scale: s, WhiteMin: f.WhiteMin, WhiteMax: f.WhiteMax}
	for _, col := range f.Columns {
		field := fmt.Sprintf("crt.cells.%q", col)
		grid, ok := f.Cells[col]
		if !ok {
			return nil, t.bad(field, "missing: every column of crt.columns has its cells")
		}
		if len(grid) != rows {
			return nil, t.bad(field, "has %d rows, want %d (white %d to %d)", len(grid), rows, f.WhiteMin, f.WhiteMax)
		}
		var out [][]Result
		for i, row := range grid {
			if len(row) != 6 {
				return nil, t.bad(field, "row for white %d has %d cells, want 6 (black 1 to 6)", f.WhiteMin+i, len(row))
			}
			var rr []Result
			for j, cell := range row {
				res, err := ParseResult(cell)
				if err != nil {
					return nil, t.bad(field, "white %d black %d: %v", f.WhiteMin+i, j+1, err)
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
func (t *Tables) ArtilleryTable() (*ArtilleryTable, error) {
	if err := t.missing("artillery.de", "artillery.av", "artillery.drm"); err != nil {
		return nil, err
	}
	f := t.file.Artillery
	a := &ArtilleryTable{AV: f.AV, DRM: f.DRM}
	if len(f.DE) == 0 || len(f.AV) == 0 {
		return nil, t.bad("artillery.de", "artillery.de and artillery.av must not be empty")
	}
	for i, d := range f.DE {
		r, ok := new(big.Rat).SetString(fmt.Sprint(d))
		if !ok || r.Sign() <= 0 || (i > 0 && r.Cmp(a.DE[i-1]) <= 0) {
			return nil, t.bad("artillery.de", "must rise from above 0")
		}
		a.DE = append(a.DE, r)
	}
	for i, v := range f.AV {
		if v < 0 || (i == 0 && v != 0) || (i > 0 && v <= f.AV[i-1]) {
			return nil, t.bad("artillery.av", "must start at 0 and rise")
		}
	}
	if len(f.DRM) != len(f.AV) {
		return nil, t.bad("artillery.drm", "has %d rows, want %d (one per artillery.av)", len(f.DRM), len(f.AV))
	}
	for i, row := range f.DRM {
		if len(row) != len(f.DE) {
			return nil, t.bad("artillery.drm", "row %d has %d cells, want %d (one per artillery.de)", i+1, len(row), len(f.DE))
		}
	}
	return a, nil
}

// ForcedMarchTable is the file's Forced March Results Table, checked whole.
func (t *Tables) ForcedMarchTable() (*ForcedMarchTable, error) {
	if err := t.missing("forced_march.units", "forced_march.failed_by", "forced_march.results"); err != nil {
		return nil, err
	}
	f := t.file.ForcedMarch
	fm := &ForcedMarchTable{Units: f.Units, FailedBy: f.FailedBy}
	if len(f.Units) == 0 || len(f.FailedBy) == 0 || f.FailedBy[0] != 1 {
		return nil, t.bad("forced_march.failed_by", "forced_march.units and forced_march.failed_by must not be empty, and failed_by must start at 1")
	}
	for i := 1; i < len(f.FailedBy); i++ {
		if f.FailedBy[i] <= f.FailedBy[i-1] {
			return nil, t.bad("forced_march.failed_by", "must rise")
		}
	}
	if len(f.Results) != len(f.FailedBy) {
		return nil, t.bad("forced_march.results", "has %d rows, want %d (one per failed_by)", len(f.Results), len(f.FailedBy))
	}
	for i, row := range f.Results {
		if len(row) != len(f.Units) {
			return nil, t.bad("forced_march.results", "row %d has %d cells, want %d (one per unit type)", i+1, len(row), len(f.Units))
		}
		var rr []MarchResult
		for j, cell := range row {
			m, err := ParseMarchResult(cell)
			if err != nil {
				return nil, t.bad("forced_march.results", "row %d, %s: %v", i+1, f.Units[j], err)
			}
			rr = append(rr, m)
		}
		fm.results = append(fm.results, rr)
	}
	return fm, nil
}
