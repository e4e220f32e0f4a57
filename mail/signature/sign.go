package signature

import (
	"bytes"
	"crypto"
	"fmt"
	"math"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// ServerKey is the judge's own OpenPGP key, with which it clear-signs the
// plain-text part of every mail it sends (receipts, reports), so that a
// player can check one with gpg --verify after importing ArmoredPublic with
// gpg --import.
//
// A ServerKey does not change once made, and is safe for concurrent use.
//
// Errors from ParseServerKey wrap ErrMalformed. Errors from GenerateServerKey
// and ClearSign (a bad user ID, a clock outside what OpenPGP can record or
// before the key was made) wrap none of the package's sentinel errors: they
// are the judge's faults, not a player's.
type ServerKey struct {
	entity        *openpgp.Entity
	private       []byte // binary transferable secret key
	public        Key    // as ParseKey returns it
	armoredPublic []byte
}

// serverKeyConfig is the library configuration for making the server key
// and its signatures at time now: ed25519 (EdDSA, v4, which every gpg since
// 2.1 reads), SHA-256, no expiry, and no random salt notation, so that
// signatures are deterministic (ed25519 is).
func serverKeyConfig(now time.Time) *packet.Config {
	randomize := false
	return &packet.Config{
		Algorithm:                             packet.PubKeyAlgoEdDSA,
		Curve:                                 packet.Curve25519,
		DefaultHash:                           crypto.SHA256,
		Time:                                  func() time.Time { return now },
		NonDeterministicSignaturesViaNotation: &randomize,
	}
}

// checkOpenPGPTime refuses a time that an OpenPGP packet cannot hold: they
// record whole seconds since 1970 in 32 bits.
func checkOpenPGPTime(what string, now time.Time) error {
	if s := now.Unix(); s <= 0 || s > math.MaxUint32 {
		return fmt.Errorf("%s time %s is outside what OpenPGP can record (1970 to 2106): the clock is wrong", what, now.UTC().Format(time.RFC3339))
	}
	return nil
}

// checkUserIDPart refuses what would make a bad user ID part.
func checkUserIDPart(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("the server key needs a %s", what)
	case !utf8.ValidString(s):
		return fmt.Errorf("the server key %s %q is not valid UTF-8", what, s)
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '(' || r == ')' || r == '<' || r == '>' {
			return fmt.Errorf("the server key %s %q holds %q, which a user ID cannot", what, s, r)
		}
	}
	return nil
}

// GenerateServerKey makes a new server key: an ed25519 (EdDSA) primary key
// that can sign and certify, with no subkeys, no expiry, the user ID
// "name <email>" and creation time now (in whole seconds). The judge only
// signs; it has no encryption subkey, so players have no key to encrypt
// mail to it with.
func GenerateServerKey(name, email string, now time.Time) (*ServerKey, error) {
	if err := checkUserIDPart("name", name); err != nil {
		return nil, err
	}
	if err := checkUserIDPart("mail address", email); err != nil {
		return nil, err
	}
	if err := checkOpenPGPTime("key creation", now); err != nil {
		return nil, err
	}
	e, err := openpgp.NewEntity(name, "", email, serverKeyConfig(now))
	if err != nil {
		return nil, fmt.Errorf("making the server key: %w", err)
	}
	// NewEntity always adds an encryption subkey, which the judge, which
	// never decrypts, must not offer.
	e.Subkeys = nil
	k, err := newServerKey(e)
	if err != nil {
		return nil, fmt.Errorf("making the server key: %w", err)
	}
	return k, nil
}

// ParseServerKey reads a server key as MarshalPrivate writes it: an
// armored (or binary) OpenPGP private key, not protected by a passphrase,
// whose primary key can sign. A key exported with gpg --export-secret-keys
// --armor works too, if it has no passphrase; it signs with its primary key.
// Errors wrap ErrMalformed.
func ParseServerKey(data []byte) (k *ServerKey, err error) {
	defer recoverAs(&err, "server key")
	if len(data) > maxKeySize {
		return nil, failf(ErrMalformed, "the server key data is %d bytes, more than the %d a key can need", len(data), maxKeySize)
	}
	trimmed := bytes.TrimSpace(data)
	var raw []byte
	switch {
	case len(trimmed) == 0:
		return nil, failf(ErrMalformed, "no server key given")
	case bytes.Contains(trimmed, []byte("-----BEGIN PGP ")):
		block, err := armor.Decode(bytes.NewReader(trimmed))
		if err != nil {
			return nil, failf(ErrMalformed, "the server key armor cannot be read: %w", err)
		}
		if block.Type != openpgp.PrivateKeyType {
			return nil, failf(ErrMalformed, "expected a %s for the server key, got a %s", openpgp.PrivateKeyType, block.Type)
		}
		if raw, err = readAllLimited(block.Body, maxKeySize); err != nil {
			return nil, failf(ErrMalformed, "the server key armor is damaged: %w", err)
		}
	case data[0]&0x80 != 0:
		raw = data
	default:
		return nil, failf(ErrMalformed, "the server key is not an OpenPGP private key, armored or binary")
	}
	el, err := openpgp.ReadKeyRing(bytes.NewReader(raw))
	if err != nil {
		return nil, failf(ErrMalformed, "the server key cannot be read: %w", err)
	}
	if len(el) != 1 {
		return nil, failf(ErrMalformed, "the server key data holds %d keys, not one", len(el))
	}
	return newServerKey(el[0])
}

// newServerKey checks that e can serve as the server key and works out
// everything the accessors return, so that they cannot fail.
func newServerKey(e *openpgp.Entity) (k *ServerKey, err error) {
	defer recoverAs(&err, "server key")
	fpr := hexFingerprint(e.PrimaryKey.Fingerprint)
	switch pk := e.PrivateKey; {
	case pk == nil:
		return nil, failf(ErrMalformed, "key %s is a public key, not the server's private key", fpr)
	case pk.Dummy():
		return nil, failf(ErrMalformed, "key %s has no private primary key (it was exported with gpg --export-secret-subkeys)", fpr)
	case pk.Encrypted:
		return nil, failf(ErrMalformed, "key %s is protected by a passphrase, which the judge cannot type: export it without one", fpr)
	case !pk.PubKeyAlgo.CanSign():
		return nil, failf(ErrMalformed, "key %s is of an algorithm (%d) that cannot sign", fpr, pk.PubKeyAlgo)
	}
	if self, _ := e.PrimarySelfSignature(); self == nil || !self.FlagsValid || !self.FlagSign {
		return nil, failf(ErrMalformed, "the primary key of key %s is not marked for signing", fpr)
	}
	var private, public bytes.Buffer
	if err := e.SerializePrivateWithoutSigning(&private, nil); err != nil {
		return nil, failf(ErrMalformed, "key %s cannot be stored: %w", fpr, err)
	}
	if err := e.Serialize(&public); err != nil {
		return nil, failf(ErrMalformed, "the public part of key %s cannot be stored: %w", fpr, err)
	}
	pub, err := parseOpenPGPKey(public.Bytes())
	if err != nil {
		return nil, err
	}
	armored, err := armorBytes(openpgp.PublicKeyType, pub.Public)
	if err != nil {
		return nil, failf(ErrMalformed, "the public part of key %s cannot be armored: %w", fpr, err)
	}
	return &ServerKey{entity: e, private: private.Bytes(), public: pub, armoredPublic: armored}, nil
}

// armorBytes returns data in OpenPGP armor of the given type, ending in a
// line ending. The armor has a CRC-24 checksum, which RFC 9580 no longer
// asks for but older OpenPGP programs want.
func armorBytes(blockType string, data []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := writeArmor(&b, blockType, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeArmor(b *bytes.Buffer, blockType string, data []byte) error {
	w, err := armor.Encode(b, blockType, nil)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	b.WriteByte('\n')
	return nil
}

// MarshalPrivate returns the key as an armored OpenPGP private key (a PGP
// PRIVATE KEY BLOCK), not protected by a passphrase, for the store to keep
// and ParseServerKey to read back. Whoever holds it can sign as the judge.
func (k *ServerKey) MarshalPrivate() ([]byte, error) {
	b, err := armorBytes(openpgp.PrivateKeyType, k.private)
	if err != nil {
		return nil, fmt.Errorf("armoring the server key: %w", err)
	}
	return b, nil
}

// Public returns the key's public part as ParseKey returns it from
// ArmoredPublic: Kind OpenPGP, the primary key's uppercase hex fingerprint,
// the binary transferable public key and the user ID as Comment. A Keyring
// holding it verifies the judge's signatures with VerifyInline.
func (k *ServerKey) Public() Key {
	p := k.public
	p.Public = bytes.Clone(p.Public)
	return p
}

// ArmoredPublic returns the armored public key (a PGP PUBLIC KEY BLOCK, as
// gpg --export --armor gives), for players to import with gpg --import.
func (k *ServerKey) ArmoredPublic() []byte { return bytes.Clone(k.armoredPublic) }

// ClearSign returns text clear-signed (RFC 4880 section 7) by the key with
// a SHA-256 signature made at time now (in whole seconds). Given the same
// key, text and now it returns the same bytes.
//
// The signed text is text in this canonical form, which is also what gpg
// and VerifyInline show as signed (Verified.Content):
//
//   - every CRLF, and every CR alone, is a line ending, written as LF;
//   - spaces and tabs at the end of every line are removed;
//   - one final line ending, if there is one, ends the last line and is
//     not part of the text (so "a\n" and "a" are signed alike, and "a\n\n"
//     ends in an empty line); an empty text is signed as one empty line.
//
// Lines starting with "-" or "From " are dash-escaped ("- "), as gpg
// does, so that neither the armor nor an mbox's ">From " quoting can
// change them. The result has LF line endings and ends with the
// "-----END PGP SIGNATURE-----" line and a line ending; it must be sent as
// it is, since every byte of the text between its BEGIN lines is signed.
// Line endings may become CRLF on the way and trailing blanks may be added
// or removed, which the canonical form ignores.
func (k *ServerKey) ClearSign(text []byte, now time.Time) ([]byte, error) {
	if err := k.checkSignTime(now); err != nil {
		return nil, err
	}
	lines := clearSignLines(text)
	cfg := serverKeyConfig(now)
	cfg.SigningKeyId = k.entity.PrimaryKey.KeyId
	var sig bytes.Buffer
	// A text signature canonicalises LF into CRLF, as RFC 4880 section 7.1
	// hashes a clear-signed text.
	if err := openpgp.DetachSignText(&sig, k.entity, bytes.NewReader(bytes.Join(lines, []byte("\n"))), cfg); err != nil {
		return nil, fmt.Errorf("signing with server key %s: %w", k.public.Fingerprint, err)
	}
	var b bytes.Buffer
	b.Grow(len(text) + len(lines)*2 + 512)
	b.WriteString(clearsignBegin + "\nHash: SHA256\n\n")
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte("-")) || bytes.HasPrefix(l, []byte("From ")) {
			b.WriteString("- ")
		}
		b.Write(l)
		b.WriteByte('\n')
	}
	if err := writeArmor(&b, "PGP SIGNATURE", sig.Bytes()); err != nil {
		return nil, fmt.Errorf("armoring the signature: %w", err)
	}
	return b.Bytes(), nil
}

// DetachSign returns an armored detached OpenPGP signature (a PGP
// SIGNATURE block, ending in a line ending) over data exactly as given,
// made at time now (in whole seconds) with SHA-256 in binary mode
// (signature class 0x00): no byte of data is changed or ignored. It signs
// the MIME entity of a PGP/MIME message (RFC 3156 section 5), whose micalg
// is MICAlg. Given the same key, data and now it returns the same bytes,
// so a mail signed when it is queued is the same on every attempt.
func (k *ServerKey) DetachSign(data []byte, now time.Time) ([]byte, error) {
	if err := k.checkSignTime(now); err != nil {
		return nil, err
	}
	cfg := serverKeyConfig(now)
	cfg.SigningKeyId = k.entity.PrimaryKey.KeyId
	var sig bytes.Buffer
	if err := openpgp.DetachSign(&sig, k.entity, bytes.NewReader(data), cfg); err != nil {
		return nil, fmt.Errorf("signing with server key %s: %w", k.public.Fingerprint, err)
	}
	out, err := armorBytes("PGP SIGNATURE", sig.Bytes())
	if err != nil {
		return nil, fmt.Errorf("armoring the signature: %w", err)
	}
	return out, nil
}

// checkSignTime refuses a signature time OpenPGP cannot record or before
// the key was made.
func (k *ServerKey) checkSignTime(now time.Time) error {
	if err := checkOpenPGPTime("signature", now); err != nil {
		return err
	}
	if created := k.entity.PrimaryKey.CreationTime; now.Unix() < created.Unix() {
		return fmt.Errorf("signature time %s is before server key %s was made (%s): the clock is wrong",
			now.UTC().Format(time.RFC3339), k.public.Fingerprint, created.UTC().Format(time.RFC3339))
	}
	return nil
}

// MICAlg is the micalg parameter of a PGP/MIME signature DetachSign makes
// (RFC 3156 section 5): its hash is SHA-256.
const MICAlg = "pgp-sha256"

// clearSignLines splits text into the lines ClearSign signs, in the
// canonical form it documents.
func clearSignLines(text []byte) [][]byte {
	t := bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	t = bytes.ReplaceAll(t, []byte("\r"), []byte("\n"))
	t = bytes.TrimSuffix(t, []byte("\n"))
	lines := bytes.Split(t, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " \t")
	}
	return lines
}
