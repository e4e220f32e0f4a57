package legacy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// streamTag is the domain string of v1 streams (dice.NewStream), and of D_k.
const streamTag = "umpire-dice-v1"

// StepDigest returns D_k, which binds step k's dice to the step and to every
// accepted order file: SHA-256 of
//
//	"umpire-dice-v1" || 0x00 || u32be(len(game)) || game || u64be(step) ||
//	u32be(len(phase)) || phase || u32be(n) || d_1 || ... || d_n
//
// where d_1..d_n are the order digests sorted ascending bytewise. orders is
// not modified.
func StepDigest(game string, step uint64, phase string, orders []dice.Hash) dice.Hash {
	sorted := slices.Clone(orders)
	slices.SortFunc(sorted, func(a, b dice.Hash) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	b := make([]byte, 0, len(streamTag)+1+4+len(game)+8+4+len(phase)+4)
	b = append(b, streamTag...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(len(game)))
	b = append(b, game...)
	b = binary.BigEndian.AppendUint64(b, step)
	b = binary.BigEndian.AppendUint32(b, uint32(len(phase)))
	b = append(b, phase...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(sorted)))
	h.Write(b)
	for _, d := range sorted {
		h.Write(d[:])
	}
	var out dice.Hash
	h.Sum(out[:0])
	return out
}

// OrderDigest returns the SHA-256 digest of an order file's signed bytes, the
// d_i of StepDigest and the digest quoted on its receipt.
func OrderDigest(signed []byte) dice.Hash { return sha256.Sum256(signed) }
