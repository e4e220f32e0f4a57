package site

import (
	"strconv"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// reading is a track as the page says it after its name: its word, or its
// value with the track's range when it has one. A track counted from 0 or
// 1 reads "6 of 6" (Turn 6 of 6), one from further on says where it starts,
// "7 of 7 (from 5)" (a scenario begun at turn 5); one with signed values
// reads with its signs, "−1 on −7…+7" (FA Serb).
func reading(t board.Track) string {
	switch {
	case t.Text != "":
		return t.Text
	case t.Max <= 0:
		return number(t.Value, t.Min < 0)
	case t.Min < 0:
		return number(t.Value, true) + " on " + number(t.Min, true) + "…" + number(t.Max, true)
	case t.Min > 1:
		return number(t.Value, false) + " of " + number(t.Max, false) + " (from " + number(t.Min, false) + ")"
	}
	return number(t.Value, false) + " of " + number(t.Max, false)
}

// number writes n with a true minus sign, and a plus sign above zero when
// signed.
func number(n int, signed bool) string {
	switch {
	case n < 0:
		return "−" + strconv.Itoa(-n)
	case n > 0 && signed:
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
