package dice

import "fmt"

// Roller is what a game's rules draw their randomness from. Every draw is
// made from one of the step's streams and logged with its purpose, a sentence
// a player can read that names the rule ("WbT 11.8 CRT roll, NATO attack on
// 1708 at 3:1"). A Roller is used by one goroutine.
type Roller interface {
	Draw(stream StreamKind, spec Spec, purpose string) []int
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

// DrawChit draws one of m chits and returns its index 0..m-1; hidden chits
// come from the sealed stream.
func DrawChit(r Roller, m int, hidden bool, purpose string) int {
	s := Open
	if hidden {
		s = Sealed
	}
	return r.Draw(s, Chit(m), purpose)[0]
}

// Shuffle returns a permutation of 0..m-1 drawn from the sealed stream:
// item p[i] of the old order is at position i of the new.
func Shuffle(r Roller, m int, purpose string) []int {
	js := r.Draw(Sealed, ShuffleOf(m), purpose)
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

// StepRoller draws from step k's open and sealed streams and logs every draw.
type StepRoller struct {
	step    uint64
	streams [2]*Stream
	log     *Log
	records []Record
}

// NewStepRoller returns the roller of step k, whose digest is d, drawing from
// the links open and sealed and appending to log.
func NewStepRoller(log *Log, step uint64, d, open, sealed Hash) *StepRoller {
	return &StepRoller{
		step:    step,
		streams: [2]*Stream{NewStream(open, d), NewStream(sealed, d)},
		log:     log,
	}
}

// Draw draws spec from the stream, logs it and returns its values. It panics
// on an invalid spec: specs come from game code, not from players.
func (r *StepRoller) Draw(stream StreamKind, spec Spec, purpose string) []int {
	if err := spec.Validate(); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	st := r.streams[stream&1]
	word := st.Word()
	vals := spec.Draw(st, make([]int64, 0, spec.Draws()))
	r.records = append(r.records, r.log.Append(Entry{
		Step: r.step, Stream: stream & 1, Word: word, Spec: spec.String(), Values: vals, Purpose: purpose,
	}))
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i] = int(v)
	}
	return out
}

// Records returns the entries logged so far, in order.
func (r *StepRoller) Records() []Record { return r.records }
