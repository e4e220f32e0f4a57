package signature

import (
	"bytes"
	stderrors "errors"
	"io"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// maxSignatureSize bounds a signature's packets; real ones are well under
// 2 KiB, even with several signatures or a 16384-bit RSA key.
const maxSignatureSize = 64 << 10

// pgpSignature is a parsed detached OpenPGP signature: one or more signature
// packets over a document.
type pgpSignature struct {
	raw  []byte // the binary packets, to hand to the library
	sigs []*packet.Signature
}

// parsePGPArmored reads an armored OpenPGP block starting at data (whose
// first line is its BEGIN line) that should hold a detached signature.
func parsePGPArmored(data []byte) (*pgpSignature, error) {
	block, err := armor.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, failf(ErrMalformed, "the OpenPGP armor cannot be read (no blank line after the BEGIN line, or no END line): %w", err)
	}
	raw, err := readAllLimited(block.Body, maxSignatureSize)
	if err != nil {
		return nil, failf(ErrMalformed, "the OpenPGP armor is damaged or truncated (bad base64 or checksum): %w", err)
	}
	switch block.Type {
	case "PGP SIGNATURE":
		return parsePGPPackets(raw)
	case "PGP MESSAGE":
		return nil, opaqueMessageError(raw)
	}
	return nil, failf(ErrNoSignature, "the armored block is a %s, not a signature", block.Type)
}

// parsePGPPackets reads binary signature packets.
func parsePGPPackets(raw []byte) (ps *pgpSignature, err error) {
	defer recoverAs(&err, "OpenPGP signature")
	ps = &pgpSignature{raw: raw}
	r := packet.NewReader(bytes.NewReader(raw))
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, failf(ErrMalformed, "the OpenPGP signature packet cannot be read: %w", err)
		}
		sig, ok := p.(*packet.Signature)
		if !ok {
			if len(ps.sigs) == 0 {
				return nil, opaqueMessageError(raw)
			}
			return nil, failf(ErrMalformed, "the OpenPGP signature holds a packet that is not a signature")
		}
		if sig.SigType != packet.SigTypeBinary && sig.SigType != packet.SigTypeText {
			return nil, failf(ErrMalformed, "the OpenPGP signature is of type %#x, not a signature over a document", int(sig.SigType))
		}
		ps.sigs = append(ps.sigs, sig)
	}
	if len(ps.sigs) == 0 {
		return nil, failf(ErrNoSignature, "the OpenPGP signature block is empty")
	}
	return ps, nil
}

// opaqueMessageError explains why an OpenPGP message (gpg --encrypt, or
// gpg --sign without --clearsign or --detach-sign) is refused.
func opaqueMessageError(raw []byte) error {
	first, err := packet.NewReader(bytes.NewReader(raw)).Next()
	if err == nil {
		switch first.(type) {
		case *packet.EncryptedKey, *packet.SymmetricKeyEncrypted:
			return failf(ErrNoSignature, "the message is encrypted, which umpire cannot read and does not need: send the orders clear-signed (gpg --clearsign) instead")
		}
	}
	return failf(ErrNoSignature, "the message is an OpenPGP message (gpg --sign), not a clear-signed text: sign with gpg --clearsign, or attach a detached signature (gpg --detach-sign)")
}

// issuer returns the id a signature names its key by: the issuer
// fingerprint when the signature has one, else the key ID, else "".
func issuer(sig *packet.Signature) string {
	if len(sig.IssuerFingerprint) > 0 {
		return hexFingerprint(sig.IssuerFingerprint)
	}
	if sig.IssuerKeyId != nil {
		return keyID(*sig.IssuerKeyId)
	}
	return ""
}

// lookup finds the key that made one of ps's signatures.
func (ps *pgpSignature) lookup(keys Keys) (Key, error) {
	for _, sig := range ps.sigs {
		if len(sig.IssuerFingerprint) > 0 {
			if k, ok := keys.Lookup(OpenPGP, hexFingerprint(sig.IssuerFingerprint)); ok {
				return k, nil
			}
		}
		if sig.IssuerKeyId != nil {
			if k, ok := keys.Lookup(OpenPGP, keyID(*sig.IssuerKeyId)); ok {
				return k, nil
			}
		}
	}
	id := issuer(ps.sigs[0])
	if id == "" {
		return Key{}, failf(ErrMalformed, "the OpenPGP signature does not say which key made it")
	}
	return Key{}, &UnknownKeyError{Kind: OpenPGP, Fingerprint: id}
}

// verifyPGP checks ps over each candidate text in turn and returns the
// result for the first it covers. content is what Verified.Content gets;
// nil means the candidate itself.
func verifyPGP(ps *pgpSignature, candidates [][]byte, content []byte, keys Keys) (v Verified, err error) {
	defer recoverAs(&err, "OpenPGP signature")
	k, err := ps.lookup(keys)
	if err != nil {
		return Verified{}, err
	}
	e, err := k.entity()
	if err != nil {
		return Verified{}, err
	}
	if fp := hexFingerprint(e.PrimaryKey.Fingerprint); fp != normalizeID(OpenPGP, k.Fingerprint) {
		return Verified{}, failf(ErrUnknownKey, "the key stored as %s holds the material of key %s", k.Fingerprint, fp)
	}
	keyring := openpgp.EntityList{e}
	var bad error
	for _, c := range candidates {
		sig, _, err := openpgp.VerifyDetachedSignature(keyring, bytes.NewReader(c), bytes.NewReader(ps.raw), nil)
		if err == nil {
			if err := checkStrength(sig, e, k.Fingerprint); err != nil {
				return Verified{}, err
			}
			v = Verified{Kind: OpenPGP, Fingerprint: k.Fingerprint, Content: content, Signed: c, Created: sig.CreationTime}
			if v.Content == nil {
				v.Content = c
			}
			return v, nil
		}
		if err := classifyPGP(err, k); err != nil {
			return Verified{}, err
		}
		if bad == nil {
			bad = err
		}
	}
	return Verified{}, failf(ErrBadSignature, "the signature by key %s does not match the text: the text was changed after signing, or the signature is forged (%v)", k.Fingerprint, bad)
}

// classifyPGP sorts an error from the OpenPGP library. It returns nil when
// the error means only that the signature does not cover the text tried, and
// the error to report otherwise.
func classifyPGP(err error, k Key) error {
	var (
		structural  pgperrors.StructuralError
		unsupported pgperrors.UnsupportedError
		weak        pgperrors.WeakAlgorithmError
		invalidKey  pgperrors.KeyInvalidError
	)
	switch {
	case stderrors.Is(err, pgperrors.ErrKeyRevoked):
		return failf(ErrExpiredOrRevoked, "the signature is good but key %s has been revoked: %w", k.Fingerprint, err)
	case stderrors.Is(err, pgperrors.ErrKeyExpired):
		return failf(ErrExpiredOrRevoked, "the signature is good but key %s has expired: renew it (gpg --quick-set-expire) and send the updated public key: %w", k.Fingerprint, err)
	case stderrors.Is(err, pgperrors.ErrSignatureExpired):
		return failf(ErrExpiredOrRevoked, "the signature, or a self-signature on key %s, has expired: %w", k.Fingerprint, err)
	case stderrors.Is(err, pgperrors.ErrUnknownIssuer):
		return failf(ErrBadSignature, "the signature was made by a subkey of key %s that is not valid for signing (not a signing subkey, or expired or revoked)", k.Fingerprint)
	case stderrors.As(err, &unsupported), stderrors.As(err, &weak):
		return failf(ErrMalformed, "the signature uses an algorithm or format umpire does not accept: %w", err)
	case stderrors.As(err, &structural), stderrors.As(err, &invalidKey):
		return failf(ErrMalformed, "the signature or key %s cannot be read: %w", k.Fingerprint, err)
	}
	return nil
}

// verifyClearsigned checks a clear-signed block; body starts at its BEGIN
// PGP SIGNED MESSAGE line.
func verifyClearsigned(body []byte, keys Keys) (v Verified, err error) {
	defer recoverAs(&err, "clear-signed message")
	block, _ := clearsign.Decode(normalizeClearsigned(body))
	if block == nil {
		if findMarker(body, "-----END PGP SIGNATURE-----", true) < 0 {
			return Verified{}, failf(ErrMalformed, "the clear-signed message is truncated: it has no END PGP SIGNATURE line")
		}
		return Verified{}, failf(ErrMalformed, "the clear-signed message cannot be read: its header lines, its BEGIN PGP SIGNATURE line or its signature armor are damaged")
	}
	if block.ArmoredSignature.Type != "PGP SIGNATURE" {
		return Verified{}, failf(ErrMalformed, "the clear-signed message ends in a %s, not a signature", block.ArmoredSignature.Type)
	}
	raw, err := readAllLimited(block.ArmoredSignature.Body, maxSignatureSize)
	if err != nil {
		return Verified{}, failf(ErrMalformed, "the signature armor of the clear-signed message is damaged or truncated (bad base64 or checksum): %w", err)
	}
	ps, err := parsePGPPackets(raw)
	if err != nil {
		return Verified{}, err
	}
	return verifyPGP(ps, [][]byte{block.Bytes}, block.Plaintext, keys)
}

// ClearSignedBytes returns the bytes the signature of a clear-signed
// message covers (RFC 4880 section 7.1: dash-escaping removed, trailing
// blanks dropped, CRLF line endings), as the judge reads them: the bytes
// whose digest a receipt quotes. ok is false when data holds no
// clear-signed message.
func ClearSignedBytes(data []byte) (signed []byte, ok bool) {
	i := bytes.Index(data, []byte("-----BEGIN PGP SIGNED MESSAGE-----"))
	if i < 0 {
		return nil, false
	}
	block, _ := clearsign.Decode(normalizeClearsigned(data[i:]))
	if block == nil {
		return nil, false
	}
	return block.Bytes, true
}
