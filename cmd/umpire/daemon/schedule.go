package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/store"
)

// scheduler runs the games' clocks: it wakes at the earliest reminder or
// deadline of any running game (and at least every interval), and ticks
// the games that are due, each in its own transaction. A deadline missed
// while the judge was down is handled once at start: the tick that
// adjudicates it commits the step closed.
type scheduler struct {
	db       *store.DB
	judge    *adjudicator.Judge
	from     string
	now      func() time.Time
	log      *slog.Logger
	poke     func()
	interval time.Duration
	wake     chan struct{}
	// beacons fetches the rounds that steps of games with a beacon wait
	// for (nil: no relay, and such steps wait, their game masters told).
	beacons adjudicator.BeaconSource
	// indexed is set once the store's due-time index is known complete.
	indexed bool

	// fetching is the games whose beacon round is being fetched: each in
	// its own goroutine, at most maxBeaconFetches at once, so that a slow
	// or unreachable relay never holds up a pass (other games' deadlines,
	// reminders and the passes a new order wakes).
	mu       sync.Mutex
	fetching map[string]bool
	fetches  sync.WaitGroup
}

// maxBeaconFetches bounds the beacon rounds fetched at once.
const maxBeaconFetches = 4

// fetchBeacon starts fetching game's beacon round unless it is being
// fetched already or maxBeaconFetches fetches run; false if not started
// (a later pass tries again: the game stays due while its step waits).
func (s *scheduler) fetchBeacon(ctx context.Context, game string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fetching == nil {
		s.fetching = map[string]bool{}
	}
	if s.fetching[game] || len(s.fetching) >= maxBeaconFetches {
		return false
	}
	s.fetching[game] = true
	s.fetches.Add(1)
	go func() {
		defer s.fetches.Done()
		if _, err := s.beacon(ctx, game, now); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "beacon step failed", "game", game, "err", err)
		}
		s.mu.Lock()
		delete(s.fetching, game)
		s.mu.Unlock()
		s.Wake() // the step was adjudicated or its next try recorded
	}()
	return true
}

// settle waits for the beacon fetches under way (at shutdown, and in
// tests).
func (s *scheduler) settle() { s.fetches.Wait() }

// Wake makes the scheduler look again now (a game started, a step
// processed).
func (s *scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *scheduler) Run(ctx context.Context) error {
	defer s.settle()
	for {
		next, err := s.pass(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "schedule pass failed", "err", err)
		}
		wait := s.interval
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(s.now()), 0))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		case <-s.wake:
			t.Stop()
		}
	}
}

// Ticks are committed in batches of up to tickBatch games, each batch
// closed after tickBatchTime of work, so that a burst of deadlines costs
// one commit per batch while intake waits for the store at most that long.
// A commit is most of a pass's cost (its fsyncs): a pass of 100 reminders
// is one commit. A batch is one transaction: a crash loses none of its
// ticks and sends none twice, as the next pass ticks them again
// (TestPassKilled).
const (
	tickBatch     = 256
	tickBatchTime = 100 * time.Millisecond
)

// pass ticks every game that is due, as the store's due-time index says,
// and returns when to look again: the earliest future due time (zero if
// none), or now when a tick changed something.
func (s *scheduler) pass(ctx context.Context) (time.Time, error) {
	if !s.indexed {
		// Stores opened by openStore keep the index already; this makes
		// sure of it for any other (a store an older umpire wrote).
		if err := s.db.UseDue(ctx, s.judge.Due); err != nil {
			return time.Time{}, err
		}
		s.indexed = true
	}
	now := s.now()
	var due []string
	var next time.Time
	err := s.db.View(ctx, func(tx *store.Tx) (err error) {
		due, next, err = tx.DueGames(now, 0)
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	for len(due) > 0 {
		if ctx.Err() != nil {
			return next, ctx.Err()
		}
		took, changed, waiting, err := s.tickBatch(ctx, due, now)
		if err != nil {
			// One game's tick failed: the batch is undone, and its games
			// are ticked one by one so that the others go on.
			for _, game := range due[:max(took, 1)] {
				_, c, w, err := s.tickBatch(ctx, []string{game}, now)
				if err != nil {
					s.log.ErrorContext(ctx, "tick failed", "game", game, "err", err)
				}
				changed, waiting = changed || c, append(waiting, w...)
			}
			took = max(took, 1)
		}
		due = due[took:]
		if changed {
			next = now // look again at once: a tick may have opened a step with its own schedule
			if s.poke != nil {
				s.poke()
			}
		}
		for _, game := range waiting {
			// fetched outside the pass; when it ends, the scheduler is
			// woken to look again
			s.fetchBeacon(ctx, game, now)
		}
	}
	return next, nil
}

// tickBatch ticks the first games of due in one transaction, until
// tickBatch games or tickBatchTime, and returns how many it took, whether
// any changed, and those whose step waits for a beacon round (handled
// outside any transaction). A game whose tick changes nothing has its
// due time read again, so that it is not due again until it has work.
func (s *scheduler) tickBatch(ctx context.Context, due []string, now time.Time) (int, bool, []string, error) {
	var took int
	var changed bool
	var waiting []string
	err := s.db.Update(ctx, func(tx *store.Tx) error {
		took, changed, waiting = 0, false, nil
		t0 := time.Now()
		jt := tx.Judge(s.from, now)
		for _, game := range due {
			if took == tickBatch || (took > 0 && time.Since(t0) > tickBatchTime) {
				break
			}
			took++
			if _, ok, err := s.judge.Waiting(jt, game, now); err != nil {
				return fmt.Errorf("game %s: %w", game, err)
			} else if ok {
				waiting = append(waiting, game)
				continue
			}
			c, err := s.judge.Tick(ctx, jt, game, now)
			if err != nil {
				return fmt.Errorf("game %s: %w", game, err)
			}
			if !c {
				tx.Touch(game)
			}
			changed = changed || c
		}
		return nil
	})
	return took, changed, waiting, err
}

// beacon handles a game whose step waits for its beacon round: the round is
// fetched from the relays outside any transaction, then the step is
// adjudicated with it, or the failure is recorded (the step waits, the
// game master is told). It reports whether the game was waiting.
func (s *scheduler) beacon(ctx context.Context, game string, now time.Time) (bool, error) {
	var wait adjudicator.BeaconWait
	var waiting bool
	err := s.db.View(ctx, func(tx *store.Tx) (err error) {
		wait, waiting, err = s.judge.Waiting(tx.Judge(s.from, now), game, now)
		return err
	})
	if err != nil || !waiting {
		return false, err
	}
	var round beacon.Round
	fetchErr := errors.New("this judge has no beacon relay configured ([beacon] relays)")
	if s.beacons != nil {
		round, fetchErr = s.beacons.Round(ctx, wait.Beacon, wait.Round)
	}
	if ctx.Err() != nil {
		return true, ctx.Err()
	}
	err = s.db.Update(ctx, func(tx *store.Tx) error {
		jt := tx.Judge(s.from, now)
		if fetchErr == nil {
			err := s.judge.BeaconArrived(ctx, jt, game, round, now)
			if err == nil || !errors.Is(err, beacon.ErrInvalid) {
				return err
			}
			fetchErr = err
		}
		return s.judge.BeaconFailed(jt, game, fetchErr, now)
	})
	if s.poke != nil {
		s.poke()
	}
	return true, err
}
