package legacy

import (
	"crypto/sha256"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

const chainTag = "umpire-chain-v1"

// PrevLink returns link[i-1] of a v1 chain given link[i]:
// SHA-256("umpire-chain-v1" || link). A v1 game's chains are dice.Chain
// values with Prev set to it (Chain).
func PrevLink(link dice.Hash) dice.Hash {
	var buf [len(chainTag) + 32]byte
	copy(buf[:], chainTag)
	copy(buf[len(chainTag):], link[:])
	return sha256.Sum256(buf[:])
}

// LinkReaches reports whether hashing later n times with PrevLink gives earlier,
// that is whether later is link[j+n] of the chain whose link[j] is earlier.
func LinkReaches(later dice.Hash, n uint64, earlier dice.Hash) bool {
	for ; n > 0; n-- {
		later = PrevLink(later)
	}
	return later == earlier
}

// Chain returns the v1 chain of root and length, with its checkpoints
// (nil: none, computed with WithCheckpoints).
func Chain(root dice.Hash, length uint64, checkpoints []dice.Hash) dice.Chain {
	return dice.Chain{Root: root, Length: length, Checkpoints: checkpoints, Prev: PrevLink}
}
