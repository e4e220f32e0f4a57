package dice

import (
	"crypto/sha256"
	"fmt"
)

// MaxChainLength bounds the chains a verifier accepts, so that a hostile log
// cannot make it hash without end.
const MaxChainLength = 1 << 24

const chainTag = "umpire-chain-v2"

// prevLink returns open[i-1] given open[i]: SHA-256("umpire-chain-v2" ||
// link).
func prevLink(link Hash) Hash {
	var buf [len(chainTag) + 32]byte
	copy(buf[:], chainTag)
	copy(buf[len(chainTag):], link[:])
	return sha256.Sum256(buf[:])
}

// Chain is a reverse hash chain: link[Length] = Root and
// link[i-1] = Prev(link[i]), prevLink unless Prev is set (the v1 chains of
// package legacy). link[0] is the public commitment.
type Chain struct {
	Root   Hash
	Length uint64
	// Prev hashes a link to the one before it; prevLink when nil.
	Prev func(link Hash) Hash
	// Checkpoints, when set (by WithCheckpoints), hold link[c*checkpointEvery]
	// for c = 0, 1, ..., so that Link costs fewer than checkpointEvery
	// hashes instead of up to Length. They are as secret as the root.
	Checkpoints []Hash
}

// checkpointEvery is the spacing of a chain's checkpoints.
const checkpointEvery = 1024

// WithCheckpoints returns c with its checkpoints computed: one walk down
// the whole chain.
func (c Chain) WithCheckpoints() Chain {
	c.Checkpoints = make([]Hash, c.Length/checkpointEvery+1)
	h := c.Root
	for n := c.Length; ; n-- {
		if n%checkpointEvery == 0 {
			c.Checkpoints[n/checkpointEvery] = h
		}
		if n == 0 {
			break
		}
		h = c.prev(h)
	}
	return c
}

// Link returns link[i]. It costs Length-i hashes.
func (c Chain) Link(i uint64) (Hash, error) {
	if i > c.Length {
		return Hash{}, fmt.Errorf("dice: link %d: %w (length %d)", i, errChainExhausted, c.Length)
	}
	h, n := c.Root, c.Length
	// Start from the nearest checkpoint at or above i.
	if cp := (i + checkpointEvery - 1) / checkpointEvery; int(cp) < len(c.Checkpoints) && cp*checkpointEvery <= c.Length {
		h, n = c.Checkpoints[cp], cp*checkpointEvery
	}
	for ; n > i; n-- {
		h = c.prev(h)
	}
	return h, nil
}

func (c Chain) prev(h Hash) Hash {
	if c.Prev != nil {
		return c.Prev(h)
	}
	return prevLink(h)
}

// Commitment returns link[0], the value published at game creation.
func (c Chain) Commitment() Hash {
	h, _ := c.Link(0) // link 0 always exists
	return h
}
