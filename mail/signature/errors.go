package signature

import (
	"errors"
	"fmt"
)

// The sentinel errors. Every error this package returns wraps exactly one of
// them, so a caller can sort failures with errors.Is and still show the
// player the full message, which says what went wrong in plain words.
var (
	// ErrNoSignature means the input holds no signature umpire can check: no
	// clear-signed block, no SSH signature, an empty input, or an encrypted
	// or otherwise opaque OpenPGP message.
	ErrNoSignature = errors.New("no signature found")

	// ErrUnknownKey means the signature was made by a key that no seat holds.
	// The error is an *UnknownKeyError, which names the key.
	ErrUnknownKey = errors.New("signed by an unknown key")

	// ErrBadSignature means the signature does not match the text: it was
	// forged, or the text was changed after signing.
	ErrBadSignature = errors.New("bad signature")

	// ErrWrongNamespace means an SSH signature was made for another purpose
	// than umpire (ssh-keygen -Y sign -n NAMESPACE with a namespace other
	// than "umpire").
	ErrWrongNamespace = errors.New("ssh signature made for the wrong namespace")

	// ErrMalformed means a signature block was found but cannot be read:
	// damaged or truncated armor, bad base64, a packet that does not parse,
	// or an algorithm or format umpire does not accept.
	ErrMalformed = errors.New("malformed")

	// ErrExpiredOrRevoked means the signature is good but the signing key,
	// or the signature itself, has expired or was revoked.
	ErrExpiredOrRevoked = errors.New("signing key expired or revoked")

	// ErrWeak means the signature is good but too weak to prove anything: a
	// hash that can be forged (SHA-1, MD5, RIPEMD-160), or a key of a weak
	// algorithm or size (DSA, RSA under 2048 bits).
	ErrWeak = errors.New("weak signature")
)

// UnknownKeyError is the error for a signature made by a key that the Keys
// given to the verifier do not hold. It matches ErrUnknownKey with errors.Is.
type UnknownKeyError struct {
	// Kind is the family of the signature.
	Kind Kind
	// Fingerprint names the signing key. For SSH it is the SHA256
	// fingerprint of the key embedded in the signature, as ssh-keygen -lf
	// prints it, and the signature was checked against that key. For
	// OpenPGP it is the issuer named by the signature, which cannot be
	// checked without the key: the uppercase hex fingerprint of the key or
	// subkey that signed, or the 16-digit key ID when the signature carries
	// no fingerprint.
	Fingerprint string
}

// Error says which key signed, in words fit for a receipt.
func (e *UnknownKeyError) Error() string {
	return fmt.Sprintf("signed by %s key %s, which no seat of this game holds", e.Kind, e.Fingerprint)
}

// Is reports whether target is ErrUnknownKey.
func (e *UnknownKeyError) Is(target error) bool { return target == ErrUnknownKey }

// failf returns an error wrapping sentinel, with a reason formatted from
// format and args (which may use %w to wrap a library error as well).
func failf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}

// recoverAs turns a panic inside a parsing library into an error wrapping
// ErrMalformed, so that no input, however hostile, can bring the judge down.
// It must be deferred directly: defer recoverAs(&err, "signature").
func recoverAs(err *error, what string) {
	if r := recover(); r != nil {
		*err = failf(ErrMalformed, "the %s cannot be read: %w", what, panicError{r})
	}
}

// panicError carries a recovered panic, so that tests can tell one apart
// from an ordinary refusal.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprintf("internal error: %v", p.value) }
