package adjudicator

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The default budgets (README.md, Configuration: limits.message_time,
// limits.step_time, limits.memory).
const (
	// DefaultMessageTime bounds the computations one incoming message
	// causes: reading it (MIME, signature), and the rules reading its
	// orders or its game file. Real messages take milliseconds.
	DefaultMessageTime = 5 * time.Second
	// DefaultStepTime bounds the rules' adjudication of one step.
	DefaultStepTime = time.Minute
	// DefaultMemory bounds how much the heap may grow while one such
	// computation runs.
	DefaultMemory = 1 << 30
)

// Budget bounds one computation on what someone sent: the time it may take
// and how much it may grow the heap. Go cannot stop a goroutine from
// outside, so a computation that overruns is abandoned: Run returns at the
// limit with an *OverBudget error, and the computation goes on alone,
// unable to touch anything but its own arguments (the rules are pure
// functions of them; Run is never given a store transaction), until it
// ends or the judge restarts. Runaways counts the abandoned ones.
type Budget struct {
	Time   time.Duration // 0: DefaultMessageTime
	Memory uint64        // bytes of heap growth; 0: DefaultMemory
	// Runaways, when set, counts the computations abandoned while still
	// running (the daemon's metrics and log).
	Runaways *atomic.Int64
}

// OverBudget is the error of a computation that could not be completed
// within its Budget: it took too long, grew the heap too much, or
// panicked.
type OverBudget struct {
	What   string // "reading the orders of NATO", "adjudicating step 4"
	Reason string // "took more than 5s", "panicked: ..."
}

func (e *OverBudget) Error() string { return e.What + ": " + e.Reason }

// heapSample is how often Run looks at the heap while it waits.
const heapSample = 10 * time.Millisecond

// heapMetric is the bytes of heap memory occupied by objects, live or not
// yet swept: what a computation that hoards memory grows. Garbage, made
// and collected, only ripples it (up to the collector's target, a multiple
// of the live heap), so a memory budget well above the judge's live heap
// stops hoarding and nothing else.
const heapMetric = "/memory/classes/heap/objects:bytes"

// Run runs fn, what it is doing named by what, within the budget: it
// returns nil when fn returned, or an *OverBudget error when fn panicked,
// ran past the time, or grew the heap past the memory (fn is then left to
// itself, see Budget).
func (b Budget) Run(what string, fn func()) error {
	limit, memory := b.Time, b.Memory
	if limit <= 0 {
		limit = DefaultMessageTime
	}
	if memory == 0 {
		memory = DefaultMemory
	}
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }() // nil when fn returned
		fn()
	}()
	sample := []metrics.Sample{{Name: heapMetric}}
	heap := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	base := heap()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(heapSample)
	defer tick.Stop()
	for {
		select {
		case r := <-done:
			if r != nil {
				return &OverBudget{What: what, Reason: fmt.Sprintf("panicked: %v", r)}
			}
			return nil
		case <-deadline.C:
			b.abandoned()
			return &OverBudget{What: what, Reason: fmt.Sprintf("took more than %v", limit)}
		case <-tick.C:
			// growth from the least the heap was seen at: garbage the
			// collector frees meanwhile does not hide what fn holds
			h := heap()
			base = min(base, h)
			if h-base > memory {
				b.abandoned()
				return &OverBudget{What: what, Reason: fmt.Sprintf("grew the judge's memory by more than %d MiB", memory>>20)}
			}
		}
	}
}

func (b Budget) abandoned() {
	if b.Runaways != nil {
		b.Runaways.Add(1)
	}
}

// forMessage runs fn, a rules computation on what a message brought (its
// orders, its game file), within the judge's message budget.
func (j *Judge) forMessage(what string, fn func()) error {
	b := j.MessageBudget
	if b.Time <= 0 {
		b.Time = DefaultMessageTime
	}
	return b.Run(what, fn)
}

// forStep runs fn, the rules' adjudication of a step, within the judge's
// step budget.
func (j *Judge) forStep(what string, fn func()) error {
	b := j.StepBudget
	if b.Time <= 0 {
		b.Time = DefaultStepTime
	}
	return b.Run(what, fn)
}

// StepStuck is the error of a step the rules could not adjudicate: they
// failed, panicked or ran out of their budget. By the time it is returned
// the judge has paused the game and queued word to its game master and the
// operator in the caller's transaction, which must be committed: the step
// stays open with its orders, nothing was rolled, and the rest of the judge
// goes on.
type StepStuck struct {
	Game   string
	Step   uint64
	Reason string
}

func (e *StepStuck) Error() string {
	return fmt.Sprintf("step %d of %s could not be adjudicated: %s", e.Step, e.Game, e.Reason)
}

// stuck pauses g, whose open step st the rules could not adjudicate (why),
// tells its game master and the operator, and returns the *StepStuck.
func (j *Judge) stuck(tx Tx, g Game, st StepRecord, why error, now time.Time) error {
	if g.Status == Running {
		if err := j.Pause(tx, g.ID, now); err != nil {
			return err
		}
	}
	err := &StepStuck{Game: g.ID, Step: st.Number, Reason: why.Error()}
	if aerr := j.alarm(tx, g, fmt.Sprintf("step %d could not be adjudicated", st.Number), fmt.Sprintf(
		"The judge could not adjudicate step %d (%s) of %s: %s.\n\n"+
			"The game is paused. The step is still open with every order file sent for it; no die was\n"+
			"rolled. The operator has the log. When the cause is fixed (an umpire with the fix, or a\n"+
			"larger limits.step_time), the game master sends 'resume %s' (signed), or the operator\n"+
			"runs 'umpire game resume %s', and the step is adjudicated again at its deadline.\n",
		st.Number, st.Phase, g.ID, why, g.ID, g.ID)); aerr != nil {
		return aerr
	}
	return err
}

// isStuck reports whether err is a *StepStuck.
func isStuck(err error) bool {
	var s *StepStuck
	return errors.As(err, &s)
}

// stuckNote tells a seat whose orders completed a step that the step could
// not be adjudicated.
func stuckNote(err error) string {
	return fmt.Sprintf("Every seat is ready, but %v. The game is paused and its game master and\n"+
		"the judge's operator are told; your orders stay with the step.\n", err)
}

// newState is the rules' first state of a game (scenario and options from
// its game file: a game master's data files among them), within the
// message budget.
func (j *Judge) newState(rules Rules, game, scenario string, options map[string]string) (state []byte, err error) {
	berr := j.forMessage(fmt.Sprintf("setting up %s (%s, scenario %s)", game, rules.ID(), scenario), func() {
		state, err = rules.New(scenario, options)
	})
	if berr != nil {
		return nil, berr
	}
	return state, err
}
