package dice

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Problem is the first thing in a v2 or v3 export that does not hold: the
// record it is in (its position, 1 = the header; 0 before the records) and
// the check that failed.
type Problem struct {
	Record uint64 `json:"record,omitempty"`
	Type   string `json:"type,omitempty"`
	Step   uint64 `json:"step,omitempty"`
	Seq    uint64 `json:"seq,omitempty"`
	Reason string `json:"reason"`
}

func (p *Problem) Error() string {
	where := ""
	switch {
	case p.Record == 0:
	case p.Seq != 0:
		where = fmt.Sprintf("record %d (draw seq %d of step %d): ", p.Record, p.Seq, p.Step)
	case p.Step != 0:
		where = fmt.Sprintf("record %d (%s, step %d): ", p.Record, p.Type, p.Step)
	case p.Type != "":
		where = fmt.Sprintf("record %d (%s): ", p.Record, p.Type)
	default:
		where = fmt.Sprintf("record %d: ", p.Record)
	}
	return where + p.Reason
}

// OpenedDraw is a hidden draw a seat's own key opened (VerifyOptions.Keys):
// its values, checked against the commitment the log holds.
type OpenedDraw struct {
	Seq, Step uint64
	Stream    string
	Spec      string
	Values    []int64
	Purpose   string
}

// Result is the outcome of verifying a v2 or v3 export.
type Result struct {
	// Version is the export's format version, 2 or 3.
	Version   int          `json:"-"`
	Game      string       `json:"game"`
	Records   uint64       `json:"records"`
	Steps     uint64       `json:"steps"`     // step records
	Rollbacks uint64       `json:"rollbacks"` // rollback records
	Reveals   uint64       `json:"reveals"`
	Draws     uint64       `json:"draws"`
	Rederived uint64       `json:"rederived"` // draws whose values were re-derived (open, or hidden with a public key)
	Sealed    uint64       `json:"sealed"`    // hidden draws whose key is not public: only their form and place checked
	Ended     bool         `json:"ended"`
	Beacon    string       `json:"beacon"` // "" none, the network's name, or "unknown"
	Head      Hash         `json:"head"`
	Opened    []OpenedDraw `json:"opened,omitempty"`
	// A beacon's delay and period, in seconds; DelayUnderFloor is set
	// for a v2 log whose delay is under v3's floor (beacon.MinDelay),
	// which a v2 log may have.
	Delay           uint64 `json:"beacon_delay,omitempty"`
	Period          uint64 `json:"beacon_period,omitempty"`
	DelayUnderFloor bool   `json:"beacon_delay_under_v3_floor,omitempty"`
	// A v3 log's start record: its seats, how many of them contributed
	// a join, and h_2, the head after it (nil: not started).
	Seats     int   `json:"seats,omitempty"`
	Joined    int   `json:"joined,omitempty"`
	StartHead *Hash `json:"start_head,omitempty"`
	// Salts are the order salts checked against the start record
	// (VerifyOptions.Salts), each with its seat's order entries.
	Salts []SaltCheck `json:"salts,omitempty"`
	// OrdersChecked counts the order entries whose digest was checked
	// against their order file (VerifyOptions.OrderFile).
	OrdersChecked uint64   `json:"orders_checked,omitempty"`
	Problem       *Problem `json:"problem,omitempty"`
}

// SaltCheck is a seat's salt found to match its commitment in the start
// record, with the seat's order entries in the log: each digest is the
// HMAC under that salt of an order file the seat sent (umpire digest
// computes it from the file).
type SaltCheck struct {
	Seat    string       `json:"seat"`
	Entries []SeatOrders `json:"entries"`
}

// SeatOrders is one order entry of a seat, in the step record of Step.
type SeatOrders struct {
	Step    uint64 `json:"step"`
	ForStep uint64 `json:"for_step"`
	Version uint64 `json:"version"`
	Digest  Hash   `json:"digest"`
}

// OK reports whether everything checked held.
func (r *Result) OK() bool { return r.Problem == nil }

// VerifyOptions tune VerifyStream.
type VerifyOptions struct {
	// Keys are hidden stream keys a seat was sent privately, to check its
	// own draws before they are public: their values are re-derived,
	// checked against the commitments and listed in Opened.
	Keys []KeyReveal
	// Progress, if set, is called now and then with the bytes read.
	Progress func(read int64)
	// Salts are order salts t(seat) by seat, each sent privately to its
	// seat's holder (v3), checked against the start record's salt
	// commitments.
	Salts map[string]Hash
	// OrderFile, if set, returns the signed bytes of a seat's order file
	// (the step it was sent for, its version); ok false when it is not
	// at hand. Each v3 order entry whose seat's salt is known (from the
	// sealed root, or Salts) and whose file is at hand is checked:
	// its digest must be the file's keyed digest.
	OrderFile func(seat string, forStep, version uint64) (signed []byte, ok bool)
}

// VerifyStream reads a v2 or v3 export from r and checks it in one pass,
// in memory that does not grow with the number of records
// (docs/dice-log.md section 10). An input that is not a v2 or v3 export is
// ErrNotLog or ErrVersion (a v1 export: V1Export, with the whole input in
// its reader); every check that fails after that is the Result's Problem.
func VerifyStream(r io.Reader, opt VerifyOptions) (*Result, error) {
	v := &verifier2{s: newScanner(r), res: &Result{}, opt: opt}
	if err := v.start(); err != nil {
		return nil, err
	}
	v.s.keep = false
	v.run()
	if v.s.err != nil && v.res.Problem == nil {
		v.failf("%v", v.s.err)
	}
	return v.res, nil
}

// LegacyExport is the error VerifyStream returns for an input that is not a
// v2 or v3 export but may be a v1 one (package legacy reads those): Input
// reads the whole input from its start.
type LegacyExport struct{ Input io.Reader }

func (e *LegacyExport) Error() string { return "a version 1 dice log" }

// start reads the first two members: a v2 export, a v1 one, or neither.
func (v *verifier2) start() error {
	s := v.s
	v1 := func() error {
		return &LegacyExport{Input: io.MultiReader(bytes.NewReader(s.buf[:s.end]), s.r)}
	}
	if s.ws() != '{' {
		return v1()
	}
	s.pos++
	name, ok := s.str(nil)
	if !ok || string(name) != "format" || !s.expect(':') {
		return v1()
	}
	format, ok := s.str(nil)
	if !ok {
		return fmt.Errorf("%w: its \"format\" is not a string", ErrNotLog)
	}
	if string(format) != Format {
		return fmt.Errorf("%w: its \"format\" is %q, want %q", ErrNotLog, format, Format)
	}
	if !s.expect(',') {
		return v1()
	}
	name, ok = s.str(nil)
	if !ok || string(name) != "version" || !s.expect(':') {
		return v1()
	}
	ver, neg, ok := s.number("version")
	switch {
	case ok && !neg && ver == 1:
		return v1()
	case !ok || neg || ver != versionV2 && ver != Version:
		return fmt.Errorf("%w: version %d (this verifier reads versions 1, 2 and 3)", ErrVersion, ver)
	}
	v.res.Version = int(ver)
	return nil
}

// hiddenState is where one hidden stream of the current step stands.
type hiddenState struct {
	gen     uint64 // the step record it belongs to
	key     Hash
	known   bool
	started bool
	next    uint64
	stream  *Stream
	opened  bool // a seat's own key (not public)
}

type verifier2 struct {
	s   *scanner
	res *Result
	opt VerifyOptions

	root      *Hash
	revealed  []KeyReveal
	revIndex  map[uint64]Hash // step<<10 | stream index
	seatKeys  map[uint64]Hash
	nextRev   int
	hdr       Header
	streamIdx map[string]int
	beacon    *beacon.Verifier

	head      Hash
	n         uint64 // records read
	steps     uint64 // step numbers taken
	lastStep  uint64 // the last step record's k (0: none)
	lastLink  Hash   // its open link (the commitment before any)
	drawStep  uint64 // the step whose draws may follow
	seq       uint64
	digest    Hash
	open      *Stream
	openNext  uint64
	openStart bool
	hidden    []hiddenState
	ended     bool
	// v3: the start record's seats (sorted) and salt commitments, h_2,
	// the last step record's close, and the salts known (by seat index).
	seats     []string
	saltComm  []Hash
	started   bool
	startHead Hash
	lastClose uint64
	closed    bool
	salts     map[int]Hash
	watch     map[int]int // seat index -> its entry in res.Salts
	recStart  int64
	recStep   uint64 // the step and seq of the record being read
	recSeq    uint64

	// scratch
	body    []byte
	sbuf    [4][]byte
	vals    []int64
	want    []int64
	specs   map[string]spec.Spec
	sha     hash.Hash
	recHash Hash
	pre     []byte
}

func (v *verifier2) failf(format string, args ...any) {
	if v.res.Problem == nil {
		v.res.Problem = &Problem{Record: v.n, Reason: fmt.Sprintf(format, args...)}
	}
}

// failAt names the record being read.
func (v *verifier2) failAt(t RecordType, step, seq uint64, format string, args ...any) {
	if v.res.Problem == nil {
		v.res.Problem = &Problem{Record: v.n, Type: t.String(), Step: step, Seq: seq, Reason: fmt.Sprintf(format, args...)}
	}
}

func (v *verifier2) ok() bool { return v.s.err == nil && v.res.Problem == nil }

func (v *verifier2) run() {
	s := v.s
	v.specs = map[string]spec.Spec{}
	v.sha = sha256.New()
	// sealed_root
	if !s.expect(',') || !s.member("sealed_root") {
		return
	}
	if !s.null() {
		var root Hash
		if !s.hex("sealed_root", root[:]) {
			return
		}
		v.root = &root
	}
	if !s.expect(',') || !s.member("revealed") || !s.expect('[') {
		return
	}
	if s.ws() == ']' {
		s.pos++
	} else {
		for {
			var r KeyReveal
			if !s.expect('{') || !s.member("step") {
				return
			}
			var ok bool
			if r.Step, ok = s.uintIn("revealed step", 1, MaxChainLength); !ok {
				return
			}
			if !s.expect(',') || !s.member("stream") {
				return
			}
			name, ok := s.str(v.sbuf[0][:0])
			if !ok {
				return
			}
			r.Stream = string(name)
			if !s.expect(',') || !s.member("key") || !s.hex("revealed key", r.Key[:]) || !s.expect('}') {
				return
			}
			v.revealed = append(v.revealed, r)
			if !s.more(']') {
				break
			}
		}
		if !s.expect(']') {
			return
		}
	}
	if !s.expect(',') || !s.member("records") || !s.expect('[') {
		return
	}
	if s.ws() == ']' {
		v.failf("the log has no records: record 1 must be the header")
		return
	}
	for {
		v.n++
		v.recStart = s.offset()
		v.record()
		if !v.ok() {
			return
		}
		if v.opt.Progress != nil && v.n%8192 == 0 {
			v.opt.Progress(s.offset())
		}
		if !s.more(']') {
			break
		}
	}
	if !s.expect(']') || !s.expect(',') || !s.member("head") {
		return
	}
	var head Hash
	if !s.hex("head", head[:]) || !s.expect('}') {
		return
	}
	if c := s.ws(); c != 0 || s.rerr != nil {
		if s.rerr != nil {
			s.fail("read: %v", s.rerr)
		} else {
			s.fail("%s after the log object", describeByte(c))
		}
		return
	}
	n := v.n
	v.n = 0
	switch {
	case len(v.opt.Salts) > 0 && !v.started:
		v.failf("a salt was given, but the log has no start record: it is not a started %s game", Scheme)
	case v.nextRev < len(v.revealed):
		r := v.revealed[v.nextRev]
		v.failf("\"revealed\" lists the key of stream %q of step %d, but no reveal record holds it", r.Stream, r.Step)
	case v.root != nil && !v.ended:
		v.failf("\"sealed_root\" is given, but the log has no end record")
	case head != v.head:
		v.failf("the stated head %s is not the head after the last record (%s): records are missing at the end or the head was changed", head, v.head)
	}
	v.res.Records, v.res.Head, v.res.Ended = n, v.head, v.ended
	if v.opt.Progress != nil {
		v.opt.Progress(s.offset())
	}
}

// record reads and checks one record.
func (v *verifier2) record() {
	s := v.s
	if !s.expect('{') || !s.member("type") {
		return
	}
	tname, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	var t RecordType
	switch string(tname) {
	case "header":
		t = TypeHeader
	case "step":
		t = TypeStep
	case "draw":
		t = TypeDraw
	case "reveal":
		t = TypeReveal
	case "rollback":
		t = TypeRollback
	case "end":
		t = TypeEnd
	case "start":
		t = TypeStart
	default:
		v.failf("unknown record type %q", tname)
		return
	}
	if !s.expect(',') {
		return
	}
	if v.n == 1 && t != TypeHeader {
		v.failAt(t, 0, 0, "record 1 must be the header")
		return
	}
	v3 := v.res.Version == Version
	switch {
	case t == TypeStart && !v3:
		v.failAt(t, 0, 0, "a start record in a version %d log: only %s has one", v.res.Version, Scheme)
		return
	case t == TypeStart && v.n != 2:
		v.failAt(t, 0, 0, "a start record elsewhere than record 2: only record 2 is the start record")
		return
	case v3 && v.n == 2 && t != TypeStart && t != TypeEnd:
		v.failAt(t, 0, 0, "record 2 must be the start record (or the end record of a game cancelled before its start)")
		return
	}
	if v.ended {
		v.failAt(t, 0, 0, "a record after the end record: an ended game's root is public, so nothing may follow")
		return
	}
	if t != TypeDraw {
		v.drawStep = 0
	}
	v.body = v.body[:0]
	v.recStep, v.recSeq = 0, 0
	switch t {
	case TypeHeader:
		v.header()
	case TypeStart:
		v.start3()
	case TypeStep:
		v.step()
	case TypeDraw:
		v.draw()
	case TypeReveal:
		v.reveal()
	case TypeRollback:
		v.rollback()
	case TypeEnd:
		v.end()
	}
	if !v.ok() {
		return
	}
	if !s.expect(',') || !s.member("head") {
		return
	}
	var stated Hash
	if !s.hex("head", stated[:]) || !s.expect('}') {
		return
	}
	if s.offset()-v.recStart > maxString {
		v.failAt(t, v.recStep, v.recSeq, "the record is longer than 1 MiB of JSON text")
		return
	}
	// r_i and h_i.
	v.pre = append(append(v.pre[:0], tagRecord...), byte(t))
	v.sha.Reset()
	v.sha.Write(v.pre)
	v.sha.Write(v.body)
	v.sha.Sum(v.recHash[:0])
	h := nextHead(v.head, v.recHash)
	if h != stated {
		v.failAt(t, v.recStep, v.recSeq, "its head is %s, but the record and the head before it give %s: a field of this record was changed", stated, h)
		return
	}
	v.head = h
	if t == TypeStart {
		v.started, v.startHead = true, h
		h2 := h
		v.res.StartHead = &h2
	}
}

func (v *verifier2) header() {
	s := v.s
	if v.n != 1 {
		v.failAt(TypeHeader, 0, 0, "a second header: only record 1 is the header")
		return
	}
	h := &v.hdr
	if !s.member("scheme") {
		return
	}
	scheme, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	want := schemeV2
	if v.res.Version == Version {
		want, h.Scheme = Scheme, Scheme
	}
	if string(scheme) != want {
		v.failAt(TypeHeader, 0, 0, "scheme %q, this verifier checks %s", scheme, want)
		return
	}
	var b []byte
	if !s.expect(',') || !s.member("game") {
		return
	}
	if b, ok = s.str(nil); !ok {
		return
	}
	if len(b) == 0 {
		v.failAt(TypeHeader, 0, 0, "the game id is empty")
		return
	}
	h.Game = string(b)
	v.res.Game = h.Game
	if !s.expect(',') || !s.member("rules") {
		return
	}
	if b, ok = s.str(nil); !ok {
		return
	}
	h.Rules = string(b)
	if !s.expect(',') || !s.member("rules_version") {
		return
	}
	if b, ok = s.str(nil); !ok {
		return
	}
	h.RulesVersion = string(b)
	if !s.expect(',') || !s.member("chain_length") {
		return
	}
	if h.ChainLength, ok = s.uintIn("chain_length", 1, MaxChainLength); !ok {
		return
	}
	if !s.expect(',') || !s.member("open_commitment") || !s.hex("open_commitment", h.OpenCommitment[:]) {
		return
	}
	if !s.expect(',') || !s.member("sealed_commitment") || !s.hex("sealed_commitment", h.SealedCommitment[:]) {
		return
	}
	if !s.expect(',') || !s.member("streams") || !s.expect('[') {
		return
	}
	h.Streams = nil
	if s.ws() == ']' {
		s.pos++
	} else {
		for {
			if b, ok = s.str(nil); !ok {
				return
			}
			if err := checkStreamName(string(b)); err != nil {
				v.failAt(TypeHeader, 0, 0, "%v", err)
				return
			}
			if n := len(h.Streams); n > 0 && h.Streams[n-1] >= string(b) {
				v.failAt(TypeHeader, 0, 0, "streams are not sorted bytewise and distinct (%q after %q)", b, h.Streams[n-1])
				return
			}
			if len(h.Streams) == maxStreams {
				v.failAt(TypeHeader, 0, 0, "more than %d streams", maxStreams)
				return
			}
			h.Streams = append(h.Streams, string(b))
			if !s.more(']') {
				break
			}
		}
		if !s.expect(']') {
			return
		}
	}
	if !s.expect(',') || !s.member("beacon") {
		return
	}
	if !s.null() {
		bc := &beacon.Chain{}
		if !s.expect('{') || !s.member("chain_hash") || !s.hex("chain_hash", bc.ChainHash[:]) || !s.expect(',') || !s.member("scheme") {
			return
		}
		if b, ok = s.str(nil); !ok {
			return
		}
		bc.Scheme = string(b)
		if !s.expect(',') || !s.member("public_key") || !s.hex("public_key", bc.PublicKey[:]) || !s.expect(',') || !s.member("genesis") {
			return
		}
		if bc.Genesis, ok = s.uintIn("genesis", 0, 1<<40-1); !ok {
			return
		}
		if !s.expect(',') || !s.member("period") {
			return
		}
		if bc.Period, ok = s.uintIn("period", 1, 86400); !ok {
			return
		}
		if !s.expect(',') || !s.member("delay") {
			return
		}
		if bc.Delay, ok = s.uintIn("delay", 0, 1<<32-1); !ok {
			return
		}
		if !s.expect('}') {
			return
		}
		v.res.Delay, v.res.Period = bc.Delay, bc.Period
		if floor := beacon.MinDelay(bc.Period); bc.Delay < floor {
			if v.res.Version == Version {
				v.failAt(TypeHeader, 0, 0, "the beacon's delay is %d s (%s periods of %d s), under %s's floor of max(60, 10 * period) = %d s: "+
					"a round so soon after a close could be known when its close notice leaves", bc.Delay, beacon.Periods(bc.Delay, bc.Period), bc.Period, Scheme, floor)
				return
			}
			v.res.DelayUnderFloor = true
		}
		var err error
		if v.beacon, err = beacon.NewVerifier(*bc); err != nil {
			v.failAt(TypeHeader, 0, 0, "%v", err)
			return
		}
		h.Beacon = bc
		v.res.Beacon = bc.Network()
		if v.res.Beacon == "" {
			v.res.Beacon = "unknown"
		}
	}
	v.body = (&Record{Type: TypeHeader, Header: h}).AppendBody(v.body)
	v.lastLink = h.OpenCommitment
	v.streamIdx = make(map[string]int, len(h.Streams))
	for i, n := range h.Streams {
		v.streamIdx[n] = i
	}
	v.hidden = make([]hiddenState, len(h.Streams))
	// The revealed keys, against the header and the root.
	if v.root != nil && SealedCommitment(*v.root) != h.SealedCommitment {
		v.n = 0
		v.failf("\"sealed_root\" does not hash to the header's sealed commitment")
		return
	}
	v.revIndex = map[uint64]Hash{}
	for _, r := range v.revealed {
		i, ok := v.streamIdx[r.Stream]
		switch {
		case !ok:
			v.n = 0
			v.failf("\"revealed\" names stream %q, which the header does not declare", r.Stream)
			return
		case r.Step > h.ChainLength:
			v.n = 0
			v.failf("\"revealed\" names step %d, past the chain length %d", r.Step, h.ChainLength)
			return
		case v.root != nil && StreamKey(*v.root, r.Step, r.Stream) != r.Key:
			v.n = 0
			v.failf("\"revealed\" key of stream %q of step %d is not the key the sealed root gives", r.Stream, r.Step)
			return
		}
		id := r.Step<<10 | uint64(i)
		if _, dup := v.revIndex[id]; dup {
			v.n = 0
			v.failf("\"revealed\" lists stream %q of step %d twice", r.Stream, r.Step)
			return
		}
		v.revIndex[id] = r.Key
	}
	v.seatKeys = map[uint64]Hash{}
	for _, k := range v.opt.Keys {
		if i, ok := v.streamIdx[k.Stream]; ok {
			v.seatKeys[k.Step<<10|uint64(i)] = k.Key
		}
	}
}

func (v *verifier2) step() {
	s := v.s
	if !s.member("step") {
		return
	}
	st := Step{}
	var ok bool
	if st.K, ok = s.uintIn("step", 1, MaxChainLength); !ok {
		return
	}
	v.recStep = st.K
	fail := func(format string, args ...any) { v.failAt(TypeStep, st.K, 0, format, args...) }
	if st.K != v.steps+1 {
		fail("step %d, but the next step number is %d: a step was deleted, moved or repeated", st.K, v.steps+1)
		return
	}
	if st.K > v.hdr.ChainLength {
		fail("step %d is past the chain length %d", st.K, v.hdr.ChainLength)
		return
	}
	if !s.expect(',') || !s.member("phase") {
		return
	}
	phase, ok := s.str(v.sbuf[1][:0])
	if !ok {
		return
	}
	v.sbuf[1] = phase
	if !s.expect(',') || !s.member("close") {
		return
	}
	if st.Close, ok = s.uintIn("close", 0, 1<<40-1); !ok {
		return
	}
	v3 := v.res.Version == Version
	if v3 && v.closed && st.Close < v.lastClose {
		fail("its close %d is before %d, the close of the step record before it: closes never go backwards", st.Close, v.lastClose)
		return
	}
	if v3 && !v.started {
		fail("a step record before the start record")
		return
	}
	if !s.expect(',') || !s.member("closed_by") {
		return
	}
	cb, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	switch string(cb) {
	case "deadline":
		st.ClosedBy = ClosedByDeadline
	case "ready":
		st.ClosedBy = ClosedByReady
	case "gm":
		st.ClosedBy = ClosedByGM
	default:
		fail("closed_by %q is not deadline, ready or gm", cb)
		return
	}
	if !s.expect(',') || !s.member("orders") || !s.expect('[') {
		return
	}
	// OL, written into the body as it is read.
	v.body = appendU64(v.body, st.K)
	v.body = appendLPBytes(v.body, phase)
	v.body = appendU64(v.body, st.Close)
	v.body = append(v.body, byte(st.ClosedBy))
	countAt := len(v.body)
	v.body = binaryU32(v.body, 0)
	n := uint32(0)
	prevSeat := v.sbuf[2][:0]
	if s.ws() == ']' {
		s.pos++
	} else {
		for {
			if !s.expect('{') || !s.member("seat") {
				return
			}
			seat, ok := s.str(v.sbuf[3][:0])
			if !ok {
				return
			}
			v.sbuf[3] = seat
			if len(seat) < 1 || len(seat) > 64 {
				fail("a seat of %d bytes (1 to 64)", len(seat))
				return
			}
			if n > 0 && bytes.Compare(prevSeat, seat) >= 0 {
				fail("the order list is not sorted by seat with each seat once (%q after %q)", seat, prevSeat)
				return
			}
			prevSeat = append(prevSeat[:0], seat...)
			var forStep, version uint64
			var d Hash
			if !s.expect(',') || !s.member("for_step") {
				return
			}
			if forStep, ok = s.uintIn("for_step", 1, MaxChainLength); !ok {
				return
			}
			if forStep > st.K {
				fail("seat %q's orders are for step %d, after this one", seat, forStep)
				return
			}
			if !s.expect(',') || !s.member("version") {
				return
			}
			if version, ok = s.uintIn("version", 1, 1<<63-1); !ok {
				return
			}
			if !s.expect(',') || !s.member("digest") || !s.hex("order digest", d[:]) || !s.expect('}') {
				return
			}
			if v3 && !v.seatEntry(st.K, seat, forStep, version, d, fail) {
				return
			}
			v.body = appendLPBytes(v.body, seat)
			v.body = appendU64(v.body, forStep)
			v.body = appendU64(v.body, version)
			v.body = append(v.body, d[:]...)
			n++
			if !s.more(']') {
				break
			}
		}
		if !s.expect(']') {
			return
		}
	}
	v.sbuf[2] = prevSeat
	v.body[countAt], v.body[countAt+1], v.body[countAt+2], v.body[countAt+3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	olEnd := len(v.body)
	if !s.expect(',') || !s.member("beacon") {
		return
	}
	var round *beacon.Round
	if s.null() {
		if v.beacon != nil {
			fail("no beacon round, but the header names a beacon")
			return
		}
		v.body = append(v.body, 0)
	} else {
		if v.beacon == nil {
			fail("a beacon round, but the header names no beacon")
			return
		}
		round = &beacon.Round{}
		if !s.expect('{') || !s.member("round") {
			return
		}
		if round.Round, ok = s.uintIn("round", 1, 1<<63-1); !ok {
			return
		}
		if !s.expect(',') || !s.member("randomness") || !s.hex("randomness", round.Randomness[:]) ||
			!s.expect(',') || !s.member("signature") || !s.hex("signature", round.Signature[:]) || !s.expect('}') {
			return
		}
		if err := v.beacon.Check(st.Close, round); err != nil {
			fail("%v", err)
			return
		}
		v.body = append(v.body, 1)
		v.body = appendU64(v.body, round.Round)
		v.body = append(v.body, round.Randomness[:]...)
		v.body = appendLPBytes(v.body, round.Signature[:])
	}
	if !s.expect(',') || !s.member("open_link") || !s.hex("open_link", st.OpenLink[:]) ||
		!s.expect(',') || !s.member("digest") || !s.hex("digest", st.Digest[:]) {
		return
	}
	if !linkReaches(st.OpenLink, st.K-v.lastStep, v.lastLink) {
		if v.lastStep == 0 {
			fail("its open link does not hash back to the open commitment")
		} else {
			fail("its open link does not hash back to the open link of step %d", v.lastStep)
		}
		return
	}
	// D_k = SHA-256("umpire-step-v2" || lp(game) || u64be(k) || lp(phase) || OL || B),
	// in v3 SHA-256("umpire-step-v3" || h_2 || lp(game) || ...)
	v.sha.Reset()
	var pre []byte
	if v3 {
		pre = append(pre, tagStepV3...)
		pre = append(pre, v.startHead[:]...)
	} else {
		pre = append(pre, tagStep...)
	}
	pre = appendLP(pre, v.hdr.Game)
	pre = appendU64(pre, st.K)
	pre = appendLPBytes(pre, phase)
	v.sha.Write(pre)
	v.sha.Write(v.body[countAt:olEnd])
	if round == nil {
		v.sha.Write([]byte{0})
	} else {
		v.sha.Write([]byte{1})
		v.sha.Write(round.Randomness[:])
	}
	var d Hash
	v.sha.Sum(d[:0])
	if d != st.Digest {
		fail("its digest D_k is %s, but its game, step, phase, order list and beacon give %s", st.Digest, d)
		return
	}
	v.body = append(v.body, st.OpenLink[:]...)
	v.body = append(v.body, st.Digest[:]...)
	v.steps, v.lastStep, v.lastLink = st.K, st.K, st.OpenLink
	v.lastClose, v.closed = st.Close, true
	v.drawStep, v.digest = st.K, st.Digest
	v.open = newStream(st.OpenLink, st.Digest)
	v.openNext, v.openStart = 0, false
	v.res.Steps++
}

func (v *verifier2) draw() {
	s := v.s
	var seq, step, word uint64
	var ok bool
	if !s.member("seq") {
		return
	}
	if seq, ok = s.uintIn("seq", 1, 1<<63-1); !ok {
		return
	}
	if !s.expect(',') || !s.member("step") {
		return
	}
	if step, ok = s.uintIn("step", 1, MaxChainLength); !ok {
		return
	}
	v.recStep, v.recSeq = step, seq
	fail := func(format string, args ...any) { v.failAt(TypeDraw, step, seq, format, args...) }
	if seq != v.seq+1 {
		fail("seq %d, but the draw before it was seq %d: a draw was deleted, moved or repeated", seq, v.seq)
		return
	}
	if v.drawStep == 0 || step != v.drawStep {
		fail("a draw of step %d must follow its step record or another draw of that step", step)
		return
	}
	if !s.expect(',') || !s.member("stream") {
		return
	}
	name, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	v.sbuf[0] = name
	sealed := string(name) != Open
	idx := -1
	if sealed {
		i, found := v.streamIdx[string(name)]
		if !found {
			fail("stream %q is neither open nor a stream the header declares", name)
			return
		}
		idx = i
	}
	if !s.expect(',') || !s.member("word") {
		return
	}
	if word, ok = s.uintIn("word", 0, 1<<63-1); !ok {
		return
	}
	if !s.expect(',') || !s.member("spec") {
		return
	}
	specText, ok := s.str(v.sbuf[1][:0])
	if !ok {
		return
	}
	v.sbuf[1] = specText
	sp, cached := v.specs[string(specText)]
	if !cached {
		var err error
		if sp, err = spec.Parse(string(specText)); err != nil {
			fail("%v", err)
			return
		}
		if len(v.specs) < 4096 {
			v.specs[string(specText)] = sp
		}
	}
	count := sp.Draws()
	if !s.expect(',') || !s.member("values") {
		return
	}
	v.vals = v.vals[:0]
	hasValues := !s.null()
	if hasValues {
		if !s.expect('[') {
			return
		}
		if s.ws() == ']' {
			s.pos++
		} else {
			for {
				x, ok := s.int64("a value")
				if !ok {
					return
				}
				if len(v.vals) == count {
					fail("more values than a %q draw gives (%d)", specText, count)
					return
				}
				v.vals = append(v.vals, x)
				if !s.more(']') {
					break
				}
			}
			if !s.expect(']') {
				return
			}
		}
		if len(v.vals) != count {
			fail("%d values, but a %q draw gives %d", len(v.vals), specText, count)
			return
		}
	}
	if !s.expect(',') || !s.member("commitment") {
		return
	}
	var c Hash
	if s.null() {
		if sealed {
			fail("a draw from hidden stream %q without a commitment", name)
			return
		}
	} else {
		if !sealed {
			fail("an open draw with a commitment: only hidden draws have one")
			return
		}
		if !s.hex("commitment", c[:]) {
			return
		}
	}
	if !s.expect(',') || !s.member("purpose") {
		return
	}
	purpose, ok := s.str(v.sbuf[2][:0])
	if !ok {
		return
	}
	v.sbuf[2] = purpose
	v.res.Draws++
	v.seq = seq
	// The key and the stream position.
	var st *Stream
	var next *uint64
	var started *bool
	var hs *hiddenState
	if !sealed {
		st, next, started = v.open, &v.openNext, &v.openStart
	} else {
		hs = &v.hidden[idx]
		if hs.gen != step {
			*hs = hiddenState{gen: step}
			id := step<<10 | uint64(idx)
			switch key, rev := v.revIndex[id]; {
			case v.root != nil:
				hs.key, hs.known = StreamKey(*v.root, step, string(name)), true
			case rev:
				hs.key, hs.known = key, true
			default:
				if key, own := v.seatKeys[id]; own {
					hs.key, hs.known, hs.opened = key, true, true
				}
			}
			if hs.known {
				hs.stream = newStream(hs.key, v.digest)
			}
		}
		st, next, started = hs.stream, &hs.next, &hs.started
	}
	known := !sealed || hs.known
	public := known && (hs == nil || !hs.opened)
	switch {
	case public && !hasValues:
		fail("values are null, but the key of stream %q of step %d is public: they must be shown", name, step)
		return
	case !public && hasValues && sealed:
		fail("values are shown for a hidden draw whose key is not public")
		return
	}
	// The body: E, with the values replaced by c for a hidden draw.
	b := appendU64(v.body, seq)
	b = appendU64(b, step)
	if sealed {
		b = append(b, 1)
		b = appendLPBytes(b, name)
	} else {
		b = append(b, 0, 0, 0, 0, 0)
	}
	b = appendU64(b, word)
	b = appendLPBytes(b, specText)
	b = binaryU32(b, uint32(count))
	valuesAt := len(b)
	if !known {
		v.body = appendLPBytes(append(b, c[:]...), purpose)
		v.res.Sealed++
		return
	}
	if *started && word != *next {
		fail("reads from word %d, but stream %q of step %d is at word %d: a draw is missing, repeated or moved", word, name, step, *next)
		return
	}
	if !*started && word != 0 {
		fail("reads from word %d, but it is the first draw of stream %q in step %d, which starts at word 0", word, name, step)
		return
	}
	st.Seek(word)
	v.want = st.Draw(sp, v.want[:0])
	*next, *started = st.Word(), true
	if hs != nil && hs.opened {
		v.vals = append(v.vals[:0], v.want...)
	}
	for j, w := range v.want {
		if v.vals[j] != w {
			fail("value %d is %d, but stream %q gives %d", j+1, v.vals[j], name, w)
			return
		}
	}
	for _, x := range v.vals {
		b = appendU64(b, uint64(x))
	}
	b = appendLPBytes(b, purpose)
	if sealed {
		mac := hmac.New(sha256.New, hs.key[:])
		mac.Write([]byte(tagHide))
		mac.Write(b)
		var want Hash
		mac.Sum(want[:0])
		if want != c {
			fail("its commitment does not match its values under the key of stream %q of step %d", name, step)
			return
		}
		b = appendLPBytes(append(b[:valuesAt], c[:]...), purpose)
		if hs.opened {
			v.res.Opened = append(v.res.Opened, OpenedDraw{Seq: seq, Step: step, Stream: string(name), Spec: string(specText),
				Values: slices.Clone(v.vals), Purpose: string(purpose)})
			v.res.Sealed++
			v.body = b
			return
		}
	}
	v.body = b
	v.res.Rederived++
}

func (v *verifier2) reveal() {
	s := v.s
	var r KeyReveal
	var ok bool
	if !s.member("step") {
		return
	}
	if r.Step, ok = s.uintIn("step", 1, MaxChainLength); !ok {
		return
	}
	if !s.expect(',') || !s.member("stream") {
		return
	}
	name, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	v.sbuf[0] = name
	if !s.expect(',') || !s.member("key") || !s.hex("key", r.Key[:]) {
		return
	}
	v.recStep = r.Step
	fail := func(format string, args ...any) { v.failAt(TypeReveal, r.Step, 0, format, args...) }
	if r.Step > v.steps {
		fail("reveals a key of step %d, which is not taken yet", r.Step)
		return
	}
	if v.nextRev >= len(v.revealed) {
		fail("\"revealed\" has no entry for this reveal record")
		return
	}
	want := v.revealed[v.nextRev]
	if want.Step != r.Step || want.Stream != string(name) || want.Key != r.Key {
		fail("it is not the next entry of \"revealed\" (step %d, stream %q)", want.Step, want.Stream)
		return
	}
	v.nextRev++
	v.body = appendU64(v.body, r.Step)
	v.body = appendLPBytes(v.body, name)
	v.body = append(v.body, r.Key[:]...)
	v.res.Reveals++
}

func (v *verifier2) rollback() {
	s := v.s
	var r Rollback
	var ok bool
	if !s.member("closed") {
		return
	}
	if r.Closed, ok = s.uintIn("closed", 1, MaxChainLength); !ok {
		return
	}
	if !s.expect(',') || !s.member("target") {
		return
	}
	if r.Target, ok = s.uintIn("target", 1, MaxChainLength); !ok {
		return
	}
	if !s.expect(',') || !s.member("command") || !s.hex("command", r.Command[:]) || !s.expect(',') || !s.member("reason") {
		return
	}
	reason, ok := s.str(v.sbuf[0][:0])
	if !ok {
		return
	}
	v.sbuf[0] = reason
	v.recStep = r.Closed
	fail := func(format string, args ...any) { v.failAt(TypeRollback, r.Closed, 0, format, args...) }
	switch {
	case r.Closed != v.steps+1:
		fail("closes step %d, but the open step is %d", r.Closed, v.steps+1)
		return
	case r.Closed > v.hdr.ChainLength:
		fail("step %d is past the chain length %d", r.Closed, v.hdr.ChainLength)
		return
	case r.Target > r.Closed:
		fail("target %d is after the step it closes", r.Target)
		return
	}
	v.steps = r.Closed
	v.body = appendU64(v.body, r.Closed)
	v.body = appendU64(v.body, r.Target)
	v.body = append(v.body, r.Command[:]...)
	v.body = appendLPBytes(v.body, reason)
	v.res.Rollbacks++
}

func (v *verifier2) end() {
	s := v.s
	var root Hash
	if !s.member("sealed_root") || !s.hex("sealed_root", root[:]) {
		return
	}
	if v.root == nil || *v.root != root {
		v.failAt(TypeEnd, 0, 0, "its root is not the export's \"sealed_root\"")
		return
	}
	v.body = append(v.body, root[:]...)
	v.ended = true
}

// linkReaches reports whether hashing later n times with prevLink gives
// earlier: whether later is open[j+n] of the chain whose open[j] is earlier.
func linkReaches(later Hash, n uint64, earlier Hash) bool {
	for ; n > 0; n-- {
		later = prevLink(later)
	}
	return later == earlier
}
