package adjudicator

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// recordLog is what a v2 or v3 replay reads of the dice log: the header's
// streams, each step's step record and draws, and the keys that are public
// (or, in the store, all of them); for v3, h_2 and the digest an order
// file stands under (keyed by its seat's salt, which is known in the
// store and, from the sealed root, in an ended game's export).
type recordLog interface {
	streams() []string
	stepDice(k uint64) (*dice.Record, []dice.Record, error)
	key(k uint64) func(stream string) (dice.Hash, bool)
	// v3 reports whether the log is umpire-dice-v3's, and its h_2.
	v3() (bool, dice.Hash)
	// digest is the digest order file f, sent for step forStep as
	// version, stands under in an order list.
	digest(f OrderFile, forStep, version uint64) (dice.Hash, error)
}

// replayRecords re-runs a v2 game from its first step: each step's order list is
// recomputed from the order files and compared with its step record (a
// phantom or substituted digest stops it), D_k is recomputed with the
// record's beacon round, and the rules' draws are compared record by record
// with the log's, as is every state.
func (j *Judge) replayRecords(g Game, src replaySource, log recordLog) (n int, err error) {
	rules, err := j.Games.Get(g.Kind)
	if err != nil {
		return 0, err
	}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(dice.HiddenKeyError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("step %d drew from hidden stream %q, whose key is not public yet: the game can be replayed to its end once it has ended", h.Step, h.Stream)
		}
	}()
	for k := uint64(1); k < g.Step; k++ {
		st, err := src.step(k)
		if err != nil {
			return n, err
		}
		if st.RestoredFrom != 0 {
			from, err := src.step(st.RestoredFrom)
			if err != nil {
				return n, err
			}
			if !bytes.Equal(from.State, st.State) {
				return n, fmt.Errorf("step %d: its state is not the state of step %d it was restored from", k, st.RestoredFrom)
			}
		}
		stepRec, draws, err := log.stepDice(k)
		if err != nil {
			return n, err
		}
		if st.Status == StepRolledBack {
			if stepRec != nil {
				return n, fmt.Errorf("step %d was rolled back, but the dice log has a step record for it", k)
			}
			continue
		}
		if st.Status != StepClosed {
			return n, fmt.Errorf("step %d is %s", k, st.Status)
		}
		if stepRec == nil {
			return n, fmt.Errorf("step %d: the dice log has no step record for it", k)
		}
		rec := stepRec.Step
		var files []OrderFile
		var ol []dice.OrderEntry
		for seat, v := range st.Used {
			f, err := src.orderVersion(k, seat, v)
			if err != nil {
				return n, fmt.Errorf("step %d: %w", k, err)
			}
			files = append(files, f)
			d, err := log.digest(f, k, v)
			if err != nil {
				return n, fmt.Errorf("step %d: %w", k, err)
			}
			ol = append(ol, dice.OrderEntry{Seat: seat, ForStep: k, Version: v, Digest: d})
		}
		extra := map[string]OrderFile{}
		for seat, r := range st.Repeated {
			f, err := src.orderVersion(r.Step, seat, r.Version)
			if err != nil {
				return n, fmt.Errorf("step %d: %w", k, err)
			}
			extra[seat] = f
			if _, ok := st.Used[seat]; !ok {
				d, err := log.digest(f, r.Step, r.Version)
				if err != nil {
					return n, fmt.Errorf("step %d: %w", k, err)
				}
				ol = append(ol, dice.OrderEntry{Seat: seat, ForStep: r.Step, Version: r.Version, Digest: d})
			}
		}
		dice.SortOrders(ol)
		if !slices.Equal(ol, rec.Orders) && !(len(ol) == 0 && len(rec.Orders) == 0) {
			return n, fmt.Errorf("step %d: the order files the step used do not make the order list of its step record (a phantom, missing or substituted entry)", k)
		}
		if rec.Phase != st.Phase {
			return n, fmt.Errorf("step %d: the step record's phase %q is not the step's phase %q", k, rec.Phase, st.Phase)
		}
		v3, h2 := log.v3()
		d := (&dice.Ledger{V3: v3, StartHead: h2}).StepDigest(g.ID, k, st.Phase, ol, rec.Round)
		if d != rec.Digest {
			return n, fmt.Errorf("step %d: D_k recomputed from the orders is not the step record's digest", k)
		}
		ledger := dice.Ledger{Records: 1, Steps: k, L: k}
		if len(draws) > 0 {
			ledger.Seq = draws[0].Draw.Seq - 1
		}
		ledger.Continue(k)
		roller := dice.NewStepRoller(&ledger, k, rec.Digest, rec.OpenLink, log.streams(), log.key(k))
		next, _, err := j.rulesStep(g, rules, st, files, extra, roller)
		if err != nil {
			return n, fmt.Errorf("step %d: %w", k, err)
		}
		got := roller.Records()
		if len(got) != len(draws) {
			return n, fmt.Errorf("step %d: the replay drew %d times, the dice log holds %d draws", k, len(got), len(draws))
		}
		for i := range got {
			a, b := got[i].Draw, draws[i].Draw
			if b.Sealed() && b.Values == nil {
				b.Values = a.Values // unknown to the log: the commitment decides
			}
			if !bytes.Equal(a.AppendBody(nil), b.AppendBody(nil)) {
				return n, fmt.Errorf("step %d: draw %d (%s, %q) differs from the dice log's", k, b.Seq, b.Spec, b.Purpose)
			}
		}
		after, err := src.step(k + 1)
		if err != nil {
			return n, err
		}
		if after.RestoredFrom == 0 && !bytes.Equal(next, after.State) {
			return n, fmt.Errorf("step %d: replayed state differs from the stored state of step %d", k, k+1)
		}
		n++
	}
	return n, nil
}

// storeLog is a stored game's v2 log, with every key (the store holds the
// sealed root).
type storeLog struct {
	tx   Tx
	game string
	sec  DiceSecrets
}

func (s storeLog) streams() []string { return s.sec.Streams }
func (s storeLog) stepDice(k uint64) (*dice.Record, []dice.Record, error) {
	return s.tx.StepDice(s.game, k)
}
func (s storeLog) key(k uint64) func(string) (dice.Hash, bool) { return s.sec.streamKey(k) }
func (s storeLog) v3() (bool, dice.Hash) {
	if !s.sec.V3() {
		return false, dice.Hash{}
	}
	l, _ := s.tx.DiceLedger(s.game)
	return true, l.StartHead
}
func (s storeLog) digest(f OrderFile, forStep, version uint64) (dice.Hash, error) {
	if s.sec.V3() {
		return s.sec.entryDigest(f, forStep, version), nil
	}
	if legacy.OrderDigest(f.Signed) != f.Digest {
		return dice.Hash{}, fmt.Errorf("order file of %s for step %d (v%d): its bytes do not have its digest", f.Seat, forStep, version)
	}
	return f.Digest, nil
}

// exportLog is an exported v2 or v3 log: only the public keys.
type exportLog struct {
	h2    dice.Hash
	hdr   *dice.Header
	steps map[uint64]int
	recs  []dice.Record
	root  *dice.Hash
	keys  map[uint64]map[string]dice.Hash
}

func newExportLog(data []byte) (*exportLog, error) {
	res, err := dice.VerifyStream(bytes.NewReader(data), dice.VerifyOptions{})
	if err != nil {
		return nil, fmt.Errorf("its dice log: %w", err)
	}
	if !res.OK() {
		return nil, fmt.Errorf("its dice log does not verify: %w", res.Problem)
	}
	x, err := dice.ParseExport(data)
	if err != nil {
		return nil, err
	}
	l := &exportLog{hdr: x.Records[0].Header, steps: map[uint64]int{}, recs: x.Records, root: x.SealedRoot, keys: map[uint64]map[string]dice.Hash{}}
	for i, r := range x.Records {
		if r.Type == dice.TypeStep {
			l.steps[r.Step.K] = i
		}
		if r.Type == dice.TypeStart {
			l.h2 = r.Head
		}
	}
	for _, r := range x.Revealed {
		if l.keys[r.Step] == nil {
			l.keys[r.Step] = map[string]dice.Hash{}
		}
		l.keys[r.Step][r.Stream] = r.Key
	}
	return l, nil
}

func (l *exportLog) streams() []string     { return l.hdr.Streams }
func (l *exportLog) v3() (bool, dice.Hash) { return l.hdr.V3(), l.h2 }

// digest is, in an ended v3 game, the file's keyed digest under the salt
// the sealed root gives (the export's stated digest must be it); in a
// running one the stated digest, which the replay can bind to the file
// only once the game has ended (OrdersUnchecked); in v2 the file's
// SHA-256.
func (l *exportLog) digest(f OrderFile, forStep, version uint64) (dice.Hash, error) {
	if !l.hdr.V3() {
		if legacy.OrderDigest(f.Signed) != f.Digest {
			return dice.Hash{}, fmt.Errorf("order file of %s for step %d (v%d): its bytes do not have its digest", f.Seat, forStep, version)
		}
		return f.Digest, nil
	}
	if l.root == nil {
		return f.Digest, nil
	}
	d := dice.OrderDigest(dice.OrderSalt(*l.root, f.Seat), forStep, version, f.Signed)
	if d != f.Digest {
		return dice.Hash{}, fmt.Errorf("order file of %s for step %d (v%d): its bytes do not have its digest (keyed by its seat's salt)", f.Seat, forStep, version)
	}
	return d, nil
}

// OrdersUnchecked reports whether a replay of the game export x could not
// bind its order files to the order entries of its dice log: an
// umpire-dice-v3 game that has not ended, whose order salts are secret.
func OrdersUnchecked(x *GameExport) bool {
	if x.Version != 3 {
		return false
	}
	p, err := dice.ParseExport(x.Dice)
	return err != nil || p.SealedRoot == nil
}
func (l *exportLog) stepDice(k uint64) (*dice.Record, []dice.Record, error) {
	i, ok := l.steps[k]
	if !ok {
		return nil, nil, nil
	}
	var draws []dice.Record
	for _, r := range l.recs[i+1:] {
		if r.Type != dice.TypeDraw {
			break
		}
		draws = append(draws, r)
	}
	return &l.recs[i], draws, nil
}
func (l *exportLog) key(k uint64) func(string) (dice.Hash, bool) {
	return func(name string) (dice.Hash, bool) {
		if l.root != nil {
			return dice.StreamKey(*l.root, k, name), true
		}
		key, ok := l.keys[k][name]
		return key, ok
	}
}
