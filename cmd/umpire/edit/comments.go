package edit

// This file keeps a file's own comments through the editor, for every
// file kind it writes (hex map, network map, counters): each block of
// comment lines before a table (and those inside it, on their own lines)
// is read with the table it belongs to and written back before the same
// table, found again by what it holds (a key each file kind makes from the
// table's header and fields: its kind, name, hex, id...); a comment after
// a value on the same line is written back after the same value of the
// same table. A comment whose table or value is not written any more goes
// to the end of the file, after a note saying where it stood.

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// orphanKey holds the comment lines that follow the last table: they
// are written at the end of the file, as they were.
const orphanKey = ""

// topKey is the table key of the values before the first table.
const topKey = ""

// keptNote starts the line the editor writes before a comment whose
// table or value is gone.
const keptNote = "# umpire edit: kept from "

// Comments are a file's comments after its leading comment block, by
// where they stood.
type Comments struct {
	// Blocks are the comment lines on lines of their own, by the key of
	// the table they stand before or in; orphanKey: after the last table.
	Blocks map[string]string `json:"blocks,omitempty"`
	// Trailing are the comments after a value on its line, by the key of
	// their table (topKey: before the first table), then by the value's
	// key ("" the table's header line). A value written on several lines
	// (an array) keeps its lines' comments joined.
	Trailing map[string]map[string]string `json:"trailing,omitempty"`
}

// tableKeyOf makes a table's key from its header ("[[space]]") and the
// first string of each of its values (fields["#"] is the table's ordinal
// among those of its header, from 1).
type tableKeyOf func(header string, fields map[string]string) string

// tableKey is what finds a table again: its header and the values that
// tell it from the others of its kind, in pairs of name and value, the
// empty ones left out: `[[terrain]] kind "hills"`.
func tableKey(header string, pairs ...string) string {
	var b strings.Builder
	b.WriteString(header)
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			b.WriteString(" " + pairs[i] + " " + quote(pairs[i+1]))
		}
	}
	return b.String()
}

// lexer reads TOML lines for their comments: where a comment starts,
// outside strings, and whether a line goes on a value of an earlier line
// (a multi-line string or array).
type lexer struct {
	inString string // `"""` or `'''` while in a multi-line string
	depth    int    // open [ and { of a value
}

// split cuts a line into its code and its comment ("" none), and returns
// the first string of the code (unquoted; ok false when none).
func (l *lexer) split(line string) (code, comment, first string, ok bool) {
	i := 0
	for i < len(line) {
		if l.inString != "" {
			end := strings.Index(line[i:], l.inString)
			if l.inString == `"""` {
				end = closingTriple(line[i:])
			}
			if end < 0 {
				return line, "", first, ok
			}
			i += end + 3
			for i < len(line) && line[i] == l.inString[0] {
				i++ // """" closes with a quote in the string
			}
			l.inString = ""
			continue
		}
		switch c := line[i]; c {
		case '#':
			return line[:i], strings.TrimRight(line[i:], " \t\r\n"), first, ok
		case '"', '\'':
			q := string(c)
			if strings.HasPrefix(line[i:], q+q+q) {
				l.inString = q + q + q
				i += 3
				continue
			}
			end := -1
			if c == '"' {
				end = closingQuote(line[i+1:])
			} else {
				end = strings.IndexByte(line[i+1:], '\'')
			}
			if end < 0 {
				return line, "", first, ok // an unclosed string: the reader refuses it
			}
			s := line[i+1 : i+1+end]
			if c == '"' {
				if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
					s = u
				}
			}
			if !ok {
				first, ok = s, true
			}
			i += end + 2
		case '[', '{':
			l.depth++
			i++
		case ']', '}':
			if l.depth > 0 {
				l.depth--
			}
			i++
		default:
			i++
		}
	}
	return line, "", first, ok
}

// closingTriple is the index in s of the first """ not escaped by a
// backslash, -1 when there is none.
func closingTriple(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case strings.HasPrefix(s[i:], `"""`):
			return i
		}
	}
	return -1
}

// closingQuote is the index in s of the first " not escaped by a
// backslash, -1 when there is none.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// readComments reads the comments of a file after its leading comment
// block (kept by header()), each table found by key.
func readComments(data []byte, key tableKeyOf) *Comments {
	out := &Comments{Blocks: map[string]string{}, Trailing: map[string]map[string]string{}}
	var pending []string
	count := map[string]int{}
	cur := struct {
		key      string // set for the values before the first table
		header   string
		comments []string
		fields   map[string]string
		trailing map[string]string
		field    string // the value the line goes on
		want     bool   // the field's first string is still to come
	}{key: topKey, fields: map[string]string{}, trailing: map[string]string{}}
	flush := func() {
		k := cur.key
		if cur.header != "" {
			k = key(cur.header, cur.fields)
			if len(cur.comments) > 0 {
				out.Blocks[k] = joinBlock(out.Blocks[k], cur.comments)
			}
		}
		if len(cur.trailing) > 0 {
			if out.Trailing[k] == nil {
				out.Trailing[k] = map[string]string{}
			}
			for f, c := range cur.trailing {
				out.Trailing[k][f] = joinTrailing(out.Trailing[k][f], c)
			}
		}
	}
	var lx lexer
	leading := true
	for line := range strings.Lines(string(data)) {
		if leading && strings.HasPrefix(line, "#") {
			continue // the header: kept by header()
		}
		leading = false
		going := lx.inString != "" || lx.depth > 0 // the line goes on an earlier line's value
		code, comment, first, hasFirst := lx.split(line)
		t := strings.TrimSpace(code)
		switch {
		case going:
			if cur.want && hasFirst {
				cur.fields[cur.field], cur.want = first, false
			}
			if comment != "" && t == "" && lx.inString == "" {
				pending = append(pending, comment) // a comment line inside an array
				comment = ""
			}
		case t == "":
			if strings.HasPrefix(comment, alignPrefix) || comment == "" {
				continue
			}
			pending = append(pending, comment)
			continue
		case strings.HasPrefix(t, "["):
			lx.depth, lx.inString = 0, "" // a header's brackets open no value
			flush()
			if !strings.ContainsAny(t, `"'`) {
				t = strings.Join(strings.Fields(t), "") // [[ unit ]] is [[unit]]
			}
			count[t]++
			cur.key, cur.header, cur.comments, cur.field, cur.want = "", t, pending, "", false
			cur.fields, cur.trailing = map[string]string{"#": strconv.Itoa(count[t])}, map[string]string{}
			pending = nil
		default:
			name, val, _ := strings.Cut(t, "=")
			cur.field = strings.Trim(strings.TrimSpace(name), `"'`)
			var vl lexer // the value's first string, not a quoted key's
			_, _, first, hasFirst = vl.split(val)
			_, seen := cur.fields[cur.field]
			cur.want = !seen && !hasFirst
			if !seen && hasFirst {
				cur.fields[cur.field] = first
			}
			if cur.header != "" {
				cur.comments = append(cur.comments, pending...)
				pending = nil
			}
		}
		if comment != "" {
			cur.trailing[cur.field] = joinTrailing(cur.trailing[cur.field], comment)
		}
	}
	flush()
	if len(pending) > 0 {
		out.Blocks[orphanKey] = joinBlock(out.Blocks[orphanKey], pending)
	}
	return out
}

func joinBlock(old string, lines []string) string {
	if old != "" {
		return old + "\n" + strings.Join(lines, "\n")
	}
	return strings.Join(lines, "\n")
}

func joinTrailing(old, c string) string {
	if old != "" {
		return old + " " + c
	}
	return c
}

// commentWriter writes the kept comments before their tables and after
// their values and, at the end, those whose place is not written.
type commentWriter struct {
	w        *writer
	c        *Comments
	table    string // the key of the table being written
	used     map[string]bool
	usedTail map[[2]string]bool
}

// newCommentWriter writes c's comments (nil: none) into w; the values
// written before the first table are the top's.
func newCommentWriter(w *writer, c *Comments) *commentWriter {
	if c == nil {
		c = &Comments{}
	}
	return &commentWriter{w: w, c: c, table: topKey, used: map[string]bool{}, usedTail: map[[2]string]bool{}}
}

// tableHeader writes the comments that stood before or in the table,
// then its header line.
func (c *commentWriter) tableHeader(o origin, header, key string) {
	c.table = key
	if block, ok := c.c.Blocks[key]; ok && key != orphanKey && !c.used[key] {
		c.used[key] = true
		for l := range strings.SplitSeq(block, "\n") {
			c.w.line(origin{Row: -1}, l)
		}
	}
	c.w.line(o, c.after("", header))
}

// kv writes key = value, with the comment that followed it.
func (c *commentWriter) kv(o origin, key, value string) {
	c.w.line(o, c.after(key, bareKey(key)+" = "+value))
}

// after is line with the comment that followed the value key of the
// table being written.
func (c *commentWriter) after(key, line string) string {
	com, ok := c.c.Trailing[c.table][key]
	if !ok || c.usedTail[[2]string{c.table, key}] {
		return line
	}
	c.usedTail[[2]string{c.table, key}] = true
	return line + " " + com
}

// rest writes at the end of the file the comments that followed the last
// table, then each comment no table or value took, after a note naming
// where it stood.
func (c *commentWriter) rest() {
	var lines []string
	if b := c.c.Blocks[orphanKey]; b != "" {
		lines = append(lines, strings.Split(b, "\n")...)
	}
	for _, k := range slices.Sorted(maps.Keys(c.c.Blocks)) {
		if k != orphanKey && !c.used[k] {
			lines = append(lines, keptNote+k+" (no longer in the file):")
			lines = append(lines, strings.Split(c.c.Blocks[k], "\n")...)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.c.Trailing)) {
		for _, f := range slices.Sorted(maps.Keys(c.c.Trailing[k])) {
			if c.usedTail[[2]string{k, f}] {
				continue
			}
			where := k
			switch {
			case k == topKey:
				where = "the top of the file"
			case f == "":
				where = "the header line of " + k
			}
			if f != "" {
				where = "the line of " + bareKey(f) + " in " + where
			}
			lines = append(lines, keptNote+where+" (no longer in the file):", c.c.Trailing[k][f])
		}
	}
	if len(lines) == 0 {
		return
	}
	c.w.line(origin{Row: -1}, "")
	for _, l := range lines {
		c.w.line(origin{Row: -1}, l)
	}
}
