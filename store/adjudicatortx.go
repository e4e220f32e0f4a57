package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// This file is the adjudicator's view of the store (adjudicator.Tx): it
// copies thirteen adjudicator types into the store's records and back,
// field by field. The records stay separate types on purpose. They are the
// file format: JSON with snake_case names, omitempty and omitzero, and
// fields of the store's own (sequence numbers, stamps, the outbox mail of a
// receipt), which every store written so far holds and every later umpire
// must read. Storing the adjudicator's types directly would write their Go
// field names instead, and tie the file format to every change of the
// domain; the adjudicator would have to carry JSON tags for a store it must
// not know. So the mirror stays, and adjudicatortx_test.go keeps the two
// sides together: every field has its counterpart (or is listed with the
// reason it has none), and a value with every field set, by reflection,
// comes back through a real store as it was written.

// Judge returns tx as the adjudicator sees a store transaction. Mails it
// queues are sent From from and stamped with now.
func (tx *Tx) Judge(from string, now time.Time) adjudicator.Tx {
	return judgeTx{tx: tx, from: from, now: now}
}

type judgeTx struct {
	tx   *Tx
	from string
	now  time.Time
}

// notFound makes the store's ErrNotFound the adjudicator's.
func notFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: %w", adjudicator.ErrNotFound, err)
	}
	return err
}

func gameOf(g Game) adjudicator.Game {
	return adjudicator.Game{ID: g.ID, Kind: g.Kind, Title: g.Title, Status: g.Status, GMKey: g.GMKey, Step: g.Step,
		Scenario: g.Scenario, File: g.File, Created: g.Created, Resumed: g.Resumed, NoObservers: g.NoObservers}
}

func (j judgeTx) PutGame(g adjudicator.Game) error {
	old, err := j.tx.Game(g.ID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	old.ID, old.Kind, old.Title, old.Status, old.GMKey, old.Step = g.ID, g.Kind, g.Title, g.Status, g.GMKey, g.Step
	old.Scenario, old.File, old.Created, old.Updated, old.Resumed = g.Scenario, g.File, g.Created, j.now, g.Resumed
	old.NoObservers = g.NoObservers
	return j.tx.PutGame(old)
}

func (j judgeTx) Game(id string) (adjudicator.Game, error) {
	g, err := j.tx.Game(id)
	return gameOf(g), notFound(err)
}

func (j judgeTx) Games() ([]adjudicator.Game, error) {
	gs, err := j.tx.Games()
	out := make([]adjudicator.Game, len(gs))
	for i, g := range gs {
		out[i] = gameOf(g)
	}
	return out, err
}

func seatOf(s Seat) adjudicator.Seat {
	h, _ := s.Holder()
	return adjudicator.Seat{Game: s.Game, Name: s.Name, Holder: h.Key, Join: h.Join, Pending: s.Pending, PendingJoin: s.PendingJoin, Excused: s.Excused,
		AbsentFrom: s.AbsentFrom, AbsentUntil: s.AbsentUntil, AbsenceDays: s.AbsenceDays}
}

// PutSeat stores a seat; a change of holder closes the old holder's time
// and opens the new one's, so the seat's history keeps both.
func (j judgeTx) PutSeat(s adjudicator.Seat) error {
	old, err := j.tx.Seat(s.Game, s.Name)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	old.Game, old.Name = s.Game, s.Name
	cur, held := old.Holder()
	if !held || cur.Key != s.Holder {
		for i := range old.Holders {
			if old.Holders[i].Until.IsZero() {
				old.Holders[i].Until = j.now
			}
		}
		if s.Holder != "" {
			addr := ""
			if k, err := j.tx.Key(s.Holder); err == nil {
				addr = k.Address
			}
			old.Holders = append(old.Holders, Holder{Key: s.Holder, Address: addr, From: j.now, Join: s.Join})
		}
	} else if held {
		// the holder joined again: its latest signed join is the seat's
		old.Holders[len(old.Holders)-1].Join = s.Join
	}
	old.PendingJoin = s.PendingJoin
	old.Pending, old.Excused, old.AbsentFrom, old.AbsentUntil, old.AbsenceDays = s.Pending, s.Excused, s.AbsentFrom, s.AbsentUntil, s.AbsenceDays
	return j.tx.PutSeat(old)
}

func (j judgeTx) Key(fp string) (adjudicator.Key, error) {
	k, err := j.tx.Key(fp)
	return adjudicator.Key{Fingerprint: k.Fingerprint, Kind: k.Kind, Address: k.Address}, notFound(err)
}

func (j judgeTx) PutKey(k adjudicator.Key, public []byte) error {
	old, err := j.tx.Key(k.Fingerprint)
	if errors.Is(err, ErrNotFound) {
		old = Key{Fingerprint: k.Fingerprint, Kind: k.Kind, Public: public, Added: j.now}
	} else if err != nil {
		return err
	}
	if public != nil {
		old.Public = public
	}
	old.Address = k.Address
	return j.tx.PutKey(old)
}

func stepOf(s Step) adjudicator.StepRecord {
	var rep map[string]adjudicator.OrderRef
	for seat, r := range s.Repeated {
		if rep == nil {
			rep = map[string]adjudicator.OrderRef{}
		}
		rep[seat] = adjudicator.OrderRef{Step: r[0], Version: r[1]}
	}
	return adjudicator.StepRecord{Repeated: rep, Game: s.Game, Number: s.Number, Phase: s.Phase, Status: s.Status, Opened: s.Opened,
		Deadline: s.Deadline, Closed: s.Closed, Owing: s.Owing, NoOrders: s.NoOrders, Ready: s.Ready, Used: s.Used,
		Orders: s.Orders, Extended: s.Extended, Reminded: s.Reminded, Paused: s.Paused, RestoredFrom: s.RestoredFrom, State: s.State, Dice: s.Dice}
}

func (j judgeTx) Step(game string, n uint64) (adjudicator.StepRecord, error) {
	s, err := j.tx.Step(game, n)
	return stepOf(s), notFound(err)
}

func (j judgeTx) PutStep(s adjudicator.StepRecord) error {
	var rep map[string][2]uint64
	for seat, r := range s.Repeated {
		if rep == nil {
			rep = map[string][2]uint64{}
		}
		rep[seat] = [2]uint64{r.Step, r.Version}
	}
	return j.tx.PutStep(Step{Repeated: rep, Game: s.Game, Number: s.Number, Phase: s.Phase, Status: s.Status, Opened: s.Opened,
		Deadline: s.Deadline, Closed: s.Closed, Owing: s.Owing, NoOrders: s.NoOrders, Ready: s.Ready, Used: s.Used,
		Orders: s.Orders, Extended: s.Extended, Reminded: s.Reminded, Paused: s.Paused, RestoredFrom: s.RestoredFrom, State: s.State, Dice: s.Dice})
}

func orderOf(o OrderFile) adjudicator.OrderFile {
	return adjudicator.OrderFile{Game: o.Game, Step: o.Step, Seat: o.Seat, Version: o.Version, Digest: o.Digest,
		Key: o.Key, Signed: o.Signed, Text: o.Text, Received: o.Received, MessageID: o.MessageID}
}

func (j judgeTx) LatestOrders(game string, step uint64) ([]adjudicator.OrderFile, error) {
	os, err := j.tx.LatestOrders(game, step)
	out := make([]adjudicator.OrderFile, len(os))
	for i, o := range os {
		out[i] = orderOf(o)
	}
	return out, notFound(err)
}

func (j judgeTx) OrderVersion(game string, step uint64, seat string, v uint64) (adjudicator.OrderFile, error) {
	o, err := j.tx.OrderVersion(game, step, seat, v)
	return orderOf(o), notFound(err)
}

func (j judgeTx) AddEvents(game string, step uint64, events []adjudicator.Event) error {
	es := make([]Event, len(events))
	for i, e := range events {
		es[i] = Event{Game: game, Step: step, Rule: e.Rule, Text: e.Text, Visible: e.Visible}
	}
	_, err := j.tx.AddEvents(game, step, es)
	return err
}

func (j judgeTx) Events(game string, step uint64) ([]adjudicator.Event, error) {
	es, err := j.tx.Events(game, step)
	out := make([]adjudicator.Event, len(es))
	for i, e := range es {
		out[i] = adjudicator.Event{Rule: e.Rule, Text: e.Text, Visible: e.Visible}
	}
	return out, notFound(err)
}

func (j judgeTx) DiceSecrets(game string) (adjudicator.DiceSecrets, error) {
	s, err := j.tx.DiceSecrets(game)
	scheme := s.Scheme
	if scheme == 0 {
		scheme = 1
	}
	return adjudicator.DiceSecrets{Scheme: scheme, Streams: s.Streams, Beacon: s.Beacon, OpenRoot: s.OpenRoot, SealedRoot: s.SealedRoot, ChainLength: s.ChainLength,
		Open0: s.Open0, Sealed0: s.Sealed0, OpenCheckpoints: s.OpenCheckpoints, SealedCheckpoints: s.SealedCheckpoints}, notFound(err)
}

func (j judgeTx) PutDiceSecrets(game string, s adjudicator.DiceSecrets) error {
	scheme := s.Scheme
	if scheme == 0 {
		scheme = 1
	}
	return j.tx.PutDiceSecrets(game, DiceSecrets{Scheme: scheme, Streams: s.Streams, Beacon: s.Beacon, OpenRoot: s.OpenRoot, SealedRoot: s.SealedRoot, ChainLength: s.ChainLength,
		Open0: s.Open0, Sealed0: s.Sealed0, OpenCheckpoints: s.OpenCheckpoints, SealedCheckpoints: s.SealedCheckpoints})
}

func (j judgeTx) DiceHead(game string) (dice.Hash, uint64, error) { return j.tx.DiceHead(game) }

func (j judgeTx) AddDiceRecords(game string, records []legacy.EntryRecord) error {
	return j.tx.AddDiceRecords(game, records)
}

func (j judgeTx) PutStepLinks(game string, step uint64, phase string, orders []dice.Hash, digest dice.Hash, open, sealed *dice.Hash) error {
	if orders == nil {
		orders = []dice.Hash{}
	}
	return j.tx.PutStepLinks(game, StepLinks{Step: step, Phase: phase, Orders: orders, Digest: digest, Open: open, Sealed: sealed})
}

func (j judgeTx) Seat(game, name string) (adjudicator.Seat, error) {
	s, err := j.tx.Seat(game, name)
	return seatOf(s), notFound(err)
}

func (j judgeTx) Seats(game string) ([]adjudicator.Seat, error) {
	ss, err := j.tx.Seats(game)
	out := make([]adjudicator.Seat, len(ss))
	for i, s := range ss {
		out[i] = seatOf(s)
	}
	return out, notFound(err)
}

func (j judgeTx) AddOrderFile(o adjudicator.OrderFile) (uint64, error) {
	return j.tx.AddOrderFile(OrderFile{Game: o.Game, Step: o.Step, Seat: o.Seat, Digest: o.Digest, Key: o.Key,
		Signed: o.Signed, Text: o.Text, Received: o.Received, MessageID: o.MessageID, Status: "accepted"})
}

func (j judgeTx) OrderDigestVersion(game string, step uint64, seat string, d dice.Hash) (uint64, uint64, error) {
	v, latest, err := j.tx.OrderDigestVersion(game, step, seat, d)
	return v, latest, notFound(err)
}

func (j judgeTx) AddReceipt(r adjudicator.Receipt) error {
	rc := Receipt{MessageID: r.MessageID, Game: r.Game, Seat: r.Seat, Step: r.Step, Digest: r.Digest,
		Echo: r.Echo, Ready: r.Accepted, At: r.At}
	for _, p := range r.Problems {
		rc.Problems = append(rc.Problems, Problem{Line: p.Line, Text: p.Text, Hint: p.Hint})
	}
	_, err := j.tx.AddReceipt(rc)
	return err
}

// MailBody is what the store keeps as an outbox mail's Body for mail queued
// by the judge: the content, composed into MIME when it is sent.
type MailBody struct {
	Text string `json:"text"`
	// Report is rendered into text, HTML and the map picture when the mail
	// is sent; Text is the plain fallback.
	Report *adjudicator.Report `json:"report,omitempty"`
	// Files are attached to the mail.
	Files []adjudicator.File `json:"files,omitempty"`
}

func (j judgeTx) Enqueue(m adjudicator.Mail) error {
	body, err := json.Marshal(MailBody{Text: m.Text, Report: m.Report, Files: m.Files})
	if err != nil {
		return err
	}
	refs := make([]string, len(m.References))
	for i, r := range m.References {
		refs[i] = "<" + r + ">"
	}
	irt := ""
	if m.InReplyTo != "" {
		irt = "<" + m.InReplyTo + ">"
	}
	mm := Mail{Kind: m.Kind, Game: m.Game, To: []string{m.To}, From: j.from,
		Subject: m.Subject, InReplyTo: irt, References: refs, Body: body, Queued: j.now}
	if m.Held != "" {
		mm.State, mm.LastError = MailHeld, m.Held
	}
	_, err = j.tx.Enqueue(mm)
	return err
}

func (j judgeTx) Command(key string, d dice.Hash) (adjudicator.CommandRecord, bool, error) {
	c, ok, err := j.tx.Command(key, d)
	return adjudicator.CommandRecord{Digest: c.Digest, Game: c.Game, Command: c.Command, Key: c.Key, At: c.At}, ok, err
}

func (j judgeTx) PutCommand(c adjudicator.CommandRecord) error {
	return j.tx.PutCommand(Command{Digest: c.Digest, Game: c.Game, Command: c.Command, Key: c.Key, At: c.At})
}

func (j judgeTx) RecordBounce(b adjudicator.Bounce) error {
	_, err := j.tx.AddBounce(Bounce{OriginalMessageID: b.OriginalMessageID, Recipient: b.Recipient,
		Action: b.Action, Status: b.Status, Diagnostic: b.Diagnostic, At: b.At})
	return err
}

func (j judgeTx) ExportLog(game string) (*legacy.Export, error) {
	x, err := j.tx.ExportLog(game)
	return x, notFound(err)
}

func (j judgeTx) DiceLedger(game string) (dice.Ledger, error) {
	l, err := j.tx.DiceLedger(game)
	return l, notFound(err)
}

func (j judgeTx) DiceRecord(game string, n uint64) (dice.Record, error) {
	r, err := j.tx.DiceRecord(game, n)
	return r, notFound(err)
}

func (j judgeTx) AddDiceLog(game string, records []dice.Record) error {
	return j.tx.AddDiceLog(game, records)
}

func (j judgeTx) StepDice(game string, k uint64) (*dice.Record, []dice.Record, error) {
	return j.tx.StepDice(game, k)
}

func (j judgeTx) StreamSteps(game, name string) ([]uint64, error) {
	return j.tx.StreamSteps(game, name)
}

func (j judgeTx) DiceReveals(game string) ([]dice.KeyReveal, error) { return j.tx.DiceReveals(game) }

func (j judgeTx) DiceRollbacks(game string) ([]dice.Rollback, error) {
	return j.tx.DiceRollbacks(game)
}

func (j judgeTx) WriteDiceLog(game string, w io.Writer) (dice.Hash, error) {
	h, err := j.tx.WriteDiceLog(game, w)
	return h, notFound(err)
}

func (j judgeTx) Observers(game string) ([]adjudicator.Observer, error) {
	os, err := j.tx.Observers(game)
	out := make([]adjudicator.Observer, len(os))
	for i, o := range os {
		out[i] = adjudicator.Observer{Game: o.Game, Key: o.Key, Since: o.Since}
	}
	return out, notFound(err)
}

func (j judgeTx) PutObserver(o adjudicator.Observer) error {
	return j.tx.PutObserver(Observer{Game: o.Game, Key: o.Key, Since: o.Since})
}

func (j judgeTx) DeleteObserver(game, key string) (bool, error) {
	ok, err := j.tx.DeleteObserver(game, key)
	return ok, notFound(err)
}

func (j judgeTx) AddPress(p adjudicator.Press) (uint64, error) {
	n, err := j.tx.AddPress(Press{Game: p.Game, At: p.At, Step: p.Step, From: p.From, Key: p.Key, Grey: p.Grey,
		To: p.To, Broadcast: p.Broadcast, Readers: p.Readers, Text: p.Text, Digest: p.Digest})
	return n, notFound(err)
}

func (j judgeTx) Archived(id string) (adjudicator.ArchivedGame, bool, error) {
	a, ok, err := j.tx.Archived(id)
	return adjudicator.ArchivedGame{ID: a.ID, Kind: a.Kind, Title: a.Title, Archived: a.Archived, Steps: a.Steps,
		DiceHead: a.DiceHead, SHA256: a.SHA256, File: a.File}, ok, err
}
