package signature

import (
	"bytes"
	"time"
)

// Verified is the result of a good signature by a known key.
type Verified struct {
	// Kind is the family of the signature.
	Kind Kind
	// Fingerprint is the Fingerprint of the Key that Keys returned: for
	// OpenPGP the primary key's, even when a subkey signed.
	Fingerprint string
	// Content is the text that was signed, for the orders parser: the
	// clear-signed text with dash-escaping undone, LF line endings, trailing
	// blanks removed and no final line ending; for a detached signature the
	// content exactly as given; for an inline SSH or OpenPGP signature the
	// same bytes as Signed.
	Content []byte
	// Signed is the exact byte string the signature covers, whose SHA-256
	// is the order digest. For a clear-signed text it is the canonical form
	// that was hashed (CRLF line endings, trailing blanks removed, no final
	// line ending), so it does not change when a mail transport changes
	// line endings; otherwise it is the line-ending variant of the text
	// that verified (see the package documentation).
	Signed []byte
	// Created is the signature's creation time for OpenPGP. SSH signatures
	// carry no time, so for them it is the zero time.
	Created time.Time
}

// VerifyInline finds the first signed block in a mail body and checks it
// against keys. The block is a clear-signed text (gpg --clearsign), whose
// surrounding text (quoted replies above, mail footers below) is ignored;
// or a text followed by an armored SSH signature (ssh-keygen -Y sign -n
// umpire) or an armored OpenPGP signature (gpg --detach-sign --armor), as
// cat orders.txt orders.txt.sig gives, where the text before the BEGIN line
// is what was signed (see the package documentation) and text after the END
// line is ignored. Blocks on quoted lines ("> ") are skipped. Every error
// wraps one of the package's sentinel errors.
func VerifyInline(body []byte, keys Keys) (v Verified, err error) {
	defer recoverAs(&err, "message")
	m, ok := firstMarker(body)
	if !ok {
		return Verified{}, failf(ErrNoSignature, "the message holds no signed text: sign the orders with gpg --clearsign, or with ssh-keygen -Y sign -n %s and add the signature below them", Namespace)
	}
	text, block := body[:m.at], body[m.at:]
	switch m.kind {
	case blockClearsigned:
		return verifyClearsigned(block, keys)
	case blockSSHSignature:
		s, err := parseSSHArmored(block)
		if err != nil {
			return Verified{}, err
		}
		return verifySSH(s, inlineCandidates(text), nil, keys)
	default: // an armored PGP SIGNATURE, or a PGP MESSAGE, which is refused
		ps, err := parsePGPArmored(block)
		if err != nil {
			return Verified{}, err
		}
		return verifyPGP(ps, inlineCandidates(text), nil, keys)
	}
}

// VerifyDetached checks a detached signature over content. sig is an armored
// (.asc) or binary (.sig) OpenPGP signature or an armored SSH signature; the
// family is detected. content is tried as given, then with CRLF line endings
// turned into LF, then in CanonicalCRLF form (the form RFC 3156 PGP/MIME
// signs); Verified.Signed is the one that verified and Verified.Content is
// content as given. Every error wraps one of the package's sentinel errors.
func VerifyDetached(content, sig []byte, keys Keys) (v Verified, err error) {
	defer recoverAs(&err, "signature")
	trimmed := bytes.TrimSpace(sig)
	if len(trimmed) == 0 {
		return Verified{}, failf(ErrNoSignature, "the signature is empty")
	}
	candidates := lineEndingVariants(content)
	if i := findMarker(sig, sshBegin, false); i >= 0 {
		s, err := parseSSHArmored(sig[i:])
		if err != nil {
			return Verified{}, err
		}
		return verifySSH(s, candidates, content, keys)
	}
	if findMarker(sig, clearsignBegin, true) >= 0 {
		return Verified{}, failf(ErrNoSignature, "the signature file is a clear-signed message, not a detached signature: send it as the message body, or sign with gpg --detach-sign")
	}
	if i := bytes.Index(sig, []byte("-----BEGIN PGP ")); i >= 0 {
		ps, err := parsePGPArmored(sig[i:])
		if err != nil {
			return Verified{}, err
		}
		return verifyPGP(ps, candidates, content, keys)
	}
	if sig[0]&0x80 != 0 {
		if len(sig) > maxSignatureSize {
			return Verified{}, failf(ErrMalformed, "the signature is %d bytes, more than a signature can need", len(sig))
		}
		ps, err := parsePGPPackets(sig)
		if err != nil {
			return Verified{}, err
		}
		return verifyPGP(ps, candidates, content, keys)
	}
	return Verified{}, failf(ErrMalformed, "the signature is neither an OpenPGP signature (armored or binary) nor an SSH signature")
}
