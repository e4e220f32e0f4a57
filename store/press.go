package store

import (
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// A game's press. Its bucket is made the first time it is written, so stores
// written before it need no migration:
//
//	games/<id>/press/<seq>  Press
const bPress = "press"

// Press is one message of press a seat or the game master sent, as the
// judge relayed it.
type Press struct {
	Game string    `json:"game"`
	Seq  uint64    `json:"seq"` // 1, 2, 3... in the game; assigned by AddPress
	At   time.Time `json:"at"`
	Step uint64    `json:"step"` // the game's step when it was sent
	// From is the sender's seat, "" for the game master; Key its key.
	From string `json:"from"`
	Key  string `json:"key"`
	// Grey press names no sender to the players who read it.
	Grey bool `json:"grey,omitempty"`
	// To are the seats it was sent to ("gm" for the game master), or
	// every seat when Broadcast.
	To        []string `json:"to"`
	Broadcast bool     `json:"broadcast,omitempty"`
	// Readers are the keys it was mailed to.
	Readers []string  `json:"readers"`
	Text    string    `json:"text"`
	Digest  dice.Hash `json:"digest"` // SHA-256 of the signed bytes that carried it
}

// AddPress stores p with the next number of its game's press, and returns
// that number.
func (tx *Tx) AddPress(p Press) (uint64, error) {
	b, err := tx.gameSub(p.Game, bPress)
	if err == nil {
		p.Seq, err = b.NextSequence()
	}
	if err == nil {
		err = putJSON(b, u64(p.Seq), p)
	}
	if err != nil {
		return 0, fmt.Errorf("add press to %q: %w", p.Game, err)
	}
	return p.Seq, nil
}

// PressOf returns game's press, oldest first.
func (tx *Tx) PressOf(game string) ([]Press, error) {
	b, err := tx.gameSub(game, bPress)
	if err != nil {
		return nil, fmt.Errorf("press of %q: %w", game, err)
	}
	ps, err := list[Press](b, nil)
	if err != nil {
		return nil, fmt.Errorf("press of %q: %w", game, err)
	}
	return ps, nil
}
