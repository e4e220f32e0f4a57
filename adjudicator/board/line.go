package board

// This file holds straight lines over the hex grid: the hexes a line from
// one hex centre to another passes through, for line of sight.

// Line lists the hexes a straight line from the centre of a to the centre
// of b passes through, a first and b last: Distance(a, b)+1 hexes, each
// adjacent to the one before. A line running exactly along hexsides passes
// between two hexes; Line nudges it a hair to one side (LineOther to the
// other), so the pair of them covers both readings.
func (g Grid) Line(a, b ID) []ID { return g.line(a, b, 1) }

// LineOther is Line nudged to the other side.
func (g Grid) LineOther(a, b ID) []ID { return g.line(a, b, -1) }

func (g Grid) line(a, b ID, side float64) []ID {
	n := g.Distance(a, b)
	aq, ar := g.axial(a)
	bq, br := g.axial(b)
	// nudge both ends by the same small cube offset (its parts sum to 0), so
	// no point of the line lies exactly on a hexside.
	const e = 1e-6
	eq, er := side*e, side*2*e
	out := make([]ID, 0, n+1)
	out = append(out, a)
	for i := 1; i < n; i++ {
		t := float64(i) / float64(n)
		q := float64(aq) + eq + (float64(bq)-float64(aq))*t
		r := float64(ar) + er + (float64(br)-float64(ar))*t
		rq, rr := cubeRound(q, r)
		out = append(out, g.fromAxial(rq, rr))
	}
	if n > 0 {
		out = append(out, b)
	}
	return out
}

// cubeRound rounds fractional axial coordinates to the hex containing them.
func cubeRound(q, r float64) (int, int) {
	s := -q - r
	rq, rr, rs := roundHalf(q), roundHalf(r), roundHalf(s)
	dq, dr, ds := absf(rq-q), absf(rr-r), absf(rs-s)
	switch {
	case dq > dr && dq > ds:
		rq = -rr - rs
	case dr > ds:
		rr = -rq - rs
	}
	return int(rq), int(rr)
}

func roundHalf(x float64) float64 {
	if x < 0 {
		return -roundHalf(-x)
	}
	return float64(int64(x + 0.5))
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Between lists the hexes strictly between a and b on a line (Line without
// its ends).
func Between(line []ID) []ID {
	if len(line) <= 2 {
		return nil
	}
	return line[1 : len(line)-1]
}

// Visible reports whether b can be seen from a: whether Line or LineOther
// passes no hex strictly between them for which blocks is true. The ends
// never block (a unit sees into and out of its own hex).
func (g Grid) Visible(a, b ID, blocks func(ID) bool) bool {
	clear := func(line []ID) bool {
		for _, h := range Between(line) {
			if blocks(h) {
				return false
			}
		}
		return true
	}
	return clear(g.Line(a, b)) || clear(g.LineOther(a, b))
}
