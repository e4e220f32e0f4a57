package dice

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
)

// RecordType is the type byte of an umpire-dice-v2 or -v3 record.
type RecordType uint8

// The record types (docs/dice-log.md section 7).
const (
	TypeHeader   RecordType = 1
	TypeStep     RecordType = 2
	TypeDraw     RecordType = 3
	TypeReveal   RecordType = 4
	TypeRollback RecordType = 5
	TypeEnd      RecordType = 6
	// TypeStart is umpire-dice-v3's start record: the seats'
	// contributions and salt commitments, record 2.
	TypeStart RecordType = 7
)

var typeNames = [...]string{TypeHeader: "header", TypeStep: "step", TypeDraw: "draw", TypeReveal: "reveal", TypeRollback: "rollback", TypeEnd: "end",
	TypeStart: "start"}

// String returns the type's name in the export: "header", "step", ...
func (t RecordType) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return fmt.Sprintf("type %d", uint8(t))
}

// ClosedBy says what closed a step.
type ClosedBy uint8

// What closes a step.
const (
	ClosedByDeadline ClosedBy = 0 // the published deadline
	ClosedByReady    ClosedBy = 1 // the message that made the last owing seat ready
	ClosedByGM       ClosedBy = 2 // the game master's process command
)

var closedByNames = [...]string{"deadline", "ready", "gm"}

// String returns "deadline", "ready" or "gm".
func (c ClosedBy) String() string {
	if int(c) < len(closedByNames) {
		return closedByNames[c]
	}
	return fmt.Sprintf("closed_by %d", uint8(c))
}

// Header is record 1 of a v2 or v3 log: what the whole game's dice are
// bound to.
type Header struct {
	// Scheme is dice.Scheme for an umpire-dice-v3 log; "" (or "umpire-dice-v2") is
	// umpire-dice-v2.
	Scheme                    string `json:",omitempty"`
	Game, Rules, RulesVersion string
	ChainLength               uint64
	OpenCommitment            Hash // open[0]
	SealedCommitment          Hash // S
	Streams                   []string
	Beacon                    *beacon.Chain
}

// OrderEntry is one entry of a step's order list: the seat, the step its
// order file was sent for, the seat's last accepted version and the
// file's digest: SHA-256 of its signed bytes (v2), or keyed by the seat's
// order salt (v3, OrderDigest).
type OrderEntry struct {
	Seat    string
	ForStep uint64
	Version uint64
	Digest  Hash
}

// Step is a step record: step k closed at Close, by ClosedBy, with its order
// list, beacon round (nil without a beacon), revealed open link and D_k.
type Step struct {
	K        uint64
	Phase    string
	Close    uint64
	ClosedBy ClosedBy
	Orders   []OrderEntry
	Round    *beacon.Round
	OpenLink Hash
	Digest   Hash
}

// Draw is a draw record. Values are the drawn values; for a sealed draw
// the chain hashes Commitment instead, and Values may be nil (unknown).
type Draw struct {
	Seq, Step  uint64
	Stream     string // Open or a hidden stream
	Word       uint64
	Spec       string
	Values     []int64
	Commitment Hash // sealed draws only
	Purpose    string
}

// Sealed reports whether the draw is from a hidden stream.
func (d *Draw) Sealed() bool { return d.Stream != Open }

// KeyReveal is a reveal record: the key of hidden stream Stream in step Step.
type KeyReveal struct {
	Step   uint64
	Stream string
	Key    Hash
}

// Rollback is a rollback record: step Closed closed unplayed, the next step
// restoring the state in which step Target opened, on the GM's signed
// command (its SHA-256; zero for the operator at the console), for Reason.
type Rollback struct {
	Closed, Target uint64
	Command        Hash
	Reason         string
}

// Start is the start record of an umpire-dice-v3 log: one entry per seat
// the game defines, sorted by seat bytewise.
type Start struct {
	Seats []StartSeat
}

// StartSeat is one seat's entry of the start record: the SHA-256 of the
// signed join by which its holder at the start took it (zero: no holder,
// no contribution) and T(seat), the commitment to its order salt.
type StartSeat struct {
	Seat           string
	Join           Hash
	SaltCommitment Hash
}

// Record is one record of an umpire-dice-v2 or -v3 log: exactly one of its
// pointers is set, as Type says. Head is h_i, the log head after it.
type Record struct {
	Type     RecordType
	Header   *Header
	Start    *Start `json:",omitempty"`
	Step     *Step
	Draw     *Draw
	Reveal   *KeyReveal
	Rollback *Rollback
	End      *Hash // the sealed root
	Head     Hash
}

// appendOrderList appends OL = u32be(n) || [lp(seat) || u64be(for_step) ||
// u64be(version) || digest] for each entry, in the given order.
func appendOrderList(b []byte, orders []OrderEntry) []byte {
	b = binaryU32(b, uint32(len(orders)))
	for _, o := range orders {
		b = appendLP(b, o.Seat)
		b = appendU64(b, o.ForStep)
		b = appendU64(b, o.Version)
		b = append(b, o.Digest[:]...)
	}
	return b
}

func binaryU32(b []byte, v uint32) []byte {
	return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

// SortOrders sorts an order list by seat, bytewise.
func SortOrders(orders []OrderEntry) {
	slices.SortFunc(orders, func(a, b OrderEntry) int { return bytes.Compare([]byte(a.Seat), []byte(b.Seat)) })
}

// stepDigestV2 returns umpire-dice-v2's D_k = SHA-256("umpire-step-v2" || lp(game) || u64be(k)
// || lp(phase) || OL || B), B = 0x00 without a beacon round, 0x01 ||
// randomness with one. orders must be sorted by seat.
func stepDigestV2(game string, k uint64, phase string, orders []OrderEntry, round *beacon.Round) Hash {
	b := make([]byte, 0, 64+len(game)+len(phase)+len(orders)*(4+16+32+16))
	b = append(b, tagStep...)
	b = appendLP(b, game)
	b = appendU64(b, k)
	b = appendLP(b, phase)
	b = appendOrderList(b, orders)
	if round == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = append(b, round.Randomness[:]...)
	}
	return sha256.Sum256(b)
}

// stepDigest returns umpire-dice-v3's D_k = SHA-256("umpire-step-v3" ||
// h_2 || lp(game) || u64be(k) || lp(phase) || OL || B), h_2 the head after
// the start record. orders must be sorted by seat.
func stepDigest(h2 Hash, game string, k uint64, phase string, orders []OrderEntry, round *beacon.Round) Hash {
	b := make([]byte, 0, 96+len(game)+len(phase)+len(orders)*(4+16+32+16))
	b = append(b, tagStepV3...)
	b = append(b, h2[:]...)
	b = appendLP(b, game)
	b = appendU64(b, k)
	b = appendLP(b, phase)
	b = appendOrderList(b, orders)
	if round == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = append(b, round.Randomness[:]...)
	}
	return sha256.Sum256(b)
}

// AppendBody appends the record's body (section 7), for the record hash.
func (r *Record) AppendBody(b []byte) []byte {
	switch r.Type {
	case TypeHeader:
		return r.Header.appendBody(b)
	case TypeStart:
		return r.Start.appendBody(b)
	case TypeStep:
		return r.Step.appendBody(b)
	case TypeDraw:
		return r.Draw.AppendBody(b)
	case TypeReveal:
		b = appendU64(b, r.Reveal.Step)
		b = appendLP(b, r.Reveal.Stream)
		return append(b, r.Reveal.Key[:]...)
	case TypeRollback:
		b = appendU64(b, r.Rollback.Closed)
		b = appendU64(b, r.Rollback.Target)
		b = append(b, r.Rollback.Command[:]...)
		return appendLP(b, r.Rollback.Reason)
	case TypeEnd:
		return append(b, r.End[:]...)
	}
	panic(fmt.Sprintf("dice: record of %s", r.Type))
}

// V3 reports whether the header is umpire-dice-v3's.
func (h *Header) V3() bool { return h.Scheme == Scheme }

// SchemeName is the header's scheme string: umpire-dice-v2 or -v3.
func (h *Header) SchemeName() string {
	if h.V3() {
		return Scheme
	}
	return schemeV2
}

func (h *Header) appendBody(b []byte) []byte {
	b = appendLP(b, h.SchemeName())
	b = appendLP(b, h.Game)
	b = appendLP(b, h.Rules)
	b = appendLP(b, h.RulesVersion)
	b = appendU64(b, h.ChainLength)
	b = append(b, h.OpenCommitment[:]...)
	b = append(b, h.SealedCommitment[:]...)
	b = binaryU32(b, uint32(len(h.Streams)))
	for _, n := range h.Streams {
		b = appendLP(b, n)
	}
	if h.Beacon == nil {
		return append(b, 0)
	}
	bc := h.Beacon
	b = append(b, 1)
	b = append(b, bc.ChainHash[:]...)
	b = appendLP(b, bc.Scheme)
	b = appendLPBytes(b, bc.PublicKey[:])
	b = appendU64(b, bc.Genesis)
	b = appendU64(b, bc.Period)
	return appendU64(b, bc.Delay)
}

// appendBody appends u32be(n) || [lp(seat) || join || T(seat)].
func (s *Start) appendBody(b []byte) []byte {
	b = binaryU32(b, uint32(len(s.Seats)))
	for _, e := range s.Seats {
		b = appendLP(b, e.Seat)
		b = append(b, e.Join[:]...)
		b = append(b, e.SaltCommitment[:]...)
	}
	return b
}

func (s *Step) appendBody(b []byte) []byte {
	b = appendU64(b, s.K)
	b = appendLP(b, s.Phase)
	b = appendU64(b, s.Close)
	b = append(b, byte(s.ClosedBy))
	b = appendOrderList(b, s.Orders)
	if s.Round == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendU64(b, s.Round.Round)
		b = append(b, s.Round.Randomness[:]...)
		b = appendLPBytes(b, s.Round.Signature[:])
	}
	b = append(b, s.OpenLink[:]...)
	return append(b, s.Digest[:]...)
}

// AppendE appends E, the draw's encoding with its values:
//
//	u64be(seq) || u64be(k) || u8(0 open | 1 sealed) || lp(name) || u64be(word)
//	|| lp(spec) || u32be(count) || i64be(v_1) .. i64be(v_count) || lp(purpose)
//
// the name empty for an open draw.
func (d *Draw) AppendE(b []byte) []byte {
	b = d.appendHead(b)
	for _, v := range d.Values {
		b = appendU64(b, uint64(v))
	}
	return appendLP(b, d.Purpose)
}

func (d *Draw) appendHead(b []byte) []byte {
	b = appendU64(b, d.Seq)
	b = appendU64(b, d.Step)
	if d.Sealed() {
		b = append(b, 1)
		b = appendLP(b, d.Stream)
	} else {
		b = append(b, 0)
		b = appendLP(b, "")
	}
	b = appendU64(b, d.Word)
	b = appendLP(b, d.Spec)
	return binaryU32(b, uint32(len(d.Values)))
}

// AppendBody appends the draw record's body: E for an open draw; for a
// sealed one E with its values replaced by the commitment c. count is
// len(Values), or, for a sealed draw whose values are unknown, given by
// the spec: use AppendSealedBody then.
func (d *Draw) AppendBody(b []byte) []byte {
	if !d.Sealed() {
		return d.AppendE(b)
	}
	return d.AppendSealedBody(b, len(d.Values))
}

// AppendSealedBody appends a sealed draw's body with count values.
func (d *Draw) AppendSealedBody(b []byte, count int) []byte {
	vals := d.Values
	d.Values = nil
	b = d.appendHead(b)
	d.Values = vals
	b = b[:len(b)-4]
	b = binaryU32(b, uint32(count))
	b = append(b, d.Commitment[:]...)
	return appendLP(b, d.Purpose)
}

// Commit returns c = HMAC(key, "umpire-hide-v2" || E), the commitment of a
// sealed draw with its values.
func (d *Draw) Commit(key Hash) Hash {
	mac := hmac.New(sha256.New, key[:])
	b := make([]byte, 0, 128+len(d.Spec)+len(d.Purpose)+8*len(d.Values))
	b = append(b, tagHide...)
	mac.Write(d.AppendE(b))
	var c Hash
	mac.Sum(c[:0])
	return c
}

// recordHash returns r_i = SHA-256("umpire-record-v2" || u8(type) || body).
func recordHash(t RecordType, body []byte) Hash {
	h := sha256.New()
	h.Write([]byte(tagRecord))
	h.Write([]byte{byte(t)})
	h.Write(body)
	var out Hash
	h.Sum(out[:0])
	return out
}

// nextHead returns h_i = SHA-256("umpire-log-v2" || h_(i-1) || r_i).
func nextHead(prev, r Hash) Hash {
	var b [len(tagLog) + 64]byte
	copy(b[:], tagLog)
	copy(b[len(tagLog):], prev[:])
	copy(b[len(tagLog)+32:], r[:])
	return sha256.Sum256(b[:])
}

// HeadAfter returns the head h_i the record has when it follows the record
// whose head is prev: nextHead(prev, recordHash(type, body)).
func (r *Record) HeadAfter(prev Hash) Hash {
	return nextHead(prev, recordHash(r.Type, r.AppendBody(nil)))
}

// Ledger appends records to a v2 or v3 log: it numbers draws, checks each
// record's place (section 7) and computes the heads. Its zero value is a log
// with no records; a stored log resumes from its last record's Ledger
// fields (draws may then follow only a new step record).
type Ledger struct {
	Head    Hash   // h after the last record; zero when empty
	Records uint64 // records so far
	Seq     uint64 // the last draw's seq
	Steps   uint64 // step numbers taken so far, by step and rollback records
	Ended   bool
	L       uint64 // the header's chain length
	// V3 is set by a v3 header. A v3 log has its start record as record 2
	// (Started, with StartHead h_2 and the start record's Seats), and its
	// step records' closes never decrease: LastClose is the last step
	// record's close (Closed: there is one).
	V3        bool
	Started   bool
	StartHead Hash
	Seats     []string
	LastClose uint64
	Closed    bool
	// drawStep is the step whose draws may follow now (0: none).
	drawStep uint64
	buf      []byte
}

// Append places r after the last record: it numbers a draw (r.Draw.Seq),
// checks that the record may stand here and sets r.Head.
func (l *Ledger) Append(r *Record) error {
	if l.Ended {
		return fmt.Errorf("dice: %s record after the end record", r.Type)
	}
	if (l.Records == 0) != (r.Type == TypeHeader) {
		return fmt.Errorf("dice: record %d is a %s: the header is record 1 and only it", l.Records+1, r.Type)
	}
	if err := l.placeV3(r); err != nil {
		return err
	}
	drawStep := l.drawStep
	next := uint64(0) // the step whose draws may follow this record
	switch r.Type {
	case TypeHeader:
		l.L, l.V3 = r.Header.ChainLength, r.Header.V3()
	case TypeStart:
		l.Seats = l.Seats[:0]
		for _, e := range r.Start.Seats {
			l.Seats = append(l.Seats, e.Seat)
		}
	case TypeStep:
		if r.Step.K != l.Steps+1 || r.Step.K > l.L {
			return fmt.Errorf("dice: step record %d, but the next step number is %d (at most %d)", r.Step.K, l.Steps+1, l.L)
		}
		l.Steps = r.Step.K
		next = r.Step.K
		l.LastClose, l.Closed = r.Step.Close, true
	case TypeDraw:
		if drawStep == 0 || r.Draw.Step != drawStep {
			return fmt.Errorf("dice: a draw of step %d must follow its step record or another draw of it", r.Draw.Step)
		}
		r.Draw.Seq = l.Seq + 1
		next = drawStep
	case TypeReveal:
		if r.Reveal.Step < 1 || r.Reveal.Step > l.Steps {
			return fmt.Errorf("dice: reveal of step %d, which is not taken", r.Reveal.Step)
		}
	case TypeRollback:
		if r.Rollback.Closed != l.Steps+1 || r.Rollback.Closed > l.L || r.Rollback.Target < 1 || r.Rollback.Target > r.Rollback.Closed {
			return fmt.Errorf("dice: rollback closing %d to %d, but the next step number is %d", r.Rollback.Closed, r.Rollback.Target, l.Steps+1)
		}
		l.Steps = r.Rollback.Closed
	case TypeEnd:
		l.Ended = true
	}
	l.buf = r.AppendBody(l.buf[:0])
	r.Head = nextHead(l.Head, recordHash(r.Type, l.buf))
	l.Head = r.Head
	l.Records++
	if r.Type == TypeDraw {
		l.Seq = r.Draw.Seq
	}
	if r.Type == TypeStart {
		l.Started, l.StartHead = true, r.Head
	}
	l.drawStep = next
	return nil
}

// placeV3 checks what umpire-dice-v3 adds to a record's place (section 7):
// the start record is record 2 and only it (or, for a game cancelled
// before its start, the end record); steps, draws, reveals and rollbacks
// come after it; an order entry names a start record seat; closes never
// decrease.
func (l *Ledger) placeV3(r *Record) error {
	if h := r.Header; r.Type == TypeHeader && h.V3() && h.Beacon != nil && h.Beacon.Delay < beacon.MinDelay(h.Beacon.Period) {
		return fmt.Errorf("dice: a beacon delay of %d s, under %s's floor of %d s for a period of %d s", h.Beacon.Delay, Scheme,
			beacon.MinDelay(h.Beacon.Period), h.Beacon.Period)
	}
	if r.Type == TypeStart && !l.V3 {
		return fmt.Errorf("dice: a start record in a log whose header is not %s", Scheme)
	}
	if !l.V3 {
		return nil
	}
	switch r.Type {
	case TypeStart:
		if l.Records != 1 {
			return fmt.Errorf("dice: record %d is a start record: only record 2 is", l.Records+1)
		}
		if err := checkStartSeats(r.Start.Seats); err != nil {
			return err
		}
	case TypeEnd:
	case TypeHeader:
	default:
		if !l.Started {
			return fmt.Errorf("dice: a %s record before the start record", r.Type)
		}
	}
	if r.Type != TypeStep {
		return nil
	}
	for _, o := range r.Step.Orders {
		if _, ok := slices.BinarySearch(l.Seats, o.Seat); !ok {
			return fmt.Errorf("dice: step %d has an order entry of seat %q, which the start record does not name", r.Step.K, o.Seat)
		}
	}
	if l.Closed && r.Step.Close < l.LastClose {
		return fmt.Errorf("dice: step %d closes at %d, before the previous step record's close %d", r.Step.K, r.Step.Close, l.LastClose)
	}
	return nil
}

// checkStartSeats checks a start record's seats: 1 to 1024, each of 1 to
// 64 bytes, sorted bytewise and distinct.
func checkStartSeats(seats []StartSeat) error {
	if len(seats) < 1 || len(seats) > maxSeats {
		return fmt.Errorf("dice: a start record of %d seats (1 to %d)", len(seats), maxSeats)
	}
	for i, e := range seats {
		if len(e.Seat) < 1 || len(e.Seat) > maxNameBytes {
			return fmt.Errorf("dice: start record seat %q: 1 to %d bytes", e.Seat, maxNameBytes)
		}
		if i > 0 && seats[i-1].Seat >= e.Seat {
			return fmt.Errorf("dice: start record seats are not sorted bytewise and distinct (%q after %q)", e.Seat, seats[i-1].Seat)
		}
	}
	return nil
}

// NewStart makes the start record of a v3 game from its sealed root and,
// by seat, the SHA-256 of the signed join of each seat's holder (a seat
// missing from joins, or with a zero hash, has no contribution). seats are
// every seat the game defines.
func NewStart(root Hash, seats []string, joins map[string]Hash) (*Start, error) {
	st := &Start{}
	for _, s := range slices.Sorted(slices.Values(seats)) {
		st.Seats = append(st.Seats, StartSeat{Seat: s, Join: joins[s], SaltCommitment: saltCommitment(OrderSalt(root, s))})
	}
	return st, checkStartSeats(st.Seats)
}

// Continue lets draws of step k follow, for a log resumed after its step
// record was stored (the step record and its draws are written together).
func (l *Ledger) Continue(k uint64) { l.drawStep = k }

// StepDigest returns D_k of step k of the log's game: v3's, over h_2
// (StartHead), in a v3 log; v2's in a v2 log (docs/dice-log.md section 4).
func (l *Ledger) StepDigest(game string, k uint64, phase string, orders []OrderEntry, round *beacon.Round) Hash {
	if l.V3 {
		return stepDigest(l.StartHead, game, k, phase, orders, round)
	}
	return stepDigestV2(game, k, phase, orders, round)
}
