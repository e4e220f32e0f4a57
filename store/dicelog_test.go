package store_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// diceGame is a game with fresh chains whose secrets are stored.
type diceGame struct {
	open, sealed dice.Chain
	secrets      store.DiceSecrets
}

func newDiceGame(t *testing.T, db *store.DB, id string) diceGame {
	t.Helper()
	putGame(t, db, id)
	var g diceGame
	for _, c := range []*dice.Chain{&g.open, &g.sealed} {
		var root dice.Hash
		if _, err := rand.Read(root[:]); err != nil {
			t.Fatal(err)
		}
		*c = legacy.Chain(root, 8, nil)
	}
	g.secrets = store.DiceSecrets{OpenRoot: g.open.Root, SealedRoot: g.sealed.Root, ChainLength: 8,
		Open0: g.open.Commitment(), Sealed0: g.sealed.Commitment()}
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.PutDiceSecrets(id, g.secrets) })
	return g
}

// links returns link k of both chains.
func (g diceGame) links(t *testing.T, k uint64) (open, sealed dice.Hash) {
	t.Helper()
	open, err := g.open.Link(k)
	if err == nil {
		sealed, err = g.sealed.Link(k)
	}
	if err != nil {
		t.Fatal(err)
	}
	return open, sealed
}

// roll adjudicates step k of game id the way the judge does: it resumes the
// log at the stored head, draws, and stores the records and the open link.
func (g diceGame) roll(t *testing.T, db *store.DB, id string, k uint64, draw func(dice.Roller)) []legacy.EntryRecord {
	t.Helper()
	open, sealed := g.links(t, k)
	orders := []dice.Hash{legacy.OrderDigest([]byte("NATO orders")), legacy.OrderDigest([]byte("WP orders"))}
	d := legacy.StepDigest(id, k, "combat", orders)
	var records []legacy.EntryRecord
	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		head, seq, err := tx.DiceHead(id)
		if err != nil {
			return err
		}
		r := legacy.NewStepRoller(legacy.ResumeLog(head, seq), k, d, open, sealed)
		draw(r)
		records = r.Records()
		if err := tx.AddDiceRecords(id, records); err != nil {
			return err
		}
		return tx.PutStepLinks(id, store.StepLinks{Step: k, Phase: "combat", Orders: orders, Digest: d, Open: &open})
	})
	return records
}

func TestDiceSecretsKeptAndNeverReplaced(t *testing.T) {
	db := storetest.MustOpen(t)
	g := newDiceGame(t, db, "g")
	storetest.MustView(t, db, func(tx *store.Tx) error {
		got, err := tx.DiceSecrets("g")
		if err != nil || !reflect.DeepEqual(got, g.secrets) {
			t.Errorf("DiceSecrets(g) = %+v, %v; want %+v", got, err, g.secrets)
		}
		head, seq, err := tx.DiceHead("g")
		if err != nil || seq != 0 || head != legacy.LogStart(g.secrets.Open0, g.secrets.Sealed0) {
			t.Errorf("DiceHead of an empty log = %s, %d, %v; want h_0, 0", head, seq, err)
		}
		return nil
	})
	other := g.secrets
	other.OpenRoot[0] ^= 1
	err := db.Update(t.Context(), func(tx *store.Tx) error { return tx.PutDiceSecrets("g", other) })
	if !errors.Is(err, store.ErrConflict) {
		t.Errorf("replacing dice secrets: error = %v, want ErrConflict", err)
	}
}

func TestAddDiceRecordsRefusesGapsAndRepeats(t *testing.T) {
	db := storetest.MustOpen(t)
	g := newDiceGame(t, db, "g")
	recs := g.roll(t, db, "g", 1, func(r dice.Roller) {
		dice.Roll(r, 2, 6, "11.8 CRT")
		dice.Roll(r, 1, 6, "12.3 morale")
		dice.Roll(r, 1, 6, "13.1 weather")
	})
	last := recs[2]
	log := legacy.ResumeLog(last.Hash, last.Seq)
	next := log.Append(legacy.Entry{Step: 2, Spec: "1d6", Values: []int64{4}, Purpose: "next"})
	gap := legacy.ResumeLog(next.Hash, next.Seq).Append(legacy.Entry{Step: 2, Spec: "1d6", Values: []int64{2}, Purpose: "gap"})
	forged := next
	forged.Values = []int64{6}
	for name, batch := range map[string][]legacy.EntryRecord{
		"repeat":           {recs[2]},
		"repeat all":       recs,
		"gap":              {gap},
		"forged values":    {forged},
		"good then repeat": {next, next},
	} {
		err := db.Update(t.Context(), func(tx *store.Tx) error { return tx.AddDiceRecords("g", batch) })
		if !errors.Is(err, store.ErrSequence) {
			t.Errorf("%s: error = %v, want ErrSequence", name, err)
		}
	}
	storetest.MustView(t, db, func(tx *store.Tx) error {
		head, seq, err := tx.DiceHead("g")
		if err != nil || head != last.Hash || seq != 3 {
			t.Errorf("head after refused records = %s, %d, %v; want record 3's", head, seq, err)
		}
		return nil
	})
	storetest.MustUpdate(t, db, func(tx *store.Tx) error { return tx.AddDiceRecords("g", []legacy.EntryRecord{next, gap}) })
}

func TestExportLogHidesSealedUntilRevealed(t *testing.T) {
	db := storetest.MustOpen(t)
	g := newDiceGame(t, db, "g")
	var recs []legacy.EntryRecord
	recs = append(recs, g.roll(t, db, "g", 1, func(r dice.Roller) {
		dice.Roll(r, 2, 6, "11.8 CRT, NATO attack on 1708 at 3:1")
		dice.Shuffle(r, "cup", 5, "7.2 shuffle of the WP reinforcement cup")
		r.Draw("cup", spec.Chit(4), "7.3 hidden chit drawn by WP")
		r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), "9.1 d10 read 0-9")
	})...)
	recs = append(recs, g.roll(t, db, "g", 2, func(r dice.Roller) {
		r.Draw("cup", spec.Chit(3), "7.3 hidden chit drawn by NATO")
		dice.Roll(r, 1, 6, "14.2 air interdiction")
	})...)
	export := func() (*legacy.Export, []byte) {
		var x *legacy.Export
		storetest.MustView(t, db, func(tx *store.Tx) (err error) {
			x, err = tx.ExportLog("g")
			return err
		})
		var buf bytes.Buffer
		if err := x.Write(&buf); err != nil {
			t.Fatal(err)
		}
		return x, buf.Bytes()
	}
	open1, sealed1 := g.links(t, 1)
	_, sealed2 := g.links(t, 2)

	x, text := export()
	checkExport(t, x, g.secrets, recs, map[uint64]bool{})
	for name, secret := range map[string]dice.Hash{
		"open root": g.open.Root, "sealed root": g.sealed.Root, "sealed link 1": sealed1, "sealed link 2": sealed2,
	} {
		if bytes.Contains(text, []byte(secret.String())) {
			t.Errorf("export holds the %s", name)
		}
	}

	storetest.MustUpdate(t, db, func(tx *store.Tx) error {
		return tx.PutStepLinks("g", store.StepLinks{Step: 1, Phase: "combat", Orders: x.Steps[0].Orders,
			Digest: x.Steps[0].Digest, Open: &open1, Sealed: &sealed1})
	})
	x, text = export()
	checkExport(t, x, g.secrets, recs, map[uint64]bool{1: true})
	if !bytes.Contains(text, []byte(sealed1.String())) || bytes.Contains(text, []byte(sealed2.String())) {
		t.Errorf("export after revealing step 1 should hold sealed link 1 and not sealed link 2")
	}
}

// checkExport checks that x holds exactly recs, with values shown exactly
// when a record is on the open stream or its step's sealed link is revealed,
// and that the dice verifier accepts it as a genuine log of the game.
func checkExport(t *testing.T, x *legacy.Export, s store.DiceSecrets, recs []legacy.EntryRecord, revealed map[uint64]bool) {
	t.Helper()
	if x.Commitments.Open != s.Open0 || x.Commitments.Sealed != s.Sealed0 || x.ChainLength != s.ChainLength {
		t.Errorf("export commitments %+v, length %d do not match the game's", x.Commitments, x.ChainLength)
	}
	if len(x.Entries) != len(recs) || x.Head != recs[len(recs)-1].Hash {
		t.Fatalf("export has %d entries and head %s; want %d and the last record's hash", len(x.Entries), x.Head, len(recs))
	}
	for _, st := range x.Steps {
		if (st.Sealed != nil) != revealed[st.Step] {
			t.Errorf("export step %d: sealed link %v, want revealed=%v", st.Step, st.Sealed, revealed[st.Step])
		}
	}
	hiddenCount := 0
	for i, e := range x.Entries {
		r := recs[i]
		hidden := r.Stream == legacy.StreamSealed && !revealed[r.Step]
		if e.Seq != r.Seq || e.Step != r.Step || e.Stream != r.Stream.String() || e.Word != r.Word ||
			e.Spec != r.Spec || e.Purpose != r.Purpose || e.Hash != r.Hash || e.Hidden != hidden {
			t.Errorf("entry %d = %+v; want record %+v hidden=%v", i, e, r, hidden)
			continue
		}
		if hidden {
			hiddenCount++
			if e.Values != nil {
				t.Errorf("hidden entry %d shows values %v", i, e.Values)
			}
		} else if !slices.Equal(e.Values, r.Values) {
			t.Errorf("entry %d values = %v, want %v", i, e.Values, r.Values)
		}
	}
	res := legacy.Verify(x, nil)
	if !res.OK() || res.Hidden != hiddenCount || res.Verified != len(recs)-hiddenCount {
		t.Errorf("export does not verify as a genuine log: %+v", res)
	}
}

func TestPutStepLinksOnlyReveals(t *testing.T) {
	db := storetest.MustOpen(t)
	g := newDiceGame(t, db, "g")
	g.roll(t, db, "g", 1, func(r dice.Roller) { dice.Roll(r, 1, 6, "x") })
	open1, sealed1 := g.links(t, 1)
	var stored store.StepLinks
	storetest.MustView(t, db, func(tx *store.Tx) error {
		x, err := tx.ExportLog("g")
		if err == nil {
			s := x.Steps[0]
			stored = store.StepLinks{Step: s.Step, Phase: s.Phase, Orders: s.Orders, Digest: s.Digest, Open: s.Open}
		}
		return err
	})
	put := func(l store.StepLinks) error {
		return db.Update(t.Context(), func(tx *store.Tx) error { return tx.PutStepLinks("g", l) })
	}
	changed := stored
	changed.Open = &sealed1
	if err := put(changed); !errors.Is(err, store.ErrConflict) {
		t.Errorf("changing a published open link: error = %v, want ErrConflict", err)
	}
	changed = stored
	changed.Phase = "movement"
	if err := put(changed); !errors.Is(err, store.ErrConflict) {
		t.Errorf("changing a published phase: error = %v, want ErrConflict", err)
	}
	revealed := stored
	revealed.Sealed = &sealed1
	if err := put(revealed); err != nil {
		t.Errorf("revealing the sealed link: %v", err)
	}
	if err := put(revealed); err != nil {
		t.Errorf("storing the same links again: %v", err)
	}
	if err := put(stored); !errors.Is(err, store.ErrConflict) {
		t.Errorf("hiding a revealed sealed link: error = %v, want ErrConflict", err)
	}
	revealed.Sealed = &open1
	if err := put(revealed); !errors.Is(err, store.ErrConflict) {
		t.Errorf("changing a revealed sealed link: error = %v, want ErrConflict", err)
	}
}
