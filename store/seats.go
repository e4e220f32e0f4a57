package store

import (
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// Seat is one side of a game and the keys that have held it.
type Seat struct {
	Game    string   `json:"game"`
	Name    string   `json:"name"`
	Holders []Holder `json:"holders"` // oldest first

	Pending     string    `json:"pending,omitempty"`     // key waiting for the game master's approval to join
	PendingJoin dice.Hash `json:"pending_join,omitzero"` // the SHA-256 of its signed join
	Excused     int       `json:"excused,omitempty"`     // missed steps the judge waited for
	AbsentFrom  time.Time `json:"absent_from,omitzero"`
	AbsentUntil time.Time `json:"absent_until,omitzero"`
	AbsenceDays int       `json:"absence_days,omitempty"` // days of absence declared so far
}

// Holder is a key that holds or held a seat.
type Holder struct {
	Key     string    `json:"key"` // fingerprint
	Address string    `json:"address"`
	From    time.Time `json:"from"`
	Until   time.Time `json:"until"` // zero while the key holds the seat
	Reason  string    `json:"reason"`
	// Join is the SHA-256 of the signed join by which the key took the
	// seat (zero: not by a signed join).
	Join dice.Hash `json:"join,omitzero"`
}

// Holder returns the seat's current holder, the last one whose Until is zero.
func (s Seat) Holder() (Holder, bool) {
	for i := len(s.Holders) - 1; i >= 0; i-- {
		if s.Holders[i].Until.IsZero() {
			return s.Holders[i], true
		}
	}
	return Holder{}, false
}

// PutSeat creates or replaces seat s.Name of game s.Game.
func (tx *Tx) PutSeat(s Seat) error {
	b, err := tx.gameSub(s.Game, bSeats)
	if err == nil {
		err = putJSON(b, []byte(s.Name), s)
	}
	if err != nil {
		return fmt.Errorf("put seat %q: %w", s.Name, err)
	}
	return nil
}

// Seat returns seat name of game.
func (tx *Tx) Seat(game, name string) (Seat, error) {
	var s Seat
	b, err := tx.gameSub(game, bSeats)
	if err != nil {
		return s, err
	}
	ok, err := getJSON(b, []byte(name), &s)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("game %q: seat %q: %w", game, name, err)
	}
	return s, nil
}

// Seats returns the seats of game, sorted by name.
func (tx *Tx) Seats(game string) ([]Seat, error) {
	b, err := tx.gameSub(game, bSeats)
	if err != nil {
		return nil, err
	}
	seats, err := list[Seat](b, nil)
	if err != nil {
		return nil, fmt.Errorf("game %q: seats: %w", game, err)
	}
	return seats, nil
}
