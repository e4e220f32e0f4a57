package resolve

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// span is the range of one value a spec draws.
type span struct{ lo, hi int }

// spans lists the range of each value spec draws, in order: a die reads
// Base..Base+Faces-1, a chit 0..M-1, the k-th value of a shuffle of M items
// 0..M-1-k (docs/dice-log.md, "Streams and draws").
func spans(sp spec.Spec) []span {
	n := sp.Draws()
	out := make([]span, n)
	for k := range out {
		switch sp.Kind {
		case spec.KindDice:
			out[k] = span{sp.Base, sp.Base + sp.Faces - 1}
		case spec.KindChit:
			out[k] = span{0, sp.Faces - 1}
		default:
			out[k] = span{0, sp.Faces - 1 - k}
		}
	}
	return out
}

// Draw is one value a procedure drew: the face and what it was for.
type Draw struct {
	Face    int
	Spec    spec.Spec
	Purpose string
}

// Forced answers draws with the faces a player gave (dice=), in order. When
// the faces run out or one is out of range it goes on with the lowest face
// so the procedure finishes and the count of draws it needs is known; Err
// then says what was wrong.
type Forced struct {
	faces []int
	next  int
	drawn []Draw
	bad   error
	need  int
}

// NewForced returns a roller giving faces in order.
func NewForced(faces []int) *Forced { return &Forced{faces: faces} }

// Draw implements dice.Roller.
func (f *Forced) Draw(_ string, sp spec.Spec, purpose string) []int {
	out := make([]int, 0, sp.Draws())
	for _, s := range spans(sp) {
		f.need++
		v := s.lo
		if f.next < len(f.faces) {
			v = f.faces[f.next]
			if (v < s.lo || v > s.hi) && f.bad == nil {
				f.bad = Bad("dice", "die %d is %d, but %s (%s) reads %d to %d", f.next+1, v, purposeOf(purpose), sp, s.lo, s.hi)
				v = s.lo
			}
			f.next++
		}
		f.drawn = append(f.drawn, Draw{v, sp, purpose})
		out = append(out, v)
	}
	return out
}

// Err reports a face out of range, or too few or too many faces for what
// the procedure drew.
func (f *Forced) Err() error {
	if f.bad != nil {
		return f.bad
	}
	if f.need != len(f.faces) {
		return Bad("dice", "%d given, but with these inputs the procedure draws %d (%s)", len(f.faces), f.need, describe(f.drawn))
	}
	return nil
}

// Drawn lists the draws made.
func (f *Forced) Drawn() []Draw { return f.drawn }

// Fresh rolls with crypto/rand and remembers the faces.
type Fresh struct{ drawn []Draw }

// Draw implements dice.Roller.
func (f *Fresh) Draw(_ string, sp spec.Spec, purpose string) []int {
	out := make([]int, 0, sp.Draws())
	for _, s := range spans(sp) {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(s.hi-s.lo+1)))
		if err != nil {
			panic(fmt.Sprintf("resolve: crypto/rand: %v", err))
		}
		v := s.lo + int(n.Int64())
		f.drawn = append(f.drawn, Draw{v, sp, purpose})
		out = append(out, v)
	}
	return out
}

// Drawn lists the draws made.
func (f *Fresh) Drawn() []Draw { return f.drawn }

func purposeOf(p string) string {
	if p == "" {
		return "that die"
	}
	return p
}

// describe says what was drawn in a few words: "2 dice: d10(0-9) attacker
// combat roll, d10(0-9) defender combat roll".
func describe(drawn []Draw) string {
	if len(drawn) == 0 {
		return "no dice"
	}
	parts := make([]string, len(drawn))
	for i, d := range drawn {
		parts[i] = d.Spec.String()
		if d.Spec.Kind == spec.KindDice && d.Spec.Count > 1 {
			parts[i] = fmt.Sprintf("1d%d", d.Spec.Faces)
			if d.Spec.Base != 1 {
				parts[i] += fmt.Sprintf("(%d-%d)", d.Spec.Base, d.Spec.Base+d.Spec.Faces-1)
			}
		}
		if d.Purpose != "" {
			parts[i] += " " + d.Purpose
		}
	}
	return strings.Join(parts, "; ")
}

// facesOf returns the faces of drawn.
func facesOf(drawn []Draw) []int {
	out := make([]int, len(drawn))
	for i, d := range drawn {
		out[i] = d.Face
	}
	return out
}
