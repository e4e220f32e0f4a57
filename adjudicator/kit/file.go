package kit

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// File is a data file a game reads: its name, as refusals name it, and
// its text.
type File struct {
	Name string
	Data []byte
}

// Decode reads the file into v strictly (datafile.Decode): a file too
// large or too deep, a value of the wrong type and a key v does not hold
// are refused with a *datafile.FileError naming the line and field.
func (f File) Decode(v any) error {
	_, err := datafile.Decode(f.Name, f.Data, v)
	return err
}

// Errorf is a refusal of a value that decoded but does not make sense: of
// key in the index-th [[table]] entry (index < 0: in [table]; table "": a
// top-level key). Its field is written as refusals name it
// ("unit[3].move", "crt.roll1", "notice") and its line is the key's; for
// a key the file leaves out or writes inline, the line of the entry, or of
// the key that holds the table (table = {...}).
func (f File) Errorf(table string, index int, key, format string, args ...any) *datafile.FileError {
	field := key
	switch {
	case table != "" && index >= 0:
		field = fmt.Sprintf("%s[%d].%s", table, index, key)
	case table != "":
		field = table + "." + key
	}
	return &datafile.FileError{File: f.Name, Line: f.line(table, index, key), Field: field, Err: fmt.Sprintf(format, args...)}
}

// line finds the line of key in the index-th [[table]] (see Errorf).
func (f File) line(table string, index int, key string) int {
	line := datafile.FieldLine(f.Data, table, index, key)
	if line > 0 || table == "" {
		return line
	}
	if index >= 0 {
		if line = datafile.FieldLine(f.Data, table, index, ""); line > 0 {
			return line // the entry, without the key
		}
	}
	// an inline table, such as repl = { AH = 1 }: the line of its key
	parent, last := "", table
	if i := strings.LastIndex(table, "."); i >= 0 {
		parent, last = table[:i], table[i+1:]
	}
	return datafile.FieldLine(f.Data, parent, -1, last)
}

// Preamble is the head every data file of a game may carry: its title,
// and whether it is a stand-in (data made up where the rulebook has none),
// which must then say so in a notice every report carries. Embed it in a
// file's format.
type Preamble struct {
	Title   string `toml:"title"`
	StandIn bool   `toml:"stand_in"`
	Notice  string `toml:"notice"`
}

// Check refuses a stand-in without a notice; what names the file in the
// refusal ("stand-in cards", "a stand-in map").
func (p Preamble) Check(f File, what string) error {
	if p.StandIn && p.Notice == "" {
		return f.Errorf("", -1, "notice", "%s must say so in a notice every report carries", what)
	}
	return nil
}
