package message

import "time"

// Message is what Parse read from one mail: the header fields the judge
// needs to answer it and to keep out of mail loops, the text a player
// wrote, the files attached, and the signed material in the form it came.
type Message struct {
	// MessageID is the Message-ID without angle brackets; empty if absent.
	MessageID string
	// From is the first author address. From.Addr is empty when the From
	// header is missing or holds no address.
	From Address
	// FromRaw is the From header as sent, before RFC 2047 decoding.
	FromRaw string
	// ReplyTo, To and Cc are the parsed address lists of those headers.
	ReplyTo, To, Cc []Address
	// Subject is the subject, RFC 2047 decoded, control characters made
	// spaces, and cut to at most MaxSubject bytes.
	Subject string
	// Date is the Date header; the zero time when absent or unreadable.
	Date time.Time
	// InReplyTo is the first message id of In-Reply-To, without brackets.
	InReplyTo string
	// References lists the message ids of References, without brackets.
	References []string
	// ReturnPath is the first Return-Path header as the delivering server
	// wrote it, e.g. "<alice@players.test>", or "<>" for the null sender
	// that bounces and other automatic mail use.
	ReturnPath string

	// The raw values of the headers that mark automatic mail (see
	// Automatic), empty when absent.
	AutoSubmitted   string   // Auto-Submitted (RFC 3834)
	Precedence      string   // Precedence
	ListID          string   // List-Id (RFC 2919)
	ListUnsubscribe string   // List-Unsubscribe (RFC 2369)
	XLoop           []string // every X-Loop header
	XAutoreply      string   // X-Autoreply
	XAutorespond    string   // X-Autorespond
	// UserAgent names the mail program that wrote the message, from its
	// User-Agent header or else its X-Mailer header ("Mozilla/5.0 ...
	// Thunderbird/128.5.0", "Apple Mail (2.3826)"); empty when it has
	// neither, as Gmail's web client and FairEmail send.
	UserAgent string
	// Header holds every header field of the message as sent (values
	// unfolded, not decoded), keyed by canonical name ("Message-Id",
	// "X-Mailer"), values in the order they appear.
	Header map[string][]string

	// Text is the best plain text body, converted to UTF-8, with line
	// endings made LF, a leading byte order mark and any NUL bytes removed,
	// and unflowed (Unflow) when it was sent as format=flowed. text/plain
	// is preferred inside multipart/alternative. Empty when the message has
	// no text body (see HTMLOnly).
	Text string
	// RawText is the part Text came from, transfer-decoded (base64,
	// quoted-printable) but otherwise exactly as sent: no charset
	// conversion, no line-ending change. Inline signatures (clear-signed
	// OpenPGP, a pasted SSH signature) cover these bytes, so they are what
	// a signature check must be given.
	RawText []byte
	// Flowed is set when the text body was sent as format=flowed (RFC
	// 3676), and DelSp when its DelSp parameter is yes: Text is unflowed,
	// RawText is as sent (Unflow(RawText, DelSp) is the unflowed text as
	// sent).
	Flowed, DelSp bool
	// HTMLOnly is set when the only body is text/html.
	HTMLOnly bool
	// HTMLText is a crude tag-stripped rendering of the HTML body, for
	// diagnostics and for telling a player what the judge saw. Set only
	// when HTMLOnly is.
	HTMLText string
	// HTMLLines is the HTML body turned back into the lines a browser
	// displays (see HTMLLines), the form a clear-signed block pasted into
	// an HTML editor (Mailvelope in Gmail) was signed in. Set only when
	// HTMLOnly is.
	HTMLLines string
	// Attachments are the parts that are not the body, in message order:
	// files (orders.txt, orders.txt.asc, orders.txt.sig), inline text parts
	// after the first body part, images, and attached messages.
	Attachments []Attachment
	// Forwarded holds each attached message (message/rfc822), parsed.
	Forwarded []*Message
	// Signed is the first PGP/MIME (or other multipart/signed) part found
	// outside attached messages; nil if there is none.
	Signed *SignedPart
	// Encrypted is set when the message is PGP/MIME encrypted or its text
	// holds an armored "BEGIN PGP MESSAGE" block: it cannot be read without
	// the recipient's key, and is not a signed order file.
	Encrypted bool
	// ReportType is the report-type of a multipart/report message
	// ("delivery-status", "disposition-notification"); empty otherwise.
	ReportType string
	// Report is the delivery status notification (a bounce) this message
	// is, or nil.
	Report *DSN

	// Problems lists what was wrong but could still be read: a guessed
	// charset, a damaged encoding, a part skipped. Each is a sentence fit
	// to show the player.
	Problems []string
	// Size is the length of the raw message in bytes.
	Size int
}

// MaxSubject is the longest Subject kept, in bytes: the line length limit
// of RFC 5322 section 2.1.1.
const MaxSubject = 998

// Address is a mail address with its display name.
type Address struct {
	// Name is the display name, RFC 2047 decoded; may be empty.
	Name string
	// Addr is the address itself, "alice@players.test".
	Addr string
}

// String formats a as "Name <addr>", or just the address without a name.
func (a Address) String() string {
	if a.Name == "" {
		return a.Addr
	}
	return a.Name + " <" + a.Addr + ">"
}

// Attachment is one part of a message that is not its body.
type Attachment struct {
	// Filename is the file name the sender gave, with any folder removed;
	// empty for an inline part without one.
	Filename string
	// ContentType is the media type, lower case, without parameters
	// ("text/plain", "application/pgp-signature").
	ContentType string
	// Charset is the charset parameter for text parts, as declared.
	Charset string
	// ContentID is the Content-ID without angle brackets, if any.
	ContentID string
	// Inline is set when the part was not marked as an attachment
	// (Content-Disposition inline or none).
	Inline bool
	// Data is the content, transfer-decoded (base64, quoted-printable) and
	// otherwise exactly as sent: no charset or line-ending conversion, so
	// a detached signature over the file verifies against it.
	Data []byte
}

// Text returns a's content as UTF-8 text for reading: converted from its
// declared charset, line endings made LF, NUL bytes removed.
func (a Attachment) Text() string {
	s, _ := toUTF8(a.Data, a.Charset, "the attachment")
	s, _ = normalizeText(s)
	return s
}

// SignedPart is a multipart/signed entity (RFC 1847), as PGP/MIME (RFC
// 3156) uses: a body part and a detached signature over it.
type SignedPart struct {
	// Protocol is the protocol parameter, lower case:
	// "application/pgp-signature" for PGP/MIME.
	Protocol string
	// Micalg is the micalg parameter, lower case ("pgp-sha256").
	Micalg string
	// Part is the exact bytes of the first body part, the one signed: from
	// the first byte of its MIME headers to the end of its body, without
	// the line break that belongs to the next boundary delimiter, with
	// every bare LF made CRLF (the canonical form RFC 3156 section 5
	// signs). Nothing else is changed.
	Part []byte
	// Signature is the second body part, transfer-decoded: for PGP/MIME an
	// armored OpenPGP signature.
	Signature []byte
	// Inner is Part parsed, so that the text and files it holds can be
	// read. Its header fields are empty (a part has no From or Subject)
	// and its problems are listed on the outer Message.
	Inner *Message
}
