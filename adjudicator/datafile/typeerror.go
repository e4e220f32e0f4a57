package datafile

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// The decoder refuses a value of the wrong type ("move = \"eight\"" for a
// number) with a plain error naming the key but, inside an array of
// tables, not the entry, and the file's last line:
//
//	toml: line 456 (last key "unit.move"): incompatible types: TOML value has type string; destination has type integer
var (
	decoderLine = regexp.MustCompile(`^(?:toml: )?line (\d+)(?: \(last key "([^"]*)"\))?:? *`)
	decodedType = regexp.MustCompile(`TOML value has type ([^;]+);`)
)

// placeTypeError gives fe, a decoder's refusal of data, the line and field
// of the value at fault: the first entry whose value at the key named has
// the type named (its line found with FieldLine), else the decoder's line.
func placeTypeError(fe *FileError, data []byte) {
	m := decoderLine.FindStringSubmatch(fe.Err)
	if m == nil {
		return
	}
	fe.Err = strings.TrimPrefix(fe.Err, m[0])
	fe.Line, _ = strconv.Atoi(m[1])
	if m[2] == "" {
		return
	}
	fe.Field = m[2]
	var root map[string]any
	if _, err := toml.Decode(string(data), &root); err != nil {
		return // measured by Check before: decoding again is as cheap
	}
	path := wrongValue(root, strings.Split(m[2], "."), decodedType.FindStringSubmatch(fe.Err))
	if path == nil {
		return
	}
	table, index, key, field := entryOf(root, path)
	if line := FieldLine(data, table, index, key); line > 0 {
		fe.Line, fe.Field = line, field
	}
}

// wrongValue finds the first value at keys (through tables, and arrays of
// tables by index) whose Go type is the one the decoder named (typ[1]);
// it returns the path with the indexes, nil when none is.
func wrongValue(node map[string]any, keys []string, typ []string) []string {
	if len(keys) == 0 || len(typ) < 2 {
		return nil
	}
	v, ok := node[keys[0]]
	if !ok {
		return nil
	}
	if len(keys) == 1 {
		if strings.ReplaceAll(fmt.Sprintf("%T", v), "interface {}", "any") == typ[1] {
			return keys[:1]
		}
		return nil
	}
	var entries []map[string]any
	switch x := v.(type) {
	case map[string]any:
		if p := wrongValue(x, keys[1:], typ); p != nil {
			return append([]string{keys[0]}, p...)
		}
		return nil
	case []map[string]any:
		entries = x
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				entries = append(entries, m)
			}
		}
	}
	for i, e := range entries {
		if p := wrongValue(e, keys[1:], typ); p != nil {
			return append([]string{keys[0], strconv.Itoa(i)}, p...)
		}
	}
	return nil
}

// entryOf turns a path of wrongValue ("side", "1", "unit", "3", "move")
// into what FieldLine takes: the table its key is under ("side.unit"), the
// index of the entry among every [[side.unit]] of the file in order (-1
// for a plain table), the key; and the field as refusals name it
// ("side[1].unit[3].move").
func entryOf(root map[string]any, path []string) (table string, index int, key, field string) {
	key, index = path[len(path)-1], -1
	var names []string
	var fb strings.Builder
	var entries []any = []any{root} // the entries at the level walked, in file order
	target := any(root)
	for i := 0; i < len(path)-1; i++ {
		name := path[i]
		names = append(names, name)
		if fb.Len() > 0 {
			fb.WriteByte('.')
		}
		fb.WriteString(name)
		var next []any
		for _, e := range entries {
			if m, ok := e.(map[string]any); ok {
				next = append(next, arrayOf(m[name])...)
			}
		}
		t, _ := target.(map[string]any)
		if i+1 < len(path)-1 {
			if n, err := strconv.Atoi(path[i+1]); err == nil {
				// an entry of an array of tables: its index among all of
				// them in the file
				own := arrayOf(t[name])
				if n < len(own) {
					target = own[n]
					for k, e := range next {
						if sameMap(e, target) {
							index = k
						}
					}
				}
				fmt.Fprintf(&fb, "[%d]", n)
				entries = next
				i++
				continue
			}
		}
		target, entries, index = t[name], next, -1
	}
	if fb.Len() == 0 {
		return "", -1, key, key
	}
	return strings.Join(names, "."), index, key, fb.String() + "." + key
}

// arrayOf is v as entries: the tables of an array of tables, or v alone.
func arrayOf(v any) []any {
	switch x := v.(type) {
	case []map[string]any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = m
		}
		return out
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// sameMap reports whether a and b are the same decoded table.
func sameMap(a, b any) bool {
	ma, ok1 := a.(map[string]any)
	mb, ok2 := b.(map[string]any)
	return ok1 && ok2 && fmt.Sprintf("%p", ma) == fmt.Sprintf("%p", mb)
}
