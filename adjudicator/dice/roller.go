package dice

import (
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// Open is the name of a step's open stream: ordinary dice and chits, whose
// key the step's report reveals. Every other stream a game draws from is
// one of its hidden streams, named in its header (HiddenStreams).
const Open = "open"

// Roller is what a game's rules draw their randomness from. Every draw is
// made from one named stream of the step, Open or one of the game's hidden
// streams, and logged with its purpose, a sentence a player can read that
// names the rule ("WbT 11.8 CRT roll, NATO attack on 1708 at 3:1"). A
// Roller is used by one goroutine. It panics on a spec out of limits or a
// stream the game did not declare: both are bugs of the game's code.
type Roller interface {
	Draw(stream string, sp spec.Spec, purpose string) []int
}

// revealer is implemented by rollers that can publish a hidden stream's
// keys mid-game (umpire-dice-v2 reveal records). Rules call Reveal, never
// the method.
type revealer interface {
	Reveal(stream string)
}

// Reveal says that the secrecy of a hidden stream is spent (a deck is
// exhausted, a hand is played out): the judge publishes the keys of every
// step that drew from the stream so far, so that anyone can check those
// draws before the game ends. The current step's key is published too,
// unless the rules draw from the same stream again later in the step (a
// reshuffle): that key stays sealed, since it now hides the new draws. A
// roller that cannot reveal (umpire-dice-v1 games, calculators) ignores it.
func Reveal(r Roller, stream string) {
	if rv, ok := r.(revealer); ok {
		rv.Reveal(stream)
	}
}

// Roll rolls count dice with faces 1..faces on the open stream.
func Roll(r Roller, count, faces int, purpose string) []int {
	return r.Draw(Open, spec.Dice(count, faces), purpose)
}

// Shuffle returns a permutation of 0..m-1 drawn from stream (usually a
// hidden one: a deck): item p[i] of the old order is at position i of the
// new.
func Shuffle(r Roller, stream string, m int, purpose string) []int {
	js := r.Draw(stream, spec.Shuffle(m), purpose)
	p := make([]int, m)
	for i := range p {
		p[i] = i
	}
	for k, i := 0, m-1; i >= 1; k, i = k+1, i-1 {
		j := js[k]
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// HiddenKeyError is the panic value of a StepRoller asked to draw from a
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

// StepRoller draws from the streams of a step of a v3 (or v2) log and appends
// a draw record for each draw to a Ledger: open draws with their values,
// hidden draws with their commitment (and their values, which the judge
// keeps and the export withholds until the key is public).
type StepRoller struct {
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

// NewStepRoller returns the roller of step k whose digest is D_k = d: the
// open stream's key is the step's open link, a hidden stream's key comes
// from key (StreamKey of the sealed root, or a published key). streams are
// the header's hidden streams; drawing from another panics. The step record
// must have been appended to l just before.
func NewStepRoller(l *Ledger, k uint64, d, open Hash, streams []string, key func(stream string) (Hash, bool)) *StepRoller {
	return &StepRoller{ledger: l, step: k, digest: d, open: newStream(open, d), declared: streams, key: key,
		hidden: map[string]*Stream{}, keys: map[string]Hash{}}
}

// Draw implements Roller.
func (r *StepRoller) Draw(stream string, sp spec.Spec, purpose string) []int {
	if err := sp.Validate(); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	d := &Draw{Step: r.step, Stream: stream, Spec: sp.String(), Purpose: purpose}
	var st *Stream
	if stream == Open {
		st = r.open
	} else {
		if _, ok := slices.BinarySearch(r.declared, stream); !ok {
			panic(fmt.Sprintf("dice: %v: the game draws from stream %q, which its header does not name (it names %v)", errBadStream, stream, r.declared))
		}
		st = r.hidden[stream]
		if st == nil {
			k, ok := r.key(stream)
			if !ok {
				panic(HiddenKeyError{Step: r.step, Stream: stream})
			}
			st = newStream(k, r.digest)
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
	d.Values = st.Draw(sp, make([]int64, 0, sp.Draws()))
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

// Reveal marks a hidden stream's secrecy spent in the step: the rules call
// the package's Reveal, which calls it.
func (r *StepRoller) Reveal(stream string) {
	if _, ok := slices.BinarySearch(r.declared, stream); !ok {
		panic(fmt.Sprintf("dice: %v: reveal of stream %q, which the header does not name", errBadStream, stream))
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
func (r *StepRoller) Records() []Record { return r.records }

// Drawn lists the hidden streams the step drew from.
func (r *StepRoller) Drawn() []string { return r.drawn }

// Reveals lists the streams the rules revealed, in the order first asked.
func (r *StepRoller) Reveals() []StreamReveal { return r.reveals }

// Key returns the key the step used for hidden stream name.
func (r *StepRoller) Key(name string) (Hash, bool) {
	k, ok := r.keys[name]
	return k, ok
}

func ints(vals []int64) []int {
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i] = int(v)
	}
	return out
}
