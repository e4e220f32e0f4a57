package message

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// Charset conversion. Labels are resolved and text converted by
// golang.org/x/text. The charsets players' mail programs really use for
// order text are UTF-8, US-ASCII and the Western European ones, read as
// browsers and mail readers read them (WHATWG: ISO-8859-1 is Windows-1252,
// which Outlook sends for curly quotes; ISO-8859-15); for these this file
// adds the guessing that mislabelled mail needs. Every other charset goes
// through go-message's charset package, and an unknown one is read as best
// effort with a note in Message.Problems.

// lookupCharset resolves a charset label. ascii is true for no label and
// for US-ASCII, where 8-bit bytes are a surprise; enc is nil for those and
// for labels that are not Western European or UTF-8.
func lookupCharset(name string) (enc encoding.Encoding, ascii bool) {
	if name == "" {
		return nil, true
	}
	// WHATWG reads US-ASCII as Windows-1252; IANA knows it for what it is.
	if e, err := ianaindex.MIME.Encoding(name); err == nil && e != nil {
		if n, _ := ianaindex.MIME.Name(e); n == "US-ASCII" {
			return nil, true
		}
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		e, err = ianaindex.MIME.Encoding(name)
	}
	if err == nil && (e == unicode.UTF8 || e == charmap.Windows1252 || e == charmap.ISO8859_15) {
		return e, false
	}
	return nil, false
}

// decode converts single-byte text to UTF-8 with enc.
func decode(enc encoding.Encoding, b []byte) string {
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil { // charmap decoders do not fail; be safe all the same
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return string(out)
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
	name := strings.ToLower(strings.Trim(label, "\"' \t"))
	enc, ascii := lookupCharset(name)
	switch {
	case ascii || enc == unicode.UTF8:
		if utf8.Valid(b) {
			return string(b), ""
		}
		text = decode(charmap.Windows1252, b)
		if !ascii {
			return text, fmt.Sprintf("%s is marked as UTF-8 but is not; it was read as Windows-1252 (Western European), so some letters may be wrong", what)
		}
		return text, fmt.Sprintf("%s holds 8-bit characters but does not say in which character set; it was read as Windows-1252 (Western European), so some letters may be wrong", what)
	case enc != nil: // Windows-1252 (ISO-8859-1) or ISO-8859-15
		if hasHighBytes(b) && utf8.Valid(b) {
			return string(b), fmt.Sprintf("%s is marked as %s but is UTF-8; it was read as UTF-8", what, strings.ToUpper(name))
		}
		return decode(enc, b), ""
	}
	if s, ok := viaCharset(b, name); ok {
		return s, ""
	}
	if !hasHighBytes(b) {
		return string(b), ""
	}
	if utf8.Valid(b) {
		return string(b), fmt.Sprintf("%s uses the unknown character set %q; it was read as UTF-8", what, name)
	}
	return decode(charmap.Windows1252, b), fmt.Sprintf("%s uses the unknown character set %q; it was read as Windows-1252 (Western European), so some letters may be wrong", what, name)
}

// viaCharset converts b with go-message's charset package, which knows
// every charset golang.org/x/text knows (KOI8-R, ISO-8859-2, Shift_JIS,
// GB18030...). The output is bounded: no charset turns one byte into more
// than four.
func viaCharset(b []byte, name string) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	r, err := charset.Reader(name, bytes.NewReader(b))
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
