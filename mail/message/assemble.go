package message

import "strings"

// assembler decides, once every part is read, which part is the body and
// which are attachments, and fills a Message with them.
type assembler struct {
	p        *parser
	m        *Message
	haveBody bool
}

// assemble fills m from the tree of parts build read.
func (p *parser) assemble(m *Message, root *node) {
	a := &assembler{p: p, m: m}
	a.visit(root)
	if hasLinePrefix(m.Text, "-----BEGIN PGP MESSAGE-----") {
		m.Encrypted = true
	}
	if m.Report == nil {
		m.Report = legacyBounce(m)
	}
}

// visit places one entity and, for a multipart, its parts.
func (a *assembler) visit(n *node) {
	if n.multipart {
		switch n.mediaType {
		case "multipart/alternative":
			a.alternative(n)
		case "multipart/signed":
			a.signed(n)
		case "multipart/report":
			a.report(n)
		case "multipart/encrypted":
			a.m.Encrypted = true
			a.visitAll(n.children)
		default: // mixed, related, digest, parallel and unknown kinds
			a.visitAll(n.children)
		}
		return
	}
	if n.forwarded != nil {
		a.m.Forwarded = append(a.m.Forwarded, n.forwarded)
		a.attach(n)
		return
	}
	if isBodyPart(n) && !a.haveBody {
		a.setBody(n)
		return
	}
	a.attach(n)
}

// visitAll visits entities in order.
func (a *assembler) visitAll(ns []*node) {
	for _, n := range ns {
		a.visit(n)
	}
}

// isBodyPart reports whether a leaf may be the message body: plain text or
// HTML that is neither marked as an attachment nor named as a file.
func isBodyPart(n *node) bool {
	return (n.mediaType == "text/plain" || n.mediaType == "text/html") &&
		n.disposition != "attachment" && n.filename == "" && n.forwarded == nil
}

// holds reports whether n is, or contains outside attached messages, a
// body part of the given media type.
func holds(n *node, mediaType string) bool {
	if n.multipart {
		for _, c := range n.children {
			if holds(c, mediaType) {
				return true
			}
		}
		return false
	}
	return isBodyPart(n) && n.mediaType == mediaType
}

// alternative visits the one alternative the judge reads: the first that
// holds plain text, else the first that holds HTML, else the last (RFC
// 2046 section 5.1.4 orders alternatives by increasing faithfulness).
// The other alternatives are the same content and are dropped.
func (a *assembler) alternative(n *node) {
	if len(n.children) == 0 {
		return
	}
	for _, kind := range []string{"text/plain", "text/html"} {
		for _, c := range n.children {
			if holds(c, kind) {
				a.visit(c)
				return
			}
		}
	}
	a.visit(n.children[len(n.children)-1])
}

// signed visits a multipart/signed entity: the first one found becomes
// Message.Signed, and its signed part is read like any other content. Its
// signature part is in Signed, not among the attachments.
func (a *assembler) signed(n *node) {
	if n.signed == nil || a.m.Signed != nil {
		a.visitAll(n.children)
		return
	}
	inner := &Message{Size: len(n.signed.Part)}
	(&assembler{p: a.p, m: inner}).visit(n.children[0])
	if hasLinePrefix(inner.Text, "-----BEGIN PGP MESSAGE-----") {
		inner.Encrypted = true
	}
	n.signed.Inner = inner
	a.m.Signed = n.signed
	a.visit(n.children[0])
	a.visitAll(n.children[2:])
}

// report visits a multipart/report (RFC 6522): the human-readable part is
// the body, a delivery-status part becomes Message.Report, and the
// returned message or its header only names the original Message-ID.
func (a *assembler) report(n *node) {
	a.m.ReportType = strings.ToLower(n.params["report-type"])
	var origID string
	for _, c := range n.children {
		switch c.mediaType {
		case "message/delivery-status", "message/global-delivery-status":
			if a.m.Report == nil {
				a.m.Report = parseDeliveryStatus(c.data)
			}
		case "text/rfc822-headers", "message/global-headers":
			if origID == "" {
				origID = headerMessageID(c.data)
			}
		case "message/rfc822", "message/global":
			if origID == "" && c.forwarded != nil {
				origID = c.forwarded.MessageID
			}
		default:
			a.visit(c)
		}
	}
	if a.m.Report != nil {
		a.m.Report.OriginalMessageID = origID
	}
}

// setBody makes a leaf the message body.
func (a *assembler) setBody(n *node) {
	a.haveBody = true
	text, problem := toUTF8(n.data, n.params["charset"], "the text")
	if problem != "" {
		a.p.note(problem)
	}
	text, hadNUL := normalizeText(text)
	if hadNUL {
		a.p.note("the text holds NUL bytes, which were removed")
	}
	if n.mediaType == "text/html" {
		a.m.HTMLOnly = true
		a.m.HTMLText = htmlToText(text)
		a.m.HTMLLines = htmlLines(text)
		return
	}
	a.m.Text = text
	a.m.RawText = n.data
	if strings.EqualFold(n.params["format"], "flowed") {
		a.m.Flowed = true
		a.m.DelSp = strings.EqualFold(n.params["delsp"], "yes")
		a.m.Text = unflowText(text, a.m.DelSp)
	}
}

// attach adds a leaf to the attachments.
func (a *assembler) attach(n *node) {
	a.m.Attachments = append(a.m.Attachments, Attachment{
		Filename:    n.filename,
		ContentType: n.mediaType,
		Charset:     n.params["charset"],
		ContentID:   n.contentID,
		Inline:      n.disposition != "attachment",
		Data:        n.data,
	})
}

// hasLinePrefix reports whether some line of s starts with prefix.
func hasLinePrefix(s, prefix string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], prefix)
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || s[i-1] == '\n' {
			return true
		}
		off = i + len(prefix)
	}
}
