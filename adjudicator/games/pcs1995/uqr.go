package pcs1995

import (
	"fmt"
	"strings"
)

// uqr is a ground unit's Unit Quality Rating, D (worst) to A (best) (2.0,
// 3.1). A bracketed UQR, printed [C], is one level better in combat against
// armor (8.1.1).
type uqr struct {
	Grade     int // 1 = D, 2 = C, 3 = B, 4 = A
	Bracketed bool
}

// parseUQR reads A, B, C or D, optionally in brackets: "[B]".
func parseUQR(s string) (uqr, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	var u uqr
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		u.Bracketed = true
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if len(t) != 1 || t[0] < 'A' || t[0] > 'D' {
		return uqr{}, fmt.Errorf("uqr %q: want A, B, C or D, or bracketed like [B]", s)
	}
	u.Grade = 4 - int(t[0]-'A')
	return u, nil
}

// Letter is the grade's letter, A to D, without brackets.
func (u uqr) Letter() string { return string(rune('A' + 4 - u.Grade)) }

// String is the rating as printed: "B" or "[B]".
func (u uqr) String() string {
	if u.Bracketed {
		return "[" + u.Letter() + "]"
	}
	return u.Letter()
}

// InCombat is the rating a unit fights with (8.1.1): a bracketed UQR
// improves one level against armor, never past A.
func (u uqr) InCombat(againstArmor bool) uqr {
	if u.Bracketed && againstArmor && u.Grade < 4 {
		return uqr{Grade: u.Grade + 1, Bracketed: true}
	}
	return u
}

// uqrcsa is the UQR difference CSA (8.1.1): only the side with the better
// rating gets it, one point per grade (A against D is +3). It returns the
// attacker's and the defender's CSA; at least one is 0.
func uqrcsa(attacker, defender uqr) (int, int) {
	d := attacker.Grade - defender.Grade
	if d > 0 {
		return d, 0
	}
	return 0, -d
}
