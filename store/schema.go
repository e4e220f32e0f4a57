package store

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"go.etcd.io/bbolt"
)

// SchemaVersion is the version of the layout this umpire reads and writes.
// Version 2 adds the umpire-dice-v2 log of new games (log buckets) and
// names each game's dice scheme in its secrets.
const SchemaVersion = 2

// Names of buckets and keys; doc.go draws the layout.
const (
	bMeta         = "meta"
	bKeys         = "keys"
	bGames        = "games"
	bMailboxes    = "mailboxes"
	bConsumed     = "consumed"
	bMessageIDs   = "message-ids"
	bOutbox       = "outbox"
	bQueue        = "queue"
	bReceipts     = "receipts"
	bReceiptIndex = "receipt-index"
	bOutboxIDs    = "outbox-ids"
	bBounces      = "bounces"
	bQueueReports = "queue-reports"
	bRendered     = "rendered"
	bPictures     = "pictures"
	bPictureRefs  = "picture-refs"
	bDone         = "done"

	bSeats        = "seats"
	bOrderDigests = "order-digests"
	bOrders       = "orders"
	bSteps        = "steps"
	bEvents       = "events"
	bDice         = "dice"
	bLinks        = "links"
	bSecrets      = "secrets"

	kSchema   = "schema"
	kInstance = "instance"
	kGame     = "game"
	kDice     = "dice"
)

// migration upgrades the layout from one version to the next. It runs inside
// the Update that opens the store, together with every other migration due,
// so a store is upgraded completely or not at all.
type migration func(tx *bbolt.Tx) error

// migrations returns the registered upgrades: migrations()[i] takes a store
// from version i+1 to i+2, so len(migrations()) == SchemaVersion-1.
func migrations() []migration { return []migration{markDiceV1} }

// markDiceV1 takes a store from schema 1 to 2: every game in it was created
// under umpire-dice-v1, and its secrets now say so. Its dice log, links and
// reports are left exactly as they are: re-chaining them would change the
// heads its players hold.
func markDiceV1(tx *bbolt.Tx) error {
	games := tx.Bucket([]byte(bGames))
	if games == nil {
		return nil
	}
	return games.ForEachBucket(func(id []byte) error {
		sec := games.Bucket(id).Bucket([]byte(bSecrets))
		if sec == nil {
			return nil
		}
		data := sec.Get([]byte(kDice))
		if data == nil {
			return nil
		}
		var s map[string]json.RawMessage
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("game %q: dice secrets: %w", id, err)
		}
		if _, ok := s["scheme"]; ok {
			return nil
		}
		s["scheme"] = json.RawMessage("1")
		out, err := json.Marshal(s)
		if err != nil {
			return err
		}
		return sec.Put([]byte(kDice), out)
	})
}

// prepare initialises a new file at the current version, or migrates an older
// one, where the current version is 1 + len(migs). It refuses a newer file
// and a bbolt file that is not a store.
func (db *DB) prepare(tx *bbolt.Tx, migs []migration) error {
	current := uint64(len(migs)) + 1
	meta := tx.Bucket([]byte(bMeta))
	if meta == nil {
		if k, _ := tx.Cursor().First(); k != nil {
			return fmt.Errorf("store %s: %w: it holds bucket %q but no %q", db.path, ErrNotStore, k, bMeta)
		}
		var err error
		if meta, err = initialise(tx, current); err != nil {
			return fmt.Errorf("store %s: initialise: %w", db.path, err)
		}
	}
	v := meta.Get([]byte(kSchema))
	if len(v) == 8 {
		db.version = binary.BigEndian.Uint64(v)
	}
	if db.version == 0 {
		return fmt.Errorf("store %s: %w: no schema version", db.path, ErrNotStore)
	}
	if db.version > current {
		return fmt.Errorf("store %s has schema version %d; this umpire understands versions up to %d: %w",
			db.path, db.version, current, ErrNewerSchema)
	}
	for ; db.version < current; db.version++ {
		if err := migs[db.version-1](tx); err != nil {
			return fmt.Errorf("store %s: migrate schema %d to %d: %w", db.path, db.version, db.version+1, err)
		}
		if err := tx.Bucket([]byte(bMeta)).Put([]byte(kSchema), u64(db.version+1)); err != nil {
			return fmt.Errorf("store %s: migrate schema %d to %d: %w", db.path, db.version, db.version+1, err)
		}
	}
	db.instance = append([]byte(nil), tx.Bucket([]byte(bMeta)).Get([]byte(kInstance))...)
	if len(db.instance) == 0 {
		return fmt.Errorf("store %s: %w: no instance id", db.path, ErrNotStore)
	}
	return nil
}

// initialise creates the top-level buckets of an empty file and stamps it
// with version and a fresh instance id.
func initialise(tx *bbolt.Tx, version uint64) (*bbolt.Bucket, error) {
	for _, name := range []string{bKeys, bGames, bMailboxes, bConsumed, bMessageIDs, bOutbox, bQueue, bReceipts, bReceiptIndex, bOutboxIDs, bBounces} {
		if _, err := tx.CreateBucket([]byte(name)); err != nil {
			return nil, err
		}
	}
	meta, err := tx.CreateBucket([]byte(bMeta))
	if err != nil {
		return nil, err
	}
	instance := make([]byte, 16)
	if _, err := rand.Read(instance); err != nil {
		return nil, err
	}
	if err := meta.Put([]byte(kInstance), instance); err != nil {
		return nil, err
	}
	if err := meta.Put([]byte(kDueIndex), []byte{1}); err != nil { // no game: the index is complete
		return nil, err
	}
	if err := meta.Put([]byte(kDoneIndex), []byte{1}); err != nil { // no mail sent yet
		return nil, err
	}
	return meta, meta.Put([]byte(kSchema), u64(version))
}
