package signature

import (
	"bytes"
	"crypto"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// UpdateTarget says which known key the key material data updates: the
// fingerprint of an OpenPGP public key, or the issuer of a bare revocation
// certificate (the .rev file gpg keeps in openpgp-revocs.d, with or
// without the ':' gpg puts before its armor). ok is false for anything
// else, SSH keys included: they carry no expiry and no revocation.
func UpdateTarget(data []byte) (id string, ok bool) {
	if k, err := ParseKey(data); err == nil {
		return k.Fingerprint, k.Kind == OpenPGP
	}
	sigs, err := revocations(data)
	if err != nil || len(sigs) == 0 {
		return "", false
	}
	return issuer(sigs[0]), issuer(sigs[0]) != ""
}

// MergeKey merges update into k, the stored copy of a known OpenPGP key, the
// way gpg --import does: update is the key exported again (with a new
// expiry, new self-signatures, new subkeys, a revocation) or a bare
// revocation certificate. Only the key's own material is taken: the primary
// key must be the same, byte for byte, and every signature taken must be
// made by it and verify, or the update is refused whole; a different key
// under the same id is refused. Nothing already known is dropped, so a stale
// copy can never undo a revocation or an expiry date. Third-party
// certifications are left out.
//
// changed says in words what the update changed for the judge at now ("the
// key is revoked", "the key now expires on ...", "new self-signatures"); it
// is empty, and merged is k, when nothing changed. Errors wrap
// ErrMalformed, or ErrUnknownKey for a different key.
func MergeKey(k Key, update []byte, now time.Time) (merged Key, changed string, err error) {
	defer recoverAs(&err, "OpenPGP key update")
	if k.Kind != OpenPGP {
		return k, "", nil
	}
	e, err := k.entity()
	if err != nil {
		return k, "", err
	}
	var serialized bytes.Buffer
	if u, perr := ParseKey(update); perr == nil {
		if u.Kind != OpenPGP || u.Fingerprint != k.Fingerprint {
			return k, "", failf(ErrUnknownKey, "the key sent (%s) is not key %s", u.Fingerprint, k.Fingerprint)
		}
		n, err := u.entity()
		if err != nil {
			return k, "", err
		}
		if !samePacket(e.PrimaryKey, n.PrimaryKey) {
			return k, "", failf(ErrUnknownKey, "the key sent has the id of key %s but other key material", k.Fingerprint)
		}
		mergeEntity(e, n)
		if err := e.Serialize(&serialized); err != nil {
			return k, "", failf(ErrMalformed, "the merged key cannot be stored: %w", err)
		}
	} else {
		revs, rerr := revocations(update)
		if rerr != nil || len(revs) == 0 {
			return k, "", failf(ErrMalformed, "the update is neither an OpenPGP public key nor a revocation certificate: %w", perr)
		}
		for _, r := range revs {
			if !r.CheckKeyIdOrFingerprint(e.PrimaryKey) {
				return k, "", failf(ErrUnknownKey, "the revocation certificate is for key %s, not %s", issuer(r), k.Fingerprint)
			}
		}
		// Entity.Serialize writes the revocations after the primary key,
		// where ReadEntity checks each.
		e.Revocations = unionSigs(e.Revocations, revs, e.PrimaryKey)
		if err := e.Serialize(&serialized); err != nil {
			return k, "", failf(ErrMalformed, "the key cannot be stored: %w", err)
		}
	}
	// Read back: the library verifies every self-signature and revocation,
	// and picks the newest self-signatures.
	m, err := parseOpenPGPKey(serialized.Bytes())
	if err != nil {
		return k, "", failf(ErrMalformed, "the update of key %s does not verify: %w", k.Fingerprint, err)
	}
	if m.Fingerprint != k.Fingerprint {
		return k, "", failf(ErrUnknownKey, "the update holds key %s, not %s", m.Fingerprint, k.Fingerprint)
	}
	if bytes.Equal(m.Public, k.Public) {
		return k, "", nil
	}
	after, err := m.entity()
	if err != nil {
		return k, "", err
	}
	m.Comment = k.Comment
	return m, describeChange(e0(k), after, now), nil
}

// e0 parses a stored key again (MergeKey changes the entity it read).
func e0(k Key) *openpgp.Entity {
	e, err := k.entity()
	if err != nil {
		return nil
	}
	return e
}

// mergeEntity adds to e what n has and e lacks: revocations, self-signatures
// on user IDs, user IDs, subkeys and newer subkey bindings.
func mergeEntity(e, n *openpgp.Entity) {
	e.Revocations = unionSigs(e.Revocations, n.Revocations, e.PrimaryKey)
	e.Signatures = unionSigs(e.Signatures, n.Signatures, e.PrimaryKey)
	for name, nid := range n.Identities {
		id, ok := e.Identities[name]
		if !ok {
			nid.Signatures = unionSigs(nil, nid.Signatures, e.PrimaryKey)
			e.Identities[name] = nid
			continue
		}
		id.Signatures = unionSigs(id.Signatures, nid.Signatures, e.PrimaryKey)
	}
	for _, ns := range n.Subkeys {
		found := false
		for i := range e.Subkeys {
			s := &e.Subkeys[i]
			if !samePacket(s.PublicKey, ns.PublicKey) {
				continue
			}
			found = true
			s.Revocations = unionSigs(s.Revocations, ns.Revocations, e.PrimaryKey)
			if ns.Sig != nil && (s.Sig == nil || ns.Sig.CreationTime.After(s.Sig.CreationTime)) {
				s.Sig = ns.Sig
			}
		}
		if !found {
			e.Subkeys = append(e.Subkeys, ns)
		}
	}
}

// unionSigs returns a with the signatures of b it lacks, keeping only the
// key's own signatures (made by primary).
func unionSigs(a, b []*packet.Signature, primary *packet.PublicKey) []*packet.Signature {
	seen := map[string]bool{}
	var out []*packet.Signature
	for _, s := range append(append([]*packet.Signature(nil), a...), b...) {
		if !s.CheckKeyIdOrFingerprint(primary) {
			continue
		}
		var buf bytes.Buffer
		if s.Serialize(&buf) != nil || seen[buf.String()] {
			continue
		}
		seen[buf.String()] = true
		out = append(out, s)
	}
	return out
}

// samePacket reports whether two public key packets are the same bytes.
func samePacket(a, b *packet.PublicKey) bool {
	var x, y bytes.Buffer
	return a.Serialize(&x) == nil && b.Serialize(&y) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// revocations reads a bare revocation certificate: key revocation
// signatures only.
func revocations(data []byte) ([]*packet.Signature, error) {
	data = bytes.TrimSpace(data)
	if i := bytes.Index(data, []byte("-----BEGIN PGP ")); i >= 0 {
		// gpg writes ":-----BEGIN" so that the file is not imported by
		// mistake; the armor starts after the colon.
		block, err := armor.Decode(bytes.NewReader(data[i:]))
		if err != nil {
			return nil, err
		}
		if data, err = readAllLimited(block.Body, maxSignatureSize); err != nil {
			return nil, err
		}
	}
	var out []*packet.Signature
	r := packet.NewReader(bytes.NewReader(data))
	for {
		p, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		sig, ok := p.(*packet.Signature)
		if !ok || sig.SigType != packet.SigTypeKeyRevocation {
			return nil, fmt.Errorf("not a revocation certificate")
		}
		out = append(out, sig)
	}
}

// describeChange says what changed between two versions of a key, for the
// key's holder.
func describeChange(before, after *openpgp.Entity, now time.Time) string {
	if after.Revoked(now) && (before == nil || !before.Revoked(now)) {
		return fmt.Sprintf("key %s is now revoked: the judge no longer accepts anything it signs", hexFingerprint(after.PrimaryKey.Fingerprint))
	}
	var notes []string
	if x := expiry(after); before == nil || !x.Equal(expiry(before)) {
		if x.IsZero() {
			notes = append(notes, "it no longer expires")
		} else {
			notes = append(notes, "it now expires on "+x.UTC().Format("2 Jan 2006 15:04 MST"))
		}
	}
	if before != nil && len(after.Subkeys) > len(before.Subkeys) {
		notes = append(notes, fmt.Sprintf("%d new subkeys", len(after.Subkeys)-len(before.Subkeys)))
	}
	if len(notes) == 0 {
		notes = append(notes, "new self-signatures")
	}
	return fmt.Sprintf("key %s is updated: %s", hexFingerprint(after.PrimaryKey.Fingerprint), strings.Join(notes, "; "))
}

// expiry is when a key's primary key expires; zero for never.
func expiry(e *openpgp.Entity) time.Time {
	sig, _ := e.PrimarySelfSignature()
	if sig == nil || sig.KeyLifetimeSecs == nil || *sig.KeyLifetimeSecs == 0 {
		return time.Time{}
	}
	return e.PrimaryKey.CreationTime.Add(time.Duration(*sig.KeyLifetimeSecs) * time.Second)
}

// weakHashes are the hash functions a signature may not use: collisions
// can be made for them (SHA-1: SHAttered, 2017; chosen-prefix, 2020).
var weakHashes = map[crypto.Hash]string{crypto.MD5: "MD5", crypto.SHA1: "SHA-1", crypto.RIPEMD160: "RIPEMD-160"}

// checkStrength refuses a signature made with a weak hash, or by a key of a
// weak algorithm or size.
func checkStrength(sig *packet.Signature, e *openpgp.Entity, fp string) error {
	if name, weak := weakHashes[sig.Hash]; weak {
		return failf(ErrWeak, "the signature by key %s uses %s, which can be forged: umpire accepts SHA-256 or stronger. "+
			"Sign with gpg --digest-algo SHA512 (or put 'personal-digest-preferences SHA512 SHA384 SHA256' in gpg.conf)", fp, name)
	}
	pk := e.PrimaryKey
	switch pk.PubKeyAlgo {
	case packet.PubKeyAlgoDSA, packet.PubKeyAlgoElGamal:
		return failf(ErrWeak, "key %s is a DSA key, which umpire does not accept: make an ed25519 key (gpg --quick-gen-key 'Name <address>' ed25519)", fp)
	case packet.PubKeyAlgoRSA, packet.PubKeyAlgoRSASignOnly:
		if bits, err := pk.BitLength(); err == nil && bits < 2048 {
			return failf(ErrWeak, "key %s is a %d-bit RSA key, which can be broken: umpire accepts RSA keys of 2048 bits or more, or ed25519", fp, bits)
		}
	}
	return nil
}
