package main

import (
	"errors"

	"context"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"log/slog"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
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
}

// Wake makes the scheduler look again now (a game started, a step
// processed).
func (s *scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *scheduler) Run(ctx context.Context) error {
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

// pass ticks every game that is due and returns the earliest future due
// time (zero if none).
func (s *scheduler) pass(ctx context.Context) (time.Time, error) {
	now := s.now()
	type due struct {
		game string
		at   time.Time
	}
	var dues []due
	err := s.db.View(ctx, func(tx *store.Tx) error {
		gs, err := tx.Games()
		if err != nil {
			return err
		}
		jt := tx.Judge(s.from, now)
		for _, g := range gs {
			if g.Status != adjudicator.Running {
				continue
			}
			at, ok, err := s.judge.Due(jt, g.ID)
			if err != nil {
				return err
			}
			if ok {
				dues = append(dues, due{g.ID, at})
			}
		}
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	var next time.Time
	for _, d := range dues {
		if d.at.After(now) {
			if next.IsZero() || d.at.Before(next) {
				next = d.at
			}
			continue
		}
		if waited, err := s.beacon(ctx, d.game, now); waited || err != nil {
			if err != nil {
				s.log.ErrorContext(ctx, "beacon step failed", "game", d.game, "err", err)
			}
			next = now
			continue
		}
		changed := false
		err := s.db.Update(ctx, func(tx *store.Tx) (err error) {
			changed, err = s.judge.Tick(ctx, tx.Judge(s.from, now), d.game, now)
			return err
		})
		if err != nil {
			s.log.ErrorContext(ctx, "tick failed", "game", d.game, "err", err)
			continue
		}
		if changed && s.poke != nil {
			s.poke()
		}
		next = now // look again at once: the tick may have opened a step with its own schedule
	}
	return next, nil
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
	var round dice.BeaconRound
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
			if err == nil || !errors.Is(err, dice.ErrBeacon) {
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
