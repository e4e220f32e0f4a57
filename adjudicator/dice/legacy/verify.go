package legacy

import (
	"crypto/sha256"
	"fmt"
	"hash"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Problem is the first thing in a log that does not hold. Seq is the failing
// entry's sequence number, or 0 when the problem is in a step or the header.
type Problem struct {
	Seq     uint64 `json:"seq,omitempty"`
	Step    uint64 `json:"step,omitempty"`
	Purpose string `json:"purpose,omitempty"`
	Reason  string `json:"reason"`
}

// Error describes the problem in one line.
func (p *Problem) Error() string {
	switch {
	case p.Seq != 0:
		return fmt.Sprintf("entry %d (step %d, %q): %s", p.Seq, p.Step, p.Purpose, p.Reason)
	case p.Step != 0:
		return fmt.Sprintf("step %d: %s", p.Step, p.Reason)
	}
	return p.Reason
}

// Result is the outcome of verifying an export.
type Result struct {
	Game     string    `json:"game"`
	Steps    int       `json:"steps"`
	Entries  int       `json:"entries"`
	Verified int       `json:"verified"` // entries whose values were re-derived
	Hidden   int       `json:"hidden"`   // sealed entries taken by their stated hash
	Head     dice.Hash `json:"head"`     // the log head the entries chain to
	Problem  *Problem  `json:"problem,omitempty"`
}

// OK reports whether everything checked held.
func (r *Result) OK() bool { return r.Problem == nil }

// Verify checks an export offline: every revealed link hashes back to the
// commitment, every D_k is recomputed from its step's orders, every entry
// follows its predecessor in sequence and in its stream, every revealed value
// is re-derived from its stream, and every entry hash chains from h_0 to the
// stated head. It stops at the first problem. progress, if not nil, is called
// now and then with the entries done so far and the total.
func Verify(x *Export, progress func(done, total int)) *Result {
	v := verifier{x: x, res: &Result{Game: x.Game, Steps: len(x.Steps), Entries: len(x.Entries)}}
	v.run(progress)
	return v.res
}

// streamState is where one stream of the current step stands.
type streamState struct {
	stream  *dice.Stream
	next    uint64 // word the next entry must start at
	started bool
}

type verifier struct {
	x     *Export
	res   *Result
	steps map[uint64]*ExportStep
	specs map[string]spec.Spec // parsed specs, by text
	step  *ExportStep          // the step of the entries being read
	cur   [2]streamState       // its open and sealed streams
	sha   hash.Hash
	buf   []byte
	vals  []int64
}

func (v *verifier) fail(seq, step uint64, purpose, format string, args ...any) {
	v.res.Problem = &Problem{Seq: seq, Step: step, Purpose: purpose, Reason: fmt.Sprintf(format, args...)}
}

func (v *verifier) run(progress func(done, total int)) {
	x := v.x
	if x.Scheme != Hashed.Name() {
		v.fail(0, 0, "", "scheme is %q, this verifier checks %q", x.Scheme, Hashed.Name())
		return
	}
	if want := LogStart(x.Commitments.Open, x.Commitments.Sealed); x.Start != want {
		v.fail(0, 0, "", "h0 is %s but the commitments give %s", x.Start, want)
		return
	}
	if x.ChainLength < 1 || x.ChainLength > dice.MaxChainLength {
		v.fail(0, 0, "", "chain_length %d is outside 1 to %d", x.ChainLength, dice.MaxChainLength)
		return
	}
	if !v.checkSteps() {
		return
	}
	v.specs = make(map[string]spec.Spec)
	v.sha = sha256.New()
	prev := x.Start
	lastStep := uint64(0)
	total := len(x.Entries)
	for i := range x.Entries {
		if progress != nil && i%4096 == 0 {
			progress(i, total)
		}
		e := &x.Entries[i]
		h, ok := v.entry(i, e, prev, &lastStep)
		if !ok {
			return
		}
		prev = h
	}
	if progress != nil {
		progress(total, total)
	}
	v.res.Head = prev
	if x.Head != prev {
		v.fail(0, 0, "", "the stated head %s is not the hash of the last entry (%s): entries are missing at the end or the head was changed", x.Head, prev)
	}
}

// checkSteps checks step numbers, digests and every revealed link.
func (v *verifier) checkSteps() bool {
	x := v.x
	v.steps = make(map[uint64]*ExportStep, len(x.Steps))
	lastOpen, lastOpenAt := x.Commitments.Open, uint64(0)
	lastSealed, lastSealedAt := x.Commitments.Sealed, uint64(0)
	for i := range x.Steps {
		s := &x.Steps[i]
		if s.Step == 0 || (i > 0 && s.Step <= x.Steps[i-1].Step) {
			v.fail(0, s.Step, "", "steps must be numbered from 1 in increasing order")
			return false
		}
		if s.Step > x.ChainLength {
			v.fail(0, s.Step, "", "step is past the end of a chain of %d links", x.ChainLength)
			return false
		}
		v.steps[s.Step] = s
		if d := StepDigest(x.Game, s.Step, s.Phase, s.Orders); d != s.Digest {
			v.fail(0, s.Step, "", "digest D_k is %s but its game, step, phase and %d order digests give %s", s.Digest, len(s.Orders), d)
			return false
		}
		if s.Open != nil {
			if !LinkReaches(*s.Open, s.Step-lastOpenAt, lastOpen) {
				v.fail(0, s.Step, "", "open link %s does not hash back to %s", *s.Open, linkName("open", lastOpenAt))
				return false
			}
			lastOpen, lastOpenAt = *s.Open, s.Step
		}
		if s.Sealed != nil {
			if !LinkReaches(*s.Sealed, s.Step-lastSealedAt, lastSealed) {
				v.fail(0, s.Step, "", "sealed link %s does not hash back to %s", *s.Sealed, linkName("sealed", lastSealedAt))
				return false
			}
			lastSealed, lastSealedAt = *s.Sealed, s.Step
		}
	}
	return true
}

func linkName(chain string, step uint64) string {
	if step == 0 {
		return "the " + chain + " commitment"
	}
	return fmt.Sprintf("the %s link of step %d", chain, step)
}

// entry checks entry i and returns its hash.
func (v *verifier) entry(i int, e *ExportEntry, prev dice.Hash, lastStep *uint64) (dice.Hash, bool) {
	fail := func(format string, args ...any) (dice.Hash, bool) {
		v.fail(e.Seq, e.Step, e.Purpose, format, args...)
		return dice.Hash{}, false
	}
	if e.Seq != uint64(i)+1 {
		v.res.Problem = &Problem{Seq: e.Seq, Step: e.Step, Purpose: e.Purpose,
			Reason: fmt.Sprintf("found at position %d of the log: entries are out of order, missing or repeated", i+1)}
		if e.Seq == 0 {
			v.res.Problem.Reason = fmt.Sprintf("entry at position %d has no seq", i+1)
		}
		return dice.Hash{}, false
	}
	if e.Step < *lastStep {
		return fail("comes after an entry of step %d: entries are out of order", *lastStep)
	}
	if v.step == nil || e.Step != *lastStep {
		v.step = v.steps[e.Step]
		v.cur = [2]streamState{}
	}
	*lastStep = e.Step
	st := v.step
	if st == nil {
		return fail("its step is not among the log's steps")
	}
	kind, err := ParseStreamKind(e.Stream)
	if err != nil {
		return fail("%v", err)
	}
	sp, ok := v.specs[e.Spec]
	if !ok {
		if sp, err = spec.Parse(e.Spec); err != nil {
			return fail("%v", err)
		}
		v.specs[e.Spec] = sp
	}
	cur := &v.cur[kind]
	if e.Hidden {
		if kind != StreamSealed || st.Sealed != nil {
			return fail("values are withheld, but only draws from an unrevealed sealed link may be")
		}
		if e.Values != nil {
			return fail("values are given for a hidden entry")
		}
		if e.Hash.IsZero() {
			return fail("hidden entry without a hash")
		}
		// A sealed stream is hidden whole until its link is revealed, so no
		// revealed entry shares this stream.
		v.res.Hidden++
		return e.Hash, true
	}
	link := st.Open
	if kind == StreamSealed {
		link = st.Sealed
	}
	if link == nil {
		return fail("its values cannot be checked: the %s link of step %d is not revealed", kind, e.Step)
	}
	if cur.started && e.Word != cur.next {
		return fail("reads from word %d, but the %s stream of step %d is at word %d: an entry is missing, repeated or moved", e.Word, kind, e.Step, cur.next)
	} else if !cur.started && e.Word != 0 {
		return fail("reads from word %d, but it is the first draw of the %s stream of step %d, which starts at word 0", e.Word, kind, e.Step)
	}
	if len(e.Values) != sp.Draws() {
		return fail("has %d values, a %q draw gives %d", len(e.Values), e.Spec, sp.Draws())
	}
	if cur.stream == nil {
		cur.stream = dice.NewStream(streamTag, *link, st.Digest)
	}
	s := cur.stream
	s.Seek(e.Word)
	v.vals = s.Draw(sp, v.vals[:0])
	for j, want := range v.vals {
		if e.Values[j] != want {
			return fail("value %d is %d, but the %s stream gives %d", j+1, e.Values[j], kind, want)
		}
	}
	cur.next, cur.started = s.Word(), true
	entry := Entry{Seq: e.Seq, Step: e.Step, Stream: kind, Word: e.Word, Spec: e.Spec, Values: e.Values, Purpose: e.Purpose}
	v.sha.Reset()
	v.buf = entry.AppendBinary(append(v.buf[:0], prev[:]...))
	v.sha.Write(v.buf)
	var h dice.Hash
	v.sha.Sum(h[:0])
	if e.Hash != h {
		return fail("its stated hash %s is not the hash of its content and the previous entry (%s): the purpose, spec or another field was changed", e.Hash, h)
	}
	v.res.Verified++
	return h, true
}
