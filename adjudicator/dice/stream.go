package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Stream is the byte stream of one key for one step: block j is
// HMAC-SHA256(key, msg = domain || D_k || u64be(j)), read as 32-bit
// big-endian words; block j holds words 8j to 8j+7.
type Stream struct {
	mac   hash.Hash
	msg   []byte // domain || D_k || u64be(j), j rewritten per block
	block uint64 // the block held in buf
	valid bool
	buf   [32]byte
	word  uint64 // index of the next word to read
}

// NewStream returns the stream of key under domain for the step whose
// digest is d, positioned at word 0. The domain is "umpire-stream-v2" in
// v2 and v3 logs (draws use it through StepRoller and VerifyStream) and
// "umpire-dice-v1" in v1 logs (package legacy).
func NewStream(domain string, key, d Hash) *Stream {
	msg := make([]byte, 0, len(domain)+32+8)
	msg = append(msg, domain...)
	msg = append(msg, d[:]...)
	msg = append(msg, make([]byte, 8)...)
	return &Stream{mac: hmac.New(sha256.New, key[:]), msg: msg}
}

// newStream returns the v2 and v3 stream of key for the step whose digest
// is d: block j = HMAC(key, "umpire-stream-v2" || D_k || u64be(j)).
func newStream(key, d Hash) *Stream { return NewStream(tagStream, key, d) }

// Block returns block j of the stream. It does not move the read position.
func (s *Stream) Block(j uint64) Hash {
	var out Hash
	s.compute(j, out[:0])
	return out
}

func (s *Stream) compute(j uint64, dst []byte) {
	binary.BigEndian.PutUint64(s.msg[len(s.msg)-8:], j)
	s.mac.Reset()
	s.mac.Write(s.msg)
	s.mac.Sum(dst)
}

// Word returns the index of the next word the stream will read.
func (s *Stream) Word() uint64 { return s.word }

// Seek positions the stream so that the next word read is word.
func (s *Stream) Seek(word uint64) { s.word = word }

// Uint32 reads the next word.
func (s *Stream) Uint32() uint32 {
	b := s.word / 8
	if !s.valid || b != s.block {
		s.compute(b, s.buf[:0])
		s.block, s.valid = b, true
	}
	off := (s.word % 8) * 4
	s.word++
	return binary.BigEndian.Uint32(s.buf[off : off+4])
}

// Intn returns a value uniform in [0, n) by rejection sampling: it reads a
// word x and discards it while x >= 2^32 - (2^32 mod n). n must be in
// [1, 2^32].
func (s *Stream) Intn(n uint64) uint64 {
	const span = 1 << 32
	limit := span - span%n
	for {
		x := uint64(s.Uint32())
		if x < limit {
			return x % n
		}
	}
}

// Draw reads the values of a draw of sp from the stream, appending them to
// dst.
func (st *Stream) Draw(sp spec.Spec, dst []int64) []int64 {
	switch sp.Kind {
	case spec.KindDice:
		for range sp.Count {
			dst = append(dst, int64(sp.Base)+int64(st.Intn(uint64(sp.Faces))))
		}
	case spec.KindChit:
		dst = append(dst, int64(st.Intn(uint64(sp.Faces))))
	case spec.KindShuffle:
		for i := sp.Faces - 1; i >= 1; i-- {
			dst = append(dst, int64(st.Intn(uint64(i+1))))
		}
	}
	return dst
}
