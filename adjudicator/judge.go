package adjudicator

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// DefaultChainLength is the number of links L a new game's dice chains
// hold: one per adjudicated step, so a game may run up to L steps.
const DefaultChainLength = 65536

// Judge runs hosted games: creation, seats, the step machine (orders,
// readiness, deadlines, grace, reminders) and adjudication. Every method
// works inside the caller's store transaction and takes the time from its
// caller, so one decision is one transaction and tests run in milliseconds.
type Judge struct {
	Games  Registry
	Logger *slog.Logger
	// NewRoot draws a dice chain root; 32 bytes of crypto/rand when nil.
	NewRoot func() (dice.Hash, error)
	// ChainLength is the dice chains' length; DefaultChainLength when 0.
	ChainLength uint64
	// MinInterval is the least time a game's schedule may leave between
	// two deadlines; DefaultMinInterval when 0.
	MinInterval time.Duration
	// StepsPerHour is the safety brake: a game whose clock would
	// adjudicate more steps than this in an hour is paused, and its game
	// master and the operator are told. When 0 it is 12, or two steps per
	// MinInterval in an hour if that is more.
	StepsPerHour int
	// Operator is the address the judge tells when it pauses a game on its
	// own (the safety brake, a schedule with no deadline); "" for the log
	// only.
	Operator string
	// MessageBudget bounds the rules' work on what one message brought
	// (its orders, its game file); StepBudget the adjudication of one
	// step (budget.go). Their zero values are the defaults.
	MessageBudget, StepBudget Budget
	// Adjudicated, if set, is told of each step the rules adjudicated and
	// how long they took (the daemon's metrics). It is called inside the
	// step's transaction, which may still fail and be tried again.
	Adjudicated func(game string, step uint64, took time.Duration)

	// files keeps game files and cron specs parsed (gamefile.go).
	files fileCache
	// scheme, when set, is the older dice scheme new games are created
	// under, as umpire did before umpire-dice-v3: only tests of games
	// created then set it (export_test.go).
	scheme legacy.Scheme
}

// adjudicated tells Adjudicated of a step.
func (j *Judge) adjudicated(game string, step uint64, start time.Time) {
	if j.Adjudicated != nil {
		j.Adjudicated(game, step, time.Since(start))
	}
}

func (j *Judge) minInterval() time.Duration {
	if j.MinInterval > 0 {
		return j.MinInterval
	}
	return DefaultMinInterval
}

func (j *Judge) stepsPerHour() int {
	if j.StepsPerHour > 0 {
		return j.StepsPerHour
	}
	return max(12, int(2*time.Hour/j.minInterval()))
}

func (j *Judge) log() *slog.Logger {
	if j.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return j.Logger
}

// Create makes a game from its file: seats vacant, dice committed. The
// schedule must keep the judge's minimum interval between deadlines, and
// the options (maps, counters, tables given as text) must give the rules a
// first state: what would stop the game at start is refused now.
func (j *Judge) Create(tx Tx, f *GameFile, file []byte, now time.Time) error {
	if _, err := tx.Game(f.ID); err == nil {
		return fmt.Errorf("a game %q exists already", f.ID)
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if a, ok, err := tx.Archived(f.ID); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("a game %q was archived on %s, and its record keeps the id: give the new game another id in its file (such as %s-2)",
			f.ID, a.Archived.UTC().Format("2 Jan 2006"), f.ID)
	}
	if f.Game != DiceService {
		if err := f.Schedule.Check(now, j.minInterval()); err != nil {
			return fmt.Errorf("schedule: %w", err)
		}
		rules, err := j.Games.Get(f.Game)
		if err != nil {
			return err
		}
		if _, err := j.newState(rules, f.ID, f.Scenario, f.Options); err != nil {
			return fmt.Errorf("the game cannot start as the file describes it: %w", err)
		}
	}
	newRoot := j.NewRoot
	if newRoot == nil {
		newRoot = randomRoot
	}
	length := j.ChainLength
	if length == 0 {
		length = DefaultChainLength
	}
	open, err := newRoot()
	if err != nil {
		return err
	}
	sealed, err := newRoot()
	if err != nil {
		return err
	}
	g := Game{ID: f.ID, Kind: f.Game, Title: f.Title, Status: Forming, GMKey: f.GM, Scenario: f.Scenario, File: file, Created: now,
		NoObservers: !on(f.Observers)}
	if j.scheme == legacy.Hashed {
		oc := legacy.Chain(open, length, nil).WithCheckpoints()
		sc := legacy.Chain(sealed, length, nil).WithCheckpoints()
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := tx.PutDiceSecrets(g.ID, DiceSecrets{Scheme: 1, OpenRoot: open, SealedRoot: sealed, ChainLength: length,
			Open0: oc.Commitment(), Sealed0: sc.Commitment(), OpenCheckpoints: oc.Checkpoints, SealedCheckpoints: sc.Checkpoints}); err != nil {
			return err
		}
	} else if err := j.createLog(tx, g, f, open, sealed, length, j.newScheme(f)); err != nil {
		return err
	}
	for _, s := range f.Seats {
		if err := tx.PutSeat(Seat{Game: g.ID, Name: s}); err != nil {
			return err
		}
	}
	j.log().Info("game created", "game", g.ID, "kind", g.Kind, "seats", f.Seats)
	return nil
}

// settings returns a game's file, parsed.
func (j *Judge) settings(g Game) (*GameFile, Rules, error) {
	f, err := j.files.get(g.File, j.Games)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	rules, err := j.Games.Get(g.Kind)
	return f, rules, err
}

// Join gives a vacant seat to a key, or replaces its holder (GM).
func (j *Judge) Join(tx Tx, game, seat, key string) error {
	return j.JoinSigned(tx, game, seat, key, dice.Hash{})
}

// JoinSigned is Join by a signed join command whose signed bytes have
// SHA-256 join: in an umpire-dice-v3 game it is the seat's contribution to
// the start record (the latest join of its holder before the start).
func (j *Judge) JoinSigned(tx Tx, game, seat, key string, join dice.Hash) error {
	s, err := tx.Seat(game, seat)
	if err != nil {
		text, hint := noSeat(tx, game, seat)
		return fmt.Errorf("%s; %s", text, hint)
	}
	if s.Holder != "" && s.Holder != key {
		return fmt.Errorf("seat %s of %s is taken", seat, game)
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return err
	}
	for _, o := range seats {
		if o.Holder == key && o.Name != seat {
			return fmt.Errorf("this key holds seat %s of %s already", o.Name, game)
		}
	}
	s.Holder, s.Join = key, join
	return tx.PutSeat(s)
}

// Start opens the first step. Every seat must be held. In an
// umpire-dice-v3 game it first writes the start record (every seat's
// join and salt commitment) and queues the start announcement to every
// holder and the game master, so that no order is taken and no step opens
// before each holder has been sent h_2 and its order salt.
func (j *Judge) Start(tx Tx, game string, now time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	if g.Status != Forming {
		return fmt.Errorf("game %s is %s, not forming", game, g.Status)
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return err
	}
	var vacant []string
	for _, s := range seats {
		if s.Holder == "" {
			vacant = append(vacant, s.Name)
		}
	}
	if len(vacant) > 0 {
		return fmt.Errorf("seats %s of %s are vacant", strings.Join(vacant, ", "), game)
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return err
	}
	state, err := j.newState(rules, game, g.Scenario, f.Options)
	if err != nil {
		return fmt.Errorf("game %s: %w", game, err)
	}
	g.Status = Running
	if err := tx.PutGame(g); err != nil {
		return err
	}
	announce, err := j.startRecord(tx, g, seats)
	if err != nil {
		return err
	}
	if err := j.open(tx, g, f, rules, 1, state, now); err != nil {
		return err
	}
	return announce()
}

// startedText says that the game master started game, and what is due.
func startedText(tx Tx, game string) string {
	st, _ := tx.Step(game, 1)
	return fmt.Sprintf("The game master started %s. Step 1 (%s) is open: orders are due from %s by %s.\n", game, st.Phase, strings.Join(st.Owing, ", "), stamp(st.Deadline))
}

// open opens step n of g in state, or ends the game.
func (j *Judge) open(tx Tx, g Game, f *GameFile, rules Rules, n uint64, state []byte, now time.Time) error {
	spec, err := rules.Step(state)
	if err != nil {
		return fmt.Errorf("game %s: %w", g.ID, err)
	}
	if spec.Over {
		g.Status, g.Step = Ended, n
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := j.end(tx, g.ID, n-1); err != nil {
			return err
		}
		return tx.PutStep(StepRecord{Game: g.ID, Number: n, Status: "over", Opened: now, State: state})
	}
	g.Step = n
	return j.openStep(tx, g, f, StepRecord{Game: g.ID, Number: n, Phase: spec.Phase, Status: "open", Opened: now,
		Owing: spec.Owing, NoOrders: spec.NoOrders, State: state}, now)
}

// openStep stores st, open, with the deadline the schedule gives. A
// schedule that gives none (a game created before the judge checked
// schedules) opens the step with the game paused, and the game master and
// the operator are told.
func (j *Judge) openStep(tx Tx, g Game, f *GameFile, st StepRecord, now time.Time) error {
	deadline, err := j.deadline(f, now)
	if err == nil {
		deadline, err = j.afterAbsences(tx, g.ID, st.Owing, deadline)
	}
	if errors.Is(err, errNoDeadline) {
		st.Paused, g.Status = j.minInterval(), Paused
		if err := tx.PutGame(g); err != nil {
			return err
		}
		if err := tx.PutStep(st); err != nil {
			return err
		}
		return j.alarm(tx, g, "paused: no deadline", fmt.Sprintf("The judge paused %s at step %d: %v.\n\n"+
			"Nothing runs until the game master resumes it; each 'resume %s' then gives the step %v.\n",
			g.ID, st.Number, err, g.ID, st.Paused))
	}
	if err != nil {
		return err
	}
	st.Deadline = deadline
	if err := tx.PutGame(g); err != nil {
		return err
	}
	return tx.PutStep(st)
}

// deadline returns the deadline of a step opened at opened: the schedule's
// next time, and for a schedule of every never sooner than MinInterval
// after. A time that is not after opened, or further than MaxHorizon, is
// errNoDeadline.
func (j *Judge) deadline(f *GameFile, opened time.Time) (time.Time, error) {
	d, err := f.Schedule.next(opened)
	if err != nil {
		return d, err
	}
	if f.Schedule.Cron == "" {
		d = maxTime(d, opened.Add(j.minInterval()))
	}
	if !d.After(opened) || d.Sub(opened) > MaxHorizon {
		return time.Time{}, fmt.Errorf("%w in the coming year (cron %q)", errNoDeadline, f.Schedule.Cron)
	}
	return d, nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// alarm tells the game master of g and the operator that the judge
// stopped g on its own, and logs it.
func (j *Judge) alarm(tx Tx, g Game, subject, text string) error {
	j.log().Error("game "+subject, "game", g.ID, "step", g.Step)
	if err := j.mailKey(tx, g, g.GMKey, MailAnnouncement, g.ID+": "+subject, text); err != nil {
		return err
	}
	if j.Operator == "" {
		return nil
	}
	return tx.Enqueue(Mail{Kind: MailAnnouncement, Game: g.ID, To: j.Operator, Subject: "umpire: " + g.ID + ": " + subject,
		Text: text + "\n(You get this as the operator of the judge.)\n"})
}

// brakeWindow is the time the safety brake counts steps in.
const brakeWindow = time.Hour

// clockSteps counts the steps of g its clock adjudicated (at their
// deadline, not early nor by the game master) in the hour before now,
// since it was last resumed.
func (j *Judge) clockSteps(tx Tx, g Game, now time.Time) (int, error) {
	since := maxTime(now.Add(-brakeWindow), g.Resumed)
	n := 0
	for k, looked := g.Step, 0; k > 1 && looked < 4*j.stepsPerHour()+8; looked++ {
		k--
		st, err := tx.Step(g.ID, k)
		if errors.Is(err, ErrNotFound) {
			continue
		} else if err != nil {
			return 0, err
		}
		if st.Closed.Before(since) {
			break
		}
		byClock := !st.Closed.Before(st.Deadline) // v1 steps: closed at or after their deadline
		if st.Dice != nil {
			byClock = st.Dice.ClosedBy == dice.ClosedByDeadline
		}
		if (st.Status == StepClosed || st.Status == StepWaiting) && byClock {
			n++
		}
	}
	return n, nil
}

// afterAbsences pushes a deadline past the absence of a seat that owes
// orders, when the absence covers it.
func (j *Judge) afterAbsences(tx Tx, game string, owing []string, deadline time.Time) (time.Time, error) {
	for _, name := range owing {
		s, err := tx.Seat(game, name)
		if err != nil {
			return deadline, err
		}
		if !s.AbsentUntil.IsZero() && !deadline.Before(s.AbsentFrom) && deadline.Before(s.AbsentUntil) {
			deadline = s.AbsentUntil
		}
	}
	return deadline, nil
}

// end publishes the hidden dice of an ended game: the end record with the
// sealed root (v2), or the sealed links of steps 1..last (v1).
func (j *Judge) end(tx Tx, game string, last uint64) error {
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return err
	}
	if sec.V2() {
		ledger, err := tx.DiceLedger(game)
		if err != nil {
			return err
		}
		root := sec.SealedRoot
		rec := dice.Record{Type: dice.TypeEnd, End: &root}
		if err := ledger.Append(&rec); err != nil {
			return err
		}
		return tx.AddDiceLog(game, []dice.Record{rec})
	}
	openChain, chain := sec.chains()
	for k := uint64(1); k <= last; k++ {
		st, err := tx.Step(game, k)
		if err != nil {
			return err
		}
		link, err := chain.Link(k)
		if err != nil {
			return err
		}
		open, err := openChain.Link(k)
		if err != nil {
			return err
		}
		if err := tx.PutStepLinks(game, k, st.Phase, st.Orders, legacy.StepDigest(game, k, st.Phase, st.Orders), &open, &link); err != nil {
			return err
		}
	}
	return nil
}

// Ready records a seat's readiness for the open step.
func (j *Judge) Ready(tx Tx, game, seat string, ready bool) (StepRecord, error) {
	g, err := tx.Game(game)
	if err != nil {
		return StepRecord{}, err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return st, err
	}
	st.Ready = slices.DeleteFunc(st.Ready, func(s string) bool { return s == seat })
	if ready {
		st.Ready = append(st.Ready, seat)
		sort.Strings(st.Ready)
	}
	return st, tx.PutStep(st)
}

// allReady reports whether every seat owing orders is ready.
func allReady(st StepRecord) bool {
	for _, s := range st.Owing {
		if !slices.Contains(st.Ready, s) {
			return false
		}
	}
	return len(st.Owing) > 0
}

// Tick does what is due in game at now: reminders, the grace period, and
// adjudication at the deadline. It reports whether it changed anything.
func (j *Judge) Tick(ctx context.Context, tx Tx, game string, now time.Time) (bool, error) {
	g, err := tx.Game(game)
	if err != nil || g.Status != Running {
		return false, err
	}
	st, err := tx.Step(game, g.Step)
	if errors.Is(err, ErrNotFound) {
		return false, nil // a game the judge runs no step machine for
	}
	if err != nil || st.Status != "open" {
		return false, err
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return false, err
	}
	missing, err := j.missing(tx, st)
	if err != nil {
		return false, err
	}
	if now.Before(st.Deadline) {
		return j.remind(tx, g, f, &st, missing, now)
	}
	// The safety brake: a game whose clock runs steps faster than any
	// schedule the judge accepts is paused before it does more.
	if !st.Deadline.After(st.Opened) {
		return true, j.brake(tx, g, fmt.Sprintf("the deadline of step %d (%s) is not after the time it opened (%s): its schedule names no deadline",
			st.Number, stamp(st.Deadline), stamp(st.Opened)), now)
	}
	if n, err := j.clockSteps(tx, g, now); err != nil {
		return false, err
	} else if n >= j.stepsPerHour() {
		return true, j.brake(tx, g, fmt.Sprintf("its clock adjudicated %d steps in the last hour, and the judge allows %d (limits.steps_per_hour)",
			n, j.stepsPerHour()), now)
	}
	if len(missing) > 0 && !st.Extended && f.Schedule.Grace.Duration > 0 {
		excused := false
		for _, name := range missing {
			s, err := tx.Seat(game, name)
			if err != nil {
				return false, err
			}
			if s.Excused < f.Schedule.Excused {
				s.Excused++
				if err := tx.PutSeat(s); err != nil {
					return false, err
				}
				excused = true
			}
		}
		if excused {
			st.Extended = true
			st.Deadline = st.Deadline.Add(f.Schedule.Grace.Duration)
			if err := tx.PutStep(st); err != nil {
				return false, err
			}
			return true, j.tellLate(tx, g, st, missing, "The deadline is extended by the grace period to "+stamp(st.Deadline)+".")
		}
	}
	if len(missing) > 0 {
		if err := j.tellLate(tx, g, st, missing, "Their default orders apply."); err != nil {
			return false, err
		}
	}
	if err := j.Adjudicate(ctx, tx, g, f, rules, st, dice.ClosedByDeadline, now); !isStuck(err) {
		return true, err
	}
	return true, nil // paused, its game master and the operator told
}

// missing lists the seats owing orders that have sent none for the step.
func (j *Judge) missing(tx Tx, st StepRecord) ([]string, error) {
	files, err := tx.LatestOrders(st.Game, st.Number)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range st.Owing {
		if !slices.ContainsFunc(files, func(o OrderFile) bool { return o.Seat == s }) {
			out = append(out, s)
		}
	}
	return out, nil
}

// remind sends the reminders that are due.
func (j *Judge) remind(tx Tx, g Game, f *GameFile, st *StepRecord, missing []string, now time.Time) (bool, error) {
	offs := make([]time.Duration, 0, len(f.Schedule.Reminders))
	for _, r := range f.Schedule.Reminders {
		offs = append(offs, r.Duration)
	}
	sort.Slice(offs, func(a, b int) bool { return offs[a] > offs[b] })
	due := 0
	for i, off := range offs {
		if !now.Before(st.Deadline.Add(-off)) {
			due = i + 1
		}
	}
	if due <= st.Reminded {
		return false, nil
	}
	st.Reminded = due
	if err := tx.PutStep(*st); err != nil {
		return false, err
	}
	for _, name := range missing {
		s, err := tx.Seat(g.ID, name)
		if err != nil {
			return false, err
		}
		if err := j.mailKey(tx, g, s.Holder, MailReminder, fmt.Sprintf("reminder: %s step %d, orders due %s", g.ID, st.Number, stamp(st.Deadline)),
			fmt.Sprintf("Seat %s of %s has sent no orders for step %d (%s).\nThe deadline is %s. Without orders: %s.\n",
				name, g.ID, st.Number, st.Phase, stamp(st.Deadline), orDefault(st.NoOrders[name]))); err != nil {
			return false, err
		}
	}
	if len(missing) > 0 {
		return true, j.mailKey(tx, g, g.GMKey, MailReminder, fmt.Sprintf("%s step %d: %d seats without orders", g.ID, st.Number, len(missing)),
			fmt.Sprintf("Seats without orders for step %d of %s, due %s: %s.\n", st.Number, g.ID, stamp(st.Deadline), strings.Join(missing, ", ")))
	}
	return true, nil
}

func orDefault(s string) string {
	if s == "" {
		return "the game's default"
	}
	return s
}

func stamp(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }

// tellLate tells the GM which seats missed the deadline.
func (j *Judge) tellLate(tx Tx, g Game, st StepRecord, missing []string, what string) error {
	return j.mailKey(tx, g, g.GMKey, MailAnnouncement, fmt.Sprintf("%s step %d: late seats", g.ID, st.Number),
		fmt.Sprintf("At the deadline of step %d of %s these seats had sent no orders: %s.\n%s\n", st.Number, g.ID, strings.Join(missing, ", "), what))
}

// mailKey queues a mail to the holder of key, at the address it last
// wrote from; a key without an address gets nothing. A mail about an
// umpire-dice-v3 game quotes its dice commitments and log head.
func (j *Judge) mailKey(tx Tx, g Game, key string, kind MailKind, subject, text string) error {
	to, text, err := keyMail(tx, g, key, text)
	if to == "" || err != nil {
		return err
	}
	return tx.Enqueue(Mail{Kind: kind, Game: g.ID, To: to, Subject: "umpire: " + subject, Text: text})
}

// keyMail is where a mail about g to the holder of key goes ("": nowhere,
// the key has no address) and its text with the dice briefing of an
// umpire-dice-v3 game after it.
func keyMail(tx Tx, g Game, key, text string) (to, withBrief string, err error) {
	if key == "" {
		return "", "", nil
	}
	k, err := tx.Key(key)
	if err != nil || k.Address == "" {
		return "", "", nil
	}
	brief, err := diceBriefing(tx, g.ID)
	if err != nil || brief == "" {
		return k.Address, text, err
	}
	return k.Address, text + "\n" + brief, nil
}

// brake pauses g, whose clock is running away, and tells its game master
// and the operator why.
func (j *Judge) brake(tx Tx, g Game, why string, now time.Time) error {
	if err := j.Pause(tx, g.ID, now); err != nil {
		return err
	}
	return j.alarm(tx, g, "paused by the safety brake", fmt.Sprintf(
		"The judge paused %s at step %d: %s.\n\n"+
			"Nothing runs until the game master sends 'resume %s' (signed), or the operator runs\n"+
			"'umpire game resume %s'. Check the game's schedule first.\n", g.ID, g.Step, why, g.ID, g.ID))
}

// Process adjudicates the open step of game now (early processing, or the
// GM's "process").
func (j *Judge) Process(ctx context.Context, tx Tx, game string, now time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	if g.Status != Running {
		return fmt.Errorf("game %s is %s", game, g.Status)
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return err
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return err
	}
	return j.Adjudicate(ctx, tx, g, f, rules, st, dice.ClosedByGM, now)
}

// Due returns when Tick next has work in game: the next reminder or the
// deadline of its open step. ok is false when nothing is scheduled (the game
// is not running, or it waits for nothing).
func (j *Judge) Due(tx Tx, game string) (due time.Time, ok bool, err error) {
	g, err := tx.Game(game)
	if err != nil || g.Status != Running {
		return due, false, err
	}
	st, err := tx.Step(game, g.Step)
	if errors.Is(err, ErrNotFound) {
		return due, false, nil // a game the judge runs no step machine for
	}
	if err == nil && st.Status == StepWaiting && st.Dice != nil {
		sec, err := tx.DiceSecrets(game)
		if err != nil || sec.Beacon == nil {
			return due, false, err
		}
		return beaconDue(sec.Beacon, st.Dice), true, nil
	}
	if err != nil || st.Status != "open" {
		return due, false, err
	}
	due = st.Deadline
	f, err := j.files.get(g.File, j.Games)
	if err != nil {
		return due, true, nil
	}
	offs := make([]time.Duration, 0, len(f.Schedule.Reminders))
	for _, r := range f.Schedule.Reminders {
		offs = append(offs, r.Duration)
	}
	sort.Slice(offs, func(a, b int) bool { return offs[a] > offs[b] })
	if st.Reminded < len(offs) {
		if r := st.Deadline.Add(-offs[st.Reminded]); r.Before(due) {
			due = r
		}
	}
	return due, true, nil
}

// Pause stops a game's clock: the time left on the open step is kept.
func (j *Judge) Pause(tx Tx, game string, now time.Time) error {
	g, st, err := j.running(tx, game)
	if err != nil {
		return err
	}
	st.Paused = max(st.Deadline.Sub(now), 0)
	g.Status = Paused
	if err := tx.PutStep(st); err != nil {
		return err
	}
	return tx.PutGame(g)
}

// Resume restarts a paused game's clock with the time it had left.
func (j *Judge) Resume(tx Tx, game string, now time.Time) (time.Time, error) {
	g, err := tx.Game(game)
	if err != nil {
		return time.Time{}, err
	}
	if g.Status != Paused {
		return time.Time{}, fmt.Errorf("game %s is %s, not paused", game, g.Status)
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return time.Time{}, err
	}
	st.Deadline, st.Paused = now.Add(st.Paused), 0
	g.Status, g.Resumed = Running, now
	if err := tx.PutStep(st); err != nil {
		return time.Time{}, err
	}
	return st.Deadline, tx.PutGame(g)
}

// Extend moves the open step's deadline by d.
func (j *Judge) Extend(tx Tx, game string, d time.Duration) (time.Time, error) {
	_, st, err := j.running(tx, game)
	if err != nil {
		return time.Time{}, err
	}
	st.Deadline = st.Deadline.Add(d)
	return st.Deadline, tx.PutStep(st)
}

// Vacate frees a seat for a new holder (GM replace or eject, or the
// holder's resignation); the seat's history keeps the old holder.
func (j *Judge) Vacate(tx Tx, game, seat string) error {
	s, err := tx.Seat(game, seat)
	if err != nil {
		return fmt.Errorf("game %s has no seat %q", game, seat)
	}
	s.Holder = ""
	return tx.PutSeat(s)
}

// Absence records a seat holder's absence; its days count against the
// game's cap, and the next deadline falling in it is pushed to its end.
func (j *Judge) Absence(tx Tx, game, seat string, from, until time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	f, _, err := j.settings(g)
	if err != nil {
		return err
	}
	if !until.After(from) {
		return fmt.Errorf("the absence ends before it begins")
	}
	days := int(until.Sub(from).Hours()/24 + 0.999)
	s, err := tx.Seat(game, seat)
	if err != nil {
		return err
	}
	if s.AbsenceDays+days > f.Schedule.AbsenceDays {
		return fmt.Errorf("%d days of absence would make %d, and game %s allows %d per seat", days, s.AbsenceDays+days, game, f.Schedule.AbsenceDays)
	}
	s.AbsentFrom, s.AbsentUntil, s.AbsenceDays = from, until, s.AbsenceDays+days
	if err := tx.PutSeat(s); err != nil {
		return err
	}
	if g.Status != Running {
		return nil
	}
	st, err := tx.Step(game, g.Step)
	if err != nil || st.Status != "open" || !slices.Contains(st.Owing, seat) {
		return err
	}
	if !st.Deadline.Before(from) && st.Deadline.Before(until) {
		st.Deadline = until
		return tx.PutStep(st)
	}
	return nil
}

func (j *Judge) running(tx Tx, game string) (Game, StepRecord, error) {
	g, err := tx.Game(game)
	if err != nil {
		return g, StepRecord{}, err
	}
	if g.Status != Running {
		return g, StepRecord{}, fmt.Errorf("game %s is %s", game, g.Status)
	}
	st, err := tx.Step(game, g.Step)
	return g, st, err
}

// Announce mails every seat holder and the game master of game.
func (j *Judge) Announce(tx Tx, game, subject, text string) error {
	return j.AnnounceExcept(tx, game, "", subject, text)
}

// AnnounceExcept is Announce to everyone but the holder of key except (who
// had the news in an answer of its own).
func (j *Judge) AnnounceExcept(tx Tx, game, except, subject, text string) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return err
	}
	keys := []string{g.GMKey}
	for _, s := range seats {
		if s.Holder != "" && !slices.Contains(keys, s.Holder) {
			keys = append(keys, s.Holder)
		}
	}
	for _, k := range keys {
		if k == except {
			continue
		}
		if err := j.mailKey(tx, g, k, MailAnnouncement, game+": "+subject, text); err != nil {
			return err
		}
	}
	return nil
}

// Rollback restores the state in which step k opened. The open step is
// closed unadjudicated ("rolled-back") and a new step opens with step k's
// state: steps are numbered on, and each adjudication draws from its own
// dice link, so no die already revealed is ever used again and the dice
// log stays in order. The new step's RestoredFrom names k. A v2 game's log
// gets a rollback record with command, the SHA-256 of the game master's
// signed command (zero when the operator rolls back at the console), and
// reason, so that every later report shows it.
func (j *Judge) Rollback(tx Tx, game string, k uint64, now time.Time, command dice.Hash, reason string) (uint64, error) {
	g, err := tx.Game(game)
	if err != nil {
		return 0, err
	}
	if g.Status == Forming {
		return 0, fmt.Errorf("game %s has not started", game)
	}
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return 0, err
	}
	if sec.V2() && g.Status == Ended {
		return 0, fmt.Errorf("game %s has ended and its sealed dice are public: it cannot be rolled back", game)
	}
	if k < 1 || k > g.Step {
		return 0, fmt.Errorf("game %s has steps 1 to %d", game, g.Step)
	}
	target, err := tx.Step(game, k)
	if err != nil {
		return 0, err
	}
	if target.RestoredFrom != 0 || target.Status == "over" {
		// Go back to the step that holds the state at first hand.
		if target.Status == "over" {
			return 0, fmt.Errorf("step %d is the end of the game; roll back to a step that was played", k)
		}
		k = target.RestoredFrom
		if target, err = tx.Step(game, k); err != nil {
			return 0, err
		}
	}
	cur, err := tx.Step(game, g.Step)
	if err != nil {
		return 0, err
	}
	if cur.Status == StepOpen || cur.Status == StepWaiting {
		cur.Status, cur.Closed = StepRolledBack, now
		if err := tx.PutStep(cur); err != nil {
			return 0, err
		}
	}
	if sec.V2() {
		if strings.TrimSpace(reason) == "" {
			reason = "no reason given"
		}
		if err := rollbackRecord(tx, game, cur.Number, k, command, reason); err != nil {
			return 0, err
		}
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return 0, err
	}
	spec, err := rules.Step(target.State)
	if err != nil {
		return 0, err
	}
	n := g.Step + 1
	g.Step, g.Status = n, Running
	return n, j.openStep(tx, g, f, StepRecord{Game: game, Number: n, Phase: spec.Phase, Status: "open", Opened: now,
		Owing: spec.Owing, NoOrders: spec.NoOrders, RestoredFrom: k, State: target.State}, now)
}

// Request records a key's wish to join a game whose joins the game master
// approves.
func (j *Judge) Request(tx Tx, game, seat, key string) error {
	return j.RequestSigned(tx, game, seat, key, dice.Hash{})
}

// RequestSigned is Request by a signed join whose signed bytes have
// SHA-256 join, which becomes the seat's when the game master approves.
func (j *Judge) RequestSigned(tx Tx, game, seat, key string, join dice.Hash) error {
	s, err := tx.Seat(game, seat)
	if err != nil {
		return fmt.Errorf("game %s has no seat %q", game, seat)
	}
	if s.Holder != "" {
		return fmt.Errorf("seat %s of %s is taken", seat, game)
	}
	if s.Pending != "" && s.Pending != key {
		return fmt.Errorf("another player has asked for seat %s of %s; the game master decides first", seat, game)
	}
	s.Pending, s.PendingJoin = key, join
	return tx.PutSeat(s)
}

// Decide approves or refuses the pending request for a seat and returns the
// key that asked.
func (j *Judge) Decide(tx Tx, game, seat string, approve bool) (string, error) {
	s, err := tx.Seat(game, seat)
	if err != nil {
		return "", fmt.Errorf("game %s has no seat %q", game, seat)
	}
	if s.Pending == "" {
		return "", fmt.Errorf("nobody is asking for seat %s of %s", seat, game)
	}
	asked, join := s.Pending, s.PendingJoin
	s.Pending, s.PendingJoin = "", dice.Hash{}
	if err := tx.PutSeat(s); err != nil {
		return "", err
	}
	if approve {
		return asked, j.JoinSigned(tx, game, seat, asked, join)
	}
	return asked, nil
}

// randomRoot draws a fresh 32-byte dice chain root from crypto/rand.
func randomRoot() (dice.Hash, error) {
	var h dice.Hash
	if _, err := rand.Read(h[:]); err != nil {
		return h, fmt.Errorf("new dice root: %w", err)
	}
	return h, nil
}
