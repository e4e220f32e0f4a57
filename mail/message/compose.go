package message

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime"
	"net/mail"
	"net/textproto"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	gomessage "github.com/emersion/go-message"
)

// Outgoing is a mail the judge sends: a receipt, an error reply, a report.
type Outgoing struct {
	// From is the judge's address, "Umpire <judge@umpire.test>".
	From string
	// To and Cc are the recipients; at least one is required.
	To, Cc []string
	// Subject may hold any Unicode; it is RFC 2047 encoded as needed.
	Subject string
	// MessageID is the Message-ID without angle brackets. When empty, one
	// is derived from the content and the From domain, so the same mail
	// always gets the same id.
	MessageID string
	// InReplyTo and References thread a reply (ids without brackets).
	InReplyTo  string
	References []string
	// Date is required: Compose has no clock.
	Date time.Time
	// Text is the plain text body and HTML the HTML body; either or both.
	Text, HTML string
	// Inline are parts the HTML shows by "cid:" reference, such as the map
	// picture; each needs a ContentID.
	Inline []Part
	// Attachments are files attached to the mail.
	Attachments []Part
	// Headers are extra header fields, set after the standard ones, so they
	// may replace Auto-Submitted or X-Auto-Response-Suppress. They may not
	// set the MIME structure (Content-*, MIME-Version).
	Headers map[string]string
	// Sign, when set, signs the mail as PGP/MIME (RFC 3156): the body
	// Compose builds (text, HTML, pictures, attachments: every part)
	// becomes the first part of a multipart/signed entity, and Sign's
	// armored detached OpenPGP signature over that part's exact bytes,
	// header and CRLF line endings included, the second. MICAlg names
	// Sign's hash ("pgp-sha256" when empty).
	Sign   func(entity []byte) ([]byte, error)
	MICAlg string
}

// Part is a file in an outgoing mail.
type Part struct {
	// Filename is the name the recipient sees; any folder is removed.
	Filename string
	// ContentType is the media type, with parameters if needed. When
	// empty it is guessed from Filename, or application/octet-stream.
	// Text types must be UTF-8 or US-ASCII. Multipart and message types
	// are refused.
	ContentType string
	// ContentID is the id (without brackets) the HTML refers to as
	// "cid:ID"; required for inline parts.
	ContentID string
	// Data is the content. It is sent base64-encoded, so it arrives
	// byte for byte.
	Data []byte
}

// Compose renders o as a MIME message with CRLF line endings, ready for
// SMTP. Its structure has only the levels it needs:
//
//	multipart/mixed                  (only with Attachments)
//	  multipart/related              (only with Inline parts)
//	    multipart/alternative        (only with both Text and HTML)
//	      text/plain; charset=utf-8  (quoted-printable)
//	      text/html; charset=utf-8   (quoted-printable)
//	    inline parts                 (base64, Content-ID)
//	  attachments                    (base64)
//
// so a text-only mail is a single text/plain entity. With Sign, that tree
// is the first part of a multipart/signed entity whose second part is the
// signature (application/pgp-signature); a line of a quoted-printable part
// that would start with "From " is broken by a soft line break after its
// "F", so that no mailbox format can change a signed byte. Text and HTML are
// sent as UTF-8: invalid bytes become U+FFFD, NUL bytes and a leading byte
// order mark are dropped, and line endings become CRLF. Every mail carries
// Auto-Submitted: auto-replied (RFC 3834) and X-Auto-Response-Suppress:
// All, so that well-behaved responders do not answer it; o.Headers may
// replace them. Boundaries are derived from the content, so the same
// Outgoing always gives the same bytes. Errors say which field is wrong.
func Compose(o Outgoing) ([]byte, error) {
	if o.Date.IsZero() {
		return nil, fmt.Errorf("compose: the date is missing")
	}
	from, err := mail.ParseAddress(o.From)
	if err != nil {
		return nil, fmt.Errorf("compose: the from address %q cannot be read: %w", o.From, err)
	}
	to, err := parseAddresses("to", o.To)
	if err != nil {
		return nil, err
	}
	cc, err := parseAddresses("cc", o.Cc)
	if err != nil {
		return nil, err
	}
	if len(to)+len(cc) == 0 {
		return nil, fmt.Errorf("compose: the mail has no recipient")
	}
	text := outgoingText(o.Text)
	htmlText := outgoingText(o.HTML)
	seed := contentSeed(o, text, htmlText)
	msgID := strings.Trim(strings.TrimSpace(o.MessageID), "<>")
	if msgID == "" {
		domain := from.Address[strings.LastIndexByte(from.Address, '@')+1:]
		msgID = "umpire." + hex.EncodeToString(seed[:12]) + "@" + domain
	}
	inReplyTo := strings.Trim(strings.TrimSpace(o.InReplyTo), "<>")
	refs := nonEmpty(o.References)
	for _, id := range append([]string{msgID, inReplyTo}, refs...) {
		if err := checkMsgID(id); err != nil {
			return nil, err
		}
	}

	c := composer{seed: seed, text: text, html: htmlText}
	root, err := c.tree(o)
	if err != nil {
		return nil, err
	}
	if o.Sign != nil {
		if root, err = c.signed(root, o.Sign, o.MICAlg); err != nil {
			return nil, err
		}
	}

	var inReplyToField, refsField string
	if inReplyTo != "" {
		inReplyToField = "<" + inReplyTo + ">"
	}
	if len(refs) > 0 {
		refsField = "<" + strings.Join(refs, "> <") + ">"
	}
	fields := []field{
		{"From", formatAddresses([]*mail.Address{from})},
		{"To", formatAddresses(to)},
		{"Cc", formatAddresses(cc)},
		{"Subject", encodeHeaderText(sanitizeField(o.Subject))},
		{"Date", o.Date.Format("Mon, 02 Jan 2006 15:04:05 -0700")},
		{"Message-Id", "<" + msgID + ">"},
		{"In-Reply-To", inReplyToField},
		{"References", refsField},
		{"Auto-Submitted", "auto-replied"},
		{"X-Auto-Response-Suppress", "All"},
		{"Mime-Version", "1.0"},
	}
	fields, err = withExtraHeaders(fields, o.Headers)
	if err != nil {
		return nil, err
	}
	// go-message writes header fields in the reverse order of adding, and
	// the root entity's content fields are already there: they come last.
	for i := len(fields) - 1; i >= 0; i-- {
		if fields[i].v != "" {
			root.header.Add(fields[i].k, fields[i].v)
		}
	}

	var buf bytes.Buffer
	w, err := gomessage.CreateWriter(&buf, root.header)
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	if err := root.writeBody(w); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	return buf.Bytes(), nil
}

// field is a header field of an outgoing mail.
type field struct{ k, v string }

// formatAddresses formats an address list field value, RFC 2047 encoding
// names as needed.
func formatAddresses(l []*mail.Address) string {
	s := make([]string, len(l))
	for i, a := range l {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// parseAddresses parses a recipient list; what names it in errors.
func parseAddresses(what string, list []string) ([]*mail.Address, error) {
	var out []*mail.Address
	for _, s := range list {
		a, err := mail.ParseAddress(s)
		if err != nil {
			return nil, fmt.Errorf("compose: the %s address %q cannot be read: %w", what, s, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// MsgIDOK reports whether id (without angle brackets) can stand in a
// Message-ID, In-Reply-To or References field of a mail the judge sends:
// no blanks, control characters or angle brackets.
func MsgIDOK(id string) bool { return id != "" && checkMsgID(id) == nil }

// checkMsgID refuses a message id that would break its header field.
func checkMsgID(id string) error {
	if strings.ContainsFunc(id, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7F }) {
		return fmt.Errorf("compose: the message id %q holds blanks, control characters or angle brackets", id)
	}
	return nil
}

// nonEmpty returns the non-empty ids of l without brackets.
func nonEmpty(l []string) []string {
	var out []string
	for _, s := range l {
		if s = strings.Trim(strings.TrimSpace(s), "<>"); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// withExtraHeaders returns fields with o.Headers applied, in name order:
// a field already there gets the new value (an empty value removes it),
// others are added. It refuses the fields Compose fills from Outgoing or
// from the MIME structure, and values that would break the header.
func withExtraHeaders(fields []field, extra map[string]string) ([]field, error) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !isFieldLine([]byte(k+":")) || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("compose: %q is not a header field name", k)
		}
		ck := textproto.CanonicalMIMEHeaderKey(k)
		switch {
		case strings.HasPrefix(ck, "Content-"), ck == "Mime-Version", ck == "From", ck == "To", ck == "Cc",
			ck == "Bcc", ck == "Subject", ck == "Date", ck == "Message-Id", ck == "In-Reply-To", ck == "References":
			return nil, fmt.Errorf("compose: the header field %s is set by Compose from the mail itself", k)
		}
		v := extra[k]
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, fmt.Errorf("compose: the value of header field %s holds a line break or NUL", k)
		}
		v = encodeHeaderText(v)
		found := false
		for i := range fields {
			if fields[i].k == ck {
				fields[i].v, found = v, true
			}
		}
		if !found {
			fields = append(fields, field{ck, v})
		}
	}
	return fields, nil
}

// encodeHeaderText RFC 2047 encodes an unstructured header value (RFC
// 5322 section 3.2.5) as needed. Text that is plain ASCII is left as it
// is, unless it holds something a reader would decode ("=?"), or a word
// too long to fold; those are base64 encoded in words of at most 75
// characters, so that the text arrives exactly as given.
func encodeHeaderText(s string) string {
	long := false
	for _, w := range strings.Fields(s) {
		if len(w) > 60 {
			long = true
		}
	}
	if !long && !strings.Contains(s, "=?") {
		return mime.QEncoding.Encode("utf-8", s)
	}
	var words []string
	for len(s) > 0 {
		n := min(len(s), 45) // 45 bytes make 60 base64 characters
		for n < len(s) && n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			n = min(len(s), 45)
		}
		words = append(words, "=?utf-8?b?"+base64.StdEncoding.EncodeToString([]byte(s[:n]))+"?=")
		s = s[n:]
	}
	return strings.Join(words, " ")
}

// outgoingText prepares body text for sending: valid UTF-8, no NUL bytes
// and no leading byte order mark, LF line endings (the quoted-printable
// writer turns them into CRLF).
func outgoingText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.TrimPrefix(s, "\uFEFF")
	s = strings.ReplaceAll(s, "\x00", "")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// contentSeed digests everything that goes into the mail, for boundaries
// and generated message ids.
func contentSeed(o Outgoing, text, html string) [32]byte {
	d := sha256.New()
	for _, s := range []string{o.MessageID, o.From, o.Subject, o.Date.UTC().Format(time.RFC3339Nano), text, html} {
		fmt.Fprintf(d, "%d:%s;", len(s), s)
	}
	for _, l := range [][]string{o.To, o.Cc, o.References} {
		fmt.Fprintf(d, "%d:%q;", len(l), l)
	}
	for _, ps := range [][]Part{o.Inline, o.Attachments} {
		for _, p := range ps {
			fmt.Fprintf(d, "%q %q %q %d:", p.Filename, p.ContentType, p.ContentID, len(p.Data))
			d.Write(p.Data)
		}
	}
	var out [32]byte
	copy(out[:], d.Sum(nil))
	return out
}

// composer builds the entity tree of an outgoing mail.
type composer struct {
	seed       [32]byte
	text, html string
}

// outEntity is one entity of an outgoing mail: a header and either a body
// or parts.
type outEntity struct {
	header gomessage.Header
	body   []byte
	parts  []*outEntity
	// raw is a multipart body written as it is, boundaries and all (a
	// multipart/signed entity, whose first part must keep every byte).
	raw []byte
}

// tree builds the entity tree for o, collapsing empty levels.
func (c composer) tree(o Outgoing) (*outEntity, error) {
	var body *outEntity
	plain := c.textEntity("text/plain", c.text)
	switch {
	case c.text != "" && c.html != "":
		body = c.multipart("alternative", nil, plain, c.textEntity("text/html", c.html))
	case c.html != "":
		body = c.textEntity("text/html", c.html)
	case c.text != "" || len(o.Inline)+len(o.Attachments) == 0:
		body = plain
	}
	if len(o.Inline) > 0 {
		parts := []*outEntity{}
		if body != nil {
			parts = append(parts, body)
		}
		for _, p := range o.Inline {
			if p.ContentID == "" {
				return nil, fmt.Errorf("compose: the inline part %q has no content id", p.Filename)
			}
			e, err := c.fileEntity(p, "inline")
			if err != nil {
				return nil, err
			}
			parts = append(parts, e)
		}
		t, _, _ := parts[0].header.ContentType()
		body = c.multipart("related", map[string]string{"type": t}, parts...)
	}
	if len(o.Attachments) > 0 {
		parts := []*outEntity{}
		if body != nil {
			parts = append(parts, body)
		}
		for _, p := range o.Attachments {
			e, err := c.fileEntity(p, "attachment")
			if err != nil {
				return nil, err
			}
			parts = append(parts, e)
		}
		body = c.multipart("mixed", nil, parts...)
	}
	return body, nil
}

// textEntity is a UTF-8 quoted-printable text part.
func (c composer) textEntity(mediaType, s string) *outEntity {
	var h gomessage.Header
	h.Set("Content-Transfer-Encoding", "quoted-printable")
	h.SetContentType(mediaType, map[string]string{"charset": "utf-8"})
	return &outEntity{header: h, body: []byte(s)}
}

// multipart is a multipart entity with a boundary derived from the
// content, checked not to occur in the text.
func (c composer) multipart(subtype string, params map[string]string, parts ...*outEntity) *outEntity {
	if params == nil {
		params = map[string]string{}
	}
	for n := 0; ; n++ {
		d := sha256.Sum256(fmt.Appendf(nil, "%x/%s/%d", c.seed, subtype, n))
		b := "umpire-" + subtype + "-" + hex.EncodeToString(d[:12])
		if !strings.Contains(c.text, b) && !strings.Contains(c.html, b) {
			params["boundary"] = b
			break
		}
	}
	var h gomessage.Header
	h.SetContentType("multipart/"+subtype, params)
	return &outEntity{header: h, parts: parts}
}

// fileEntity is a base64 file part, inline or attachment.
func (c composer) fileEntity(p Part, disposition string) (*outEntity, error) {
	name := cleanFilename(p.Filename)
	ct := strings.TrimSpace(p.ContentType)
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	t, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, fmt.Errorf("compose: the content type %q of %q cannot be read: %w", ct, name, err)
	}
	if strings.HasPrefix(t, "multipart/") || strings.HasPrefix(t, "message/") {
		return nil, fmt.Errorf("compose: the part %q cannot be of type %s", name, t)
	}
	if strings.ContainsFunc(p.ContentID, func(r rune) bool { return r <= ' ' || r == '<' || r == '>' || r == 0x7F }) {
		return nil, fmt.Errorf("compose: the content id %q holds blanks, control characters or angle brackets", p.ContentID)
	}
	var h gomessage.Header
	dparams := map[string]string{}
	if name != "" {
		params["name"] = name
		dparams["filename"] = name
	}
	h.Set("Content-Transfer-Encoding", "base64")
	h.SetContentDisposition(disposition, dparams)
	if p.ContentID != "" {
		h.Set("Content-Id", "<"+p.ContentID+">")
	}
	h.SetContentType(t, params)
	return &outEntity{header: h, body: p.Data}, nil
}

// writeBody writes e's body, or its parts, to w.
func (e *outEntity) writeBody(w *gomessage.Writer) error {
	if e.raw != nil {
		_, err := w.Write(e.raw)
		return err
	}
	if e.parts == nil {
		_, err := w.Write(e.body)
		return err
	}
	for _, p := range e.parts {
		pw, err := w.CreatePart(p.header)
		if err != nil {
			return err
		}
		if err := p.writeBody(pw); err != nil {
			return err
		}
		if err := pw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// signed wraps body in a PGP/MIME multipart/signed entity (RFC 3156
// section 5): body's exact bytes, then the signature sign makes over them.
func (c composer) signed(body *outEntity, sign func([]byte) ([]byte, error), micalg string) (*outEntity, error) {
	entity, err := body.bytes()
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	// A line starting "From " may become ">From " in an mbox. It can only
	// be a line of a quoted-printable text (base64 has no blank, and the
	// headers and boundaries here start otherwise), where a soft line
	// break after its "F" reads the same and keeps every line short.
	entity = bytes.ReplaceAll(entity, []byte("\r\nFrom "), []byte("\r\nF=\r\nrom "))
	sig, err := sign(entity)
	if err != nil {
		return nil, fmt.Errorf("compose: sign: %w", err)
	}
	sig = bytes.ReplaceAll(bytes.ReplaceAll(sig, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	if micalg == "" {
		micalg = "pgp-sha256"
	}
	var boundary string
	for n := 0; ; n++ {
		d := sha256.Sum256(fmt.Appendf(nil, "%x/signed/%d", c.seed, n))
		boundary = "umpire-signed-" + hex.EncodeToString(d[:12])
		if !bytes.Contains(entity, []byte(boundary)) && !bytes.Contains(sig, []byte(boundary)) {
			break
		}
	}
	var raw bytes.Buffer
	raw.WriteString("--" + boundary + "\r\n")
	raw.Write(entity)
	// The line break before a boundary belongs to the boundary: the
	// signed part ends where entity ends.
	raw.WriteString("\r\n--" + boundary + "\r\n")
	raw.WriteString("Content-Type: application/pgp-signature; name=\"signature.asc\"\r\n" +
		"Content-Description: OpenPGP digital signature\r\n" +
		"Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n")
	raw.Write(sig)
	if !bytes.HasSuffix(sig, []byte("\r\n")) {
		raw.WriteString("\r\n")
	}
	raw.WriteString("--" + boundary + "--\r\n")
	var h gomessage.Header
	h.SetContentType("multipart/signed", map[string]string{"boundary": boundary, "micalg": micalg, "protocol": "application/pgp-signature"})
	return &outEntity{header: h, raw: raw.Bytes()}, nil
}

// bytes is e as a MIME entity: its header fields and its body, with CRLF
// line endings, as it stands inside a multipart.
func (e *outEntity) bytes() ([]byte, error) {
	var buf bytes.Buffer
	h := e.header.Copy()
	// CreateWriter adds a MIME-Version field, which belongs in the
	// message's header only: it is set here, and cut off below.
	h.Del("Mime-Version")
	w, err := gomessage.CreateWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	if err := e.writeBody(w); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	for _, l := range []string{"Mime-Version: 1.0\r\n", "MIME-Version: 1.0\r\n"} {
		if i := bytes.Index(out, []byte(l)); i >= 0 && i < bytes.Index(out, []byte("\r\n\r\n")) {
			out = append(out[:i:i], out[i+len(l):]...)
			break
		}
	}
	return out, nil
}
