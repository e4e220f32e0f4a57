// Package spec is the grammar of a dice draw's spec: what one draw of the
// verifiable dice yields (Spec), built by Dice, DiceFrom, Chit and Shuffle or
// parsed from its canonical text form by Parse ("2d6", "1d10(0-9)",
// "chit 3", "shuffle 5"; docs/dice-log.md). Games pass a Spec to
// dice.Roller's Draw; the log records its text; package dice draws its
// values from a stream.
package spec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBad says a draw spec is not in canonical form or out of limits.
var ErrBad = errors.New("bad dice spec")

// Kind says what a Spec draws.
type Kind uint8

// The kinds of draw.
const (
	// KindDice rolls Count dice with Faces faces, lowest face Base.
	KindDice Kind = iota
	// KindChit draws one chit from a cup of Faces chits: the value is the
	// drawn chit's index, 0 to Faces-1.
	KindChit
	// KindShuffle shuffles Faces items with Fisher-Yates from the top: the
	// values are the drawn j's, one per i from Faces-1 down to 1.
	KindShuffle
)

// Limits on what one entry may draw. They keep a hostile log from making a
// verifier allocate without bound; no game comes near them.
const (
	maxCount = 1 << 16
	maxFaces = 1 << 32
)

// Spec says what one log entry draws. Its canonical text form is logged and
// hashed, so String and Parse round-trip exactly:
//
//	NdF        N dice with faces 1..F            "2d6", "1d20"
//	NdF(B-T)   N dice with faces B..T, T=B+F-1   "1d10(0-9)"
//	chit M     one chit drawn from M, index 0..M-1
//	shuffle M  a Fisher-Yates shuffle of M items
type Spec struct {
	Kind  Kind
	Count int // dice rolled (KindDice); 1 otherwise
	Faces int // faces per die, chits in the cup, or items shuffled
	Base  int // lowest face (KindDice); 0 otherwise
}

// Dice returns the spec of count dice with faces 1..faces.
func Dice(count, faces int) Spec { return Spec{Kind: KindDice, Count: count, Faces: faces, Base: 1} }

// DiceFrom returns the spec of count dice with faces base..base+faces-1, such
// as the d10 read 0-9: DiceFrom(1, 10, 0).
func DiceFrom(count, faces, base int) Spec {
	return Spec{Kind: KindDice, Count: count, Faces: faces, Base: base}
}

// Chit returns the spec of one chit drawn from a cup of m.
func Chit(m int) Spec { return Spec{Kind: KindChit, Count: 1, Faces: m} }

// Shuffle returns the spec of a shuffle of m items.
func Shuffle(m int) Spec { return Spec{Kind: KindShuffle, Count: 1, Faces: m} }

// Draws returns how many values the spec yields.
func (s Spec) Draws() int {
	switch s.Kind {
	case KindDice:
		return s.Count
	case KindChit:
		return 1
	default:
		return max(s.Faces-1, 0)
	}
}

// String returns the canonical text form.
func (s Spec) String() string {
	switch s.Kind {
	case KindChit:
		return "chit " + strconv.Itoa(s.Faces)
	case KindShuffle:
		return "shuffle " + strconv.Itoa(s.Faces)
	}
	if s.Base == 1 {
		return fmt.Sprintf("%dd%d", s.Count, s.Faces)
	}
	return fmt.Sprintf("%dd%d(%d-%d)", s.Count, s.Faces, s.Base, s.Base+s.Faces-1)
}

// Validate reports whether the spec is within the scheme's limits.
func (s Spec) Validate() error {
	switch s.Kind {
	case KindDice:
		if s.Count < 1 || s.Count > maxCount {
			return fmt.Errorf("%w: %d dice (1 to %d)", ErrBad, s.Count, maxCount)
		}
		if s.Base < 0 || s.Base > maxFaces {
			return fmt.Errorf("%w: lowest face %d (0 to 2^32)", ErrBad, s.Base)
		}
	case KindChit, KindShuffle:
		if s.Count != 1 || s.Base != 0 {
			return fmt.Errorf("%w: count and base are fixed for chits and shuffles", ErrBad)
		}
		if s.Kind == KindShuffle && s.Faces > maxCount {
			return fmt.Errorf("%w: shuffle of %d items (at most %d)", ErrBad, s.Faces, maxCount)
		}
	default:
		return fmt.Errorf("%w: unknown kind %d", ErrBad, s.Kind)
	}
	if s.Faces < 1 || uint64(s.Faces) > maxFaces {
		return fmt.Errorf("%w: %d faces (1 to 2^32)", ErrBad, s.Faces)
	}
	return nil
}

// Parse parses the canonical text form; anything else is an error, so
// that one draw has exactly one spelling in the hashed log.
func Parse(text string) (Spec, error) {
	bad := func() (Spec, error) {
		return Spec{}, fmt.Errorf("%w: %q is not NdF, NdF(B-T), chit M or shuffle M", ErrBad, text)
	}
	var s Spec
	switch {
	case strings.HasPrefix(text, "chit "):
		m, ok := atoi(text[len("chit "):])
		if !ok {
			return bad()
		}
		s = Chit(m)
	case strings.HasPrefix(text, "shuffle "):
		m, ok := atoi(text[len("shuffle "):])
		if !ok {
			return bad()
		}
		s = Shuffle(m)
	default:
		count, rest, found := strings.Cut(text, "d")
		if !found {
			return bad()
		}
		n, ok := atoi(count)
		if !ok {
			return bad()
		}
		faces, rng, ranged := strings.Cut(rest, "(")
		f, ok := atoi(faces)
		if !ok {
			return bad()
		}
		s = Dice(n, f)
		if ranged {
			lo, hi, ok := strings.Cut(strings.TrimSuffix(rng, ")"), "-")
			b, okb := atoi(lo)
			t, okt := atoi(hi)
			if !ok || !okb || !okt || !strings.HasSuffix(rng, ")") || t != b+f-1 || b == 1 {
				return bad()
			}
			s.Base = b
		}
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	if s.String() != text {
		return bad()
	}
	return s, nil
}

// atoi parses a canonical non-negative decimal: no sign, no leading zero.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// ApplyShuffle applies the j's of a shuffle entry to items in place:
// for i from len(items)-1 down to 1, swap items[i] and items[js[k]], k = 0, 1, ...
// It panics if len(js) != len(items)-1 or a j is out of range.
func ApplyShuffle[T any](items []T, js []int64) {
	if len(js) != max(len(items)-1, 0) {
		panic(fmt.Sprintf("dice: %d shuffle values for %d items", len(js), len(items)))
	}
	for k, i := 0, len(items)-1; i >= 1; k, i = k+1, i-1 {
		j := js[k]
		items[i], items[j] = items[j], items[i]
	}
}
