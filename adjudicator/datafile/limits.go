package datafile

import "fmt"

// The bounds every file is measured against before it is decoded.
const (
	// MaxSize is the largest file read: a mail's largest message (2 MiB),
	// so that any file that can arrive by mail is answered.
	MaxSize = 2 << 20
	// MaxDepth is how deeply a file may nest: each segment of a table
	// header and of a key (dotted or in an inline table) and each array
	// around a value count one. The formats umpire reads nest 4 deep at
	// most.
	MaxDepth = 12
	// MaxEntries is how many entries a file may hold: a table header or
	// an array element counts one, a key as many as it is deep. The
	// decoder's time and memory grow with them (BenchmarkDecode: at this
	// bound, a quarter of a second and 45 MB at worst, five times a plain
	// file's cost). A published map of 2,400 hexes needs a fifth of it.
	MaxEntries = 50_000
)

// Check measures data, the file name: a file larger than MaxSize or
// nested deeper than MaxDepth is a *FileError naming the line where it
// went too deep. It reads each byte once and keeps only a stack as deep as
// MaxDepth allows, so any input is measured in time linear in its size.
func Check(name string, data []byte) error {
	if len(data) > MaxSize {
		return &FileError{File: name, Err: fmt.Sprintf("the file is %d bytes; a data file may have up to %d", len(data), MaxSize)}
	}
	switch line, depth, entries := measure(data); {
	case depth > MaxDepth:
		return &FileError{File: name, Line: line,
			Err: fmt.Sprintf("nested more than %d deep (%d at least): the formats hold tables of values, not deep nests", MaxDepth, depth)}
	case entries > MaxEntries:
		return &FileError{File: name, Line: line,
			Err: fmt.Sprintf("more than %d entries (keys, tables, array elements; a nested key counts once per level): a data file may have up to %d", MaxEntries, MaxEntries)}
	}
	return nil
}

// frame is an open array or inline table: what closes it, and the depth
// to go back to when it closes.
type frame struct {
	close   byte
	restore int
}

// measure scans TOML text lexically: strings and comments are skipped,
// keys are split at their dots, and brackets are counted by what they
// open. It stops at the line where the nesting first passes MaxDepth or
// the entries pass MaxEntries, returning the line, the depth and the
// entries there (line 0: neither). Text that is not TOML is measured as
// far as it goes: the decoder refuses it afterwards.
func measure(data []byte) (line, depth, entries int) {
	var (
		stack  []frame
		line1  = 1
		header int  // the segments of the current [table] header
		cur    int  // the depth of what is read now
		inKey  bool // reading a key (line start, after { or a comma in an inline table)
		segs   int  // the segments of the key read so far
		atLine = true
	)
	deep := func(d int) bool {
		if d > MaxDepth || entries > MaxEntries {
			line, depth = line1, d
			return true
		}
		return false
	}
	inKey = true
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '\n':
			line1++
			if len(stack) == 0 {
				inKey, segs, atLine, cur = true, 0, true, header
			}
			continue
		case ' ', '\t', '\r':
			continue
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i-- // the newline is read next
			continue
		case '"', '\'':
			n, lines := skipString(data[i:])
			line1 += lines
			i += n - 1
			atLine = false
			continue
		}
		if atLine && len(stack) == 0 && c == '[' {
			// a table header: [a.b.c] or [[a.b]]
			entries++
			header = 1
			if i+1 < len(data) && data[i+1] == '[' {
				header++
				i++
			}
			for i++; i < len(data) && data[i] != ']' && data[i] != '\n'; i++ {
				switch data[i] {
				case '.':
					header++
					if deep(header) {
						return
					}
				case '"', '\'':
					n, _ := skipString(data[i:])
					i += n - 1
				}
			}
			for i < len(data) && data[i] == ']' {
				i++
			}
			i--
			if deep(header) {
				return
			}
			cur, atLine = header, false
			continue
		}
		atLine = false
		if inKey {
			switch c {
			case '.':
				segs++
			case '=':
				inKey = false
				cur += segs + 1
				segs = 0
				entries += cur // a key costs the decoder its depth
				if deep(cur) {
					return
				}
			case '}':
				// an empty inline table: {}
				if len(stack) > 0 && stack[len(stack)-1].close == '}' {
					cur = stack[len(stack)-1].restore
					stack = stack[:len(stack)-1]
					inKey = false
				}
			}
			continue
		}
		switch c {
		case '[':
			// an array is a level: its elements sit one deeper
			stack = append(stack, frame{close: ']', restore: cur})
			entries++
			cur++
			if deep(cur) {
				return
			}
		case '{':
			// an inline table is the level its key made: its keys add
			stack = append(stack, frame{close: '}', restore: cur})
			inKey, segs = true, 0
		case ']', '}':
			if len(stack) > 0 {
				cur = stack[len(stack)-1].restore
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].close == '}' {
				// the next key of an inline table, at the table's depth
				cur = stack[len(stack)-1].restore
				inKey, segs = true, 0
			} else if len(stack) > 0 {
				entries++
				cur = stack[len(stack)-1].restore + 1
				if deep(cur) {
					return
				}
			}
		}
	}
	return 0, 0, entries
}

// skipString returns the length of the string that data starts with
// (basic or literal, one line or many; all of data when it is not closed)
// and the newlines in it.
func skipString(data []byte) (n, lines int) {
	q := data[0]
	multi := len(data) >= 3 && data[1] == q && data[2] == q
	i := 1
	if multi {
		i = 3
	}
	for i < len(data) {
		c := data[i]
		switch {
		case c == '\\' && q == '"':
			if i+1 < len(data) && data[i+1] == '\n' {
				lines++
			}
			i += 2
			continue
		case c == '\n':
			lines++
			if !multi {
				return i, lines - 1 // an unclosed one-line string ends at its line
			}
		case c == q && !multi:
			return i + 1, lines
		case c == q && multi && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
			// up to two more quotes may close it ("""a""""")
			j := i + 3
			for k := 0; k < 2 && j < len(data) && data[j] == q; k++ {
				j++
			}
			return j, lines
		}
		i++
	}
	return len(data), lines
}
