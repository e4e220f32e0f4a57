package dice

import (
	"fmt"
	"slices"
)

// HiddenKeyError is the panic value of a StepRollerV2 asked to draw from a
// hidden stream whose key it does not have (a replay before the key is
// public). Replays recover it and say which step needs the key.
type HiddenKeyError struct {
	Step   uint64
	Stream string
}

func (e HiddenKeyError) Error() string {
	return fmt.Sprintf("step %d drew from hidden stream %q, whose key is not public yet", e.Step, e.Stream)
}

// StreamReveal is a hidden stream whose secrecy the rules said is spent
// (Reveal) in a step: the keys of the earlier steps that drew from it may be
// published, and the step's own when ThisStep is set (it drew from the
// stream, and not again after the Reveal).
type StreamReveal struct {
	Stream   string
	ThisStep bool
}

// StepRollerV2 draws from the streams of an umpire-dice-v2 step and appends
// a draw record for each draw to a Ledger: open draws with their values,
// hidden draws with their commitment (and their values, which the judge
// keeps and the export withholds until the key is public).
type StepRollerV2 struct {
	ledger   *Ledger
	step     uint64
	digest   Hash
	open     *Stream
	hidden   map[string]*Stream
	keys     map[string]Hash
	declared []string
	key      func(stream string) (Hash, bool)
	records  []Record
	drawn    []string // hidden streams drawn from, in first-draw order
	reveals  []StreamReveal
}

// NewStepRollerV2 returns the roller of step k whose digest is D_k = d: the
// open stream's key is the step's open link, a hidden stream's key comes
// from key (StreamKey of the sealed root, or a published key). streams are
// the header's hidden streams; drawing from another panics. The step record
// must have been appended to l just before.
func NewStepRollerV2(l *Ledger, k uint64, d, open Hash, streams []string, key func(stream string) (Hash, bool)) *StepRollerV2 {
	return &StepRollerV2{ledger: l, step: k, digest: d, open: NewStreamV2(open, d), declared: streams, key: key,
		hidden: map[string]*Stream{}, keys: map[string]Hash{}}
}

// Draw implements Roller.
func (r *StepRollerV2) Draw(stream string, spec Spec, purpose string) []int {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	d := &Draw{Step: r.step, Stream: stream, Spec: spec.String(), Purpose: purpose}
	var st *Stream
	if stream == Open {
		st = r.open
	} else {
		if _, ok := slices.BinarySearch(r.declared, stream); !ok {
			panic(fmt.Sprintf("dice: %v: the game draws from stream %q, which its header does not name (it names %v)", ErrBadStream, stream, r.declared))
		}
		st = r.hidden[stream]
		if st == nil {
			k, ok := r.key(stream)
			if !ok {
				panic(HiddenKeyError{Step: r.step, Stream: stream})
			}
			st = NewStreamV2(k, r.digest)
			r.hidden[stream], r.keys[stream] = st, k
			r.drawn = append(r.drawn, stream)
		}
		for i := range r.reveals {
			if r.reveals[i].Stream == stream {
				r.reveals[i].ThisStep = false // drawn again after the reveal: this step's key stays sealed
			}
		}
	}
	d.Word = st.Word()
	d.Values = spec.Draw(st, make([]int64, 0, spec.Draws()))
	if d.Sealed() {
		d.Seq = r.ledger.Seq + 1 // the commitment covers seq: number it as Append will
		d.Commitment = d.Commit(r.keys[stream])
	}
	rec := Record{Type: TypeDraw, Draw: d}
	if err := r.ledger.Append(&rec); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	r.records = append(r.records, rec)
	return ints(d.Values)
}

// Reveal implements Revealer.
func (r *StepRollerV2) Reveal(stream string) {
	if _, ok := slices.BinarySearch(r.declared, stream); !ok {
		panic(fmt.Sprintf("dice: %v: reveal of stream %q, which the header does not name", ErrBadStream, stream))
	}
	_, drew := r.hidden[stream]
	for i := range r.reveals {
		if r.reveals[i].Stream == stream {
			r.reveals[i].ThisStep = drew
			return
		}
	}
	r.reveals = append(r.reveals, StreamReveal{Stream: stream, ThisStep: drew})
}

// Records returns the draw records appended so far, in order.
func (r *StepRollerV2) Records() []Record { return r.records }

// Drawn lists the hidden streams the step drew from.
func (r *StepRollerV2) Drawn() []string { return r.drawn }

// Reveals lists the streams the rules revealed, in the order first asked.
func (r *StepRollerV2) Reveals() []StreamReveal { return r.reveals }

// Key returns the key the step used for hidden stream name.
func (r *StepRollerV2) Key(name string) (Hash, bool) {
	k, ok := r.keys[name]
	return k, ok
}
