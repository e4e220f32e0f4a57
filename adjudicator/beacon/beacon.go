package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/cloudflare/circl/sign/bls"
)

// ErrInvalid says a beacon round does not verify, or a beacon cannot be
// used.
var ErrInvalid = errors.New("beacon round does not verify")

// Hash is a 32-byte value of a drand chain: its chain hash or a round's
// randomness. Its text form is lowercase hex.
type Hash [32]byte

// String returns the lowercase hex form of h.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

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

// MinDelay is the least delay umpire-dice-v3 accepts for a beacon of the
// given period: max(60, 10 * period) seconds, so that a step's round is
// unknowable to everyone when its close notice leaves, on any chain
// (docs/dice-log.md section 5).
func MinDelay(period uint64) uint64 { return max(minDelay, delayTimes*period) }

// The floor of MinDelay.
const (
	minDelay   = 60
	delayTimes = 10
)

// Periods writes a beacon's delay in periods, as verify prints it: 200,
// 2.5 (the shortest decimal that reads back as delay / period).
func Periods(delay, period uint64) string {
	return strconv.FormatFloat(float64(delay)/float64(period), 'f', -1, 64)
}

// Scheme is the only drand scheme umpire-dice-v2 accepts: unchained
// rounds, signatures on G1, keys on G2, RFC 9380 hashing.
const Scheme = "bls-unchained-g1-rfc9380"

// Chain is a drand-compatible public randomness beacon fixed in a game's
// header: its chain and the delay after a step's close before the round the
// step uses.
type Chain struct {
	ChainHash Hash
	Scheme    string
	PublicKey [96]byte // compressed G2 point
	Genesis   uint64   // Unix seconds of round 1
	Period    uint64   // seconds between rounds
	Delay     uint64   // seconds from a step's close to its round
}

// Round is one round of the beacon: its number, randomness
// ρ = SHA-256(σ) and signature σ (a compressed G1 point).
type Round struct {
	Round      uint64
	Randomness Hash
	Signature  [48]byte
}

// DefaultDelay is the delay a game gets when it names none: more than
// a mail takes to arrive, so that every seat has its close notice before
// the round is published.
const DefaultDelay = 600

// Quicknet is drand's quicknet chain (drand/drand common/chain/info_test.go).
var Quicknet = Chain{
	ChainHash: mustHash("52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"),
	Scheme:    Scheme,
	PublicKey: [96]byte(mustHex("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a")),
	Genesis:   1692803367,
	Period:    3,
	Delay:     DefaultDelay,
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func mustHash(s string) Hash { return Hash(mustHex(s)) }

// Network names the beacon's network when its chain hash, key, genesis and
// period are one this verifier knows ("drand quicknet"), and returns ""
// otherwise: a round signed by a key the operator holds proves nothing.
func (b *Chain) Network() string {
	if b.ChainHash == Quicknet.ChainHash && b.PublicKey == Quicknet.PublicKey && b.Genesis == Quicknet.Genesis && b.Period == Quicknet.Period {
		return "drand quicknet"
	}
	return ""
}

// RoundTime returns drand's TimeOfRound: genesis + (r - 1) * period.
func (b *Chain) RoundTime(r uint64) uint64 {
	if r == 0 {
		return 0
	}
	return b.Genesis + (r-1)*b.Period
}

// RoundFor returns R, the first round whose time is at or after close +
// delay: 1 if that is at or before genesis, else
// ceil((close + delay - genesis) / period) + 1.
func (b *Chain) RoundFor(close uint64) uint64 {
	t := close + b.Delay
	if t <= b.Genesis || b.Period == 0 {
		return 1
	}
	return (t-b.Genesis+b.Period-1)/b.Period + 1
}

// PublicKeyOK reports whether the key is a valid compressed G2 point, in
// the subgroup and not the identity.
func (b *Chain) PublicKeyOK() error {
	var pk bls.PublicKey[bls.KeyG2SigG1]
	if err := pk.UnmarshalBinary(b.PublicKey[:]); err != nil {
		return fmt.Errorf("%w: the beacon's public key: %w", ErrInvalid, err)
	}
	if !pk.Validate() {
		return fmt.Errorf("%w: the beacon's public key is not a valid G2 key", ErrInvalid)
	}
	return nil
}

// Verifier checks rounds of one beacon, parsing its key once.
type Verifier struct {
	b  Chain
	pk *bls.PublicKey[bls.KeyG2SigG1]
}

// NewVerifier returns a verifier of b's rounds.
func NewVerifier(b Chain) (*Verifier, error) {
	if b.Scheme != Scheme {
		return nil, fmt.Errorf("%w: scheme %q, only %s is accepted", ErrInvalid, b.Scheme, Scheme)
	}
	pk := new(bls.PublicKey[bls.KeyG2SigG1])
	if err := pk.UnmarshalBinary(b.PublicKey[:]); err != nil {
		return nil, fmt.Errorf("%w: the beacon's public key: %w", ErrInvalid, err)
	}
	if !pk.Validate() {
		return nil, fmt.Errorf("%w: the beacon's public key is not a valid G2 key", ErrInvalid)
	}
	return &Verifier{b: b, pk: pk}, nil
}

// Check verifies round r for a step closed at close: its number is R, its
// randomness is SHA-256 of its signature, and the signature is the beacon's
// BLS signature of SHA-256(u64be(round)).
func (v *Verifier) Check(close uint64, r *Round) error {
	if want := v.b.RoundFor(close); r.Round != want {
		return fmt.Errorf("%w: round %d, but a step closed at %d with a delay of %d s uses round %d", ErrInvalid, r.Round, close, v.b.Delay, want)
	}
	return v.CheckRound(r)
}

// CheckRound verifies a round's randomness and signature, whatever step it
// is for.
func (v *Verifier) CheckRound(r *Round) error {
	if sha256.Sum256(r.Signature[:]) != r.Randomness {
		return fmt.Errorf("%w: round %d: its randomness is not SHA-256 of its signature", ErrInvalid, r.Round)
	}
	var m [8]byte
	binary.BigEndian.PutUint64(m[:], r.Round)
	msg := sha256.Sum256(m[:])
	if !bls.Verify(v.pk, msg[:], r.Signature[:]) {
		return fmt.Errorf("%w: round %d: the signature does not verify under the beacon's public key", ErrInvalid, r.Round)
	}
	return nil
}
