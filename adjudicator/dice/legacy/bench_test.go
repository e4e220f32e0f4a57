package legacy

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// d6Export builds a log of steps*perStep d6 draws, dicePerEntry dice to an
// entry, over 64 steps with fixed roots.
func d6Export(tb testing.TB, draws, dicePerEntry int) *Export {
	tb.Helper()
	const steps = 64
	open := dice.Chain{Prev: PrevLink, Root: sha256.Sum256([]byte("bench open")), Length: steps}
	sealed := dice.Chain{Prev: PrevLink, Root: sha256.Sum256([]byte("bench sealed")), Length: steps}
	x := NewExport("bench", steps, open.Commitment(), sealed.Commitment())
	log := NewLog(open.Commitment(), sealed.Commitment())
	perStep := draws / steps
	for k := uint64(1); k <= steps; k++ {
		d := StepDigest(x.Game, k, "turn", []dice.Hash{OrderDigest([]byte{byte(k)})})
		ol, _ := open.Link(k)
		sl, _ := sealed.Link(k)
		r := NewStepRoller(log, k, d, ol, sl)
		for n := 0; n < perStep; n += dicePerEntry {
			dice.Roll(r, dicePerEntry, 6, "WbT 11.8 CRT roll, NATO attack on 1708 at 3:1")
		}
		x.Steps = append(x.Steps, ExportStep{Step: k, Phase: "turn", Orders: []dice.Hash{OrderDigest([]byte{byte(k)})}, Digest: d, Open: &ol, Sealed: &sl})
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
	msg := make([]byte, len(streamTag)+32+8)
	copy(msg, streamTag)
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
	log := NewLog(dice.Hash{1}, dice.Hash{2})
	r := NewStepRoller(log, 1, dice.Hash{3}, dice.Hash{4}, dice.Hash{5})
	for b.Loop() {
		dice.Roll(r, 1, 6, "benchmark roll")
		if len(r.records) > 1<<16 {
			r.records = r.records[:0]
		}
	}
}
