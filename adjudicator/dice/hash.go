package dice

import (
	"encoding/hex"
	"fmt"
)

// Hash is a 32-byte value of the scheme: a chain link, a commitment, a step
// digest D_k, an order file digest or a log entry hash. Its text form is
// lowercase hex.
type Hash [32]byte

// String returns the lowercase hex form of h.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h is all zero bytes (the value of a missing field).
func (h Hash) IsZero() bool { return h == Hash{} }

// MarshalText encodes h as lowercase hex.
func (h Hash) MarshalText() ([]byte, error) {
	b := make([]byte, hex.EncodedLen(len(h)))
	hex.Encode(b, h[:])
	return b, nil
}

// UnmarshalText decodes 64 hex digits into h.
func (h *Hash) UnmarshalText(b []byte) error {
	if len(b) != 2*len(h) {
		return fmt.Errorf("hash: want %d hex digits, got %d", 2*len(h), len(b))
	}
	if _, err := hex.Decode(h[:], b); err != nil {
		return fmt.Errorf("hash: %w", err)
	}
	return nil
}

// ParseHash parses 64 hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	err := h.UnmarshalText([]byte(s))
	return h, err
}

func (h Hash) bytes() []byte { return h[:] }
