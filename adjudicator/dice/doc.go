// Package dice implements umpire-dice-v1, the verifiable dice scheme of
// umpire: reverse hash chains whose commitments are published before any
// order exists, per-step byte streams bound to the accepted orders,
// rejection-sampled dice and Fisher-Yates shuffles, and a hash-chained log of
// every draw that anyone can check offline from its public export.
//
// The scheme is specified in docs/dice-log.md. Names used here follow it:
// a Link is one element of a chain, D_k (StepDigest) binds step k to its
// orders, a Stream is the HMAC byte stream of one link, and an Entry is one
// logged draw.
package dice
