package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"testing"
	"time"
)

// d6Export builds a log of steps*perStep d6 draws, dicePerEntry dice to an
// entry, over 64 steps with fixed roots.
func d6Export(tb testing.TB, draws, dicePerEntry int) *Export {
	tb.Helper()
	const steps = 64
	open := Chain{Root: sha256.Sum256([]byte("bench open")), Length: steps}
	sealed := Chain{Root: sha256.Sum256([]byte("bench sealed")), Length: steps}
	x := NewExport("bench", steps, open.Commitment(), sealed.Commitment())
	log := NewLog(open.Commitment(), sealed.Commitment())
	perStep := draws / steps
	for k := uint64(1); k <= steps; k++ {
		d := StepDigest(x.Game, k, "turn", []Hash{OrderDigest([]byte{byte(k)})})
		ol, _ := open.Link(k)
		sl, _ := sealed.Link(k)
		r := NewStepRoller(log, k, d, ol, sl)
		for n := 0; n < perStep; n += dicePerEntry {
			Roll(r, dicePerEntry, 6, "WbT 11.8 CRT roll, NATO attack on 1708 at 3:1")
		}
		x.Steps = append(x.Steps, ExportStep{Step: k, Phase: "turn", Orders: []Hash{OrderDigest([]byte{byte(k)})}, Digest: d, Open: &ol, Sealed: &sl})
		for _, rec := range r.Records() {
			x.AddRecord(rec, false)
		}
	}
	return x
}

// rawHMACBlocks times n HMAC-SHA256 blocks of the stream's shape, the floor
// any verifier of this scheme pays.
func rawHMACBlocks(n int) time.Duration {
	key := sha256.Sum256([]byte("key"))
	mac := hmac.New(sha256.New, key[:])
	msg := make([]byte, len(diceTag)+32+8)
	copy(msg, diceTag)
	var out [32]byte
	start := time.Now()
	for j := range n {
		binary.BigEndian.PutUint64(msg[len(msg)-8:], uint64(j))
		mac.Reset()
		mac.Write(msg)
		mac.Sum(out[:0])
	}
	return time.Since(start)
}

// BenchmarkVerify verifies 2^20 d6 draws and prints, beside the time, the
// draws per second, the time of as many raw HMAC-SHA256 blocks as draws, and
// the ratio of the two (target: >= 1e6 draws/s and ratio <= 2).
func BenchmarkVerify(b *testing.B) {
	const draws = 1 << 20
	for _, per := range []int{1, 2} {
		name := map[int]string{1: "1d6-entries", 2: "2d6-entries"}[per]
		b.Run(name, func(b *testing.B) {
			x := d6Export(b, draws, per)
			b.ResetTimer()
			for b.Loop() {
				if res := Verify(x, nil); !res.OK() {
					b.Fatal(res.Problem)
				}
			}
			b.StopTimer()
			perDraw := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / draws
			hmacPer := float64(rawHMACBlocks(draws).Nanoseconds()) / draws
			b.ReportMetric(1e9/perDraw, "draws/s")
			b.ReportMetric(perDraw, "ns/draw")
			b.ReportMetric(hmacPer, "ns/hmac-block")
			b.ReportMetric(perDraw/hmacPer, "verify/hmac")
		})
	}
}

// BenchmarkDraw is the cost of one d6 drawn and logged by a StepRoller.
func BenchmarkDraw(b *testing.B) {
	log := NewLog(Hash{1}, Hash{2})
	r := NewStepRoller(log, 1, Hash{3}, Hash{4}, Hash{5})
	for b.Loop() {
		Roll(r, 1, 6, "benchmark roll")
		if len(r.records) > 1<<16 {
			r.records = r.records[:0]
		}
	}
}

// BenchmarkStreamD6 is the cost of one d6 read from a stream, unlogged.
func BenchmarkStreamD6(b *testing.B) {
	s := testStream("bench")
	var buf []int64
	for b.Loop() {
		buf = Dice(1, 6).Draw(s, buf[:0])
	}
}

// BenchmarkRawHMACBlock is one HMAC-SHA256 block of the stream's shape.
func BenchmarkRawHMACBlock(b *testing.B) {
	s := testStream("bench")
	var j uint64
	for b.Loop() {
		s.Block(j)
		j++
	}
}
