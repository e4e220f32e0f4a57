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

const (
	chainTag   = "umpire-chain-v1"
	chainTagV2 = "umpire-chain-v2"
)

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

// PrevLinkV2 returns open[i-1] of umpire-dice-v2 given open[i]:
// SHA-256("umpire-chain-v2" || link).
func PrevLinkV2(link Hash) Hash {
	var buf [len(chainTagV2) + 32]byte
	copy(buf[:], chainTagV2)
	copy(buf[len(chainTagV2):], link[:])
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
// link[i-1] = PrevLink(link[i]) (PrevLinkV2 when V2 is set). link[0] is the
// public commitment.
type Chain struct {
	Root   Hash
	Length uint64
	// V2 makes it an umpire-dice-v2 chain, hashed with "umpire-chain-v2".
	V2 bool
	// Checkpoints, when set (by WithCheckpoints), hold link[c*CheckpointEvery]
	// for c = 0, 1, ..., so that Link costs fewer than CheckpointEvery
	// hashes instead of up to Length. They are as secret as the root.
	Checkpoints []Hash
}

// CheckpointEvery is the spacing of a chain's checkpoints.
const CheckpointEvery = 1024

// WithCheckpoints returns c with its checkpoints computed: one walk down
// the whole chain.
func (c Chain) WithCheckpoints() Chain {
	c.Checkpoints = make([]Hash, c.Length/CheckpointEvery+1)
	h := c.Root
	for n := c.Length; ; n-- {
		if n%CheckpointEvery == 0 {
			c.Checkpoints[n/CheckpointEvery] = h
		}
		if n == 0 {
			break
		}
		h = c.prev(h)
	}
	return c
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
	h, n := c.Root, c.Length
	// Start from the nearest checkpoint at or above i.
	if cp := (i + CheckpointEvery - 1) / CheckpointEvery; int(cp) < len(c.Checkpoints) && cp*CheckpointEvery <= c.Length {
		h, n = c.Checkpoints[cp], cp*CheckpointEvery
	}
	for ; n > i; n-- {
		h = c.prev(h)
	}
	return h, nil
}

func (c Chain) prev(h Hash) Hash {
	if c.V2 {
		return PrevLinkV2(h)
	}
	return PrevLink(h)
}

// Commitment returns link[0], the value published at game creation.
func (c Chain) Commitment() Hash {
	h, _ := c.Link(0) // link 0 always exists
	return h
}
