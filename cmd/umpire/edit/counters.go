package edit

// This file holds the editor's document for a game's counter file: its
// top-level values and each array of tables ([[unit]], [[air]]...) as a
// table of rows, its columns the keys the file uses, in the file's order.
// The game's reader checks it (check.go); the editor knows no game's
// fields, so a value is kept as its TOML text unless its column holds
// only strings.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// Counters is a counter file as the editor holds it.
type Counters struct {
	Header string  `json:"header"`
	Values []Cell  `json:"values"`
	Tables []Table `json:"tables"`
	// Comments are the file's comments after its header, by the row and
	// value they stood with (readComments, counterTableKey).
	Comments *Comments `json:"comments,omitempty"`
}

// Cell is a key and its value: Text is the string itself when Kind is
// "string", else the value's TOML text (8, true, ["a"], {A = 1}). An
// empty Text leaves the key out.
type Cell struct {
	Key  string `json:"key"`
	Kind string `json:"kind"` // "string" or "toml"
	Text string `json:"text"`
}

// Table is an array of tables: its rows, each a value per column.
type Table struct {
	Name    string   `json:"name"`
	Columns []Column `json:"columns"`
	// Rows hold a text per column, in the columns' order.
	Rows [][]string `json:"rows"`
}

// Column is a key of a table's rows.
type Column struct {
	Key  string `json:"key"`
	Kind string `json:"kind"` // "string" or "toml"
}

// readCounters reads a counter file generically.
func readCounters(name string, data []byte) (*Counters, error) {
	var raw map[string]any
	md, err := datafile.DecodeLoose(name, data, &raw)
	if err != nil {
		return nil, err
	}
	c := &Counters{}
	c.Header, _ = header(data)
	c.Comments = readComments(data, counterTableKey)
	var order []string
	tables := map[string]*Table{}
	for _, k := range md.Keys() {
		switch len(k) {
		case 1:
			v := raw[k[0]]
			if _, ok := v.([]map[string]any); ok {
				if tables[k[0]] != nil {
					continue
				}
				tables[k[0]] = &Table{Name: k[0]}
				order = append(order, k[0])
				continue
			}
			if _, ok := v.(map[string]any); ok {
				return nil, fmt.Errorf("edit: %s: table [%s]: the counter editor edits top-level values and arrays of tables ([[%s]]) only", name, k[0], k[0])
			}
			c.Values = append(c.Values, cellOf(k[0], v))
		case 2:
			if t := tables[k[0]]; t != nil && !slices.ContainsFunc(t.Columns, func(c Column) bool { return c.Key == k[1] }) {
				t.Columns = append(t.Columns, Column{Key: k[1], Kind: "string"})
			}
		}
	}
	for _, name := range order {
		t := tables[name]
		rows := raw[name].([]map[string]any)
		for ci, col := range t.Columns {
			for _, r := range rows {
				if v, ok := r[col.Key]; ok {
					if _, s := v.(string); !s {
						t.Columns[ci].Kind = "toml"
					}
				}
			}
		}
		for _, r := range rows {
			row := make([]string, len(t.Columns))
			for ci, col := range t.Columns {
				if v, ok := r[col.Key]; ok {
					row[ci] = textOf(v, col.Kind)
				}
			}
			t.Rows = append(t.Rows, row)
		}
		c.Tables = append(c.Tables, *t)
	}
	return c, nil
}

func cellOf(key string, v any) Cell {
	if s, ok := v.(string); ok {
		return Cell{Key: key, Kind: "string", Text: s}
	}
	return Cell{Key: key, Kind: "toml", Text: literal(v)}
}

func textOf(v any, kind string) string {
	if s, ok := v.(string); ok && kind == "string" {
		return s
	}
	return literal(v)
}

// counterTableKey finds a row again by its table and its id, else its
// name, else its place among its table's rows.
func counterTableKey(header string, f map[string]string) string {
	n, _ := strconv.Atoi(f["#"])
	return counterKey(header, f["id"], f["name"], n)
}

// counterKey is a counter file row's key: its table's header and its id,
// else its name, else its number (n, from 1) among the table's rows.
func counterKey(header, id, name string, n int) string {
	switch {
	case id != "":
		return tableKey(header, "id", id)
	case name != "":
		return tableKey(header, "name", name)
	}
	return header + " #" + strconv.Itoa(n)
}

// rowField is the row's text in the column key when the column holds
// strings ("" otherwise).
func (t Table) rowField(row []string, key string) string {
	for ci, col := range t.Columns {
		if col.Key == key && col.Kind == "string" && ci < len(row) {
			return row[ci]
		}
	}
	return ""
}

// value is a cell's text as TOML.
func value(kind, text string) string {
	if kind == "string" {
		return quote(text)
	}
	return strings.TrimSpace(text)
}

// encode writes the counter file: the values, then each table's rows.
func (c *Counters) encode() *writer {
	w := &writer{}
	writeHeader(w, c.Header, nil)
	cw := newCommentWriter(w, c.Comments)
	for _, v := range c.Values {
		if v.Text != "" || v.Kind == "string" {
			cw.kv(origin{Row: -1}, v.Key, value(v.Kind, v.Text))
		}
	}
	for _, t := range c.Tables {
		head := "[[" + bareKey(t.Name) + "]]"
		for ri, row := range t.Rows {
			o := origin{Table: t.Name, Row: ri}
			w.line(origin{Row: -1}, "")
			cw.tableHeader(o, head, counterKey(head, t.rowField(row, "id"), t.rowField(row, "name"), ri+1))
			for ci, col := range t.Columns {
				if ci < len(row) && strings.TrimSpace(row[ci]) != "" {
					cw.kv(o, col.Key, value(col.Kind, row[ci]))
				}
			}
		}
	}
	cw.rest()
	return w
}
