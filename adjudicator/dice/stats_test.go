package dice

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// chiSquare returns the chi-square statistic of counts against a uniform
// expectation.
func chiSquare(counts []int, total int) float64 {
	exp := float64(total) / float64(len(counts))
	var x float64
	for _, c := range counts {
		d := float64(c) - exp
		x += d * d / exp
	}
	return x
}

// Critical values of the chi-square distribution at p = 0.001, by degrees of
// freedom: a fair die exceeds them once in a thousand seeds.
var chiCritical001 = map[int]float64{5: 20.515, 7: 24.322, 9: 27.877, 19: 43.820, 23: 49.728}

func testStream(name string) *Stream {
	return NewStream("umpire-dice-v1", sha256.Sum256([]byte("link "+name)), sha256.Sum256([]byte("digest "+name)))
}

func TestDiceUnbiased(t *testing.T) {
	const draws = 1_000_000
	for _, sp := range []spec.Spec{spec.Dice(1, 6), spec.Dice(1, 8), spec.DiceFrom(1, 10, 0), spec.Dice(1, 20)} {
		t.Run(sp.String(), func(t *testing.T) {
			s := testStream(sp.String())
			counts := make([]int, sp.Faces)
			var buf []int64
			for range draws {
				buf = s.Draw(sp, buf[:0])
				v := int(buf[0]) - sp.Base
				if v < 0 || v >= sp.Faces {
					t.Fatalf("face %d outside %s", buf[0], sp)
				}
				counts[v]++
			}
			x, crit := chiSquare(counts, draws), chiCritical001[sp.Faces-1]
			t.Logf("%s over %d draws: chi-square %.2f (critical %.2f at p=0.001), counts %v", sp, draws, x, crit, counts)
			if x > crit {
				t.Errorf("%s is biased: chi-square %.2f > %.2f", sp, x, crit)
			}
		})
	}
}

// TestChiSquareHasPower shows the test above can fail: a die that is wrong
// in one face in a hundred is caught at the same sample size.
func TestChiSquareHasPower(t *testing.T) {
	const draws = 1_000_000
	s := testStream("biased")
	counts := make([]int, 6)
	for i := range draws {
		v := s.Intn(6)
		if i%100 == 0 {
			v = 5 // a die that shows 6 a little too often
		}
		counts[v]++
	}
	if x := chiSquare(counts, draws); x <= chiCritical001[5] {
		t.Errorf("a biased d6 passed: chi-square %.2f", x)
	}
}

func TestShuffleUniform(t *testing.T) {
	const shuffles = 240_000
	s := testStream("shuffle")
	counts := map[string]int{}
	var js []int64
	for range shuffles {
		js = s.Draw(spec.Shuffle(4), js[:0])
		items := []byte("abcd")
		spec.ApplyShuffle(items, js)
		counts[string(items)]++
	}
	if len(counts) != 24 {
		t.Fatalf("shuffles of 4 gave %d distinct permutations, want 24", len(counts))
	}
	c := make([]int, 0, 24)
	for _, n := range counts {
		c = append(c, n)
	}
	x := chiSquare(c, shuffles)
	t.Logf("permutations of 4 over %d shuffles: chi-square %.2f (critical %.2f)", shuffles, x, chiCritical001[23])
	if x > chiCritical001[23] {
		t.Errorf("shuffle is not uniform over permutations: chi-square %.2f", x)
	}
}

// TestRejectionSampling checks the discard rule on a die where it bites:
// with n = 2^31+1 faces, words >= 2^32 - (2^32 mod n) = n are discarded.
func TestRejectionSampling(t *testing.T) {
	const n = 1<<31 + 1
	s, raw := testStream("reject"), testStream("reject")
	rejected := 0
	for range 1000 {
		got := s.Intn(n)
		var want uint64
		for {
			x := uint64(raw.Uint32())
			if x < n {
				want = x
				break
			}
			rejected++
		}
		if got != want {
			t.Fatalf("Intn(2^31+1) = %d, want %d", got, want)
		}
	}
	if s.Word() != raw.Word() {
		t.Errorf("stream at word %d, want %d", s.Word(), raw.Word())
	}
	if rejected == 0 {
		t.Error("no word was discarded in 1000 draws of a die that discards half of them")
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"2d6", "1d10(0-9)", "chit 3", "shuffle 5", "1d4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := spec.Parse(text)
		if err != nil {
			return
		}
		if s.String() != text {
			t.Fatalf("accepted %q but it prints as %q", text, s.String())
		}
		if s.Kind == spec.KindDice && s.Faces <= 1<<20 && s.Count <= 64 {
			vals := testStream("fuzz").Draw(s, nil)
			for _, v := range vals {
				if v < int64(s.Base) || v >= int64(s.Base)+int64(s.Faces) {
					panic(fmt.Sprintf("%s drew %d", text, v))
				}
			}
		}
	})
}

// BenchmarkStreamD6 is the cost of one d6 read from a stream, unlogged.
func BenchmarkStreamD6(b *testing.B) {
	s := testStream("bench")
	var buf []int64
	for b.Loop() {
		buf = s.Draw(spec.Dice(1, 6), buf[:0])
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
