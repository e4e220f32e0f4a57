package adjudicator

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// stepOrders gathers the orders a step is adjudicated with: the newest
// accepted order file of each seat owing orders, and, for a seat without
// one whose default is "repeat", the order file it sent last. It returns
// the files, those repeated (by seat), the versions used, the references of
// the files repeated, and the digests of all those files; the rules read
// the files later, within the step's budget (rulesStep).
func stepOrders(tx Tx, st StepRecord) ([]OrderFile, map[string]OrderFile, map[string]uint64, map[string]OrderRef, []dice.Hash, error) {
	files, err := tx.LatestOrders(st.Game, st.Number)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	repeated := map[string]OrderRef{}
	for _, seat := range st.Owing {
		if st.NoOrders[seat] != "repeat" || slices.ContainsFunc(files, func(f OrderFile) bool { return f.Seat == seat }) {
			continue
		}
		for k := st.Number - 1; k >= 1; k-- {
			prev, err := tx.Step(st.Game, k)
			if err != nil {
				return nil, nil, nil, nil, nil, err
			}
			if v, ok := prev.Used[seat]; ok {
				repeated[seat] = OrderRef{Step: k, Version: v}
				break
			}
			if r, ok := prev.Repeated[seat]; ok {
				repeated[seat] = r
				break
			}
		}
	}
	extra, err := repeatedFiles(tx, st.Game, repeated)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	used, digests := usedOf(st, files, extra)
	if len(repeated) == 0 {
		repeated = nil
	}
	return files, extra, used, repeated, digests, nil
}

// repeatedFiles reads the order files a step uses again.
func repeatedFiles(tx Tx, game string, repeated map[string]OrderRef) (map[string]OrderFile, error) {
	out := map[string]OrderFile{}
	for seat, r := range repeated {
		f, err := tx.OrderVersion(game, r.Step, seat, r.Version)
		if err != nil {
			return nil, err
		}
		out[seat] = f
	}
	return out, nil
}

// usedOf returns the versions of files (this step's) that step st uses,
// and the digests of those and of repeated (older files used again),
// sorted.
func usedOf(st StepRecord, files []OrderFile, repeated map[string]OrderFile) (map[string]uint64, []dice.Hash) {
	used := map[string]uint64{}
	var digests []dice.Hash
	for _, f := range files {
		if slices.Contains(st.Owing, f.Seat) {
			used[f.Seat] = f.Version
			digests = append(digests, f.Digest)
		}
	}
	for _, f := range repeated {
		digests = append(digests, f.Digest)
	}
	slices.SortFunc(digests, func(a, b dice.Hash) int { return bytes.Compare(a[:], b[:]) })
	return used, digests
}

// ordersOf reads files (this step's, of the seats it waits for) and
// repeated (older files used again) with the rules, in the state of step
// st: the canonical orders by seat.
func ordersOf(rules Rules, st StepRecord, files []OrderFile, repeated map[string]OrderFile) map[string][]string {
	orders := map[string][]string{}
	read := func(f OrderFile) {
		parsed, _ := ParseOrderFile(f.Text)
		canon, _ := rules.ParseOrders(st.State, f.Seat, parsed.Orders)
		orders[f.Seat] = canon
	}
	for _, f := range files {
		if slices.Contains(st.Owing, f.Seat) {
			read(f)
		}
	}
	for _, f := range repeated {
		read(f)
	}
	return orders
}

// rulesStep has the rules read step st's order files and adjudicate it
// with roller, within the judge's step budget: the next state and the
// events, or why the rules could not (an error of theirs, a panic, or the
// budget spent).
func (j *Judge) rulesStep(g Game, rules Rules, st StepRecord, files []OrderFile, repeated map[string]OrderFile, roller dice.Roller) (next []byte, events []Event, err error) {
	var rerr error
	berr := j.forStep(fmt.Sprintf("adjudicating step %d of %s", st.Number, g.ID), func() {
		orders := ordersOf(rules, st, files, repeated)
		next, events, rerr = rules.Adjudicate(st.State, orders, roller)
	})
	if berr != nil {
		return nil, nil, berr
	}
	return next, events, rerr
}

// stepLinks returns the open and sealed links of step k.
func stepLinks(sec DiceSecrets, k uint64) (open, sealed dice.Hash, err error) {
	oc, sc := sec.chains()
	if open, err = oc.Link(k); err != nil {
		return
	}
	sealed, err = sc.Link(k)
	return
}

// Adjudicate closes the open step st of g, by what closed it at now (a
// deadline close is at the published deadline), and resolves it: (state,
// orders, dice) to (next state, events, dice records), all stored in tx
// with the reports queued, then opens the next step. A step of a game with
// a beacon closes and waits for its round (BeaconArrived).
func (j *Judge) Adjudicate(ctx context.Context, tx Tx, g Game, f *GameFile, rules Rules, st StepRecord, by dice.ClosedBy, now time.Time) error {
	if st.Status != StepOpen {
		return fmt.Errorf("step %d of %s is %s", st.Number, g.ID, st.Status)
	}
	sec, err := tx.DiceSecrets(g.ID)
	if err != nil {
		return err
	}
	if !sec.V2() {
		return j.adjudicateLegacy(ctx, tx, g, f, rules, st, sec, now)
	}
	_, _, used, repeated, _, err := stepOrders(tx, st)
	if err != nil {
		return err
	}
	ol, err := orderList(tx, st, sec, used, repeated)
	if err != nil {
		return err
	}
	closeAt := now
	if by == dice.ClosedByDeadline {
		closeAt = st.Deadline
	}
	closeAt = closeAt.UTC().Truncate(time.Second)
	if sec.V3() {
		// Closes never decrease (docs/dice-log.md, C4): a ready message
		// received before the previous close, or a clock set back, gives
		// the previous close, and with it never an earlier beacon round.
		ledger, err := tx.DiceLedger(g.ID)
		if err != nil {
			return err
		}
		if last := time.Unix(int64(ledger.LastClose), 0).UTC(); ledger.Closed && closeAt.Before(last) {
			closeAt = last
		}
	}
	st.Used, st.Repeated = used, repeated
	st.Dice = &StepDice{Close: closeAt, ClosedBy: by, Orders: ol}
	st.Orders = nil
	for _, o := range ol {
		st.Orders = append(st.Orders, o.Digest)
	}
	if sec.Beacon != nil {
		st.Status, st.Closed = StepWaiting, now
		st.Dice.Round = sec.Beacon.RoundFor(uint64(st.Dice.Close.Unix()))
		if err := tx.PutStep(st); err != nil {
			return err
		}
		j.log().InfoContext(ctx, "step closed, waiting for its beacon round", "game", g.ID, "step", st.Number, "round", st.Dice.Round)
		return j.closeNotice(tx, g, st, sec.Beacon)
	}
	return j.play(ctx, tx, g, f, rules, st, sec, nil, now)
}

// orderList is a v2 or v3 step's order list: one entry per seat whose
// orders the step uses, its last accepted version (or the file the rules
// repeat), sorted by seat; in v3 each digest keyed by the seat's salt.
func orderList(tx Tx, st StepRecord, sec DiceSecrets, used map[string]uint64, repeated map[string]OrderRef) ([]dice.OrderEntry, error) {
	ol := []dice.OrderEntry{}
	for seat, v := range used {
		f, err := tx.OrderVersion(st.Game, st.Number, seat, v)
		if err != nil {
			return nil, err
		}
		ol = append(ol, dice.OrderEntry{Seat: seat, ForStep: st.Number, Version: v, Digest: sec.entryDigest(f, st.Number, v)})
	}
	for seat, r := range repeated {
		if _, ok := used[seat]; ok {
			continue
		}
		f, err := tx.OrderVersion(st.Game, r.Step, seat, r.Version)
		if err != nil {
			return nil, err
		}
		ol = append(ol, dice.OrderEntry{Seat: seat, ForStep: r.Step, Version: r.Version, Digest: sec.entryDigest(f, r.Step, r.Version)})
	}
	dice.SortOrders(ol)
	return ol, nil
}

// play adjudicates a closed v2 step: its step record (with the beacon
// round, if any), the rules' draws, the reveals they ask for, and the end
// record if the game ends.
func (j *Judge) play(ctx context.Context, tx Tx, g Game, f *GameFile, rules Rules, st StepRecord, sec DiceSecrets, round *beacon.Round, now time.Time) error {
	var files []OrderFile
	for seat, v := range st.Used {
		of, err := tx.OrderVersion(g.ID, st.Number, seat, v)
		if err != nil {
			return err
		}
		files = append(files, of)
	}
	extra, err := repeatedFiles(tx, g.ID, st.Repeated)
	if err != nil {
		return err
	}
	ledger, err := tx.DiceLedger(g.ID)
	if err != nil {
		return err
	}
	openChain, _ := sec.chains()
	link, err := openChain.Link(st.Number)
	if err != nil {
		return err
	}
	d := st.Dice
	digest := ledger.StepDigest(g.ID, st.Number, st.Phase, d.Orders, round)
	step := dice.Record{Type: dice.TypeStep, Step: &dice.Step{K: st.Number, Phase: st.Phase, Close: uint64(d.Close.Unix()),
		ClosedBy: d.ClosedBy, Orders: d.Orders, Round: round, OpenLink: link, Digest: digest}}
	if err := ledger.Append(&step); err != nil {
		return err
	}
	roller := dice.NewStepRoller(&ledger, st.Number, digest, link, sec.Streams, sec.streamKey(st.Number))
	start := time.Now()
	next, events, err := j.rulesStep(g, rules, st, files, extra, roller)
	if err != nil {
		return j.stuck(tx, g, st, err, now)
	}
	j.adjudicated(g.ID, st.Number, start)
	records := append([]dice.Record{step}, roller.Records()...)
	reveals, err := j.reveals(tx, g.ID, st.Number, sec, roller)
	if err != nil {
		return err
	}
	for i := range reveals {
		if err := ledger.Append(&reveals[i]); err != nil {
			return err
		}
	}
	records = append(records, reveals...)
	if err := tx.AddDiceLog(g.ID, records); err != nil {
		return err
	}
	if err := tx.AddEvents(g.ID, st.Number, events); err != nil {
		return err
	}
	st.Status, st.Closed = StepClosed, now
	if err := tx.PutStep(st); err != nil {
		return err
	}
	j.log().InfoContext(ctx, "step adjudicated", "game", g.ID, "step", st.Number, "phase", st.Phase, "events", len(events), "dice", len(roller.Records()))
	if err := j.open(tx, g, f, rules, st.Number+1, next, now); err != nil {
		return err
	}
	// The head the reports quote: after the step's records, and the end
	// record if the step ended the game.
	if ledger, err = tx.DiceLedger(g.ID); err != nil {
		return err
	}
	st.Dice.Head = ledger.Head
	if err := tx.PutStep(st); err != nil {
		return err
	}
	return j.report(tx, g.ID, st)
}

// reveals are the reveal records of the hidden streams whose secrecy the
// rules said is spent in step k: every earlier step that drew from the
// stream and is not revealed yet, and step k itself unless it drew from the
// stream again after the reveal.
func (j *Judge) reveals(tx Tx, game string, k uint64, sec DiceSecrets, r *dice.StepRoller) ([]dice.Record, error) {
	if len(r.Reveals()) == 0 {
		return nil, nil
	}
	done, err := tx.DiceReveals(game)
	if err != nil {
		return nil, err
	}
	var out []dice.Record
	for _, want := range r.Reveals() {
		steps, err := tx.StreamSteps(game, want.Stream)
		if err != nil {
			return nil, err
		}
		if want.ThisStep {
			steps = append(steps, k)
		}
		for _, s := range steps {
			if slices.ContainsFunc(done, func(x dice.KeyReveal) bool { return x.Step == s && x.Stream == want.Stream }) {
				continue
			}
			kr := dice.KeyReveal{Step: s, Stream: want.Stream, Key: dice.StreamKey(sec.SealedRoot, s, want.Stream)}
			done = append(done, kr)
			out = append(out, dice.Record{Type: dice.TypeReveal, Reveal: &kr})
		}
	}
	return out, nil
}

// adjudicateLegacy is Adjudicate for games created under umpire-dice-v1.
func (j *Judge) adjudicateLegacy(ctx context.Context, tx Tx, g Game, f *GameFile, rules Rules, st StepRecord, sec DiceSecrets, now time.Time) error {
	files, extra, used, repeated, digests, err := stepOrders(tx, st)
	if err != nil {
		return err
	}
	open, sealed, err := stepLinks(sec, st.Number)
	if err != nil {
		return err
	}
	head, seq, err := tx.DiceHead(g.ID)
	if err != nil {
		return err
	}
	digest := legacy.StepDigest(g.ID, st.Number, st.Phase, digests)
	roller := legacy.NewStepRoller(legacy.ResumeLog(head, seq), st.Number, digest, open, sealed)
	start := time.Now()
	next, events, err := j.rulesStep(g, rules, st, files, extra, roller)
	if err != nil {
		return j.stuck(tx, g, st, err, now)
	}
	j.adjudicated(g.ID, st.Number, start)
	if err := tx.AddDiceRecords(g.ID, roller.Records()); err != nil {
		return err
	}
	if err := tx.PutStepLinks(g.ID, st.Number, st.Phase, digests, digest, &open, nil); err != nil {
		return err
	}
	if err := tx.AddEvents(g.ID, st.Number, events); err != nil {
		return err
	}
	st.Status, st.Closed, st.Used, st.Repeated, st.Orders = StepClosed, now, used, repeated, digests
	if err := tx.PutStep(st); err != nil {
		return err
	}
	j.log().InfoContext(ctx, "step adjudicated", "game", g.ID, "step", st.Number, "phase", st.Phase, "events", len(events), "dice", len(roller.Records()))
	if err := j.open(tx, g, f, rules, st.Number+1, next, now); err != nil {
		return err
	}
	return j.report(tx, g.ID, st)
}

// report queues one report per seat and one for the GM: what happened
// (each seat sees only what it may), the dice, the revealed link and log
// head, where things stand with the map, and what is due next.
func (j *Judge) report(tx Tx, game string, st StepRecord) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return err
	}
	b, err := j.stepReport(tx, game, st.Number)
	if err != nil {
		return err
	}
	for _, s := range append(seats, Seat{Name: "", Holder: g.GMKey}) {
		if s.Holder == "" {
			continue
		}
		k, err := tx.Key(s.Holder)
		if err != nil || k.Address == "" {
			continue
		}
		r, err := b.forSeat(tx, s.Name)
		if err != nil {
			return err
		}
		if err := tx.Enqueue(Mail{Kind: MailReport, Game: g.ID, To: k.Address, Subject: "umpire: " + r.Subject(), Text: r.PlainText(), Report: r, Files: r.Files()}); err != nil {
			return err
		}
	}
	return j.reportObservers(tx, g, b)
}

// reportObservers queues the public view of a step's report (Spectator:
// no hand, no sealed value, no seat's orders but those the game publishes)
// to each observer of g.
func (j *Judge) reportObservers(tx Tx, g Game, b *stepReport) error {
	obs, err := tx.Observers(g.ID)
	if err != nil || len(obs) == 0 {
		return err
	}
	r, err := b.forSeat(tx, Spectator)
	if err != nil {
		return err
	}
	seats, err := tx.Seats(g.ID)
	if err != nil {
		return err
	}
	for _, o := range obs {
		if o.Key == g.GMKey || slices.ContainsFunc(seats, func(s Seat) bool { return s.Holder == o.Key }) {
			continue // an observer who took a seat since gets the seat's report
		}
		k, err := tx.Key(o.Key)
		if err != nil || k.Address == "" {
			continue
		}
		if err := tx.Enqueue(Mail{Kind: MailReport, Game: g.ID, To: k.Address, Subject: "umpire: " + r.Subject(), Text: r.PlainText(), Report: r}); err != nil {
			return err
		}
	}
	return nil
}

// replaySource is what a replay reads: the store, or an exported game.
type replaySource interface {
	step(k uint64) (StepRecord, error)
	orderVersion(step uint64, seat string, version uint64) (OrderFile, error)
	// links returns step k's links; a nil one is not revealed.
	links(k uint64) (open, sealed *dice.Hash, err error)
}

// Replay re-runs game from its first step with the orders each step was
// adjudicated with, and checks that every stored state and every dice value
// comes out the same. It returns the number of steps checked.
func (j *Judge) Replay(tx Tx, game string) (int, error) {
	g, err := tx.Game(game)
	if err != nil {
		return 0, err
	}
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return 0, err
	}
	if sec.V2() {
		return j.replayRecords(g, storeSource{tx: tx, game: game, sec: sec}, storeLog{tx: tx, game: game, sec: sec})
	}
	head, _, err := tx.DiceHead(game)
	if err != nil {
		return 0, err
	}
	return j.replay(g, storeSource{tx: tx, game: game, sec: sec}, sec.Open0, sec.Sealed0, head)
}

type storeSource struct {
	tx   Tx
	game string
	sec  DiceSecrets
}

func (s storeSource) step(k uint64) (StepRecord, error) { return s.tx.Step(s.game, k) }
func (s storeSource) orderVersion(step uint64, seat string, v uint64) (OrderFile, error) {
	return s.tx.OrderVersion(s.game, step, seat, v)
}
func (s storeSource) links(k uint64) (*dice.Hash, *dice.Hash, error) {
	open, sealed, err := stepLinks(s.sec, k)
	return &open, &sealed, err
}

// errSealedHidden is drawn when a replay needs a sealed link that is not
// revealed yet.
type errSealedHidden struct{ step uint64 }

// hiddenRoller draws like a StepRoller but stops at the first draw from a
// sealed link the replay does not have.
type hiddenRoller struct {
	*legacy.StepRoller
	step   uint64
	sealed bool
}

func (r *hiddenRoller) Draw(stream string, sp spec.Spec, purpose string) []int {
	if stream != dice.Open && !r.sealed {
		panic(errSealedHidden{r.step})
	}
	return r.StepRoller.Draw(stream, sp, purpose)
}

func (j *Judge) replay(g Game, src replaySource, open0, sealed0, head dice.Hash) (n int, err error) {
	rules, err := j.Games.Get(g.Kind)
	if err != nil {
		return 0, err
	}
	defer func() {
		if r := recover(); r != nil {
			h, ok := r.(errSealedHidden)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("step %d drew from its sealed dice link, which is not revealed yet: the game can be replayed to its end once it has ended", h.step)
		}
	}()
	log := legacy.NewLog(open0, sealed0)
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
		if st.Status == "rolled-back" {
			continue // never adjudicated
		}
		if st.Status != "closed" {
			return n, fmt.Errorf("step %d is %s", k, st.Status)
		}
		var files []OrderFile
		for seat, v := range st.Used {
			f, err := src.orderVersion(k, seat, v)
			if err != nil {
				return n, fmt.Errorf("step %d: %w", k, err)
			}
			files = append(files, f)
		}
		extra := map[string]OrderFile{}
		for seat, r := range st.Repeated {
			f, err := src.orderVersion(r.Step, seat, r.Version)
			if err != nil {
				return n, fmt.Errorf("step %d: %w", k, err)
			}
			extra[seat] = f
		}
		_, digests := usedOf(st, files, extra)
		if !slices.EqualFunc(digests, st.Orders, func(a, b dice.Hash) bool { return a == b }) {
			return n, fmt.Errorf("step %d: the order files do not match the digests the step was adjudicated with", k)
		}
		open, sealed, err := src.links(k)
		if err != nil {
			return n, err
		}
		if open == nil {
			return n, fmt.Errorf("step %d: its open dice link is not revealed", k)
		}
		var sealedLink dice.Hash
		if sealed != nil {
			sealedLink = *sealed
		}
		roller := &hiddenRoller{StepRoller: legacy.NewStepRoller(log, k, legacy.StepDigest(g.ID, k, st.Phase, digests), *open, sealedLink), step: k, sealed: sealed != nil}
		next, _, err := j.rulesStep(g, rules, st, files, extra, roller)
		if err != nil {
			return n, fmt.Errorf("step %d: %w", k, err)
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
	if log.Head() != head {
		return n, fmt.Errorf("replayed dice log head %s differs from the stored head %s", log.Head(), head)
	}
	return n, nil
}
