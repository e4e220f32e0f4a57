package datafile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// MaxUnknown is how many unknown keys a refusal names; it counts the rest.
const MaxUnknown = 5

// Decode reads data, the file name, into v, strictly: the file is measured
// first (Check), and a key v does not hold is refused. Every refusal is a
// *FileError naming the file and, where the decoder or the text tells, the
// line. The metadata says which keys the file set.
func Decode(name string, data []byte, v any) (toml.MetaData, error) {
	md, err := DecodeLoose(name, data, v)
	if err != nil {
		return md, err
	}
	if err := Unknown(name, data, md); err != nil {
		return md, err
	}
	return md, nil
}

// DecodeLoose is Decode for a first look at a file that holds more than v
// does (the format's header before the rest is read): keys v does not hold
// are left alone.
func DecodeLoose(name string, data []byte, v any) (toml.MetaData, error) {
	if err := Check(name, data); err != nil {
		return toml.MetaData{}, err
	}
	md, err := toml.Decode(string(data), v)
	if err != nil {
		fe := &FileError{File: name, Err: err.Error()}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Err = pe.Position.Line, pe.Message
		} else {
			placeTypeError(fe, data) // a value of the wrong type
		}
		return md, fe
	}
	return md, nil
}

// Unknown refuses the keys of data that md did not decode, naming the
// line of the first and at most MaxUnknown of them: an unknown table is
// named once, not with every key inside it.
func Unknown(name string, data []byte, md toml.MetaData) error {
	und := md.Undecoded()
	if len(und) == 0 {
		return nil
	}
	// the outermost unknown keys: a key inside an unknown table is not
	// named apart from it
	var top []toml.Key
	seen := map[string]bool{}
	for _, k := range und {
		inside := false
		for j := 1; j < len(k) && !inside; j++ {
			inside = seen[k[:j].String()]
		}
		if !inside {
			top = append(top, k)
			seen[k.String()] = true
		}
	}
	first := top[0]
	line := FieldLine(data, strings.Join(first[:len(first)-1], "."), -1, first[len(first)-1])
	if line == 0 {
		line = FieldLine(data, first.String(), -1, "") // an unknown [table]
	}
	if line == 0 {
		line = keyLine(data, first)
	}
	fe := &FileError{File: name, Line: line, Field: first.String(), Err: "unknown field"}
	if len(top) > 1 {
		names := make([]string, 0, MaxUnknown)
		for _, k := range top[1:min(len(top), MaxUnknown)] {
			names = append(names, k.String())
		}
		more := ""
		if n := len(top) - 1 - len(names); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		fe.Err = fmt.Sprintf("unknown field (also unknown: %s%s)", strings.Join(names, ", "), more)
	}
	return fe
}

// keyLine finds the first line that starts with k written as a dotted key
// (a.b.c = 1), or else with its first segment: 0 when there is none.
func keyLine(data []byte, k toml.Key) int {
	whole, head := k.String(), k[0]
	headLine := 0
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, whole)
		if ok && (rest == "" || strings.ContainsRune(" \t=", rune(rest[0]))) {
			return i + 1
		}
		if rest, ok := strings.CutPrefix(l, head); ok && headLine == 0 && rest != "" && strings.ContainsRune(" \t=.", rune(rest[0])) {
			headLine = i + 1
		}
	}
	return headLine
}
