package store

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// TestMigrateMarksDiceScheme1: a schema 1 store's games become umpire-dice-v1
// games, their dice logs left byte for byte as they were, so that they
// verify and replay as before and every head their players hold stays.
func TestMigrateMarksDiceScheme1(t *testing.T) {
	path := newStore(t)
	// A game as schema 1 wrote it: secrets without a scheme, one log entry.
	db, err := Open(path, Options{migrations: []migration{}})
	if err != nil {
		t.Fatal(err)
	}
	open, sealed := legacy.Chain(dice.Hash{1}, 8, nil), legacy.Chain(dice.Hash{2}, 8, nil)
	log := legacy.NewLog(open.Commitment(), sealed.Commitment())
	l1, _ := open.Link(1)
	s1, _ := sealed.Link(1)
	d := legacy.StepDigest("g", 1, "turn", nil)
	r := legacy.NewStepRoller(log, 1, d, l1, s1)
	dice.Roll(r, 2, 6, "old roll")
	err = db.Update(context.Background(), func(tx *Tx) error {
		b, err := tx.gameSub("g", bSecrets)
		if err != nil {
			return err
		}
		old, _ := json.Marshal(map[string]any{"open_root": open.Root, "sealed_root": sealed.Root, "chain_length": 8,
			"open0": open.Commitment(), "sealed0": sealed.Commitment()})
		if err := b.Put([]byte(kDice), old); err != nil {
			return err
		}
		if err := tx.AddDiceRecords("g", r.Records()); err != nil {
			return err
		}
		return tx.PutStepLinks("g", StepLinks{Step: 1, Phase: "turn", Orders: []dice.Hash{}, Digest: d, Open: &l1})
	})
	if err != nil {
		t.Fatal(err)
	}
	rawLog := func() []byte {
		b, err := bbolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		var out []byte
		_ = b.View(func(tx *bbolt.Tx) error {
			out = append(out, tx.Bucket([]byte(bGames)).Bucket([]byte("g")).Bucket([]byte(bDice)).Get(u64(1))...)
			return nil
		})
		return out
	}
	db.Close()
	before := rawLog()

	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if db.SchemaVersion() != SchemaVersion {
		t.Errorf("migrated to %d, want %d", db.SchemaVersion(), SchemaVersion)
	}
	err = db.View(context.Background(), func(tx *Tx) error {
		s, err := tx.DiceSecrets("g")
		if err != nil {
			return err
		}
		if s.Scheme != 1 || s.OpenRoot != open.Root {
			t.Errorf("migrated secrets: scheme %d, root %s", s.Scheme, s.OpenRoot)
		}
		x, err := tx.ExportLog("g")
		if err != nil {
			return err
		}
		if res := legacy.Verify(x, nil); !res.OK() || res.Head != log.Head() {
			t.Errorf("the v1 log after migrating: %+v, want head %s", res, log.Head())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if after := rawLog(); !bytes.Equal(before, after) {
		t.Errorf("the migration rewrote the v1 log:\n%s\n%s", before, after)
	}
}
