package message

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/emersion/go-message/textproto"
)

// DSN is a delivery status notification: the bounce a mail server sends
// back when it could not deliver (RFC 3464), or, with Legacy set, what
// could be read from an older free-text bounce. The judge records it
// against the recipient of its own mail named by OriginalMessageID.
type DSN struct {
	// DSNRecipient holds the fields of the first recipient whose delivery
	// failed, or else of the first recipient listed.
	DSNRecipient
	// Recipients lists every per-recipient block, in order.
	Recipients []DSNRecipient
	// ReportingMTA is the server that wrote the report, without its
	// "dns;" type.
	ReportingMTA string
	// OriginalMessageID is the Message-ID (without brackets) of the mail
	// that could not be delivered, from the returned header
	// (text/rfc822-headers) or message (message/rfc822); empty if the
	// report did not return it.
	OriginalMessageID string
	// Legacy is set when this was read from a free-text bounce rather
	// than an RFC 3464 report; its fields are then a best guess.
	Legacy bool
}

// DSNRecipient is one per-recipient block of a delivery status report.
type DSNRecipient struct {
	// Action is "failed", "delayed", "delivered", "relayed" or "expanded".
	Action string
	// Status is the status code, "5.1.1" (RFC 3463).
	Status string
	// FinalRecipient is the address the server tried, without its
	// "rfc822;" type.
	FinalRecipient string
	// OriginalRecipient is the address as the judge gave it, if reported.
	OriginalRecipient string
	// DiagnosticCode is the remote server's answer, without its "smtp;"
	// type: "550 5.1.1 <bob@players.test>: Recipient address rejected".
	DiagnosticCode string
}

// maxDSNBlocks bounds the per-recipient blocks read from one report.
const maxDSNBlocks = 100

// parseDeliveryStatus reads a message/delivery-status body (RFC 3464
// section 2.1): a block of per-message fields, then one block of fields
// per recipient, blocks separated by empty lines. It returns nil when no
// recipient block can be read.
func parseDeliveryStatus(data []byte) *DSN {
	br := bufio.NewReader(bytes.NewReader(data))
	var blocks []textproto.Header
	for len(blocks) < maxDSNBlocks+1 {
		h, err := textproto.ReadHeader(br)
		if h.Len() > 0 {
			blocks = append(blocks, h)
		}
		if err != nil {
			break
		}
		if _, err := br.Peek(1); err != nil {
			break
		}
	}
	if len(blocks) < 2 {
		return nil
	}
	d := &DSN{ReportingMTA: typedValue(blocks[0].Get("Reporting-Mta"))}
	for _, h := range blocks[1:] {
		r := DSNRecipient{
			Action:            strings.ToLower(sanitizeField(h.Get("Action"))),
			Status:            sanitizeField(h.Get("Status")),
			FinalRecipient:    typedValue(h.Get("Final-Recipient")),
			OriginalRecipient: typedValue(h.Get("Original-Recipient")),
			DiagnosticCode:    typedValue(h.Get("Diagnostic-Code")),
		}
		if r.FinalRecipient == "" && r.Action == "" {
			continue
		}
		d.Recipients = append(d.Recipients, r)
	}
	if len(d.Recipients) == 0 {
		return nil
	}
	d.DSNRecipient = d.Recipients[0]
	for _, r := range d.Recipients {
		if r.Action == "failed" {
			d.DSNRecipient = r
			break
		}
	}
	return d
}

// typedValue strips the type from a "type; value" field ("rfc822;
// bob@players.test", "smtp; 550 ...") and angle brackets around an
// address.
func typedValue(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[i+1:]
	}
	v = sanitizeField(v)
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") && !strings.Contains(v[1:], "<") {
		v = v[1 : len(v)-1]
	}
	return v
}

// headerMessageID returns the Message-ID of a returned header block.
func headerMessageID(data []byte) string {
	hdr, _, _, err := splitHeader(data, true)
	if err != nil {
		return ""
	}
	h, err := readHeader(hdr)
	if err != nil {
		return ""
	}
	if ids := msgIDs(h.Get("Message-Id")); len(ids) > 0 {
		return ids[0]
	}
	return ""
}

// legacyBounce reads a free-text bounce, as old servers (qmail, Exim
// without DSN, MAILER-DAEMON scripts) send: a message from a mailer daemon
// or with a null return path whose text names the failed recipient as
// "<addr>:" at the start of a line and quotes the returned message's
// Message-ID line, or that returns the message as an attachment. It
// returns nil for any other message.
func legacyBounce(m *Message) *DSN {
	if !isDaemon(m.From.Addr) && m.ReturnPath != "<>" {
		return nil
	}
	d := &DSN{Legacy: true}
	for _, f := range m.Forwarded {
		if f.MessageID != "" {
			d.OriginalMessageID = f.MessageID
			break
		}
	}
	lines := strings.Split(m.Text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(strings.TrimLeft(line, "> "))
		if d.OriginalMessageID == "" && len(t) > 11 && strings.EqualFold(t[:11], "message-id:") {
			if ids := msgIDs(t[11:]); len(ids) > 0 {
				d.OriginalMessageID = ids[0]
			}
		}
		if d.FinalRecipient == "" && strings.HasPrefix(t, "<") {
			if gt := strings.Index(t, ">:"); gt > 0 && strings.Contains(t[:gt], "@") {
				d.FinalRecipient = t[1:gt]
				d.Action = "failed"
				diag := strings.TrimSpace(t[gt+2:])
				for j := i + 1; diag == "" && j < len(lines) && j < i+4; j++ {
					diag = strings.TrimSpace(lines[j])
				}
				d.DiagnosticCode = sanitizeField(diag)
			}
		}
	}
	if v := m.Header["X-Failed-Recipients"]; d.FinalRecipient == "" && len(v) > 0 {
		first, _, _ := strings.Cut(v[0], ",")
		if first = typedValue(first); first != "" {
			d.FinalRecipient, d.Action = first, "failed"
		}
	}
	if d.OriginalMessageID == "" && d.FinalRecipient == "" {
		return nil
	}
	d.Recipients = []DSNRecipient{d.DSNRecipient}
	return d
}
