package dice

import (
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// scanner reads the strict JSON of a v2 export (docs/dice-log.md section 9)
// from a stream, a value at a time, in constant memory: it holds a window of
// the input and the decoded text of one string. It knows the grammar of JSON
// but no names; the verifier asks it for exactly the members it expects.
type scanner struct {
	r    io.Reader
	buf  []byte
	pos  int
	end  int
	base int64 // input offset of buf[0]
	line int   // newlines before pos
	eof  bool
	rerr error
	// keep stops the window from dropping read bytes, so that the start of
	// a v1 export can be handed on whole.
	keep    bool
	scratch []byte
	err     error // the first syntax error; the scanner stops there
}

// maxString bounds a decoded string: no record may be longer.
const maxString = 1 << 20

// syntaxError is a problem with the JSON text itself.
type syntaxError struct {
	line int
	off  int64
	msg  string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("line %d (byte %d): %s", e.line+1, e.off, e.msg)
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 256<<10), keep: true}
}

func (s *scanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = &syntaxError{line: s.line, off: s.base + int64(s.pos), msg: fmt.Sprintf(format, args...)}
	}
}

// fill makes at least n bytes available from pos, if the input has them.
func (s *scanner) fill(n int) bool {
	for s.end-s.pos < n {
		if s.eof {
			return false
		}
		if !s.keep && s.pos > 0 {
			copy(s.buf, s.buf[s.pos:s.end])
			s.base += int64(s.pos)
			s.end -= s.pos
			s.pos = 0
		}
		if s.end == len(s.buf) {
			s.buf = append(s.buf, make([]byte, len(s.buf))...)
		}
		m, err := s.r.Read(s.buf[s.end:])
		s.end += m
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.rerr = err
			}
		}
	}
	return true
}

func (s *scanner) offset() int64 { return s.base + int64(s.pos) }

// ws skips whitespace and returns the next byte (0 at the end).
func (s *scanner) ws() byte {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			switch {
			case c > ' ':
				return c
			case c == ' ' || c == '\t' || c == '\r':
				s.pos++
			case c == '\n':
				s.pos++
				s.line++
			default:
				return c
			}
		}
		if !s.fill(1) {
			return 0
		}
	}
}

// expect consumes c after whitespace.
func (s *scanner) expect(c byte) bool {
	if s.err != nil {
		return false
	}
	got := s.ws()
	if got != c {
		s.unexpected(fmt.Sprintf("%q", c))
		return false
	}
	s.pos++
	return true
}

func (s *scanner) unexpected(want string) {
	if s.rerr != nil {
		s.fail("read: %v", s.rerr)
		return
	}
	if s.pos >= s.end {
		s.fail("the text ends where %s should be", want)
		return
	}
	s.fail("%s where %s should be", describeByte(s.buf[s.pos]), want)
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// next reports whether another element follows in an array or object: it
// consumes ',' and returns true, or leaves close and returns false.
func (s *scanner) more(close byte) bool {
	if s.err != nil {
		return false
	}
	switch s.ws() {
	case ',':
		s.pos++
		return true
	case close:
		return false
	}
	s.unexpected(fmt.Sprintf("',' or %q", close))
	return false
}

// member reads a member name, which must be want exactly, and its ':'.
func (s *scanner) member(want string) bool {
	if s.err != nil {
		return false
	}
	// The fast path: the name as it is, unescaped.
	if c := s.ws(); c == '"' && s.fill(len(want)+2) && s.buf[s.pos+1+len(want)] == '"' && string(s.buf[s.pos+1:s.pos+1+len(want)]) == want {
		s.pos += len(want) + 2
		return s.expect(':')
	}
	name, ok := s.str(s.scratch[:0])
	s.scratch = name
	if !ok {
		return false
	}
	if string(name) != want {
		if len(name) == len(want) && equalFold(name, want) {
			s.fail("member %q differs from %q only in letter case", name, want)
		} else {
			s.fail("member %q where %q should be (members are fixed, in a fixed order)", name, want)
		}
		return false
	}
	return s.expect(':')
}

func equalFold(a []byte, b string) bool {
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// str reads a string value, decoded into dst[:0]: escapes resolved, UTF-8
// and surrogate pairs checked.
func (s *scanner) str(dst []byte) ([]byte, bool) {
	if !s.expect('"') {
		return dst, false
	}
	dst = dst[:0]
	for {
		if s.pos == s.end && !s.fill(1) {
			s.unexpected("the end of a string")
			return dst, false
		}
		// Copy a run of plain ASCII at once.
		i := s.pos
		for i < s.end {
			c := s.buf[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				break
			}
			i++
		}
		dst = append(dst, s.buf[s.pos:i]...)
		s.pos = i
		if len(dst) > maxString {
			s.fail("a string longer than %d bytes", maxString)
			return dst, false
		}
		if s.pos == s.end {
			continue
		}
		c := s.buf[s.pos]
		switch {
		case c == '"':
			s.pos++
			return dst, true
		case c < 0x20:
			s.fail("a control character (0x%02x) in a string: write it as an escape", c)
			return dst, false
		case c >= 0x80:
			s.fill(utf8.UTFMax)
			r, n := utf8.DecodeRune(s.buf[s.pos:s.end])
			if r == utf8.RuneError && n <= 1 {
				s.fail("bytes that are not UTF-8")
				return dst, false
			}
			dst = append(dst, s.buf[s.pos:s.pos+n]...)
			s.pos += n
		default: // '\\'
			var ok bool
			if dst, ok = s.escape(dst); !ok {
				return dst, false
			}
		}
	}
}

func (s *scanner) escape(dst []byte) ([]byte, bool) {
	if !s.fill(2) {
		s.unexpected("an escape")
		return dst, false
	}
	c := s.buf[s.pos+1]
	s.pos += 2
	switch c {
	case '"', '\\', '/':
		return append(dst, c), true
	case 'b':
		return append(dst, '\b'), true
	case 'f':
		return append(dst, '\f'), true
	case 'n':
		return append(dst, '\n'), true
	case 'r':
		return append(dst, '\r'), true
	case 't':
		return append(dst, '\t'), true
	case 'u':
		r, ok := s.hex4()
		if !ok {
			return dst, false
		}
		if r >= 0xdc00 && r <= 0xdfff {
			s.fail(`a \u escape of a lone low surrogate`)
			return dst, false
		}
		if r >= 0xd800 && r <= 0xdbff {
			if !s.fill(2) || s.buf[s.pos] != '\\' || s.buf[s.pos+1] != 'u' {
				s.fail(`a \u escape of a lone high surrogate`)
				return dst, false
			}
			s.pos += 2
			lo, ok := s.hex4()
			if !ok {
				return dst, false
			}
			if lo < 0xdc00 || lo > 0xdfff {
				s.fail(`a \u escape of a lone high surrogate`)
				return dst, false
			}
			r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
		}
		return utf8.AppendRune(dst, r), true
	}
	s.pos--
	s.fail("an unknown escape")
	return dst, false
}

func (s *scanner) hex4() (rune, bool) {
	if !s.fill(4) {
		s.unexpected(`four hex digits of a \u escape`)
		return 0, false
	}
	var r rune
	for _, c := range s.buf[s.pos : s.pos+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			s.fail(`a \u escape with %s`, describeByte(c))
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	s.pos += 4
	return r, true
}

// null consumes null if it is next, and reports whether it was.
func (s *scanner) null() bool {
	if s.err != nil || s.ws() != 'n' {
		return false
	}
	if !s.fill(4) || string(s.buf[s.pos:s.pos+4]) != "null" {
		s.fail("a value that is not JSON")
		return false
	}
	s.pos += 4
	return true
}

// number reads an integer: -?(0|[1-9][0-9]*), no fraction, no exponent, not
// -0. It returns its magnitude and sign.
func (s *scanner) number(what string) (mag uint64, neg, ok bool) {
	if s.err != nil {
		return 0, false, false
	}
	c := s.ws()
	if c == '-' {
		neg = true
		s.pos++
		if !s.fill(1) {
			s.unexpected("a digit")
			return 0, false, false
		}
		c = s.buf[s.pos]
	}
	if c < '0' || c > '9' {
		switch {
		case c == '"' || c == '[' || c == '{' || c == 't' || c == 'f' || c == 'n':
			s.fail("%s is not a number", what)
		default:
			s.unexpected(what + " (a whole number)")
		}
		return 0, false, false
	}
	digits := 0
	for {
		if s.pos == s.end && !s.fill(1) {
			break
		}
		c := s.buf[s.pos]
		if c < '0' || c > '9' {
			break
		}
		if digits == 1 && mag == 0 {
			s.fail("%s has a leading zero", what)
			return 0, false, false
		}
		d := uint64(c - '0')
		if mag > (1<<64-1-d)/10 {
			s.fail("%s is out of range", what)
			return 0, false, false
		}
		mag = mag*10 + d
		digits++
		s.pos++
	}
	if s.pos < s.end || s.fill(1) {
		if c := s.buf[s.pos]; c == '.' || c == 'e' || c == 'E' {
			s.fail("%s has a fraction or an exponent: it must be a whole number", what)
			return 0, false, false
		}
	}
	if neg && mag == 0 {
		s.fail("%s is -0", what)
		return 0, false, false
	}
	return mag, neg, true
}

// uintIn reads a whole number in [lo, hi].
func (s *scanner) uintIn(what string, lo, hi uint64) (uint64, bool) {
	v, neg, ok := s.number(what)
	if !ok {
		return 0, false
	}
	if neg || v < lo || v > hi {
		s.fail("%s is out of range (%d to %d)", what, lo, hi)
		return 0, false
	}
	return v, true
}

// int64 reads a whole number from -2^63 to 2^63-1.
func (s *scanner) int64(what string) (int64, bool) {
	v, neg, ok := s.number(what)
	if !ok {
		return 0, false
	}
	if neg {
		if v > 1<<63 {
			s.fail("%s is out of range", what)
			return 0, false
		}
		return int64(-v), true //nolint:gosec // -2^63 wraps to itself
	}
	if v > 1<<63-1 {
		s.fail("%s is out of range", what)
		return 0, false
	}
	return int64(v), true
}

// hex reads a string of exactly 2*len(dst) lowercase hex digits into dst.
func (s *scanner) hex(what string, dst []byte) bool {
	if !s.expect('"') {
		return false
	}
	n := 2 * len(dst)
	if !s.fill(n + 1) {
		s.unexpected(what)
		return false
	}
	b := s.buf[s.pos : s.pos+n+1]
	for i := 0; i < n; i += 2 {
		hi, lo := unhex[b[i]], unhex[b[i+1]]
		if hi|lo >= 0x10 {
			if hi == upperHex || lo == upperHex {
				s.fail("%s is not lowercase hex", what)
			} else {
				s.fail("%s is not %d hex digits", what, n)
			}
			return false
		}
		dst[i/2] = hi<<4 | lo
	}
	if b[n] != '"' {
		s.fail("%s is not %d hex digits", what, n)
		return false
	}
	s.pos += n + 1
	return true
}

// unhex maps a lowercase hex digit to its value, an uppercase one to
// upperHex and anything else to 0xff.
var unhex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
	}
	for c := 'A'; c <= 'F'; c++ {
		t[c] = upperHex
	}
	return t
}()

const upperHex = 0xfe
