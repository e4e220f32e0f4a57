package adjudicator_test

import (
	"math"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// FuzzParseMapAlign: any text is read or refused; what is read has finite
// positive scales and reads back the same from its String.
func FuzzParseMapAlign(f *testing.F) {
	f.Add("40 38.5 24 24.5")
	f.Add("x0=1 y0=2 sx=3 sy=4")
	f.Add("1 2 0x1p-2 4")
	f.Add("x0= y0=2 sx=3 sy=4 ")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := adjudicator.ParseMapAlign(s)
		if err != nil {
			return
		}
		for _, v := range []float64{a.X0, a.Y0, a.SX, a.SY} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q read as %+v", s, a)
			}
		}
		if a.SX <= 0 || a.SY <= 0 {
			t.Fatalf("%q read with scales %g, %g", s, a.SX, a.SY)
		}
		if b, err := adjudicator.ParseMapAlign(a.String()); err != nil || b != a {
			t.Fatalf("%q: %+v written %q reads %+v, %v", s, a, a.String(), b, err)
		}
	})
}
