package dice

import "fmt"

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
	Draw(stream string, spec Spec, purpose string) []int
}

// Revealer is implemented by rollers that can publish a hidden stream's
// keys mid-game (umpire-dice-v2 reveal records). Rules call Reveal, never
// the method.
type Revealer interface {
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
	if rv, ok := r.(Revealer); ok {
		rv.Reveal(stream)
	}
}

// Roll rolls count dice with faces 1..faces on the open stream.
func Roll(r Roller, count, faces int, purpose string) []int {
	return r.Draw(Open, Dice(count, faces), purpose)
}

// RollFrom rolls count dice with faces base..base+faces-1 on the open stream,
// as the d10 read 0-9: RollFrom(r, 1, 10, 0, purpose).
func RollFrom(r Roller, count, faces, base int, purpose string) []int {
	return r.Draw(Open, DiceFrom(count, faces, base), purpose)
}

// DrawChit draws one of m chits from stream (Open for a chit everyone sees,
// a hidden stream for one only its holder may know) and returns its index
// 0..m-1.
func DrawChit(r Roller, stream string, m int, purpose string) int {
	return r.Draw(stream, Chit(m), purpose)[0]
}

// Shuffle returns a permutation of 0..m-1 drawn from stream (usually a
// hidden one: a deck): item p[i] of the old order is at position i of the
// new.
func Shuffle(r Roller, stream string, m int, purpose string) []int {
	js := r.Draw(stream, ShuffleOf(m), purpose)
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

// StepRoller draws from an umpire-dice-v1 step's open and sealed streams and
// logs every draw. Stream Open draws from the open link; any other stream
// name maps onto the step's one sealed link, so games written for named
// streams replay old games exactly.
type StepRoller struct {
	step    uint64
	streams [2]*Stream
	log     *Log
	records []EntryRecord
}

// NewStepRoller returns the roller of v1 step k, whose digest is d, drawing
// from the links open and sealed and appending to log.
func NewStepRoller(log *Log, step uint64, d, open, sealed Hash) *StepRoller {
	return &StepRoller{
		step:    step,
		streams: [2]*Stream{NewStream(open, d), NewStream(sealed, d)},
		log:     log,
	}
}

// Draw draws spec from the stream, logs it and returns its values. It panics
// on an invalid spec: specs come from game code, not from players.
func (r *StepRoller) Draw(stream string, spec Spec, purpose string) []int {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	kind := StreamSealed
	if stream == Open {
		kind = StreamOpen
	}
	st := r.streams[kind]
	word := st.Word()
	vals := spec.Draw(st, make([]int64, 0, spec.Draws()))
	r.records = append(r.records, r.log.Append(Entry{
		Step: r.step, Stream: kind, Word: word, Spec: spec.String(), Values: vals, Purpose: purpose,
	}))
	return ints(vals)
}

func ints(vals []int64) []int {
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i] = int(v)
	}
	return out
}

// Records returns the entries logged so far, in order.
func (r *StepRoller) Records() []EntryRecord { return r.records }
