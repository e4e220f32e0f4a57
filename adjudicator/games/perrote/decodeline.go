package perrote

// This file finds the line of a value of the wrong type in a data file: the
// TOML decoder names the key but, in an array of tables, not the entry, and
// its line is then the file's last.

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

// decodeLine gives a decoding refusal of data without a line the line of
// the value at fault ("toml: line 456 (last key "unit.move"): incompatible
// types: TOML value has type string; ..."): the first entry whose value at
// that key has the type named, found by the scenario's locator; else the
// decoder's line.
func decodeLine(err error, data []byte) error {
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.Line > 0 {
		return err
	}
	m := decoderLine.FindStringSubmatch(fe.Err)
	if m == nil {
		return err
	}
	fe.Err = strings.TrimPrefix(fe.Err, m[0])
	fe.Line, _ = strconv.Atoi(m[1])
	if m[2] == "" {
		return err
	}
	fe.Field = m[2]
	var root map[string]any
	if _, derr := datafile.DecodeLoose(fe.File, data, &root); derr != nil {
		return err
	}
	if path := wrongValue(root, strings.Split(m[2], "."), decodedType.FindStringSubmatch(fe.Err)); path != nil {
		fe.Line = nonZero(locate(string(data)).line(strings.Join(path, ".")), fe.Line)
	}
	return err
}

var (
	decoderLine = regexp.MustCompile(`^(?:toml: )?line (\d+)(?: \(last key "([^"]*)"\))?:? *`)
	decodedType = regexp.MustCompile(`TOML value has type ([^;]+);`)
)

func nonZero(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// wrongValue finds the first value at keys (through arrays of tables, by
// index) whose Go type is the one the decoder named (typ[1]); it returns
// the path with the indexes, nil when none is.
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
