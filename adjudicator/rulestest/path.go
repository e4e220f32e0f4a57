package rulestest

import (
	"fmt"
	"strconv"
	"strings"
)

// segments splits a path: "units[id=R1].models.#" is units, [id=R1],
// models, #.
func segments(path string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			return nil, fmt.Errorf("empty segment in %q", path)
		}
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			j := strings.IndexByte(part, ']')
			if j < i {
				return nil, fmt.Errorf("unclosed [ in %q", path)
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			out = append(out, part[i:j+1])
			part = part[j+1:]
		}
	}
	return out, nil
}

// step finds one segment's child of v.
func step(v any, seg string) (any, func(any) any, error) {
	switch x := v.(type) {
	case map[string]any:
		c, ok := x[seg]
		if !ok && !strings.HasPrefix(seg, "[") {
			return nil, func(n any) any { x[seg] = n; return x }, fmt.Errorf("no key %q", seg)
		}
		return c, func(n any) any { x[seg] = n; return x }, nil
	case []any:
		if strings.HasPrefix(seg, "[") {
			k, want, ok := strings.Cut(seg[1:len(seg)-1], "=")
			if !ok {
				return nil, nil, fmt.Errorf("selector %s: want [key=value]", seg)
			}
			for i, e := range x {
				if m, ok := e.(map[string]any); ok && fmt.Sprint(m[k]) == want {
					return e, func(n any) any { x[i] = n; return x }, nil
				}
			}
			return nil, nil, fmt.Errorf("no element with %s=%s", k, want)
		}
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(x) {
			return nil, nil, fmt.Errorf("index %q out of range (length %d)", seg, len(x))
		}
		return x[i], func(n any) any { x[i] = n; return x }, nil
	}
	return nil, nil, fmt.Errorf("%q: not an object or array", seg)
}

// getPath reads the value at path; a missing final key reads as null.
func getPath(doc any, path string) (any, error) {
	segs, err := segments(path)
	if err != nil {
		return nil, err
	}
	v := doc
	for i, seg := range segs {
		if seg == "#" && i == len(segs)-1 {
			switch x := v.(type) {
			case []any:
				return float64(len(x)), nil
			case map[string]any:
				return float64(len(x)), nil
			case nil:
				return float64(0), nil
			}
			return nil, fmt.Errorf("# of a %T", v)
		}
		c, _, err := step(v, seg)
		if err != nil {
			if strings.HasPrefix(err.Error(), "no key") {
				switch {
				case i == len(segs)-1:
					return nil, nil
				case i == len(segs)-2 && segs[i+1] == "#":
					return float64(0), nil
				}
			}
			return nil, err
		}
		v = c
	}
	return v, nil
}

// setPath writes value at path (a missing final key is added).
func setPath(doc any, path string, value any) (any, error) {
	segs, err := segments(path)
	if err != nil {
		return nil, err
	}
	var set func(v any, segs []string) (any, error)
	set = func(v any, segs []string) (any, error) {
		c, put, err := step(v, segs[0])
		if len(segs) == 1 {
			if err != nil && put == nil {
				return nil, err
			}
			return put(value), nil
		}
		if err != nil && put != nil && c == nil && !strings.HasPrefix(segs[1], "[") {
			c, err = map[string]any{}, nil // a missing object on the way is made
		}
		if err != nil {
			return nil, err
		}
		n, err := set(c, segs[1:])
		if err != nil {
			return nil, err
		}
		return put(n), nil
	}
	return set(doc, segs)
}
