package main

import (
	"context"
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
