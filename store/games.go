package store

import (
	"fmt"
	"time"

	"go.etcd.io/bbolt"
)

// Game is one game the judge runs.
type Game struct {
	ID       string            `json:"id"`
	Kind     string            `json:"kind"` // game package id, such as "wbt"
	Title    string            `json:"title"`
	Scenario string            `json:"scenario"`
	Status   string            `json:"status"`
	GMKey    string            `json:"gm_key"` // fingerprint of the game master's key
	Step     uint64            `json:"step"`   // current step number
	Created  time.Time         `json:"created"`
	Updated  time.Time         `json:"updated"`
	File     []byte            `json:"file"` // the game file as given
	Options  map[string]string `json:"options,omitempty"`
	// Resumed is when the game was last resumed after a pause.
	Resumed time.Time `json:"resumed,omitzero"`
	// NoObservers is set while the game master forbids observers.
	NoObservers bool `json:"no_observers,omitempty"`
}

// PutGame creates or replaces game g.ID.
func (tx *Tx) PutGame(g Game) error {
	tx.touch(g.ID)
	if tx.bucket(bGames).Bucket([]byte(g.ID)) == nil {
		if _, ok, err := tx.Archived(g.ID); err != nil {
			return err
		} else if ok {
			return fmt.Errorf("put game %q: %w", g.ID, ErrArchived)
		}
	}
	b, err := tx.bucket(bGames).CreateBucketIfNotExists([]byte(g.ID))
	if err == nil {
		err = putJSON(b, []byte(kGame), g)
	}
	if err == nil {
		err = tx.indexEnded(g)
	}
	if err != nil {
		return fmt.Errorf("put game %q: %w", g.ID, err)
	}
	return nil
}

// Game returns game id.
func (tx *Tx) Game(id string) (Game, error) {
	var g Game
	b, err := tx.gameBucket(id)
	if err == nil {
		_, err = getJSON(b, []byte(kGame), &g)
	}
	return g, err
}

// Games returns every game, sorted by id.
func (tx *Tx) Games() ([]Game, error) {
	var games []Game
	c := tx.bucket(bGames).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v != nil {
			continue // not a game's bucket
		}
		g, err := tx.Game(string(k))
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}

// gameBucket returns the bucket of game id, or ErrNotFound.
func (tx *Tx) gameBucket(id string) (*bbolt.Bucket, error) {
	if b := tx.bucket(bGames).Bucket([]byte(id)); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("game %q: %w", id, ErrNotFound)
}

// historyFill is how full the pages of a game's buckets are written. Their
// keys grow with the game (steps, events, dice, orders by step), so nearly
// every write appends, and pages split half full (bbolt's default) would
// double the room a game's history takes.
const historyFill = 0.9

// gameSub returns the named bucket inside game id's. A writable transaction
// creates it when missing; a read-only one returns nil, which holds nothing.
func (tx *Tx) gameSub(id, name string) (*bbolt.Bucket, error) {
	g, err := tx.gameBucket(id)
	if err != nil {
		return nil, err
	}
	b := g.Bucket([]byte(name))
	if b == nil && tx.tx.Writable() {
		if b, err = g.CreateBucket([]byte(name)); err != nil {
			return nil, fmt.Errorf("game %q: create %s: %w", id, name, err)
		}
	}
	if b != nil && tx.tx.Writable() {
		b.FillPercent = historyFill
	}
	return b, nil
}
