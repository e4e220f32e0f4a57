package message

import "bytes"

// Unflow decodes text sent as format=flowed (RFC 3676): the lines a mail
// program wrapped are joined again. A line ending in a space (a soft line
// break) is joined with the line after it when both have the same quote
// depth; with delSp (the DelSp=yes parameter) that trailing space was
// added by the sender and is deleted, otherwise it stays. One leading
// space (space-stuffing, added before lines that begin with a space, ">"
// or "From ") is removed after the quote marks. The signature separator
// "-- " is never a soft break. Quoted lines come back as their quote marks
// followed by one space and the joined text.
//
// Line endings may be LF or CRLF; the result keeps CRLF when the text has
// any, LF otherwise. Unflow works on bytes, whatever the charset (every
// charset mail uses writes the space, ">" and line breaks as ASCII does),
// so it serves both the text for reading and the text as sent that an
// inline signature is checked against. It runs in time linear in len(text)
// and never fails.
func Unflow(text []byte, delSp bool) []byte {
	nl := []byte("\n")
	if bytes.Contains(text, []byte("\r\n")) {
		nl = []byte("\r\n")
	}
	out := make([]byte, 0, len(text))
	open := false // the last line written was a soft break: the next one joins it
	openDepth := 0
	for rest := text; len(rest) > 0; {
		line := rest
		last := true
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest, last = rest[:i], rest[i+1:], false
		} else {
			rest = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := line[depth:]
		if len(content) > 0 && content[0] == ' ' {
			content = content[1:] // space-stuffing, or the space after quote marks
		}
		if open && depth != openDepth {
			// A soft break followed by a line of another depth: the
			// flowed line ends there (RFC 3676 section 4.5).
			out = append(out, nl...)
			open = false
		}
		if !open {
			if depth > 0 {
				out = append(out, bytes.Repeat([]byte(">"), depth)...)
				out = append(out, ' ')
			}
		}
		soft := len(content) > 0 && content[len(content)-1] == ' ' && string(content) != "-- "
		if soft && delSp {
			content = content[:len(content)-1]
		}
		out = append(out, content...)
		open, openDepth = soft, depth
		if !soft && !last {
			out = append(out, nl...)
		}
	}
	if open && bytes.HasSuffix(text, []byte("\n")) {
		out = append(out, nl...) // a soft break on the last line ends the text
	}
	return out
}

// unflowText is Unflow for the text already read into a string.
func unflowText(s string, delSp bool) string { return string(Unflow([]byte(s), delSp)) }
