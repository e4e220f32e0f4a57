package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Games archived out of the store (umpire game archive, docs/operations.md):
// the game's own bucket and its due-time entry are deleted in the same
// transaction that writes its tombstone, so that the store stops growing
// with every game ever played while mail about the game still gets an
// answer. The records that do not belong to the game alone stay: the
// outbox with its queues, held mail and renderings, the records of sent
// mail, receipts, consumed messages, signed commands and keys.
//
//	archived/<id>   Archived
//	ended/<id>      when the game was first stored ended (its Updated then,
//	                big-endian Unix nanoseconds), until it is archived
//
// The ended index lets the hourly archiving pass read only the ended
// games, not every game stored. A store written before it has it built
// once, by the first EndedGames (meta "ended-index").
const (
	bArchived   = "archived"
	bEnded      = "ended"
	kEndedIndex = "ended-index"
)

// Archived is the tombstone of a game moved out of the store into an
// export file.
type Archived struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind"`
	Title    string    `json:"title"`
	Scenario string    `json:"scenario,omitempty"`
	GMKey    string    `json:"gm_key,omitempty"`
	Created  time.Time `json:"created,omitzero"`
	Archived time.Time `json:"archived"`
	// Steps is the number of steps the game took.
	Steps uint64 `json:"steps"`
	// DiceHead is the hash (hex) of the dice log's last record and
	// DiceRecords how many records the log held.
	DiceHead    string `json:"dice_head"`
	DiceRecords uint64 `json:"dice_records"`
	// SHA256 is the digest (hex) of the export file's bytes, File its base
	// name.
	SHA256 string `json:"sha256"`
	File   string `json:"file"`
}

// ArchiveGame deletes game a.ID from the store and writes its tombstone
// a: the game's bucket (seats, orders, steps, events, dice, observers,
// press) and its due-time entry go; nothing outside them is touched. A
// game archived before is ErrConflict, a game not stored ErrNotFound.
func (tx *Tx) ArchiveGame(a Archived) error {
	if _, ok, err := tx.Archived(a.ID); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("archive game %q: %w: archived before", a.ID, ErrConflict)
	}
	if _, err := tx.gameBucket(a.ID); err != nil {
		return fmt.Errorf("archive game %q: %w", a.ID, err)
	}
	b, err := tx.lazyBucket(bArchived)
	if err != nil {
		return fmt.Errorf("archive game %q: %w", a.ID, err)
	}
	if err := tx.bucket(bGames).DeleteBucket([]byte(a.ID)); err != nil {
		return fmt.Errorf("archive game %q: %w", a.ID, err)
	}
	if b := tx.bucket(bEnded); b != nil {
		if err := b.Delete([]byte(a.ID)); err != nil {
			return fmt.Errorf("archive game %q: %w", a.ID, err)
		}
	}
	delete(tx.dirty, a.ID) // nothing is due for a game no longer stored
	if err := tx.SetDue(a.ID, time.Time{}, false); err != nil {
		return fmt.Errorf("archive game %q: %w", a.ID, err)
	}
	if err := putJSON(b, []byte(a.ID), a); err != nil {
		return fmt.Errorf("archive game %q: %w", a.ID, err)
	}
	return nil
}

// Archived returns the tombstone of game id; ok is false when it was
// never archived.
func (tx *Tx) Archived(id string) (a Archived, ok bool, err error) {
	ok, err = getJSON(tx.bucket(bArchived), []byte(id), &a)
	if err != nil {
		return a, false, fmt.Errorf("archived game %q: %w", id, err)
	}
	return a, ok, nil
}

// ArchivedGames returns every tombstone, sorted by game id.
func (tx *Tx) ArchivedGames() ([]Archived, error) {
	b := tx.bucket(bArchived)
	if b == nil {
		return nil, nil
	}
	as, err := list[Archived](b, nil)
	if err != nil {
		return nil, fmt.Errorf("archived games: %w", err)
	}
	return as, nil
}

// ArchivedCount returns how many games were archived.
func (tx *Tx) ArchivedCount() int {
	b := tx.bucket(bArchived)
	if b == nil {
		return 0
	}
	return b.Stats().KeyN
}

// ErrArchived is what PutGame answers for a new game with an archived
// game's id: its tombstone keeps the id.
var ErrArchived = errors.New("the id names an archived game")

// indexEnded keeps game g's entry in the ended index: put with g's
// Updated when g is first stored ended, removed when it is not ended.
func (tx *Tx) indexEnded(g Game) error {
	if g.Status != adjudicator.Ended {
		if b := tx.bucket(bEnded); b != nil && b.Get([]byte(g.ID)) != nil {
			return b.Delete([]byte(g.ID))
		}
		return nil
	}
	b, err := tx.lazyBucket(bEnded)
	if err != nil || b.Get([]byte(g.ID)) != nil {
		return err
	}
	return b.Put([]byte(g.ID), binary.BigEndian.AppendUint64(nil, uint64(g.Updated.UnixNano())))
}

// EndedGame is a stored game that has ended, and since when.
type EndedGame struct {
	ID    string
	Ended time.Time
}

// EndedGames returns the stored games that ended at or before before,
// sorted by id: it reads the ended index only, building it first in a
// store written before it was kept.
func (db *DB) EndedGames(ctx context.Context, before time.Time) ([]EndedGame, error) {
	var built bool
	if err := db.View(ctx, func(tx *Tx) error {
		built = tx.bucket(bMeta).Get([]byte(kEndedIndex)) != nil
		return nil
	}); err != nil {
		return nil, err
	}
	if !built {
		if err := db.Update(ctx, func(tx *Tx) error {
			gs, err := tx.Games()
			if err != nil {
				return err
			}
			for _, g := range gs {
				if err := tx.indexEnded(g); err != nil {
					return err
				}
			}
			return tx.bucket(bMeta).Put([]byte(kEndedIndex), []byte{1})
		}); err != nil {
			return nil, fmt.Errorf("build the index of ended games: %w", err)
		}
	}
	var out []EndedGame
	err := db.View(ctx, func(tx *Tx) error {
		b := tx.bucket(bEnded)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("ended game %q: a record of %d bytes", k, len(v))
			}
			if at := time.Unix(0, int64(binary.BigEndian.Uint64(v))); !at.After(before) {
				out = append(out, EndedGame{ID: string(k), Ended: at})
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("ended games: %w", err)
	}
	return out, nil
}
