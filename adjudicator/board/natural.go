package board

// NaturalCompare compares two ids as a player reads them: runs of digits
// by their number, the rest by its characters, so that ARBIH-2 comes
// before ARBIH-10 and 1/2 before 1/10. Of two ids that read the same but
// for leading zeros, the one with fewer comes first (7 before 07); it returns -1, 0 or +1 as cmp.Compare does,
// and 0 only when a and b are the same string.
func NaturalCompare(a, b string) int {
	tie := 0 // the first difference in leading zeros
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := a[:da], b[:db]
			// leading zeros say nothing of the value
			za, zb := trimZeros(na), trimZeros(nb)
			switch {
			case len(za) != len(zb):
				return sign(len(za) - len(zb))
			case za != zb:
				if za < zb {
					return -1
				}
				return 1
			case tie == 0:
				tie = sign(len(na) - len(nb))
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	if c := sign(len(a) - len(b)); c != 0 {
		return c
	}
	return tie
}

// digits is the length of s's leading run of ASCII digits.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
