package store

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// DiceSecrets are a game's chain roots and commitments. They are stored apart
// from the log and never exported.
type DiceSecrets struct {
	// Scheme is 1 for umpire-dice-v1 (schema 1 stores hold only these; the
	// migration to schema 2 writes it), 2 for umpire-dice-v2 and 3 for
	// umpire-dice-v3 (the same buckets as v2).
	Scheme      int       `json:"scheme"`
	OpenRoot    dice.Hash `json:"open_root"`
	SealedRoot  dice.Hash `json:"sealed_root"`
	ChainLength uint64    `json:"chain_length"`
	Open0       dice.Hash `json:"open0"`   // link[0] of the open chain, published
	Sealed0     dice.Hash `json:"sealed0"` // link[0] of the sealed chain, published
	// Checkpoints of each chain (dice.Chain.WithCheckpoints), as secret as
	// the roots.
	OpenCheckpoints   []dice.Hash `json:"open_checkpoints,omitempty"`
	SealedCheckpoints []dice.Hash `json:"sealed_checkpoints,omitempty"`
	// A v2 game's hidden streams and beacon, as in its header.
	Streams []string      `json:"streams,omitempty"`
	Beacon  *beacon.Chain `json:"beacon,omitempty"`
}

// StepLinks is what the dice of one step were drawn from: the orders D_k was
// computed from and the links revealed so far. Sealed stays nil until the
// sealed link may be revealed.
type StepLinks struct {
	Step   uint64      `json:"step"`
	Phase  string      `json:"phase"`
	Orders []dice.Hash `json:"orders"`
	Digest dice.Hash   `json:"digest"`
	Open   *dice.Hash  `json:"open"`
	Sealed *dice.Hash  `json:"sealed"`
}

// diceRecord is how a dice.Record is stored.
type diceRecord struct {
	Seq     uint64    `json:"seq"`
	Step    uint64    `json:"step"`
	Stream  string    `json:"stream"`
	Word    uint64    `json:"word"`
	Spec    string    `json:"spec"`
	Values  []int64   `json:"values"`
	Purpose string    `json:"purpose"`
	Hash    dice.Hash `json:"hash"`
}

func (r diceRecord) record() (legacy.EntryRecord, error) {
	stream, err := legacy.ParseStreamKind(r.Stream)
	return legacy.EntryRecord{Entry: legacy.Entry{
		Seq: r.Seq, Step: r.Step, Stream: stream, Word: r.Word, Spec: r.Spec, Values: r.Values, Purpose: r.Purpose,
	}, Hash: r.Hash}, err
}

// PutDiceSecrets stores the dice secrets of game. They are written once, when
// the game is created: storing different ones later is ErrConflict.
func (tx *Tx) PutDiceSecrets(game string, s DiceSecrets) error {
	tx.touch(game)
	b, err := tx.gameSub(game, bSecrets)
	if err != nil {
		return fmt.Errorf("put dice secrets: %w", err)
	}
	var old DiceSecrets
	ok, err := getJSON(b, []byte(kDice), &old)
	if err == nil && ok && (old.Scheme != s.Scheme || old.OpenRoot != s.OpenRoot || old.SealedRoot != s.SealedRoot || old.ChainLength != s.ChainLength ||
		old.Open0 != s.Open0 || old.Sealed0 != s.Sealed0 ||
		!slices.Equal(old.OpenCheckpoints, s.OpenCheckpoints) || !slices.Equal(old.SealedCheckpoints, s.SealedCheckpoints)) {
		err = ErrConflict
	}
	if err == nil {
		err = putJSON(b, []byte(kDice), s)
	}
	if err != nil {
		return fmt.Errorf("put dice secrets: game %q: %w", game, err)
	}
	return nil
}

// DiceSecrets returns the dice secrets of game.
func (tx *Tx) DiceSecrets(game string) (DiceSecrets, error) {
	var s DiceSecrets
	b, err := tx.gameSub(game, bSecrets)
	if err != nil {
		return s, err
	}
	ok, err := getJSON(b, []byte(kDice), &s)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return s, fmt.Errorf("game %q: dice secrets: %w", game, err)
	}
	return s, nil
}

// DiceHead returns the hash and sequence number of the last record of game's
// dice log: h_0 = legacy.LogStart(open0, sealed0) and 0 while it is empty. Pass
// them to legacy.ResumeLog to draw the next step's dice.
func (tx *Tx) DiceHead(game string) (dice.Hash, uint64, error) {
	b, err := tx.gameSub(game, bDice)
	if err != nil {
		return dice.Hash{}, 0, err
	}
	if b != nil {
		if k, v := b.Cursor().Last(); k != nil {
			var r diceRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return dice.Hash{}, 0, fmt.Errorf("game %q: dice record %d: %w", game, be64(k), err)
			}
			return r.Hash, r.Seq, nil
		}
	}
	s, err := tx.DiceSecrets(game)
	if err != nil {
		return dice.Hash{}, 0, err
	}
	return legacy.LogStart(s.Open0, s.Sealed0), 0, nil
}

// AddDiceRecords appends records to game's dice log. Each must follow the
// head: its Seq one more than the head's, and its Hash chained to the head's
// by legacy.NextHash. Anything else, such as a record added twice, is
// ErrSequence.
func (tx *Tx) AddDiceRecords(game string, records []legacy.EntryRecord) error {
	head, seq, err := tx.DiceHead(game)
	if err != nil {
		return fmt.Errorf("add dice records: %w", err)
	}
	b, err := tx.gameSub(game, bDice)
	if err != nil {
		return fmt.Errorf("add dice records: %w", err)
	}
	for _, r := range records {
		if r.Seq != seq+1 {
			return fmt.Errorf("add dice records: game %q: record %d after %d: %w", game, r.Seq, seq, ErrSequence)
		}
		if legacy.NextHash(head, &r.Entry) != r.Hash {
			return fmt.Errorf("add dice records: game %q: record %d does not chain to hash %s: %w", game, r.Seq, head, ErrSequence)
		}
		err := putJSON(b, u64(r.Seq), diceRecord{
			Seq: r.Seq, Step: r.Step, Stream: r.Stream.String(), Word: r.Word,
			Spec: r.Spec, Values: r.Values, Purpose: r.Purpose, Hash: r.Hash,
		})
		if err != nil {
			return fmt.Errorf("add dice records: game %q: record %d: %w", game, r.Seq, err)
		}
		head, seq = r.Hash, r.Seq
	}
	return nil
}

// PutStepLinks stores the links of step l.Step of game. Put them again with
// Sealed set to reveal the sealed link; any other change to stored links is
// ErrConflict, since they have been published.
func (tx *Tx) PutStepLinks(game string, l StepLinks) error {
	b, err := tx.gameSub(game, bLinks)
	if err != nil {
		return fmt.Errorf("put step links: %w", err)
	}
	var old StepLinks
	ok, err := getJSON(b, u64(l.Step), &old)
	if err == nil && ok {
		if old.Sealed == nil {
			old.Sealed = l.Sealed
		}
		if old.Step != l.Step || old.Phase != l.Phase || !slices.Equal(old.Orders, l.Orders) ||
			old.Digest != l.Digest || !sameLink(old.Open, l.Open) || !sameLink(old.Sealed, l.Sealed) {
			err = ErrConflict
		}
	}
	if err == nil {
		err = putJSON(b, u64(l.Step), l)
	}
	if err != nil {
		return fmt.Errorf("put step links: game %q step %d: %w", game, l.Step, err)
	}
	return nil
}

// ExportLog returns the public export of game's dice log: every record in
// order, with the values of a sealed-stream draw withheld while its step's
// sealed link is unrevealed, and the links of every step. It holds no secret.
func (tx *Tx) ExportLog(game string) (*legacy.Export, error) {
	s, err := tx.DiceSecrets(game)
	if err != nil {
		return nil, fmt.Errorf("export dice log: %w", err)
	}
	lb, err := tx.gameSub(game, bLinks)
	if err != nil {
		return nil, fmt.Errorf("export dice log: %w", err)
	}
	links, err := list[StepLinks](lb, nil)
	if err != nil {
		return nil, fmt.Errorf("export dice log: game %q: links: %w", game, err)
	}
	rb, err := tx.gameSub(game, bDice)
	if err != nil {
		return nil, fmt.Errorf("export dice log: %w", err)
	}
	stored, err := list[diceRecord](rb, nil)
	if err != nil {
		return nil, fmt.Errorf("export dice log: game %q: records: %w", game, err)
	}
	x := legacy.NewExport(game, s.ChainLength, s.Open0, s.Sealed0)
	sealed := make(map[uint64]bool) // steps whose sealed link is revealed
	for _, l := range links {
		if l.Orders == nil {
			l.Orders = []dice.Hash{} // "orders": [], as the export writes every list
		}
		x.Steps = append(x.Steps, legacy.ExportStep(l))
		sealed[l.Step] = l.Sealed != nil
	}
	for _, sr := range stored {
		r, err := sr.record()
		if err != nil {
			return nil, fmt.Errorf("export dice log: game %q: record %d: %w", game, sr.Seq, err)
		}
		x.AddRecord(r, r.Stream == legacy.StreamSealed && !sealed[r.Step])
	}
	return x, nil
}

// sameLink reports whether a and b are both unrevealed or the same link.
func sameLink(a, b *dice.Hash) bool { return a == b || (a != nil && b != nil && *a == *b) }
