package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// OrderFile is one version of a seat's orders for a step. Every version is
// kept.
type OrderFile struct {
	Game      string    `json:"game"`
	Step      uint64    `json:"step"`
	Seat      string    `json:"seat"`
	Version   uint64    `json:"version"` // 1, 2, 3 ... per game, step and seat; assigned by AddOrderFile
	Digest    dice.Hash `json:"digest"`  // legacy.OrderDigest(Signed)
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
	o.Version = lastVersion(b, prefix) + 1
	err = putJSON(b, append(prefix, u64(o.Version)...), o)
	if err == nil {
		var idx *bbolt.Bucket
		if idx, err = tx.gameSub(o.Game, bOrderDigests); err == nil {
			err = idx.Put(append(prefix, o.Digest[:]...), u64(o.Version))
		}
	}
	if err != nil {
		return 0, fmt.Errorf("add order file: game %q step %d seat %q: %w", o.Game, o.Step, o.Seat, err)
	}
	return o.Version, nil
}

// lastVersion returns the newest version stored under prefix, 0 if none.
func lastVersion(b *bbolt.Bucket, prefix []byte) uint64 {
	if b == nil {
		return 0
	}
	c := b.Cursor()
	end := append(append([]byte(nil), prefix...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	k, _ := c.Seek(end)
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if len(k) == len(prefix)+8 && bytes.HasPrefix(k, prefix) {
		return be64(k[len(prefix):])
	}
	return 0
}

// OrderDigestVersion returns the version of seat's orders for step whose
// signed bytes have digest d (0 if none) and the newest version (0 if none),
// without reading the order files.
func (tx *Tx) OrderDigestVersion(game string, step uint64, seat string, d dice.Hash) (version, latest uint64, err error) {
	b, err := tx.gameSub(game, bOrders)
	if err != nil {
		return 0, 0, fmt.Errorf("order digest: %w", err)
	}
	prefix := orderPrefix(step, seat)
	latest = lastVersion(b, prefix)
	idx, err := tx.gameSub(game, bOrderDigests)
	if err != nil || idx == nil {
		return 0, latest, err
	}
	if v := idx.Get(append(prefix, d[:]...)); v != nil {
		version = be64(v)
	}
	return version, latest, nil
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

// OrderVersion returns one version of seat's orders for step.
func (tx *Tx) OrderVersion(game string, step uint64, seat string, version uint64) (OrderFile, error) {
	var o OrderFile
	b, err := tx.gameSub(game, bOrders)
	if err == nil {
		var ok bool
		if b != nil {
			ok, err = getJSON(b, append(orderPrefix(step, seat), u64(version)...), &o)
		}
		if err == nil && !ok {
			err = ErrNotFound
		}
	}
	if err != nil {
		return o, fmt.Errorf("game %q step %d seat %q: order version %d: %w", game, step, seat, version, err)
	}
	return o, nil
}
