package message

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	gomessage "github.com/emersion/go-message"
)

// Charset conversion. The charsets players' mail programs really use for
// order text are UTF-8, US-ASCII and the Western European ones (ISO-8859-1,
// ISO-8859-15 and Windows-1252, which Outlook sends for curly quotes); these
// are converted here, with the guessing that mislabelled mail needs. Any
// other charset is handed to go-message's CharsetReader when one is
// installed (importing github.com/emersion/go-message/charset installs one
// for most charsets; it needs golang.org/x/text), and otherwise read as
// best effort with a note in Message.Problems.

// charsetFamily sorts the charset labels this file converts itself.
type charsetFamily int

const (
	familyOther  charsetFamily = iota // unknown here: ask go-message
	familyASCII                       // none, us-ascii: 8-bit bytes are a surprise
	familyUTF8                        // utf-8
	familyCP1252                      // iso-8859-1 and windows-1252 (WHATWG reads latin1 as windows-1252)
	familyLatin9                      // iso-8859-15
)

// classifyCharset returns the family of a charset label and the label in a
// form fit for messages.
func classifyCharset(label string) (charsetFamily, string) {
	l := strings.ToLower(strings.Trim(label, "\"' \t"))
	switch l {
	case "", "us-ascii", "ascii", "us", "ansi_x3.4-1968", "iso646-us", "646":
		return familyASCII, l
	case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8":
		return familyUTF8, l
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1", "latin-1", "l1",
		"cp819", "ibm819", "windows-1252", "cp1252", "x-cp1252", "cp-1252", "windows1252":
		return familyCP1252, l
	case "iso-8859-15", "iso8859-15", "iso_8859-15", "latin-9", "latin9", "l9", "csisolatin9":
		return familyLatin9, l
	}
	return familyOther, l
}

// decodeSingleByte converts Windows-1252 (latin9 false) or ISO-8859-15
// (latin9 true) bytes to UTF-8.
func decodeSingleByte(b []byte, latin9 bool) string {
	// The bytes 0x80 to 0x9F of Windows-1252. The five it leaves undefined
	// map to the C1 control of the same value, as WHATWG does.
	cp1252High := [32]rune{
		0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
		0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
		0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
		0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/4)
	for _, c := range b {
		switch {
		case c < 0x80:
			sb.WriteByte(c)
		case c < 0xA0 && !latin9:
			sb.WriteRune(cp1252High[c-0x80])
		case latin9:
			sb.WriteRune(latin9Rune(c))
		default:
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

// latin9Rune maps one ISO-8859-15 byte at or above 0x80.
func latin9Rune(c byte) rune {
	switch c {
	case 0xA4:
		return 0x20AC
	case 0xA6:
		return 0x0160
	case 0xA8:
		return 0x0161
	case 0xB4:
		return 0x017D
	case 0xB8:
		return 0x017E
	case 0xBC:
		return 0x0152
	case 0xBD:
		return 0x0153
	case 0xBE:
		return 0x0178
	}
	return rune(c)
}

// hasHighBytes reports whether b holds any byte outside 7-bit ASCII.
func hasHighBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// toUTF8 converts text declared in charset label to UTF-8. It never fails:
// when the label is wrong or unknown it guesses, and problem (empty when
// there was none) says what it did, in words for a player. what names the
// text in that sentence ("the text", "the subject").
func toUTF8(b []byte, label, what string) (text, problem string) {
	family, name := classifyCharset(label)
	switch family {
	case familyASCII, familyUTF8:
		if utf8.Valid(b) {
			return string(b), ""
		}
		text = decodeSingleByte(b, false)
		if family == familyUTF8 {
			return text, fmt.Sprintf("%s is marked as UTF-8 but is not; it was read as Windows-1252 (Western European), so some letters may be wrong", what)
		}
		return text, fmt.Sprintf("%s holds 8-bit characters but does not say in which character set; it was read as Windows-1252 (Western European), so some letters may be wrong", what)
	case familyCP1252, familyLatin9:
		if hasHighBytes(b) && utf8.Valid(b) {
			return string(b), fmt.Sprintf("%s is marked as %s but is UTF-8; it was read as UTF-8", what, strings.ToUpper(name))
		}
		return decodeSingleByte(b, family == familyLatin9), ""
	}
	if gomessage.CharsetReader != nil {
		if s, ok := viaGoMessage(b, name); ok {
			return s, ""
		}
	}
	if !hasHighBytes(b) {
		return string(b), ""
	}
	if utf8.Valid(b) {
		return string(b), fmt.Sprintf("%s uses the unknown character set %q; it was read as UTF-8", what, name)
	}
	return decodeSingleByte(b, false), fmt.Sprintf("%s uses the unknown character set %q; it was read as Windows-1252 (Western European), so some letters may be wrong", what, name)
}

// viaGoMessage converts b with go-message's installed CharsetReader. The
// output is bounded: no charset turns one byte into more than four.
func viaGoMessage(b []byte, name string) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	r, err := gomessage.CharsetReader(name, bytes.NewReader(b))
	if err != nil || r == nil {
		return "", false
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(4*len(b)+16)))
	if err != nil {
		return "", false
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), true
}

// wordCharsetReader returns a CharsetReader for mime.WordDecoder (RFC 2047
// encoded words) that never fails and reports its guesses to note.
func wordCharsetReader(note func(string)) func(string, io.Reader) (io.Reader, error) {
	return func(label string, input io.Reader) (io.Reader, error) {
		// Encoded words are at most a header long, and headers are bounded
		// by the message size.
		b, err := io.ReadAll(input)
		if err != nil {
			return nil, err
		}
		s, problem := toUTF8(b, label, "a header")
		if problem != "" {
			note(problem)
		}
		return strings.NewReader(s), nil
	}
}
