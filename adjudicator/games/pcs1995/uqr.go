package pcs1995

import (
	"fmt"
	"strings"
)

// UQR is a ground unit's Unit Quality Rating, D (worst) to A (best) (2.0,
// 3.1). A bracketed UQR, printed [C], is one level better in combat against
// armor (8.1.1).
type UQR struct {
	Grade     int // 1 = D, 2 = C, 3 = B, 4 = A
	Bracketed bool
}

// ParseUQR reads A, B, C or D, optionally in brackets: "[B]".
func ParseUQR(s string) (UQR, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	var u UQR
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		u.Bracketed = true
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if len(t) != 1 || t[0] < 'A' || t[0] > 'D' {
		return UQR{}, fmt.Errorf("uqr %q: want A, B, C or D, or bracketed like [B]", s)
	}
	u.Grade = 4 - int(t[0]-'A')
	return u, nil
}

// Letter is the grade's letter, A to D, without brackets.
func (u UQR) Letter() string { return string(rune('A' + 4 - u.Grade)) }

// String is the rating as printed: "B" or "[B]".
func (u UQR) String() string {
	if u.Bracketed {
		return "[" + u.Letter() + "]"
	}
	return u.Letter()
}

// InCombat is the rating a unit fights with (8.1.1): a bracketed UQR
// improves one level against armor, never past A.
func (u UQR) InCombat(againstArmor bool) UQR {
	if u.Bracketed && againstArmor && u.Grade < 4 {
		return UQR{Grade: u.Grade + 1, Bracketed: true}
	}
	return u
}

// UQRCSA is the UQR difference CSA (8.1.1): only the side with the better
// rating gets it, one point per grade (A against D is +3). It returns the
// attacker's and the defender's CSA; at least one is 0.
func UQRCSA(attacker, defender UQR) (int, int) {
	d := attacker.Grade - defender.Grade
	if d > 0 {
		return d, 0
	}
	return 0, -d
}
