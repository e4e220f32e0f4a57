package signature

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"golang.org/x/crypto/ssh"
)

// Kind is a family of signatures, and of the keys that make them.
type Kind string

// The two families umpire accepts.
const (
	// OpenPGP is for keys and signatures made with gpg (RFC 4880 / 9580).
	OpenPGP Kind = "openpgp"
	// SSH is for keys made with ssh-keygen and signatures made with
	// ssh-keygen -Y sign -n umpire (OpenSSH PROTOCOL.sshsig).
	SSH Kind = "ssh"
)

// Key is a player's public key. A player is identified by the key, never by
// a mail address.
type Key struct {
	// Kind is the key's family.
	Kind Kind
	// Fingerprint identifies the key. For OpenPGP it is the uppercase hex
	// fingerprint of the primary key (40 digits for v4, 64 for v6), as
	// gpg --with-colons prints it. For SSH it is "SHA256:" and unpadded
	// base64, as ssh-keygen -lf prints it.
	Fingerprint string
	// Public is the key material: for OpenPGP the binary transferable public
	// key (primary key, user IDs, subkeys and their signatures); for SSH the
	// key in SSH wire format.
	Public []byte
	// Comment is the primary user ID of an OpenPGP key or the comment of
	// an SSH key line, for people to read. It plays no part in checking.
	Comment string
}

// maxKeySize bounds the key data ParseKey reads; real keys are a few KiB.
const maxKeySize = 1 << 20

// ParseKey reads a public key: an armored (gpg --export --armor) or binary
// (gpg --export) OpenPGP public key, of which it keeps the first primary key
// with its subkeys, or an SSH public key as one line of a .pub or
// authorized_keys file. Private keys are refused. Errors wrap ErrMalformed.
func ParseKey(data []byte) (k Key, err error) {
	defer recoverAs(&err, "key")
	if len(data) > maxKeySize {
		return Key{}, failf(ErrMalformed, "key data is %d bytes, more than the %d a public key can need", len(data), maxKeySize)
	}
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return Key{}, failf(ErrMalformed, "no key given")
	case bytes.Contains(trimmed, []byte("PRIVATE KEY-----")), bytes.Contains(trimmed, []byte("PRIVATE KEY BLOCK-----")):
		return Key{}, failf(ErrMalformed, "this is a private key: send the public key instead (gpg --export --armor, or the .pub file)")
	case bytes.Contains(trimmed, []byte("-----BEGIN PGP ")):
		return parseArmoredOpenPGPKey(trimmed)
	case data[0]&0x80 != 0: // binary packets: every byte counts, none is trimmed
		return parseOpenPGPKey(data)
	default:
		return parseSSHKey(trimmed)
	}
}

func parseArmoredOpenPGPKey(data []byte) (Key, error) {
	block, err := armor.Decode(bytes.NewReader(data))
	if err != nil {
		return Key{}, failf(ErrMalformed, "the OpenPGP key armor cannot be read: %w", err)
	}
	if block.Type != openpgp.PublicKeyType {
		return Key{}, failf(ErrMalformed, "expected a PGP PUBLIC KEY BLOCK, got a %s", block.Type)
	}
	body, err := readAllLimited(block.Body, maxKeySize)
	if err != nil {
		return Key{}, failf(ErrMalformed, "the OpenPGP key armor is damaged: %w", err)
	}
	return parseOpenPGPKey(body)
}

func parseOpenPGPKey(data []byte) (k Key, err error) {
	defer recoverAs(&err, "OpenPGP key")
	entities, err := openpgp.ReadKeyRing(bytes.NewReader(data))
	if err != nil {
		return Key{}, failf(ErrMalformed, "the OpenPGP key cannot be read: %w", err)
	}
	if len(entities) == 0 {
		return Key{}, failf(ErrMalformed, "no OpenPGP key found")
	}
	e := entities[0]
	if e.PrivateKey != nil {
		return Key{}, failf(ErrMalformed, "this is a private key: send the public key instead (gpg --export --armor)")
	}
	var buf bytes.Buffer
	if err := e.Serialize(&buf); err != nil {
		return Key{}, failf(ErrMalformed, "the OpenPGP key cannot be stored: %w", err)
	}
	k = Key{Kind: OpenPGP, Fingerprint: hexFingerprint(e.PrimaryKey.Fingerprint), Public: buf.Bytes()}
	if id := e.PrimaryIdentity(); id != nil {
		k.Comment = id.Name
	}
	return k, nil
}

func parseSSHKey(data []byte) (Key, error) {
	pub, comment, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return Key{}, failf(ErrMalformed, "not an OpenPGP public key nor an SSH public key line: %w", err)
	}
	if cert, ok := pub.(*ssh.Certificate); ok {
		pub = cert.Key
	}
	if pub.Type() == sshDSA {
		return Key{}, failf(ErrMalformed, "ssh-dss (DSA) keys are not accepted: make an ed25519 key with ssh-keygen -t ed25519")
	}
	return Key{Kind: SSH, Fingerprint: ssh.FingerprintSHA256(pub), Public: pub.Marshal(), Comment: comment}, nil
}

// IDs lists every identifier the key answers to in Keys.Lookup. For an SSH
// key that is its fingerprint. For an OpenPGP key it is the fingerprint and
// the 16-digit key ID of the primary key and of every subkey, all uppercase
// hex, because a signature names the (sub)key that made it, sometimes by key
// ID only. Errors wrap ErrMalformed.
func (k Key) IDs() ([]string, error) {
	switch k.Kind {
	case SSH:
		pub, err := ssh.ParsePublicKey(k.Public)
		if err != nil {
			return nil, failf(ErrMalformed, "ssh key %s cannot be read: %w", k.Fingerprint, err)
		}
		return []string{ssh.FingerprintSHA256(pub)}, nil
	case OpenPGP:
		e, err := k.entity()
		if err != nil {
			return nil, err
		}
		ids := []string{hexFingerprint(e.PrimaryKey.Fingerprint), keyID(e.PrimaryKey.KeyId)}
		for _, sub := range e.Subkeys {
			ids = append(ids, hexFingerprint(sub.PublicKey.Fingerprint), keyID(sub.PublicKey.KeyId))
		}
		return ids, nil
	}
	return nil, failf(ErrMalformed, "unknown key kind %q", k.Kind)
}

// entity parses an OpenPGP key's material.
func (k Key) entity() (e *openpgp.Entity, err error) {
	defer recoverAs(&err, "OpenPGP key")
	el, err := openpgp.ReadKeyRing(bytes.NewReader(k.Public))
	if err != nil {
		return nil, failf(ErrMalformed, "openpgp key %s cannot be read: %w", k.Fingerprint, err)
	}
	if len(el) == 0 {
		return nil, failf(ErrMalformed, "openpgp key %s holds no key", k.Fingerprint)
	}
	return el[0], nil
}

// Keys finds the key that made a signature. Implementations must be safe for
// the concurrent use their callers make of them; Keyring is one.
type Keys interface {
	// Lookup returns the key of the given kind that answers to id. For SSH,
	// id is the SHA256 fingerprint of the key embedded in the signature.
	// For OpenPGP it is an uppercase hex fingerprint of a primary key or of
	// any of its subkeys, or a 16-digit uppercase hex key ID when the
	// signature carries no fingerprint; Key.IDs lists them all. The key
	// returned is the whole key, whose Fingerprint is the primary one.
	Lookup(kind Kind, id string) (Key, bool)
}

// Keyring is a Keys held in memory. The zero value is empty and ready to
// use; it is safe for concurrent Lookups once no more keys are added.
type Keyring struct {
	byID map[string]Key
}

// NewKeyring returns a Keyring holding keys.
func NewKeyring(keys ...Key) (*Keyring, error) {
	r := &Keyring{}
	for _, k := range keys {
		if err := r.Add(k); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add adds k under every ID it answers to (see Key.IDs). Adding the same key
// again replaces it; a key whose ID already belongs to another key is
// refused, as is key material that does not match k.Fingerprint.
func (r *Keyring) Add(k Key) error {
	ids, err := k.IDs()
	if err != nil {
		return err
	}
	if normalizeID(k.Kind, k.Fingerprint) != ids[0] {
		return failf(ErrMalformed, "%s key %s holds the material of key %s", k.Kind, k.Fingerprint, ids[0])
	}
	k.Fingerprint = ids[0]
	if r.byID == nil {
		r.byID = make(map[string]Key)
	}
	for _, id := range ids {
		if old, ok := r.byID[mapKey(k.Kind, id)]; ok && old.Fingerprint != k.Fingerprint {
			return fmt.Errorf("key %s: id %s already belongs to key %s", k.Fingerprint, id, old.Fingerprint)
		}
	}
	for _, id := range ids {
		r.byID[mapKey(k.Kind, id)] = k
	}
	return nil
}

// Lookup implements Keys. OpenPGP ids are matched without regard to case or
// spaces, so a fingerprint copied from gpg's grouped output works too.
func (r *Keyring) Lookup(kind Kind, id string) (Key, bool) {
	if r == nil {
		return Key{}, false
	}
	k, ok := r.byID[mapKey(kind, normalizeID(kind, id))]
	return k, ok
}

func mapKey(kind Kind, id string) string { return string(kind) + " " + id }

// normalizeID puts an id in the form Key.IDs gives.
func normalizeID(kind Kind, id string) string {
	if kind == OpenPGP {
		return strings.ToUpper(strings.Join(strings.Fields(id), ""))
	}
	return strings.TrimSpace(id)
}

func hexFingerprint(fp []byte) string { return strings.ToUpper(hex.EncodeToString(fp)) }

func keyID(id uint64) string { return fmt.Sprintf("%016X", id) }
