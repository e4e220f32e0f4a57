package datafile

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// FileError is a problem in a data file, with the line and field it is at
// (Line 0 when the field could not be found).
type FileError struct {
	File  string
	Line  int
	Field string
	Err   string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	b.WriteString(": " + e.Err)
	return b.String()
}

// tableHeader is a TOML table or array-of-tables header: [a.b] or [[a]],
// keys bare or quoted, a comment after it.
var tableHeader = regexp.MustCompile(`^\[\[?\s*("[^"]*"|[A-Za-z0-9_-]+)(\s*\.\s*("[^"]*"|[A-Za-z0-9_-]+))*\s*\]\]?\s*(#.*)?$`)

// FieldLine finds the line of a field in TOML text: key under the table
// (or the index-th [[table]] entry when index >= 0; "" for the top level).
// It returns 0 when it cannot find it. Data files use it to name the line
// of a value that parsed but does not make sense.
func FieldLine(data []byte, table string, index int, key string) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	cur, seen, line := "", -1, 0
	tableLine := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "[") && !tableHeader.MatchString(t) {
			// a line of a multi-line array, such as  ["a", "b"],
			continue
		}
		switch {
		case strings.HasPrefix(t, "[["):
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "]]", 2)[0], "[ "))
			cur = name
			if name == table {
				seen++
				if seen == index {
					tableLine = line
				}
			}
			continue
		case strings.HasPrefix(t, "["):
			cur = strings.TrimSpace(strings.Trim(strings.SplitN(t, "]", 2)[0], "[ "))
			if cur == table && index < 0 {
				tableLine = line
			}
			continue
		}
		if cur != table || (index >= 0 && seen != index) {
			continue
		}
		if key == "" {
			return tableLine
		}
		k, _, ok := strings.Cut(t, "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"`) == key {
			return line
		}
	}
	if key == "" || tableLine > 0 {
		return tableLine
	}
	return 0
}
