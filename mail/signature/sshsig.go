package signature

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"

	"golang.org/x/crypto/ssh"
)

// Namespace is the SSH signature namespace umpire requires: players sign
// with ssh-keygen -Y sign -f KEY -n umpire FILE.
const Namespace = "umpire"

// The SSHSIG blob, per OpenSSH PROTOCOL.sshsig.
const (
	sshsigMagic   = "SSHSIG"
	sshsigVersion = 1
)

// sshDSA is the name of DSA keys and signatures, which use SHA-1 and which
// OpenSSH no longer makes.
const sshDSA = "ssh-dss"

// sshSignature is a parsed SSHSIG blob.
type sshSignature struct {
	pub       ssh.PublicKey // the signing key (a certificate's key, for a certificate)
	namespace string
	reserved  []byte
	hashAlg   string
	sig       *ssh.Signature
}

// parseSSHArmored reads an armored SSH signature; data starts at its BEGIN
// line. Anything after the END line is ignored.
func parseSSHArmored(data []byte) (*sshSignature, error) {
	body := data[len(sshBegin):]
	end := bytes.Index(body, []byte(sshEnd))
	if end < 0 {
		return nil, failf(ErrMalformed, "the SSH signature is truncated: it has no END SSH SIGNATURE line")
	}
	b64 := bytes.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, body[:end])
	blob := make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
	n, err := base64.StdEncoding.Decode(blob, b64)
	if err != nil {
		return nil, failf(ErrMalformed, "the SSH signature's base64 is damaged or truncated: %w", err)
	}
	return parseSSHSig(blob[:n])
}

// parseSSHSig reads the binary SSHSIG blob.
func parseSSHSig(blob []byte) (s *sshSignature, err error) {
	defer recoverAs(&err, "SSH signature")
	malformed := func(what string) error {
		return failf(ErrMalformed, "the SSH signature is damaged: %s", what)
	}
	if !bytes.HasPrefix(blob, []byte(sshsigMagic)) {
		return nil, malformed("it does not start with SSHSIG")
	}
	in := blob[len(sshsigMagic):]
	if len(in) < 4 {
		return nil, malformed("it ends before its version")
	}
	if v := binary.BigEndian.Uint32(in); v != sshsigVersion {
		return nil, failf(ErrMalformed, "the SSH signature has version %d; umpire reads version %d", v, sshsigVersion)
	}
	in = in[4:]
	var fields [5][]byte
	for i := range fields {
		var ok bool
		if fields[i], in, ok = sshString(in); !ok {
			return nil, malformed("it ends in the middle of a field")
		}
	}
	if len(in) != 0 {
		return nil, malformed("it has bytes after its signature")
	}
	pubBytes, namespace, reserved, hashAlg, sigBytes := fields[0], fields[1], fields[2], fields[3], fields[4]
	pub, err := ssh.ParsePublicKey(pubBytes)
	if err != nil {
		return nil, failf(ErrMalformed, "the SSH signature's public key cannot be read: %w", err)
	}
	if cert, ok := pub.(*ssh.Certificate); ok {
		pub = cert.Key
	}
	s = &sshSignature{pub: pub, namespace: string(namespace), reserved: reserved, hashAlg: string(hashAlg)}
	if s.hashAlg != "sha256" && s.hashAlg != "sha512" {
		return nil, failf(ErrMalformed, "the SSH signature uses hash %q; umpire accepts sha256 and sha512", s.hashAlg)
	}
	format, rest, ok := sshString(sigBytes)
	if !ok {
		return nil, malformed("its signature has no algorithm name")
	}
	blobSig, rest, ok := sshString(rest)
	if !ok {
		return nil, malformed("its signature has no signature value")
	}
	s.sig = &ssh.Signature{Format: string(format), Blob: blobSig}
	switch s.sig.Format {
	case ssh.KeyAlgoSKED25519, ssh.KeyAlgoSKECDSA256:
		s.sig.Rest = rest // security-key flags and counter
	default:
		if len(rest) != 0 {
			return nil, malformed("its signature has trailing bytes")
		}
	}
	switch s.sig.Format {
	case ssh.KeyAlgoRSA:
		return nil, failf(ErrMalformed, "the SSH signature uses RSA with SHA-1 (ssh-rsa), which umpire does not accept: sign with a current ssh-keygen, which uses rsa-sha2-512")
	case sshDSA:
		return nil, failf(ErrMalformed, "the SSH signature uses a DSA key, which umpire does not accept: make an ed25519 key with ssh-keygen -t ed25519")
	}
	return s, nil
}

// sshString splits an SSH wire string (uint32 length, then bytes) off in.
func sshString(in []byte) (s, rest []byte, ok bool) {
	if len(in) < 4 {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint32(in)
	in = in[4:]
	if uint64(n) > uint64(len(in)) {
		return nil, nil, false
	}
	return in[:n], in[n:], true
}

// appendSSHString appends s as an SSH wire string.
func appendSSHString(b, s []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}

// signedData returns the bytes the SSH signature is made over for message m:
// "SSHSIG" || string(namespace) || string(reserved) || string(hash_alg) ||
// string(H(m)).
func (s *sshSignature) signedData(m []byte) []byte {
	var digest []byte
	if s.hashAlg == "sha256" {
		d := sha256.Sum256(m)
		digest = d[:]
	} else {
		d := sha512.Sum512(m)
		digest = d[:]
	}
	b := []byte(sshsigMagic)
	b = appendSSHString(b, []byte(s.namespace))
	b = appendSSHString(b, s.reserved)
	b = appendSSHString(b, []byte(s.hashAlg))
	return appendSSHString(b, digest)
}

// verifySSH checks s over each candidate text in turn, with the key embedded
// in the signature, then checks the namespace and that a seat holds the key.
// content is what Verified.Content gets; nil means the candidate itself.
func verifySSH(s *sshSignature, candidates [][]byte, content []byte, keys Keys) (v Verified, err error) {
	defer recoverAs(&err, "SSH signature")
	fp := ssh.FingerprintSHA256(s.pub)
	var signed []byte
	var found bool
	var bad error
	for _, c := range candidates {
		err := s.pub.Verify(s.signedData(c), s.sig)
		if err == nil {
			signed, found = c, true
			break
		}
		if bad == nil {
			bad = err
		}
	}
	if !found {
		return Verified{}, failf(ErrBadSignature, "the SSH signature by key %s does not match the text: the text was changed after signing, or the signature is forged (%v)", fp, bad)
	}
	if s.namespace != Namespace {
		return Verified{}, failf(ErrWrongNamespace, "the SSH signature was made for namespace %q, not %q: sign with ssh-keygen -Y sign -f KEY -n %s FILE", s.namespace, Namespace, Namespace)
	}
	k, ok := keys.Lookup(SSH, fp)
	if !ok {
		return Verified{}, &UnknownKeyError{Kind: SSH, Fingerprint: fp}
	}
	stored, err := ssh.ParsePublicKey(k.Public)
	if err != nil || !bytes.Equal(stored.Marshal(), s.pub.Marshal()) {
		return Verified{}, failf(ErrUnknownKey, "the key stored as %s is not the key %s that signed", k.Fingerprint, fp)
	}
	if content == nil {
		content = signed
	}
	return Verified{Kind: SSH, Fingerprint: k.Fingerprint, Content: content, Signed: signed}, nil
}
