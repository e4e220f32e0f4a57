package wbt

import (
	_ "embed"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// result is a CRT cell: step losses to the attacker and to the defender,
// printed "A/D" (11.9).
type result struct {
	Attacker, Defender int
}

func (r result) String() string {
	return strconv.Itoa(r.Attacker) + "/" + strconv.Itoa(r.Defender)
}

// parseResult reads a CRT cell "A/D" of whole step losses (11.9, 11.10).
func parseResult(s string) (result, error) {
	a, d, ok := strings.Cut(strings.TrimSpace(s), "/")
	x, errA := strconv.Atoi(strings.TrimSpace(a))
	y, errD := strconv.Atoi(strings.TrimSpace(d))
	if !ok || errA != nil || errD != nil || x < 0 || y < 0 {
		return result{}, fmt.Errorf("%q is not a result A/D of step losses (such as 1/2)", s)
	}
	return result{x, y}, nil
}

// crt is the Combat Results Table (11.7, 11.8): nine columns under two heading
// rows (NATO and Serbs), six die rolls. The rule text prints no CRT but the
// one cell of 11.8, so it is read from a table file (docs/tables-wbt.md).
type crt struct {
	// Source names where the table came from (a path or "demo").
	Source string
	// StandIn marks stand-in data, not the published table.
	StandIn bool
	cells   [6][columns]result
}

// Cell returns the result at column index col (0 leftmost) for die roll
// 1..6 (11.8).
func (c *crt) Cell(col, roll int) result { return c.cells[roll-1][col] }

//go:embed tables/demo-crt.toml
var demoCRT []byte

// DemoCRT returns the embedded stand-in CRT. Only its Serb 2:1 roll 3 cell
// (1/2) is from the rulebook (11.8).
func DemoCRT() *crt {
	c, err := parseCRT("demo", demoCRT)
	if err != nil {
		panic(fmt.Sprintf("wbt: embedded demo CRT: %v", err))
	}
	return c
}

// loadCRT reads a CRT table file (TOML, docs/tables-wbt.md).
func loadCRT(path string) (*crt, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read table file %s: %w", path, err)
	}
	return parseCRT(path, data)
}

type crtFile struct {
	StandIn bool `toml:"stand_in"`
	CRT     struct {
		NATO  []string `toml:"nato"`
		Serbs []string `toml:"serbs"`
		Roll1 []string `toml:"roll1"`
		Roll2 []string `toml:"roll2"`
		Roll3 []string `toml:"roll3"`
		Roll4 []string `toml:"roll4"`
		Roll5 []string `toml:"roll5"`
		Roll6 []string `toml:"roll6"`
	} `toml:"crt"`
}

// parseCRT reads a CRT table file's text; name is the file named in errors.
// Every field must be present, the heading rows must be the rulebook's
// (11.7) and each roll row must hold nine A/D cells. A refusal wraps a
// *datafile.FileError with the line of the field.
func parseCRT(name string, data []byte) (*crt, error) {
	var f crtFile
	md, err := datafile.Decode(name, data, &f)
	if err != nil {
		return nil, fmt.Errorf("table file %w", err)
	}
	wrong := func(key, format string, args ...any) error {
		return fmt.Errorf("table file %w", &datafile.FileError{File: name, Line: datafile.FieldLine(data, "crt", -1, key),
			Field: "crt." + key, Err: fmt.Sprintf(format, args...)})
	}
	for _, h := range []struct {
		key  string
		got  []string
		side side
	}{{"nato", f.CRT.NATO, nato}, {"serbs", f.CRT.Serbs, serb}} {
		if !md.IsDefined("crt", h.key) {
			return nil, wrong(h.key, "missing")
		}
		if strings.Join(h.got, " ") != strings.Join(columnNames[h.side], " ") {
			return nil, wrong(h.key, "must list the columns %s (11.7)", strings.Join(columnNames[h.side], ", "))
		}
	}
	c := &crt{Source: name, StandIn: f.StandIn}
	for i, row := range [6][]string{f.CRT.Roll1, f.CRT.Roll2, f.CRT.Roll3, f.CRT.Roll4, f.CRT.Roll5, f.CRT.Roll6} {
		key := fmt.Sprintf("roll%d", i+1)
		if !md.IsDefined("crt", key) {
			return nil, wrong(key, "missing")
		}
		if len(row) != columns {
			return nil, wrong(key, "has %d cells, want %d (one per column)", len(row), columns)
		}
		for j, cell := range row {
			r, err := parseResult(cell)
			if err != nil {
				return nil, wrong(key, "column NATO %s / Serbs %s: %v", columnNames[nato][j], columnNames[serb][j], err)
			}
			c.cells[i][j] = r
		}
	}
	return c, nil
}
