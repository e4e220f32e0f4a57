package legacy

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// StepRoller draws from an umpire-dice-v1 step's open and sealed streams and
// logs every draw. Stream Open draws from the open link; any other stream
// name maps onto the step's one sealed link, so games written for named
// streams replay old games exactly.
type StepRoller struct {
	step    uint64
	streams [2]*dice.Stream
	log     *Log
	records []EntryRecord
}

// NewStepRoller returns the roller of v1 step k, whose digest is d, drawing
// from the links open and sealed and appending to log.
func NewStepRoller(log *Log, step uint64, d, open, sealed dice.Hash) *StepRoller {
	return &StepRoller{
		step:    step,
		streams: [2]*dice.Stream{dice.NewStream(streamTag, open, d), dice.NewStream(streamTag, sealed, d)},
		log:     log,
	}
}

// Draw draws spec from the stream, logs it and returns its values. It panics
// on an invalid spec: specs come from game code, not from players.
func (r *StepRoller) Draw(stream string, sp spec.Spec, purpose string) []int {
	if err := sp.Validate(); err != nil {
		panic(fmt.Sprintf("dice: %v", err))
	}
	kind := StreamSealed
	if stream == dice.Open {
		kind = StreamOpen
	}
	st := r.streams[kind]
	word := st.Word()
	vals := st.Draw(sp, make([]int64, 0, sp.Draws()))
	r.records = append(r.records, r.log.Append(Entry{
		Step: r.step, Stream: kind, Word: word, Spec: sp.String(), Values: vals, Purpose: purpose,
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
