package edit

// This file keeps a map file's own comment lines through the editor: each
// block of comment lines before a table (and those inside it, on their own
// lines) is read with the table it belongs to and written back before the
// same table, found again by what it holds (its kind, name, hex or road).

import (
	"regexp"
	"slices"
	"strings"
)

// orphanKey holds the comments whose table is not written any more (or
// that follow the last table): they are written at the end of the file,
// so that no comment is lost.
const orphanKey = ""

// tableKeyField reads the fields a table is found again by: kind, name,
// hex, and a road's first hex.
var tableKeyField = regexp.MustCompile(`^\s*(kind|name|hex|path)\s*=\s*\[?\s*["']([^"']*)["']`)

// tableKey is what finds a table again: its header and the fields that
// tell it from the others of its kind ("[[terrain]]|mountain|||").
func tableKey(header, kind, name, hex, path string) string {
	return strings.Join([]string{header, kind, name, hex, path}, "|")
}

// tableComments reads the comment lines of a file after its leading
// comment block: by the key of the table they stand before or in, and
// those after the last table under orphanKey.
func tableComments(data []byte) map[string]string {
	out := map[string]string{}
	var pending []string
	var cur struct {
		header   string
		comments []string
		fields   map[string]string
	}
	flush := func() {
		if cur.header != "" && len(cur.comments) > 0 {
			f := cur.fields
			k := tableKey(cur.header, f["kind"], f["name"], f["hex"], f["path"])
			out[k] = joinBlock(out[k], cur.comments)
		}
		cur.header, cur.comments, cur.fields = "", nil, nil
	}
	leading := true
	for line := range strings.Lines(string(data)) {
		t := strings.TrimSpace(line)
		if leading && strings.HasPrefix(t, "#") {
			continue // the header: kept by header()
		}
		leading = false
		switch {
		case strings.HasPrefix(t, alignPrefix):
		case strings.HasPrefix(t, "#"):
			pending = append(pending, t)
		case t == "":
		case strings.HasPrefix(t, "["):
			flush()
			cur.header, cur.comments, cur.fields = strings.TrimSpace(strings.SplitN(t, "#", 2)[0]), pending, map[string]string{}
			pending = nil
		default:
			if m := tableKeyField.FindStringSubmatch(t); m != nil && cur.fields != nil {
				if _, seen := cur.fields[m[1]]; !seen {
					cur.fields[m[1]] = m[2]
				}
			}
			if cur.header != "" {
				cur.comments = append(cur.comments, pending...)
				pending = nil
			}
		}
	}
	flush()
	if len(pending) > 0 {
		out[orphanKey] = joinBlock(out[orphanKey], pending)
	}
	return out
}

func joinBlock(old string, lines []string) string {
	if old != "" {
		return old + "\n" + strings.Join(lines, "\n")
	}
	return strings.Join(lines, "\n")
}

// commentWriter writes the kept comments before their tables and, at the
// end, those whose table is not written.
type commentWriter struct {
	w        *writer
	comments map[string]string
	used     map[string]bool
}

// before writes the comments of the table about to be written.
func (c *commentWriter) before(header, kind, name, hex, path string) {
	k := tableKey(header, kind, name, hex, path)
	block, ok := c.comments[k]
	if !ok || c.used[k] {
		return
	}
	c.used[k] = true
	for l := range strings.SplitSeq(block, "\n") {
		c.w.line(origin{Row: -1}, l)
	}
}

// rest writes the comments no table took, at the end of the file.
func (c *commentWriter) rest() {
	var keys []string
	for k := range c.comments {
		if !c.used[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	slices.Sort(keys)
	c.w.line(origin{Row: -1}, "")
	for _, k := range keys {
		for l := range strings.SplitSeq(c.comments[k], "\n") {
			c.w.line(origin{Row: -1}, l)
		}
	}
}
