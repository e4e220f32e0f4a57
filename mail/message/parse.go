package message

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// Parse reads one raw mail message, as fetched from the mailbox.
//
// Parse never returns a nil Message: when it fails, the Message holds the
// header fields it could read (From, Reply-To, Message-ID and the headers
// Automatic looks at) so that the judge can still answer the sender, or
// decide not to. The error wraps ErrTooLarge (a *LimitError) when the
// message, one decoded part or the number of parts is over lim, ErrTooDeep
// (a *DepthError) when parts nest more deeply than lim allows, and
// ErrMalformed when the header or the MIME structure cannot be read at all.
// A zero field of lim means the default (DefaultLimits). Whatever the
// input, Parse does not panic and does not allocate much more than the
// raw message's size.
func Parse(raw []byte, lim Limits) (m *Message, err error) {
	lim = lim.orDefault()
	m = &Message{Size: len(raw)}
	defer func() {
		if v := recover(); v != nil {
			err = malformedf("internal error while reading it: %v", v)
		}
	}()
	if int64(len(raw)) > lim.MaxMessage {
		// Read the header from the start of the message only, so that the
		// reply can say why the message was refused.
		headerOnly(m, raw[:lim.MaxMessage])
		return m, &LimitError{Limit: LimitMessage, Size: int64(len(raw)), Max: lim.MaxMessage}
	}
	parts := 0
	p := &parser{lim: lim, parts: &parts}
	err = p.message(m, bareCRToCRLF(raw), 0)
	return m, err
}

// headerOnly fills m's header fields from the start of a message, ignoring
// every error.
func headerOnly(m *Message, raw []byte) {
	hdr, _, _, err := splitHeader(raw, false)
	if err != nil {
		return
	}
	h, err := readHeader(hdr)
	if err != nil {
		return
	}
	newHeaderReader(h, func(s string) { m.Problems = append(m.Problems, s) }).fill(m)
}

// bareCRToCRLF returns raw with every CR made CRLF when raw uses bare CR
// line endings (old Macintosh mail): it holds a CR and no LF at all.
// Otherwise raw is returned as it is.
func bareCRToCRLF(raw []byte) []byte {
	if bytes.IndexByte(raw, '\n') >= 0 || bytes.IndexByte(raw, '\r') < 0 {
		return raw
	}
	return bytes.ReplaceAll(raw, []byte("\r"), []byte("\r\n"))
}

// parser reads one message. The count of parts is shared with the parsers
// of the messages nested in it, so that the limits hold for the whole.
type parser struct {
	lim       Limits
	parts     *int
	problems  []string
	truncated bool // a part ended before its boundary: the message was cut short
}

// note records a problem, once.
func (p *parser) note(s string) {
	for _, q := range p.problems {
		if q == s {
			return
		}
	}
	p.problems = append(p.problems, s)
}

// child returns a parser for a message or part nested in this one.
func (p *parser) child() *parser { return &parser{lim: p.lim, parts: p.parts} }

// message parses raw, an entire message at the given depth, into m.
func (p *parser) message(m *Message, raw []byte, depth int) (err error) {
	defer func() { m.Problems = append(m.Problems, p.problems...) }()
	hdr, body, noSep, err := splitHeader(raw, false)
	if err != nil {
		return err
	}
	h, err := readHeader(hdr)
	if err != nil {
		return err
	}
	newHeaderReader(h, p.note).fill(m)
	if noSep {
		p.note("there is no empty line between the header and the text; the text was taken to start at the first line that is not a header field")
	}
	root, err := p.build(h, bytes.NewReader(body), depth)
	if err != nil {
		return err
	}
	p.assemble(m, root)
	if root.multipart && len(root.children) == 0 {
		return malformedf("its MIME structure is broken: %s", root.broken)
	}
	return nil
}

// node is one MIME entity read by build, before assemble decides which
// part is the body.
type node struct {
	mediaType   string            // lower case, "text/plain"
	params      map[string]string // Content-Type parameters, decoded
	disposition string            // "attachment", "inline" or ""
	filename    string            // cleaned file name, if any
	contentID   string

	multipart bool
	children  []*node
	broken    string // why a multipart has no children

	data      []byte      // leaf: transfer-decoded content
	forwarded *Message    // message/rfc822: the message, parsed
	signed    *SignedPart // multipart/signed: the signed part and signature
}

// build reads the entity with header h and raw body at depth: its parts,
// recursively, or its decoded content. It fails only on a limit.
func (p *parser) build(h textproto.Header, body io.Reader, depth int) (*node, error) {
	*p.parts++
	if *p.parts > p.lim.MaxParts {
		return nil, &LimitError{Limit: LimitParts, Size: int64(*p.parts), Max: int64(p.lim.MaxParts)}
	}
	if depth > p.lim.MaxDepth {
		return nil, &DepthError{Max: p.lim.MaxDepth}
	}
	hr := newHeaderReader(h, p.note)
	n := &node{}
	n.mediaType, n.params = p.contentType(hr)
	if d, params, err := mime.ParseMediaType(h.Get("Content-Disposition")); err == nil || errors.Is(err, mime.ErrInvalidMediaParameter) {
		n.disposition = d
		n.filename = cleanFilename(hr.decode(params["filename"], "file name"))
	}
	if n.filename == "" {
		n.filename = cleanFilename(n.params["name"])
	}
	if ids := msgIDs(h.Get("Content-Id")); len(ids) > 0 {
		n.contentID = ids[0]
	}

	switch {
	case strings.HasPrefix(n.mediaType, "multipart/"):
		n.multipart = true
		boundary := n.params["boundary"]
		if boundary == "" {
			n.broken = "a multipart part has no boundary, so its parts cannot be found"
			p.note(n.broken)
			return n, nil
		}
		if n.mediaType == "multipart/signed" {
			return n, p.signed(n, body, boundary, depth)
		}
		return n, p.multipart(n, body, boundary, depth)
	case n.mediaType == "message/rfc822" || n.mediaType == "message/global":
		data, err := p.leaf(h, body, n.filename)
		if err != nil {
			return nil, err
		}
		n.data = data
		fwd := &Message{Size: len(data)}
		err = p.child().message(fwd, bareCRToCRLF(data), depth+1)
		if errors.Is(err, ErrTooLarge) || errors.Is(err, ErrTooDeep) {
			return nil, err
		}
		if err != nil {
			p.note(fmt.Sprintf("an attached message could not be read: %v", err))
		}
		n.forwarded = fwd
		return n, nil
	}
	data, err := p.leaf(h, body, n.filename)
	if err != nil {
		return nil, err
	}
	n.data = data
	return n, nil
}

// contentType reads the Content-Type field; text/plain when it is absent
// (RFC 2045 section 5.2) or cannot be read.
func (p *parser) contentType(hr *headerReader) (string, map[string]string) {
	v := hr.h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	t, params, err := mime.ParseMediaType(v)
	if err != nil && !errors.Is(err, mime.ErrInvalidMediaParameter) {
		p.note(fmt.Sprintf("a part has a Content-Type that cannot be read (%q); it was read as plain text", clip(sanitizeField(v), 80)))
		return "text/plain", map[string]string{}
	}
	if params == nil {
		params = map[string]string{}
	}
	for k, val := range params {
		if k != "boundary" {
			params[k] = hr.decode(val, "content type")
		}
	}
	return strings.ToLower(t), params
}

// multipart reads the parts of a multipart body with go-message.
func (p *parser) multipart(n *node, body io.Reader, boundary string, depth int) error {
	mr := textproto.NewMultipartReader(body, boundary)
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(n.children) == 0 {
				n.broken = "the boundary between its parts was not found"
			} else {
				n.broken = "the parts after a damaged one were skipped"
			}
			if !p.truncated {
				p.note(fmt.Sprintf("a multipart part could not be read to the end (%s)", n.broken))
			}
			break
		}
		child, err := p.build(part.Header, part, depth+1)
		if err != nil {
			return err
		}
		n.children = append(n.children, child)
	}
	return nil
}

// leaf reads and transfer-decodes the body of a single part. It fails only
// when the decoded content is over MaxAttachment.
func (p *parser) leaf(h textproto.Header, body io.Reader, filename string) ([]byte, error) {
	raw, rerr := io.ReadAll(body)
	what := "a part"
	if filename != "" {
		what = fmt.Sprintf("the attachment %q", filename)
	}
	if rerr != nil {
		p.truncated = true
		p.note(fmt.Sprintf("the message ends in the middle of %s; it was cut short", what))
	}
	cte := strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding")))
	if i := strings.IndexAny(cte, "; \t"); i >= 0 {
		cte = cte[:i]
	}
	var data []byte
	switch cte {
	case "", "7bit", "8bit", "binary":
		data = raw
	case "base64", "quoted-printable":
		var derr error
		data, derr = p.decode(cte, raw)
		if errors.Is(derr, errOverLimit) {
			return nil, p.tooLarge(cte, raw, filename)
		}
		if derr != nil {
			if cte == "quoted-printable" {
				data = lenientQP(raw)
				p.note(fmt.Sprintf("the quoted-printable encoding of %s is damaged; it was read as well as possible", what))
			} else {
				var corrupt base64.CorruptInputError
				if errors.As(derr, &corrupt) {
					p.note(fmt.Sprintf("the base64 encoding of %s is damaged; only its first %d bytes could be read", what, len(data)))
				} else if rerr == nil {
					p.note(fmt.Sprintf("the base64 encoding of %s ends in the middle; it was cut short", what))
				}
			}
		}
	default:
		p.note(fmt.Sprintf("%s uses the unknown transfer encoding %q; it was read as it is", what, clip(sanitizeField(cte), 40)))
		data = raw
	}
	if int64(len(data)) > p.lim.MaxAttachment {
		return nil, &LimitError{Limit: LimitAttachment, Name: filename, Size: int64(len(data)), Max: p.lim.MaxAttachment}
	}
	return data, nil
}

// errOverLimit is returned by decode when the content is over the limit.
var errOverLimit = errors.New("over the attachment limit")

// decode transfer-decodes raw with go-message, reading at most
// MaxAttachment bytes. The bytes decoded before an error are returned with it.
func (p *parser) decode(cte string, raw []byte) ([]byte, error) {
	r, err := transferDecoder(cte, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, p.lim.MaxAttachment+1))
	if int64(len(data)) > p.lim.MaxAttachment {
		return nil, errOverLimit
	}
	return data, err
}

// tooLarge measures the decoded size of an oversized part and returns the
// error. The work is bounded by the raw size, which the message limit holds.
func (p *parser) tooLarge(cte string, raw []byte, filename string) error {
	size := int64(len(raw))
	if r, err := transferDecoder(cte, bytes.NewReader(raw)); err == nil {
		if n, _ := io.Copy(io.Discard, r); n > 0 {
			size = n
		}
	}
	return &LimitError{Limit: LimitAttachment, Name: filename, Size: size, Max: p.lim.MaxAttachment}
}

// transferDecoder returns a reader decoding a Content-Transfer-Encoding,
// using go-message's decoders.
func transferDecoder(cte string, r io.Reader) (io.Reader, error) {
	var h gomessage.Header
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Transfer-Encoding", cte)
	e, err := gomessage.New(h, r)
	if err != nil {
		return nil, err
	}
	return e.Body, nil
}

// lenientQP decodes quoted-printable the forgiving way, for text the
// standard decoder refuses (raw control bytes, a stray "=" at a line end):
// "=XX" is a byte, "=" before a line end is a soft break, anything else is
// kept as it is.
func lenientQP(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		switch {
		case i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]):
			out = append(out, unhex(raw[i+1])<<4|unhex(raw[i+2]))
			i += 2
		case i+1 < len(raw) && raw[i+1] == '\n':
			i++
		case i+2 < len(raw) && raw[i+1] == '\r' && raw[i+2] == '\n':
			i += 2
		default:
			out = append(out, c)
		}
	}
	return out
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex returns the value of the hexadecimal digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}
