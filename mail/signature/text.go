package signature

import (
	"bytes"
	"fmt"
	"io"
)

// The armor lines this package looks for.
const (
	clearsignBegin    = "-----BEGIN PGP SIGNED MESSAGE-----"
	pgpSignatureBegin = "-----BEGIN PGP SIGNATURE-----"
	pgpMessageBegin   = "-----BEGIN PGP MESSAGE-----"
	sshBegin          = "-----BEGIN SSH SIGNATURE-----"
	sshEnd            = "-----END SSH SIGNATURE-----"
)

// blockKind says which kind of armored block a marker opens.
type blockKind int

const (
	blockClearsigned blockKind = iota + 1
	blockPGPSignature
	blockPGPMessage
	blockSSHSignature
)

// marker is an armor line found in a body.
type marker struct {
	kind blockKind
	at   int // index of the first '-' of the marker
}

// Limits on the work an inline body can cause: how many later line starts
// are tried as the start of the signed text, and up to what size of text.
const (
	maxTailLines = 100
	maxTailText  = 256 << 10
)

// findMarker returns the index of the first occurrence of m in body that is
// not on a quoted line (one whose first non-blank character is '>'), or -1.
// When atLineStart is set, only an occurrence that begins its line counts.
func findMarker(body []byte, m string, atLineStart bool) int {
	for off := 0; off < len(body); {
		i := bytes.Index(body[off:], []byte(m))
		if i < 0 {
			return -1
		}
		i += off
		lineStart := bytes.LastIndexByte(body[:i], '\n') + 1
		before := body[lineStart:i]
		quoted := bytes.HasPrefix(bytes.TrimLeft(before, " \t"), []byte(">"))
		if !quoted && (!atLineStart || len(before) == 0) {
			return i
		}
		off = i + len(m)
	}
	return -1
}

// firstMarker finds the armored block that comes first in body.
func firstMarker(body []byte) (marker, bool) {
	best := marker{at: -1}
	for _, c := range []struct {
		kind        blockKind
		text        string
		atLineStart bool
	}{
		{blockClearsigned, clearsignBegin, true},
		{blockPGPSignature, pgpSignatureBegin, false},
		{blockPGPMessage, pgpMessageBegin, false},
		{blockSSHSignature, sshBegin, false},
	} {
		if i := findMarker(body, c.text, c.atLineStart); i >= 0 && (best.at < 0 || i < best.at) {
			best = marker{kind: c.kind, at: i}
		}
	}
	return best, best.at >= 0
}

// Detect reports whether body holds an armored block that VerifyInline acts
// on, and of which family: a clear-signed text, a text followed by an armored
// signature, or an OpenPGP message (which VerifyInline refuses with a reason
// the player can act on). Blocks on quoted lines ("> ") do not count. It is
// cheap: it only looks for the armor lines.
func Detect(body []byte) (Kind, bool) {
	m, ok := firstMarker(body)
	if !ok {
		return "", false
	}
	if m.kind == blockSSHSignature {
		return SSH, true
	}
	return OpenPGP, true
}

// CanonicalCRLF returns b with every line ending made CRLF: each LF not
// already preceded by CR becomes CRLF. Existing CRLF pairs and lone CRs are
// kept. This is the canonical form RFC 3156 (PGP/MIME) signs; a MIME layer
// that hands over a signed part with LF endings can pass it through here.
func CanonicalCRLF(b []byte) []byte {
	out := make([]byte, 0, len(b)+bytes.Count(b, []byte("\n")))
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// toLF returns b with every CRLF turned into LF.
func toLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// lineEndingVariants returns b as given, then, where they differ from it,
// b with CRLF endings turned into LF and b in CanonicalCRLF form: the
// changes mail transports make to text.
func lineEndingVariants(b []byte) [][]byte {
	lf := toLF(b)
	if !bytes.Equal(lf, b) {
		// CRLF in the text: most often a file signed with LF endings that
		// a mail transport sent as CRLF, so that form is tried first.
		out := [][]byte{lf, b}
		if c := CanonicalCRLF(b); !bytes.Equal(c, b) {
			out = append(out, c)
		}
		return out
	}
	out := [][]byte{b}
	if c := CanonicalCRLF(b); !bytes.Equal(c, b) {
		out = append(out, c)
	}
	return out
}

// inlineCandidates returns the texts an inline detached signature may cover,
// in the order they are tried: for each line-ending variant of text, the
// whole text, then the text from each later line start on (at most
// maxTailLines of them, and none for a text over maxTailText), so that
// lines a player or mail program added above the signed text are skipped.
func inlineCandidates(text []byte) [][]byte {
	variants := lineEndingVariants(text)
	// The whole text in each line-ending form first: a mail transport
	// changing line endings is far more common than a greeting typed above
	// the orders, and each candidate costs a signature check.
	out := append([][]byte(nil), variants...)
	for _, v := range variants {
		if len(v) > maxTailText {
			continue
		}
		rest := v
		for n := 0; n < maxTailLines; n++ {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 || i+1 == len(rest) {
				break
			}
			rest = rest[i+1:]
			out = append(out, rest)
		}
	}
	return out
}

// normalizeClearsigned returns body with CRLF endings turned into LF and
// trailing blanks removed from every line. Neither changes what a
// clear-signature covers (RFC 4880 section 7.1 hashes lines with trailing
// blanks removed and CRLF endings), but both are things mail transports do,
// and the armor parser is strict about them.
func normalizeClearsigned(body []byte) []byte {
	lines := bytes.Split(body, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t\r")
	}
	return bytes.Join(lines, []byte("\n"))
}

// readAllLimited reads r to its end, refusing more than limit bytes.
func readAllLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("more than %d bytes", limit)
	}
	return b, nil
}
