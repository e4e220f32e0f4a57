package store

import (
	"fmt"
	"github.com/umpire-pbem/umpire/adjudicator"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Step is one adjudication step of a game.
type Step struct {
	Game     string      `json:"game"`
	Number   uint64      `json:"number"`
	Phase    string      `json:"phase"`
	Status   string      `json:"status"`
	Opened   time.Time   `json:"opened"`
	Deadline time.Time   `json:"deadline"`
	Closed   time.Time   `json:"closed"`
	Owing    []string    `json:"owing"` // seats whose orders are due
	Ready    []string    `json:"ready"` // seats that declared themselves ready
	State    []byte      `json:"state"` // the game's state, opaque to the store
	Digest   dice.Hash   `json:"digest"`
	Orders   []dice.Hash `json:"orders"` // digests of the accepted order files

	NoOrders map[string]string    `json:"no_orders,omitempty"` // per seat: what no orders means
	Used     map[string]uint64    `json:"used,omitempty"`      // order file version adjudicated, per seat
	Repeated map[string][2]uint64 `json:"repeated,omitempty"`  // per seat: step and version of the orders used again
	Extended bool                 `json:"extended,omitempty"`  // the grace period was added
	Reminded int                  `json:"reminded,omitempty"`  // reminders sent
	Paused   time.Duration        `json:"paused,omitempty"`    // time left when the game was paused

	RestoredFrom uint64 `json:"restored_from,omitempty"` // the step a rollback restored this one from

	// Dice is what a v2 step's dice are bound to (its close, order list,
	// beacon round and log head); nil for v1 games.
	Dice *adjudicator.StepDice `json:"dice,omitempty"`
}

// PutStep creates or replaces step s.Number of game s.Game.
func (tx *Tx) PutStep(s Step) error {
	tx.touch(s.Game)
	b, err := tx.gameSub(s.Game, bSteps)
	if err == nil {
		err = putJSON(b, u64(s.Number), s)
	}
	if err != nil {
		return fmt.Errorf("put step %d: %w", s.Number, err)
	}
	return nil
}

// Step returns step n of game.
func (tx *Tx) Step(game string, n uint64) (Step, error) {
	var s Step
	b, err := tx.gameSub(game, bSteps)
	if err != nil {
		return s, err
	}
	ok, err := getJSON(b, u64(n), &s)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("game %q: step %d: %w", game, n, err)
	}
	return s, nil
}

// Steps returns the steps of game in order.
func (tx *Tx) Steps(game string) ([]Step, error) {
	b, err := tx.gameSub(game, bSteps)
	if err != nil {
		return nil, err
	}
	steps, err := list[Step](b, nil)
	if err != nil {
		return nil, fmt.Errorf("game %q: steps: %w", game, err)
	}
	return steps, nil
}

// LatestStep returns the step of game with the highest number, or
// ErrNotFound if it has none.
func (tx *Tx) LatestStep(game string) (Step, error) {
	b, err := tx.gameSub(game, bSteps)
	if err != nil {
		return Step{}, err
	}
	if b != nil {
		if k, _ := b.Cursor().Last(); k != nil {
			return tx.Step(game, be64(k))
		}
	}
	return Step{}, fmt.Errorf("game %q: latest step: %w", game, ErrNotFound)
}
