package dice

import (
	"maps"
	"slices"
)

// start3 reads and checks a v3 start record (docs/dice-log.md section 10,
// item 4): its seats sorted bytewise and distinct, 1 to 64 bytes, 1 to
// 1024 of them; with the sealed root, every salt commitment; the salts a
// seat gave (VerifyOptions.Salts) against theirs.
func (v *verifier2) start3() {
	s := v.s
	fail := func(format string, args ...any) { v.failAt(TypeStart, 0, 0, format, args...) }
	if !s.member("seats") || !s.expect('[') {
		return
	}
	v.body = binaryU32(v.body, 0)
	if s.ws() == ']' {
		fail("the start record names no seat: a game has 1 to %d", maxSeats)
		return
	}
	v.seats, v.saltComm = v.seats[:0], v.saltComm[:0]
	for {
		if !s.expect('{') || !s.member("seat") {
			return
		}
		seat, ok := s.str(v.sbuf[3][:0])
		if !ok {
			return
		}
		v.sbuf[3] = seat
		if len(seat) < 1 || len(seat) > maxNameBytes {
			fail("a seat of %d bytes (1 to %d)", len(seat), maxNameBytes)
			return
		}
		if n := len(v.seats); n > 0 && v.seats[n-1] >= string(seat) {
			fail("its seats are not sorted bytewise with each seat once (%q after %q)", seat, v.seats[n-1])
			return
		}
		if len(v.seats) == maxSeats {
			fail("more than %d seats", maxSeats)
			return
		}
		var join, tc Hash
		if !s.expect(',') || !s.member("join") || !s.hex("join", join[:]) ||
			!s.expect(',') || !s.member("salt_commitment") || !s.hex("salt_commitment", tc[:]) || !s.expect('}') {
			return
		}
		if v.root != nil && saltCommitment(OrderSalt(*v.root, string(seat))) != tc {
			fail("the salt commitment of seat %q is not the one the sealed root gives: the judge committed to another salt", seat)
			return
		}
		v.body = appendLPBytes(v.body, seat)
		v.body = append(v.body, join[:]...)
		v.body = append(v.body, tc[:]...)
		v.seats = append(v.seats, string(seat))
		v.saltComm = append(v.saltComm, tc)
		if !join.IsZero() {
			v.res.Joined++
		}
		if !s.more(']') {
			break
		}
	}
	if !s.expect(']') {
		return
	}
	n := len(v.seats)
	v.body[0], v.body[1], v.body[2], v.body[3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	v.res.Seats = n
	// The salts known: every seat's from the root; a seat's own, given.
	v.salts, v.watch = map[int]Hash{}, map[int]int{}
	for _, seat := range slices.Sorted(maps.Keys(v.opt.Salts)) {
		salt := v.opt.Salts[seat]
		i, ok := v.seatIndex([]byte(seat))
		if !ok {
			fail("a salt was given for seat %q, which the start record does not name", seat)
			return
		}
		if saltCommitment(salt) != v.saltComm[i] {
			fail("the salt given for seat %q does not hash to its salt commitment: it is not the salt the judge committed to (or it was mistyped)", seat)
			return
		}
		v.salts[i] = salt
		v.watch[i] = len(v.res.Salts)
		v.res.Salts = append(v.res.Salts, SaltCheck{Seat: seat, Entries: []SeatOrders{}})
	}
	if v.root != nil && v.opt.OrderFile != nil {
		for i, seat := range v.seats {
			v.salts[i] = OrderSalt(*v.root, seat)
		}
	}
}

// seatIndex finds seat among the start record's seats.
func (v *verifier2) seatIndex(seat []byte) (int, bool) {
	lo, hi := 0, len(v.seats)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmpStringBytes(v.seats[m], seat) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(v.seats) && cmpStringBytes(v.seats[lo], seat) == 0
}

func cmpStringBytes(a string, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// seatEntry checks a v3 order entry of step k: its seat is a start record
// seat, and, when its salt and its order file are at hand, its digest is
// the file's. It collects the entries of a seat whose salt was given.
func (v *verifier2) seatEntry(k uint64, seat []byte, forStep, version uint64, d Hash, fail func(string, ...any)) bool {
	i, ok := v.seatIndex(seat)
	if !ok {
		fail("an order entry of seat %q, which the start record does not name", seat)
		return false
	}
	if len(v.salts) == 0 {
		return true
	}
	if w, ok := v.watch[i]; ok {
		v.res.Salts[w].Entries = append(v.res.Salts[w].Entries, SeatOrders{Step: k, ForStep: forStep, Version: version, Digest: d})
	}
	salt, ok := v.salts[i]
	if !ok || v.opt.OrderFile == nil {
		return true
	}
	signed, ok := v.opt.OrderFile(v.seats[i], forStep, version)
	if !ok {
		return true
	}
	if OrderDigest(salt, forStep, version, signed) != d {
		fail("the order entry of seat %q (sent for step %d, version %d) is not the keyed digest of that order file", seat, forStep, version)
		return false
	}
	v.res.OrdersChecked++
	return true
}
