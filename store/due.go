package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The due-time index: when each game next has work for the scheduler (a
// reminder, a deadline, the end of a grace period, a beacon round it waits
// for). It is written in the same transaction as the game, so that a
// scheduler pass reads only the games that are due instead of every game.
//
//	due/<unix nanoseconds, 8 bytes big-endian><game id>   (empty)
//	due-games/<game id>                                   the 8-byte time of its entry in due
//	meta/"due-index"                                      present while the index is complete
//
// The store does not know when a game is due: Options.Due says, and every
// Update that wrote a game's record, one of its steps or its dice secrets
// asks it again for that game before the transaction commits. A store
// written by a process without Options.Due (an older umpire, a tool) loses
// the meta mark, and the next Open with Options.Due rebuilds the index.
const (
	bDue      = "due"
	bDueGames = "due-games"
	kDueIndex = "due-index"
)

// DueFunc returns when game next has work for the scheduler; ok is false
// when nothing is scheduled (the game is not running, or waits for nobody's
// clock). adjudicator.Judge.Due is one.
type DueFunc func(tx adjudicator.Tx, game string) (at time.Time, ok bool, err error)

// Touch asks for game's due time to be read again before this transaction
// commits, as when its clock did nothing.
func (tx *Tx) Touch(game string) { tx.touch(game) }

// touch records that game's scheduling may have changed in this
// transaction.
func (tx *Tx) touch(game string) {
	if tx.dirty == nil {
		tx.dirty = map[string]struct{}{}
	}
	tx.dirty[game] = struct{}{}
}

// reindex brings the index up to date for the games written in tx, just
// before it commits.
func (tx *Tx) reindex() error {
	if len(tx.dirty) == 0 {
		return nil
	}
	due := tx.db.due.Load()
	if due == nil {
		// Written without knowing when games are due: the index may be
		// stale from here on.
		if m := tx.bucket(bMeta); m.Get([]byte(kDueIndex)) != nil {
			return m.Delete([]byte(kDueIndex))
		}
		return nil
	}
	jt := tx.Judge("", time.Time{})
	for game := range tx.dirty {
		at, ok, err := (*due)(jt, game)
		if err != nil {
			return fmt.Errorf("due-time index: game %q: %w", game, err)
		}
		if err := tx.SetDue(game, at, ok); err != nil {
			return err
		}
	}
	tx.dirty = nil
	return nil
}

func dueKey(at time.Time, game string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())), game...)
}

// SetDue records that game is next due at at, or, when ok is false, that
// nothing is scheduled for it.
func (tx *Tx) SetDue(game string, at time.Time, ok bool) error {
	due, err := tx.lazyBucket(bDue)
	if err != nil {
		return fmt.Errorf("due-time index: %w", err)
	}
	games, err := tx.lazyBucket(bDueGames)
	if err != nil {
		return fmt.Errorf("due-time index: %w", err)
	}
	if old := games.Get([]byte(game)); old != nil {
		if ok && uint64(at.UnixNano()) == binary.BigEndian.Uint64(old) {
			return nil
		}
		if err := due.Delete(append(bytes.Clone(old), game...)); err != nil {
			return fmt.Errorf("due-time index: %w", err)
		}
		if !ok {
			if err := games.Delete([]byte(game)); err != nil {
				return fmt.Errorf("due-time index: %w", err)
			}
		}
	}
	if !ok {
		return nil
	}
	if at.UnixNano() < 0 {
		at = time.Unix(0, 0) // before 1970: due at once
	}
	k := dueKey(at, game)
	if err := due.Put(k, nil); err != nil {
		return fmt.Errorf("due-time index: %w", err)
	}
	if err := games.Put([]byte(game), k[:8]); err != nil {
		return fmt.Errorf("due-time index: %w", err)
	}
	return nil
}

// DueGames returns up to limit games due at or before now, earliest first
// (limit <= 0: all of them), and the time the first game after those is
// due (zero if none). It reads only the index entries it returns and one
// more: its cost grows with the games due, not with the games stored.
func (tx *Tx) DueGames(now time.Time, limit int) (games []string, next time.Time, err error) {
	due := tx.bucket(bDue)
	if due == nil {
		return nil, time.Time{}, nil
	}
	c := due.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		at := time.Unix(0, int64(binary.BigEndian.Uint64(k[:8])))
		if at.After(now) || (limit > 0 && len(games) == limit) {
			return games, at, nil
		}
		games = append(games, string(k[8:]))
	}
	return games, time.Time{}, nil
}

// GameDue returns the index's entry for game.
func (tx *Tx) GameDue(game string) (at time.Time, ok bool) {
	games := tx.bucket(bDueGames)
	if games == nil {
		return time.Time{}, false
	}
	v := games.Get([]byte(game))
	if v == nil {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v))), true
}

// DueIndexed reports whether the due-time index is complete.
func (db *DB) DueIndexed() bool {
	ok := false
	_ = db.view(func(tx *bbolt.Tx) error {
		ok = tx.Bucket([]byte(bMeta)).Get([]byte(kDueIndex)) != nil
		return nil
	})
	return ok
}

// UseDue makes fn say when games are due from now on (as Options.Due), and
// rebuilds the index when it is not complete.
func (db *DB) UseDue(ctx context.Context, fn DueFunc) error {
	if fn == nil {
		return fmt.Errorf("store %s: due-time index: no function", db.path)
	}
	db.due.Store(&fn)
	if db.DueIndexed() {
		return nil
	}
	if err := db.RebuildDue(ctx); err != nil {
		return fmt.Errorf("store %s: %w", db.path, err)
	}
	return nil
}

// RebuildDue writes the due-time index anew from every game and marks it
// complete. UseDue does it when the index is not complete; it reads every
// game once.
func (db *DB) RebuildDue(ctx context.Context) error {
	if db.due.Load() == nil {
		return fmt.Errorf("store %s: rebuild the due-time index: no Options.Due", db.path)
	}
	return db.Update(ctx, func(tx *Tx) error {
		for _, name := range []string{bDue, bDueGames} {
			if tx.bucket(name) != nil {
				if err := tx.tx.DeleteBucket([]byte(name)); err != nil {
					return fmt.Errorf("due-time index: %w", err)
				}
			}
		}
		c := tx.bucket(bGames).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				tx.touch(string(k))
			}
		}
		if err := tx.reindex(); err != nil {
			return err
		}
		return tx.bucket(bMeta).Put([]byte(kDueIndex), []byte{1})
	})
}
