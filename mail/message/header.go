package message

import (
	"bufio"
	"bytes"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message/textproto"
)

// Bounds on what header parsing spends on one field: a hostile message may
// hold a megabyte-long From or Subject line.
const (
	maxAddressField = 16 << 10 // longest address header parsed as such
	maxWordsField   = 16 << 10 // longest field RFC 2047 decoding looks at
	maxMsgIDs       = 200      // message ids kept from one References field
	maxUserAgent    = 200      // longest User-Agent or X-Mailer kept
)

// splitHeader finds where the header of an entity ends. It is lenient the
// way mail programs are: an mbox "From " envelope line before the header is
// skipped, and a line that cannot be a header field where one is expected
// starts the body (noSeparator is then set). An entity with no body ends
// after its header. Only an entity that does not start with a header field
// is an error, unless allowEmpty, for MIME parts, whose header may be empty.
func splitHeader(raw []byte, allowEmpty bool) (hdr, body []byte, noSeparator bool, err error) {
	start := 0
	if !allowEmpty && bytes.HasPrefix(raw, []byte("From ")) {
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			start = i + 1
		}
	}
	fields := 0
	for i := start; i < len(raw); {
		end := bytes.IndexByte(raw[i:], '\n')
		next := len(raw)
		if end >= 0 {
			end += i
			next = end + 1
		} else {
			end = len(raw)
		}
		line := bytes.TrimSuffix(raw[i:end], []byte("\r"))
		switch {
		case len(line) == 0:
			if fields == 0 && !allowEmpty {
				return nil, nil, false, malformedf("it starts with an empty line instead of mail header lines")
			}
			return raw[start:i], raw[next:], false, nil
		case line[0] == ' ' || line[0] == '\t':
			if fields == 0 {
				if allowEmpty {
					return nil, raw[start:], true, nil
				}
				return nil, nil, false, malformedf("it starts with an indented line instead of mail header lines")
			}
		case isFieldLine(line):
			fields++
		default:
			if fields == 0 {
				if allowEmpty {
					return nil, raw[start:], true, nil
				}
				return nil, nil, false, malformedf("it does not start with mail header lines%s", quoteLine(line))
			}
			return raw[start:i], raw[i:], true, nil
		}
		i = next
	}
	if fields == 0 && !allowEmpty {
		return nil, nil, false, malformedf("it is empty")
	}
	return raw[start:], nil, false, nil
}

// quoteLine quotes the start of a line for an error message, when it is
// printable text; binary junk is not worth showing a player.
func quoteLine(line []byte) string {
	for _, c := range line {
		if c < 0x20 || c > 0x7E {
			return ""
		}
	}
	return fmt.Sprintf(" (the first line is %q)", clip(string(line), 60))
}

// isFieldLine reports whether line starts a header field: a non-empty name
// of printable ASCII other than the colon, optionally followed by blanks,
// then a colon (RFC 5322 section 2.2).
func isFieldLine(line []byte) bool {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	name := bytes.TrimRight(line[:colon], " \t")
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		if c < 33 || c > 126 {
			return false
		}
	}
	return true
}

// readHeader parses header bytes found by splitHeader with go-message.
func readHeader(hdr []byte) (textproto.Header, error) {
	b := make([]byte, 0, len(hdr)+4)
	b = append(b, hdr...)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\r', '\n')
	}
	b = append(b, '\r', '\n')
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(b)))
	if err != nil {
		return h, malformedf("its header cannot be read: %v", err)
	}
	return h, nil
}

// headerReader turns header field values into the Message's fields,
// collecting the problems it meets.
type headerReader struct {
	h    textproto.Header
	dec  *mime.WordDecoder
	note func(string)
}

// newHeaderReader returns a headerReader for h that reports problems to note.
func newHeaderReader(h textproto.Header, note func(string)) *headerReader {
	return &headerReader{h: h, note: note, dec: &mime.WordDecoder{CharsetReader: wordCharsetReader(note)}}
}

// get returns the first value of a field, made valid UTF-8 with control
// characters turned into spaces.
func (r *headerReader) get(key string) string {
	return sanitizeField(r.h.Get(key))
}

// text returns the first value of a field, RFC 2047 decoded.
func (r *headerReader) text(key string) string {
	return r.decode(r.h.Get(key), key)
}

// decode decodes RFC 2047 encoded words in v (at most maxWordsField bytes
// of it) and makes the result safe to show and to quote in a reply.
func (r *headerReader) decode(v, key string) string {
	if len(v) > maxWordsField {
		v = v[:maxWordsField]
	}
	if !utf8.ValidString(v) {
		s, problem := toUTF8([]byte(v), "", "the "+strings.ToLower(key)+" line")
		if problem != "" {
			r.note(problem)
		}
		v = s
	}
	d, err := r.dec.DecodeHeader(v)
	if err != nil {
		r.note(fmt.Sprintf("the %s line has encoded words that cannot be decoded; it was kept as sent", strings.ToLower(key)))
		d = v
	}
	return sanitizeField(d)
}

// addresses parses an address list field. A list the strict parser refuses
// is read leniently, one address per comma-separated item, and noted.
func (r *headerReader) addresses(key string) []Address {
	v := r.h.Get(key)
	if strings.TrimSpace(v) == "" {
		return nil
	}
	if len(v) <= maxAddressField {
		p := mail.AddressParser{WordDecoder: r.dec}
		if list, err := p.ParseList(v); err == nil {
			out := make([]Address, 0, len(list))
			for _, a := range list {
				out = append(out, Address{Name: sanitizeField(a.Name), Addr: sanitizeField(a.Address)})
			}
			return out
		}
	} else {
		v = v[:maxAddressField]
	}
	var out []Address
	for _, item := range strings.Split(v, ",") {
		if a, ok := lenientAddress(item, r); ok {
			out = append(out, a)
		}
	}
	if len(out) > 0 {
		r.note(fmt.Sprintf("the %s line is not written the standard way; the address %s was read from it", strings.ToLower(key), out[0].Addr))
	} else {
		r.note(fmt.Sprintf("the %s line holds no address that could be read", strings.ToLower(key)))
	}
	return out
}

// lenientAddress finds an address in s: the last <...> holding an @, or
// else a word holding an @. The text before a <...> is the name.
func lenientAddress(s string, r *headerReader) (Address, bool) {
	if lt := strings.LastIndexByte(s, '<'); lt >= 0 {
		if gt := strings.IndexByte(s[lt:], '>'); gt > 0 {
			addr := strings.TrimSpace(s[lt+1 : lt+gt])
			if strings.Contains(addr, "@") && !strings.ContainsAny(addr, " \t") {
				name := strings.Trim(strings.TrimSpace(s[:lt]), `"'`)
				return Address{Name: r.decode(name, "address"), Addr: sanitizeField(addr)}, true
			}
		}
	}
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, `<>"'(),;:[]`)
		if at := strings.IndexByte(w, '@'); at > 0 && at < len(w)-1 {
			return Address{Addr: sanitizeField(w)}, true
		}
	}
	return Address{}, false
}

// msgIDs returns the message ids in a field value, without angle brackets.
// A value with no brackets at all that is one word is taken as one id, as
// some broken mailers send it.
func msgIDs(v string) []string {
	var out []string
	rest := v
	for len(out) < maxMsgIDs {
		lt := strings.IndexByte(rest, '<')
		if lt < 0 {
			break
		}
		gt := strings.IndexByte(rest[lt:], '>')
		if gt < 0 {
			break
		}
		if id := strings.TrimSpace(rest[lt+1 : lt+gt]); id != "" && !strings.ContainsAny(id, " \t<") {
			out = append(out, sanitizeField(id))
		}
		rest = rest[lt+gt+1:]
	}
	if len(out) == 0 {
		if f := strings.Fields(v); len(f) == 1 && !strings.ContainsAny(f[0], "<>") {
			out = append(out, sanitizeField(f[0]))
		}
	}
	return out
}

// parseDate reads a Date field; the zero time when it cannot.
func parseDate(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 200 {
		return time.Time{}
	}
	if t, err := mail.ParseDate(v); err == nil {
		return t
	}
	v = strings.Join(strings.Fields(v), " ")
	for _, layout := range [...]string{
		"Mon, 2 Jan 2006 15:04:05 -0700 (MST)",
		"Mon, 2 Jan 2006 15:04:05 MST",
		"Mon, 2 Jan 2006 15:04 -0700",
		"2 Jan 2006 15:04:05 -0700",
		"Mon Jan 2 15:04:05 2006",
		"Mon Jan 2 15:04:05 MST 2006",
		time.RFC3339,
	} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// fill sets m's header fields from the header.
func (r *headerReader) fill(m *Message) {
	m.Header = r.h.Map()
	ids := r.h.Values("Message-Id")
	if len(ids) > 0 {
		if l := msgIDs(ids[0]); len(l) > 0 {
			m.MessageID = l[0]
		}
		if len(ids) > 1 {
			r.note(fmt.Sprintf("the message has %d Message-ID lines; the first was used", len(ids)))
		}
	}
	m.FromRaw = sanitizeField(r.h.Get("From"))
	if from := r.addresses("From"); len(from) > 0 {
		m.From = from[0]
	} else if r.h.Get("From") == "" {
		r.note("the message has no From line")
	}
	m.ReplyTo = r.addresses("Reply-To")
	m.To = r.addresses("To")
	m.Cc = r.addresses("Cc")
	m.Subject = r.text("Subject")
	if len(m.Subject) > MaxSubject {
		r.note(fmt.Sprintf("the subject line is %d bytes long; only its first %d bytes were read", len(r.h.Get("Subject")), MaxSubject))
		m.Subject = clip(m.Subject, MaxSubject)
	}
	m.Date = parseDate(r.h.Get("Date"))
	if l := msgIDs(r.h.Get("In-Reply-To")); len(l) > 0 {
		m.InReplyTo = l[0]
	}
	m.References = msgIDs(r.h.Get("References"))
	m.ReturnPath = r.get("Return-Path")
	m.AutoSubmitted = r.get("Auto-Submitted")
	m.Precedence = r.get("Precedence")
	m.ListID = r.get("List-Id")
	m.ListUnsubscribe = r.get("List-Unsubscribe")
	for _, v := range r.h.Values("X-Loop") {
		m.XLoop = append(m.XLoop, sanitizeField(v))
	}
	m.XAutoreply = r.get("X-Autoreply")
	m.XAutorespond = r.get("X-Autorespond")
	if m.UserAgent = clip(r.text("User-Agent"), maxUserAgent); m.UserAgent == "" {
		m.UserAgent = clip(r.text("X-Mailer"), maxUserAgent)
	}
}

// sanitizeField makes a header value safe to show and to copy into a
// reply: valid UTF-8, control characters (CR, LF, NUL, tabs) turned into
// spaces, blanks trimmed.
func sanitizeField(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, isControl) >= 0 {
		s = strings.Map(func(r rune) rune {
			if isControl(r) {
				return ' '
			}
			return r
		}, s)
	}
	return strings.TrimSpace(s)
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || (r >= 0x7F && r < 0xA0) }

// clip cuts s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
