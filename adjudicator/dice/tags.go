package dice

import "encoding/binary"

// The domain strings of umpire-dice-v2 (docs/dice-log.md section 2); none is
// a prefix of another.
const (
	schemeV2     = "umpire-dice-v2"
	tagSealed    = "umpire-sealed-v2"
	tagKey       = "umpire-key-v2"
	tagStep      = "umpire-step-v2"
	tagStream    = "umpire-stream-v2"
	tagHide      = "umpire-hide-v2"
	tagRecord    = "umpire-record-v2"
	tagLog       = "umpire-log-v2"
	maxStreams   = 1024
	maxNameBytes = 64
)

// The domain strings umpire-dice-v3 adds (docs/dice-log.md section 2); the
// constructions it keeps use v2's. None of the twelve is a prefix of
// another.
const (
	// Scheme is the name of umpire-dice-v3, the scheme of new games' logs
	// (Header.Scheme).
	Scheme    = "umpire-dice-v3"
	tagSalt   = "umpire-salt-v3"
	tagSaltC  = "umpire-saltc-v3"
	tagOrder  = "umpire-order-v3"
	tagStepV3 = "umpire-step-v3"
	maxSeats  = 1024
)

// appendLP appends lp(s) = u32be(len(s)) || s.
func appendLP(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendLPBytes(b, s []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendU64(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }
