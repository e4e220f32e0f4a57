package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
)

// DefaultChainLength is the number of links L a game's chains hold: one per
// adjudicated step, so a game may run up to L steps.
const DefaultChainLength = 65536

// MaxChainLength bounds the chains a verifier accepts, so that a hostile log
// cannot make it hash without end.
const MaxChainLength = 1 << 24

const chainTag = "umpire-chain-v1"

// NewRoot draws a fresh 32-byte chain root from crypto/rand.
func NewRoot() (Hash, error) {
	var h Hash
	if _, err := rand.Read(h[:]); err != nil {
		return h, fmt.Errorf("dice: new root: %w", err)
	}
	return h, nil
}

// PrevLink returns link[i-1] given link[i]: SHA-256("umpire-chain-v1" || link).
func PrevLink(link Hash) Hash {
	var buf [len(chainTag) + 32]byte
	copy(buf[:], chainTag)
	copy(buf[len(chainTag):], link[:])
	return sha256.Sum256(buf[:])
}

// LinkReaches reports whether hashing later n times with PrevLink gives earlier,
// that is whether later is link[j+n] of the chain whose link[j] is earlier.
func LinkReaches(later Hash, n uint64, earlier Hash) bool {
	for ; n > 0; n-- {
		later = PrevLink(later)
	}
	return later == earlier
}

// Chain is a reverse hash chain: link[Length] = Root and
// link[i-1] = PrevLink(link[i]). link[0] is the public commitment.
type Chain struct {
	Root   Hash
	Length uint64
}

// NewChain draws a fresh root and returns a chain of the given length.
func NewChain(length uint64) (Chain, error) {
	root, err := NewRoot()
	if err != nil {
		return Chain{}, err
	}
	return Chain{Root: root, Length: length}, nil
}

// Link returns link[i]. It costs Length-i hashes.
func (c Chain) Link(i uint64) (Hash, error) {
	if i > c.Length {
		return Hash{}, fmt.Errorf("dice: link %d: %w (length %d)", i, ErrChainExhausted, c.Length)
	}
	h := c.Root
	for n := c.Length; n > i; n-- {
		h = PrevLink(h)
	}
	return h, nil
}

// Commitment returns link[0], the value published at game creation.
func (c Chain) Commitment() Hash {
	h, _ := c.Link(0) // link 0 always exists
	return h
}
