package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"go.etcd.io/bbolt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// The buckets of an umpire-dice-v2 or -v3 log, per game (doc.go draws the
// layout).
const (
	bLog          = "log"           // <n>: record n (1 = the header), with the values of hidden draws
	bLogSteps     = "log-steps"     // <k>: n of step k's step record
	bLogStreams   = "log-streams"   // <lp(name)><k>: step k drew from hidden stream name
	bLogReveals   = "log-reveals"   // <n>: n of a reveal record
	bLogRollbacks = "log-rollbacks" // <n>: n of a rollback record
)

// DiceLedger returns where game's v2 or v3 log stands: its head, record
// count, last seq and last step number, to resume it with; for v3 also
// its start record (h_2, the seats) and the last step record's close.
func (tx *Tx) DiceLedger(game string) (dice.Ledger, error) {
	var l dice.Ledger
	b, err := tx.gameSub(game, bLog)
	if err != nil {
		return l, err
	}
	if b == nil {
		return l, nil
	}
	c := b.Cursor()
	k, v := c.Last()
	if k == nil {
		return l, nil
	}
	var last dice.Record
	if err := json.Unmarshal(v, &last); err != nil {
		return l, fmt.Errorf("game %q: dice log record %d: %w", game, be64(k), err)
	}
	var hdr dice.Record
	if err := json.Unmarshal(b.Get(u64(1)), &hdr); err != nil || hdr.Header == nil {
		return l, fmt.Errorf("game %q: dice log header: %v", game, err)
	}
	l.Head, l.Records, l.L = last.Head, be64(k), hdr.Header.ChainLength
	l.Ended = last.Type == dice.TypeEnd
	if l.V3 = hdr.Header.V3(); l.V3 {
		if err := tx.resumeV3(game, b, &l); err != nil {
			return l, err
		}
	}
	// The last draw's seq and the last step number taken.
	for ; k != nil; k, v = c.Prev() {
		var r dice.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return l, fmt.Errorf("game %q: dice log record %d: %w", game, be64(k), err)
		}
		if r.Type == dice.TypeDraw && l.Seq == 0 {
			l.Seq = r.Draw.Seq
		}
		if l.Steps == 0 {
			switch r.Type {
			case dice.TypeStep:
				l.Steps = r.Step.K
			case dice.TypeRollback:
				l.Steps = r.Rollback.Closed
			}
		}
		if l.Steps != 0 && (l.Seq != 0 || r.Type == dice.TypeHeader) {
			break
		}
	}
	return l, nil
}

// resumeV3 fills in what a v3 ledger keeps: the start record's head and
// seats, and the close of the last step record.
func (tx *Tx) resumeV3(game string, b *bbolt.Bucket, l *dice.Ledger) error {
	var start dice.Record
	if v := b.Get(u64(2)); v != nil {
		if err := json.Unmarshal(v, &start); err != nil {
			return fmt.Errorf("game %q: dice log record 2: %w", game, err)
		}
		if start.Type == dice.TypeStart {
			l.Started, l.StartHead = true, start.Head
			for _, s := range start.Start.Seats {
				l.Seats = append(l.Seats, s.Seat)
			}
		}
	}
	ib, err := tx.gameSub(game, bLogSteps)
	if err != nil || ib == nil {
		return err
	}
	if _, n := ib.Cursor().Last(); n != nil {
		var step dice.Record
		if err := json.Unmarshal(b.Get(n), &step); err != nil || step.Step == nil {
			return fmt.Errorf("game %q: dice log record %d: not the step record its index names (%v)", game, be64(n), err)
		}
		l.LastClose, l.Closed = step.Step.Close, true
	}
	return nil
}

// AddDiceLog appends records to game's v2 or v3 log. Each must chain to the one
// before: its head recomputed from the stored head and its body; anything
// else, such as a record added twice, is ErrSequence.
func (tx *Tx) AddDiceLog(game string, records []dice.Record) error {
	b, err := tx.gameSub(game, bLog)
	if err != nil {
		return fmt.Errorf("add dice log: %w", err)
	}
	var head dice.Hash
	n := uint64(0)
	if k, v := b.Cursor().Last(); k != nil {
		var last dice.Record
		if err := json.Unmarshal(v, &last); err != nil {
			return fmt.Errorf("add dice log: game %q: record %d: %w", game, be64(k), err)
		}
		head, n = last.Head, be64(k)
	}
	for i := range records {
		r := &records[i]
		if r.HeadAfter(head) != r.Head {
			return fmt.Errorf("add dice log: game %q: record %d (%s) does not chain to head %s: %w", game, n+1, r.Type, head, ErrSequence)
		}
		n++
		if err := putJSON(b, u64(n), r); err != nil {
			return fmt.Errorf("add dice log: game %q: record %d: %w", game, n, err)
		}
		var index string
		var key []byte
		switch r.Type {
		case dice.TypeStep:
			index, key = bLogSteps, u64(r.Step.K)
		case dice.TypeDraw:
			if r.Draw.Sealed() {
				index, key = bLogStreams, append(appendString(nil, r.Draw.Stream), u64(r.Draw.Step)...)
			}
		case dice.TypeReveal:
			index, key = bLogReveals, u64(n)
		case dice.TypeRollback:
			index, key = bLogRollbacks, u64(n)
		}
		if index != "" {
			ib, err := tx.gameSub(game, index)
			if err == nil {
				err = ib.Put(key, u64(n))
			}
			if err != nil {
				return fmt.Errorf("add dice log: game %q: record %d: %w", game, n, err)
			}
		}
		head = r.Head
	}
	return nil
}

// DiceRecord returns record n of game's v2 log.
func (tx *Tx) DiceRecord(game string, n uint64) (dice.Record, error) {
	var r dice.Record
	b, err := tx.gameSub(game, bLog)
	if err != nil {
		return r, err
	}
	ok, err := getJSON(b, u64(n), &r)
	if err == nil && !ok {
		err = ErrNotFound
	}
	if err != nil {
		return r, fmt.Errorf("game %q: dice log record %d: %w", game, n, err)
	}
	return r, nil
}

// StepDice returns step k's step record and its draws (nil, nil when step k
// has no step record: not adjudicated, or closed by a rollback).
func (tx *Tx) StepDice(game string, k uint64) (*dice.Record, []dice.Record, error) {
	ib, err := tx.gameSub(game, bLogSteps)
	if err != nil || ib == nil {
		return nil, nil, err
	}
	nb := ib.Get(u64(k))
	if nb == nil {
		return nil, nil, nil
	}
	b, err := tx.gameSub(game, bLog)
	if err != nil {
		return nil, nil, err
	}
	c := b.Cursor()
	var step *dice.Record
	var draws []dice.Record
	for key, v := c.Seek(nb); key != nil; key, v = c.Next() {
		var r dice.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, nil, fmt.Errorf("game %q: dice log record %d: %w", game, be64(key), err)
		}
		if step == nil {
			step = &r
			continue
		}
		if r.Type != dice.TypeDraw {
			break
		}
		draws = append(draws, r)
	}
	return step, draws, nil
}

// StreamSteps lists the steps that drew from hidden stream name.
func (tx *Tx) StreamSteps(game, name string) ([]uint64, error) {
	b, err := tx.gameSub(game, bLogStreams)
	if err != nil || b == nil {
		return nil, err
	}
	prefix := appendString(nil, name)
	var out []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, be64(k[len(prefix):]))
	}
	return out, nil
}

// indexed returns the records an index bucket points to, in log order.
func (tx *Tx) indexed(game, index string) ([]dice.Record, error) {
	ib, err := tx.gameSub(game, index)
	if err != nil || ib == nil {
		return nil, err
	}
	var out []dice.Record
	c := ib.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r, err := tx.DiceRecord(game, be64(v))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// DiceReveals lists game's reveal records, in log order.
func (tx *Tx) DiceReveals(game string) ([]dice.KeyReveal, error) {
	rs, err := tx.indexed(game, bLogReveals)
	out := make([]dice.KeyReveal, 0, len(rs))
	for _, r := range rs {
		out = append(out, *r.Reveal)
	}
	return out, err
}

// DiceRollbacks lists game's rollback records, in log order.
func (tx *Tx) DiceRollbacks(game string) ([]dice.Rollback, error) {
	rs, err := tx.indexed(game, bLogRollbacks)
	out := make([]dice.Rollback, 0, len(rs))
	for _, r := range rs {
		out = append(out, *r.Rollback)
	}
	return out, err
}

// WriteDiceLog writes the public export of game's v2 or v3 log (docs/dice-log.md
// section 9) to w: every record, the values of a hidden draw withheld
// until its key is public (a reveal record, or the sealed root in the end
// record). It holds no secret that is not public, and reads one record at
// a time.
func (tx *Tx) WriteDiceLog(game string, w io.Writer) (dice.Hash, error) {
	b, err := tx.gameSub(game, bLog)
	if err != nil {
		return dice.Hash{}, fmt.Errorf("export dice log: %w", err)
	}
	if b == nil {
		return dice.Hash{}, fmt.Errorf("export dice log: game %q: %w", game, ErrNotFound)
	}
	reveals, err := tx.DiceReveals(game)
	if err != nil {
		return dice.Hash{}, fmt.Errorf("export dice log: %w", err)
	}
	var root *dice.Hash
	if k, v := b.Cursor().Last(); k != nil {
		var last dice.Record
		if err := json.Unmarshal(v, &last); err != nil {
			return dice.Hash{}, fmt.Errorf("export dice log: game %q: %w", game, err)
		}
		if last.Type == dice.TypeEnd {
			root = last.End
		}
	}
	c := b.Cursor()
	k, v := c.First()
	write := dice.WriteExport
	var hdr dice.Record
	if err := json.Unmarshal(v, &hdr); err != nil || hdr.Header == nil {
		return dice.Hash{}, fmt.Errorf("export dice log: game %q: its header: %v", game, err)
	}
	if hdr.Header.V3() {
		write = dice.WriteExport
	}
	next := func() (*dice.Record, error) {
		if k == nil {
			return nil, nil
		}
		var r dice.Record
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, fmt.Errorf("record %d: %w", be64(k), err)
		}
		k, v = c.Next()
		return &r, nil
	}
	head, err := write(w, root, reveals, next)
	if err != nil {
		return head, fmt.Errorf("export dice log: game %q: %w", game, err)
	}
	return head, nil
}
