package store

import (
	"fmt"
	"time"
)

// A game's observers. Their bucket is made the first time it is written, so
// stores written before it need no migration:
//
//	games/<id>/observers/<fingerprint>  Observer
const bObservers = "observers"

// Observer is a key that follows a game without a seat: it is mailed the
// public view of every report.
type Observer struct {
	Game  string    `json:"game"`
	Key   string    `json:"key"` // fingerprint
	Since time.Time `json:"since"`
}

// PutObserver adds (or keeps) key o.Key as an observer of o.Game.
func (tx *Tx) PutObserver(o Observer) error {
	b, err := tx.gameSub(o.Game, bObservers)
	if err == nil {
		if b.Get([]byte(o.Key)) != nil {
			return nil // observing already: keep the first date
		}
		err = putJSON(b, []byte(o.Key), o)
	}
	if err != nil {
		return fmt.Errorf("put observer %s of %q: %w", o.Key, o.Game, err)
	}
	return nil
}

// DeleteObserver removes key from game's observers; ok is false when it
// was none.
func (tx *Tx) DeleteObserver(game, key string) (ok bool, err error) {
	b, err := tx.gameSub(game, bObservers)
	if err == nil && b != nil && b.Get([]byte(key)) != nil {
		ok, err = true, b.Delete([]byte(key))
	}
	if err != nil {
		return false, fmt.Errorf("delete observer %s of %q: %w", key, game, err)
	}
	return ok, nil
}

// Observers returns game's observers, sorted by fingerprint.
func (tx *Tx) Observers(game string) ([]Observer, error) {
	b, err := tx.gameSub(game, bObservers)
	if err != nil {
		return nil, fmt.Errorf("observers of %q: %w", game, err)
	}
	os, err := list[Observer](b, nil)
	if err != nil {
		return nil, fmt.Errorf("observers of %q: %w", game, err)
	}
	return os, nil
}
