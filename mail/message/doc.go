// Package message reads the mail players send to the judge and writes the
// mail the judge sends back. It is umpire's MIME layer, built on
// github.com/emersion/go-message; it knows nothing of games or signatures.
//
// # Reading
//
// Parse turns one raw message into a Message: the header fields needed to
// answer it and to recognise automatic mail (Automatic), the best plain
// text body converted to UTF-8, the attachments, and the signed material
// in the exact form it arrived. Parse is built for hostile input. Every
// message is bounded by Limits (size, size of each decoded part, nesting
// depth, number of parts) and refused with ErrTooLarge or ErrTooDeep as
// soon as it exceeds one; a message that cannot be read at all is refused
// with ErrMalformed. Either way Parse still returns the header fields it
// could read, so the judge can tell the sender why. Smaller damage (a
// guessed charset, a truncated base64 part, a missing empty line after the
// header) is repaired as well as possible and listed in Message.Problems in
// words fit for the player. No input makes Parse panic.
//
// # Flowed text and HTML
//
// A text body sent as format=flowed (RFC 3676; Thunderbird, Apple Mail and
// phone clients send plain text so) is unflowed into Message.Text: the
// lines the mail program wrapped are joined again, space-stuffing is undone
// and DelSp is honoured (Unflow). RawText stays as sent, and Flowed and DelSp
// say how to unflow it. An HTML-only body is also kept as the lines a
// browser displays (HTMLLines), the form a clear-signed block pasted into an
// HTML editor was signed in.
//
// # What bytes are signed
//
// The signature package checks signatures over bytes; these are the bytes
// to give it for each way of signing an order file:
//
//   - Inline signatures (gpg --clearsign, or an order file followed by a
//     pasted "-----BEGIN SSH SIGNATURE-----" or detached "-----BEGIN PGP
//     SIGNATURE-----" block): Message.RawText. It is the body part exactly
//     as sent after transfer decoding (base64, quoted-printable): no
//     charset conversion, line endings as they arrived (CRLF for 7bit and
//     quoted-printable text from the wire; whatever the file had for
//     base64). Message.Text is for reading only: it is converted to UTF-8
//     and has LF endings, so a Windows-1252 or Latin-1 order file verifies
//     over RawText and not over Text.
//   - PGP/MIME (RFC 3156): Message.Signed. Signed.Part is the signed MIME
//     part from the first byte of its header to the end of its body,
//     without the line break that belongs to the following boundary
//     delimiter, with every bare LF made CRLF (the canonical form the
//     signature covers; mail stored with LF endings verifies too). Nothing
//     else is changed. Signed.Signature is the decoded signature part. The
//     text and files inside the signed part are in Signed.Inner, and also
//     in the Message's own Text and Attachments; the signature part is not
//     an attachment.
//   - Detached signatures (orders.txt with orders.txt.asc or orders.txt.sig,
//     OpenPGP or SSH): Attachment.Data of both files. Data is the file
//     transfer-decoded and otherwise exactly as sent. A 7bit text
//     attachment crossed the wire with CRLF line endings even if the file
//     had LF; the verifier should try LF too.
//   - A signed mail forwarded as an attachment (message/rfc822): the same
//     rules apply to each Message in Message.Forwarded.
//
// # Writing
//
// Compose renders an Outgoing mail as MIME with CRLF line endings, RFC 2047
// encoded headers and only the multipart levels it needs, and marks it
// Auto-Submitted: auto-replied (RFC 3834) so that other programs do not
// answer it. Its output parses back to the same text and files.
//
// # Charsets
//
// Charsets are converted by golang.org/x/text. For UTF-8, US-ASCII and the
// Western European charsets (ISO-8859-1 read as Windows-1252, as browsers
// and mail readers do; ISO-8859-15) this package adds the guessing
// mislabelled mail needs (Latin-1 bytes labelled UTF-8 and the reverse).
// Every other charset x/text knows (KOI8-R, ISO-8859-2, Shift_JIS,
// GB18030...) is converted by go-message's charset package; an unknown one is
// read as UTF-8 or Windows-1252 with a note in Message.Problems. Attachments
// are never converted; Attachment.Text converts one for reading.
package message
