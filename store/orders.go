package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// OrderFile is one version of a seat's orders for a step. Every version is
// kept.
type OrderFile struct {
	Game      string    `json:"game"`
	Step      uint64    `json:"step"`
	Seat      string    `json:"seat"`
	Version   uint64    `json:"version"` // 1, 2, 3 ... per game, step and seat; assigned by AddOrderFile
	Digest    dice.Hash `json:"digest"`  // dice.OrderDigest(Signed)
	Key       string    `json:"key"`     // fingerprint of the signing key
	Signed    []byte    `json:"signed"`  // the exact signed bytes
	Text      string    `json:"text"`
	Received  time.Time `json:"received"`
	MessageID string    `json:"message_id"`
	Status    string    `json:"status"`
}

// orderPrefix returns the key prefix of the versions of seat's orders for
// step; a key is the prefix and the version.
func orderPrefix(step uint64, seat string) []byte { return appendString(u64(step), seat) }

// AddOrderFile stores o as the next version of o.Seat's orders for o.Step of
// o.Game and returns the version it was given.
func (tx *Tx) AddOrderFile(o OrderFile) (uint64, error) {
	b, err := tx.gameSub(o.Game, bOrders)
	if err != nil {
		return 0, fmt.Errorf("add order file: %w", err)
	}
	prefix := orderPrefix(o.Step, o.Seat)
	o.Version = 1
	c := b.Cursor()
	for k, _ := c.Seek(prefix); bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		o.Version = be64(k[len(prefix):]) + 1
	}
	if err := putJSON(b, append(prefix, u64(o.Version)...), o); err != nil {
		return 0, fmt.Errorf("add order file: game %q step %d seat %q: %w", o.Game, o.Step, o.Seat, err)
	}
	return o.Version, nil
}

// OrderVersions returns every version of seat's orders for step of game,
// oldest first.
func (tx *Tx) OrderVersions(game string, step uint64, seat string) ([]OrderFile, error) {
	b, err := tx.gameSub(game, bOrders)
	if err != nil {
		return nil, err
	}
	files, err := list[OrderFile](b, orderPrefix(step, seat))
	if err != nil {
		return nil, fmt.Errorf("game %q step %d seat %q: orders: %w", game, step, seat, err)
	}
	return files, nil
}

// LatestOrders returns the newest version of each seat's orders for step of
// game, sorted by seat.
func (tx *Tx) LatestOrders(game string, step uint64) ([]OrderFile, error) {
	b, err := tx.gameSub(game, bOrders)
	if err != nil {
		return nil, err
	}
	all, err := list[OrderFile](b, u64(step))
	if err != nil {
		return nil, fmt.Errorf("game %q step %d: orders: %w", game, step, err)
	}
	var latest []OrderFile // versions of one seat are adjacent, oldest first
	for _, o := range all {
		if n := len(latest); n > 0 && latest[n-1].Seat == o.Seat {
			latest[n-1] = o
		} else {
			latest = append(latest, o)
		}
	}
	slices.SortFunc(latest, func(a, b OrderFile) int { return strings.Compare(a.Seat, b.Seat) })
	return latest, nil
}
