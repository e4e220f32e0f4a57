package edit

// This file writes TOML text for the editor's documents: quoted strings,
// values and a writer that remembers, for each line it writes, what of the
// document the line holds (the hexes, sides or spaces of an entry, or a
// counter table's row), so that a reader's refusal at a line is shown on
// the map or in the table where it points.

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// origin is what a line of the written file holds.
type origin struct {
	// Places are the hexes ("0101"), hexsides ("0101/0102") or spaces the
	// line's entry names.
	Places []string
	// Table and Row name a counter table's row; Row is -1 for none.
	Table string
	Row   int
}

// writer builds a file's text and the origin of each of its lines.
type writer struct {
	b       strings.Builder
	origins []origin // origins[i] is line i+1's
}

// line writes one line (no line break in s) with its origin.
func (w *writer) line(o origin, s string) {
	w.b.WriteString(s)
	w.b.WriteByte('\n')
	w.origins = append(w.origins, o)
}

// at is the origin of line n (1-based); ok false when there is none.
func (w *writer) at(n int) (origin, bool) {
	if n < 1 || n > len(w.origins) {
		return origin{}, false
	}
	return w.origins[n-1], true
}

// quote is s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteList is a TOML array of strings.
func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// bareKey is k as a TOML key: bare when it can be.
func bareKey(k string) string {
	if k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == "" {
		return k
	}
	return quote(k)
}

// number writes a float as TOML: an integer when it is one.
func number(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// literal is a decoded TOML value written back as TOML.
func literal(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case []map[string]any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literal(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			parts = append(parts, bareKey(k)+" = "+literal(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return quote(fmt.Sprint(v))
}
