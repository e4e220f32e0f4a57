package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
)

// OrderSalt returns t(seat) = HMAC(sealed root, "umpire-salt-v3" ||
// lp(seat)), the secret that keys a seat's order digests in an
// umpire-dice-v3 game. The judge gives it to the seat's holder alone; it
// is public once the end record makes the root public.
func OrderSalt(root Hash, seat string) Hash {
	mac := hmac.New(sha256.New, root[:])
	b := make([]byte, 0, len(tagSalt)+4+len(seat))
	b = append(b, tagSalt...)
	mac.Write(appendLP(b, seat))
	var out Hash
	mac.Sum(out[:0])
	return out
}

// saltCommitment returns T(seat) = SHA-256("umpire-saltc-v3" || t), the
// commitment to a seat's order salt that the start record holds.
func saltCommitment(salt Hash) Hash {
	var b [len(tagSaltC) + 32]byte
	copy(b[:], tagSaltC)
	copy(b[len(tagSaltC):], salt[:])
	return sha256.Sum256(b[:])
}

// OrderDigest returns the digest of an order file in an umpire-dice-v3
// game: HMAC(t(seat), "umpire-order-v3" || u64be(for_step) ||
// u64be(version) || signed bytes). Without the salt it tells nothing of
// the text, however small the game's order grammar.
func OrderDigest(salt Hash, forStep, version uint64, signed []byte) Hash {
	mac := hmac.New(sha256.New, salt[:])
	var b [len(tagOrder) + 16]byte
	copy(b[:], tagOrder)
	binary.BigEndian.PutUint64(b[len(tagOrder):], forStep)
	binary.BigEndian.PutUint64(b[len(tagOrder)+8:], version)
	mac.Write(b[:])
	mac.Write(signed)
	var out Hash
	mac.Sum(out[:0])
	return out
}
