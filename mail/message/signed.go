package message

import (
	"bytes"
	"github.com/umpire-pbem/umpire/mail/signature"
	"io"
	"strings"

	"github.com/emersion/go-message/textproto"
)

// go-message reads parts decoded and does not expose their raw bytes, but a
// multipart/signed signature covers the first part's raw bytes (RFC 1847
// section 2.1, RFC 3156 section 5). This file splits a multipart/signed
// body by its boundary itself and hands the pieces back to go-message.

// signed reads a multipart/signed body: the signed part, kept as raw bytes
// and also parsed, and the signature part.
func (p *parser) signed(n *node, body io.Reader, boundary string, depth int) error {
	raw, rerr := io.ReadAll(body)
	if rerr != nil {
		p.truncated = true
		p.note("the message ends in the middle of its signed part; it was cut short")
	}
	parts, closed := splitMultipart(raw, boundary, p.lim.MaxParts+1)
	if len(parts) == 0 {
		n.broken = "the boundary between the signed text and its signature was not found"
		p.note(n.broken)
		return nil
	}
	if !closed && rerr == nil {
		p.note("the signed part has no closing boundary; the message may have been cut short")
	}
	for _, part := range parts {
		child, err := p.entity(part, depth+1)
		if err != nil {
			return err
		}
		n.children = append(n.children, child)
	}
	if len(parts) < 2 {
		p.note("the signed part has no signature part")
		return nil
	}
	n.signed = &SignedPart{
		Protocol:  strings.ToLower(n.params["protocol"]),
		Micalg:    strings.ToLower(n.params["micalg"]),
		Part:      signature.CanonicalCRLF(parts[0]),
		Signature: n.children[1].data,
	}
	return nil
}

// entity builds a node from the raw bytes of a MIME part, header and body.
func (p *parser) entity(raw []byte, depth int) (*node, error) {
	hdr, body, noSep, _ := splitHeader(raw, true)
	h, err := readHeader(hdr)
	if err != nil {
		p.note("a part's header cannot be read; the part was read as plain text")
		h, body = textproto.Header{}, raw
	} else if noSep && len(hdr) > 0 {
		p.note("a part has no empty line between its header and its content")
	}
	return p.build(h, bytes.NewReader(body), depth)
}

// delimiter is a boundary delimiter line found in a multipart body.
type delimiter struct {
	start int  // index of its first '-'
	end   int  // index just past its line ending
	close bool // the close delimiter, "--boundary--"
}

// splitMultipart returns the raw bytes of each body part of a multipart
// body, following RFC 2046 section 5.1.1: a delimiter is a line that
// starts with "--" and the boundary, followed by optional blanks (or "--"
// and optional blanks for the close delimiter), at the start of the body
// or after a line break. A part runs from after its delimiter line to the
// line break before the next delimiter, which belongs to that delimiter,
// so it is not part of the result. The preamble and epilogue are dropped.
// closed reports whether the close delimiter was found; without it the
// last part runs to the end of body. At most maxParts parts are returned.
func splitMultipart(body []byte, boundary string, maxParts int) (parts [][]byte, closed bool) {
	var delims []delimiter
	dash := []byte("--" + boundary)
	for off := 0; off < len(body) && len(delims) <= maxParts; {
		i := bytes.Index(body[off:], dash)
		if i < 0 {
			break
		}
		i += off
		off = i + len(dash)
		if i > 0 && body[i-1] != '\n' {
			continue
		}
		d, ok := delimiterAt(body, i, len(dash))
		if !ok {
			continue
		}
		delims = append(delims, d)
		off = d.end
		if d.close {
			break
		}
	}
	for k, d := range delims {
		if d.close {
			return parts, true
		}
		if len(parts) == maxParts {
			break
		}
		start := d.end
		end := len(body)
		if k+1 < len(delims) {
			end = lineBreakBefore(body, delims[k+1].start)
		}
		if end < start {
			end = start
		}
		parts = append(parts, body[start:end])
	}
	return parts, false
}

// delimiterAt checks whether the line at body[i:] holding "--boundary"
// (n bytes) is a delimiter line, and where it ends.
func delimiterAt(body []byte, i, n int) (delimiter, bool) {
	d := delimiter{start: i}
	j := i + n
	if bytes.HasPrefix(body[j:], []byte("--")) {
		d.close = true
		j += 2
	}
	for j < len(body) && (body[j] == ' ' || body[j] == '\t') {
		j++
	}
	switch {
	case j == len(body):
		d.end = j
	case body[j] == '\n':
		d.end = j + 1
	case body[j] == '\r' && j+1 < len(body) && body[j+1] == '\n':
		d.end = j + 2
	case body[j] == '\r' && j+1 == len(body):
		d.end = j + 1
	default:
		return d, false
	}
	return d, true
}

// lineBreakBefore returns the index of the line break (CRLF or LF) that
// ends just before index i, or i when there is none.
func lineBreakBefore(body []byte, i int) int {
	if i >= 2 && body[i-2] == '\r' && body[i-1] == '\n' {
		return i - 2
	}
	if i >= 1 && body[i-1] == '\n' {
		return i - 1
	}
	return i
}
