package adjudicator

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// Report is what one seat (or the game master) is told after a step: the
// data the report templates render as text, HTML and a map picture. It holds
// only what its reader may see: BuildReport filters events, dice, hands and
// orders for the seat before anything is rendered.
type Report struct {
	Game  string // game id
	Kind  string // game kind (perrote, wbt...)
	Title string // the game's title
	// Seat is the reader; "" is the game master, who sees everything but
	// in a game with hidden hands before its end (GMView), and Spectator
	// anyone (what every seat may see).
	Seat string
	// GMView is which view a game master's report shows (gmview.go):
	// GMViewAll, GMViewPublic (a game with hidden hands before its end) or
	// GMViewHands (the same, with the game file's gm_sees_hands = true).
	GMView string `json:",omitempty"`
	// Snapshot is set for a picture of the game now (the "map" command)
	// rather than the report of a step: it has no events, dice or orders.
	Snapshot bool `json:",omitempty"`
	// Step is the step reported on, Phase its phase, Closed when it was
	// adjudicated.
	Step   uint64
	Phase  string
	Closed time.Time
	// Notices are one-line warnings every report carries, such as
	// "stand-in map and tables".
	Notices []string `json:",omitempty"`
	Events  []ReportEvent
	Dice    []ReportDie
	// OpenLink is the revealed open dice link of the step, Head the dice log
	// head after it, Commitments the chains' link[0]s (open, sealed).
	OpenLink, Head           string
	CommitOpen, CommitSealed string
	// H1 and H2 are an umpire-dice-v3 game's log heads after its header
	// and after its start record, which every seat was sent before its
	// first orders: "" in other games.
	H1, H2    string       `json:",omitempty"`
	Situation              // the state after the step, as the seat may see it
	Orders    []SeatOrders `json:",omitempty"` // orders adjudicated, as the seat may see them
	// OrdersPublished says that Orders are every seat's, in seat order, as
	// the game file's publish_orders shows them to everyone: the reader's
	// own as accepted, the others' in their public form (PublicOrders).
	OrdersPublished bool `json:",omitempty"`
	// OrdersNote says why a game with publish_orders shows no other seat's
	// orders (NotPublished); "" otherwise.
	OrdersNote string    `json:",omitempty"`
	Next       *NextStep `json:",omitempty"`
	Ended      bool      `json:",omitempty"`
	// Scheme is the game's dice scheme (umpire-dice-v1, -v2 or -v3).
	Scheme string `json:",omitempty"`
	// OrderList is a v2 or v3 step's order list, every seat's entry: the
	// order files its dice are bound to (in v3 each digest keyed by its
	// seat's salt, which tells nothing of the orders to anyone else).
	// Every seat sees all of it, so that each can check the entry under
	// its own seat.
	OrderList []ReportOrder `json:",omitempty"`
	// YourOrders says to a seat whether its orders are in the order list
	// and as which version and digest.
	YourOrders string `json:",omitempty"`
	// Beacon names the beacon round the step's dice were drawn with.
	Beacon string `json:",omitempty"`
	// Rollbacks are every rollback of the game so far, in order: nobody
	// has to notice a gap in step numbers.
	Rollbacks []ReportRollback `json:",omitempty"`
	// Keys are the reader's own hidden stream keys of this step (its
	// hand): sent to it alone, to check its own draws with umpire verify
	// --key.
	Keys []ReportKey `json:",omitempty"`
	// Lead is what a briefing mail says first (the answer to a join, the
	// start of the game); "" in step reports.
	Lead string `json:",omitempty"`
	// Brief is the reader's brief for the step now open, when it owes
	// orders for it: what the step asks and its pre-filled order file.
	Brief *SeatBrief `json:",omitempty"`
	// Standing are the reader's standing orders in force.
	Standing []string `json:",omitempty"`
}

// ReportOrder is one entry of a step's order list.
type ReportOrder struct {
	Seat    string
	ForStep uint64
	Version uint64
	Digest  string
	// DKIM is set when a mail address holds the seat and its provider's
	// DKIM signature, not a key, signed the order file (dkim.go).
	DKIM bool `json:",omitempty"`
}

// ReportRollback is one rollback: step Closed closed unplayed, play going
// back to the state in which step Target opened, on the command whose
// SHA-256 is Command, for Reason. Count is how many times Target has been
// rolled back to so far, this one included.
type ReportRollback struct {
	Closed, Target uint64
	Count          int
	Command        string
	Reason         string
}

// Text says the rollback in one sentence.
func (r ReportRollback) Text() string {
	by := "the game master's signed command " + r.Command
	if strings.Trim(r.Command, "0") == "" {
		by = "the operator at the console"
	}
	return fmt.Sprintf("Step %d was closed unplayed and play went back to the state in which step %d opened (rollback %d to step %d), by %s. Reason: %s",
		r.Closed, r.Target, r.Count, r.Target, by, r.Reason)
}

// ReportKey is a hidden stream's key for one step.
type ReportKey struct {
	Stream string
	Step   uint64
	Key    string
}

// ReportEvent is one thing that happened, with its rule.
type ReportEvent struct {
	Rule string `json:",omitempty"`
	Text string
}

// ReportDie is one draw of the step. Sealed draws show no values until
// their key is public (a reveal, or the game's end), except to the seat
// that holds their stream (Yours).
type ReportDie struct {
	Seq     uint64
	Spec    string
	Purpose string
	Values  []int  `json:",omitempty"`
	Sealed  bool   `json:",omitempty"`
	Stream  string `json:",omitempty"`
	Yours   bool   `json:",omitempty"`
	values  []int  // a sealed draw's values, for its holder only
}

// yourOrders says to seat whether its orders are in the step's order list.
func yourOrders(seat string, k uint64, ol []ReportOrder) string {
	for _, o := range ol {
		if o.Seat == seat {
			repeated := ""
			if o.ForStep != k {
				repeated = fmt.Sprintf(" (the orders you sent for step %d, used again)", o.ForStep)
			}
			return fmt.Sprintf("your orders: version %d, digest %s, included%s", o.Version, o.Digest, repeated)
		}
	}
	return "your orders: none included (the step used your seat's default); if you sent orders for this step, the judge has no record of them: complain to the game master with your receipt"
}

// NotPublished is the line every report of a game with publish_orders
// carries when its rules publish no orders (they implement no
// PublicOrders): nothing is published rather than a secret leaked.
const NotPublished = "this game's orders are not published: they hold hidden information"

// SeatOrders are the canonical orders a seat's step was adjudicated with.
type SeatOrders struct {
	Seat  string
	Lines []string
}

// NextStep is what is due next.
type NextStep struct {
	Step     uint64
	Phase    string
	Owing    []string
	Deadline time.Time
	// NoOrders says what no orders means for each seat owing.
	NoOrders map[string]string `json:",omitempty"`
	// Local is Deadline in the game's time zone, "" when that is UTC.
	Local string `json:",omitempty"`
}

// Situation is where things stand, as one seat may see it: a game's
// Reporter builds it from a state.
type Situation struct {
	Tracks []board.Track `json:",omitempty"`
	Units  []Unit        `json:",omitempty"`
	// Hand is the reader's own hidden holding (cards, chits): never shown
	// to another seat.
	Hand []string `json:",omitempty"`
	// HandName is what the reader's Hand is called in reports ("your
	// queue"); "" is "your hand".
	HandName string `json:",omitempty"`
	// Picture is the map; nil for none.
	Picture *board.Picture `json:",omitempty"`
	// Notices are the game's warnings (stand-in data).
	Notices []string `json:",omitempty"`
}

// Unit is one row of the units table.
type Unit struct {
	Side, ID, Type, Where, Strength, Status string
}

// situation is rep's situation of state as seat sees it, its units
// listed as a player looks for them: each side's together, the sides in
// the order the game first lists them, and within a side by id in natural
// order (ARBIH-2 before ARBIH-10, board.NaturalCompare).
func situation(rep Reporter, state []byte, seat string) (Situation, error) {
	sit, err := rep.Situation(state, seat)
	if err != nil {
		return sit, err
	}
	var sides []string
	for _, u := range sit.Units {
		if !slices.Contains(sides, u.Side) {
			sides = append(sides, u.Side)
		}
	}
	sit.Units = slices.Clone(sit.Units)
	slices.SortStableFunc(sit.Units, func(a, b Unit) int {
		if c := slices.Index(sides, a.Side) - slices.Index(sides, b.Side); c != 0 {
			return c
		}
		return board.NaturalCompare(a.ID, b.ID)
	})
	return sit, nil
}

// Spectator is the reader of public views: what every seat may see.
const Spectator = "*"

// Reporter is implemented by rules that describe their state for reports.
// Situation must leave out what seat may not see (another seat's hand,
// hidden units); seat "" is everything (every seat's hand: the judge asks
// for it for the game master, but in a game with hidden streams only after
// the end or with the game file's gm_sees_hands, asking for Spectator
// before), and Spectator sees what every seat may.
type Reporter interface {
	Situation(state []byte, seat string) (Situation, error)
}

// BuildReport assembles the report of game's step k for seat ("" for the
// GM) from what the store holds: the step, its events, its dice, the state
// after it and the step now open.
func (j *Judge) BuildReport(tx Tx, game string, k uint64, seat string) (*Report, error) {
	b, err := j.stepReport(tx, game, k)
	if err != nil {
		return nil, err
	}
	return b.forSeat(tx, seat)
}

// stepReport is what every reader's report of one step shares, read once
// for all of them.
type stepReport struct {
	g         Game
	rules     Rules
	st, after StepRecord
	events    []Event
	dice      []ReportDie
	open      string
	head      string
	commits   [2]string
	scheme    string
	h1, h2    string
	orderList []ReportOrder
	beacon    string
	rollbacks []ReportRollback
	streams   []string          // hidden streams the step drew from
	owners    map[string]string // their seats (StreamSeats), found once
	sec       DiceSecrets
	// publish is the game file's publish_orders, seats its seats in turn
	// order.
	publish bool
	seats   []string
	// canon are the seats' canonical orders of the step, by seat, read
	// once for every reader.
	canon map[string][]string
	// zone is the game's time zone, for deadlines.
	zone *time.Location
	// file is the game file, parsed; nil if it no longer parses.
	file *GameFile
}

func (j *Judge) stepReport(tx Tx, game string, k uint64) (*stepReport, error) {
	b := &stepReport{}
	var err error
	if b.g, err = tx.Game(game); err != nil {
		return nil, err
	}
	if b.rules, err = j.Games.Get(b.g.Kind); err != nil {
		return nil, err
	}
	b.zone = time.UTC
	if f, err := j.files.get(b.g.File, j.Games); err == nil {
		b.publish, b.seats, b.zone, b.file = f.PublishOrders, f.Seats, f.Zone(), f
	}
	if b.st, err = tx.Step(game, k); err != nil {
		return nil, err
	}
	if b.st.Status != "closed" {
		return nil, fmt.Errorf("step %d of %s is %s: only adjudicated steps have reports", k, game, b.st.Status)
	}
	if b.after, err = tx.Step(game, k+1); err != nil {
		return nil, fmt.Errorf("state after step %d: %w", k, err)
	}
	if b.events, err = tx.Events(game, k); err != nil {
		return nil, err
	}
	if b.sec, err = tx.DiceSecrets(game); err != nil {
		return nil, err
	}
	if b.sec.V2() {
		return b, b.diceRecords(tx)
	}
	b.scheme = legacy.Hashed.Name()
	exp, err := tx.ExportLog(game)
	if err != nil {
		return nil, err
	}
	b.head, b.commits = exp.Head.String(), [2]string{exp.Commitments.Open.String(), exp.Commitments.Sealed.String()}
	for _, s := range exp.Steps {
		if s.Step == k && s.Open != nil {
			b.open = s.Open.String()
		}
	}
	ended := b.g.Status == Ended
	for _, e := range exp.Entries {
		if e.Step != k {
			continue
		}
		// sealed draws show no values until the game ends.
		d := ReportDie{Seq: e.Seq, Spec: e.Spec, Purpose: e.Purpose, Sealed: e.Stream == "sealed"}
		if !e.Hidden && !(d.Sealed && !ended) {
			d.Sealed = false
			for _, v := range e.Values {
				d.Values = append(d.Values, int(v))
			}
		}
		b.dice = append(b.dice, d)
	}
	return b, nil
}

// diceRecords reads a v2 step's dice: its step record and draws, the game's
// rollbacks and the head after the step's records.
func (b *stepReport) diceRecords(tx Tx) error {
	game, k := b.g.ID, b.st.Number
	b.scheme = b.sec.SchemeName()
	b.commits = [2]string{b.sec.Open0.String(), b.sec.Sealed0.String()}
	if b.sec.V3() {
		h1, err := headAfterHeader(tx, game)
		if err != nil {
			return err
		}
		start, err := tx.DiceRecord(game, 2)
		if err != nil {
			return err
		}
		b.h1, b.h2 = h1.String(), start.Head.String()
	}
	if b.st.Dice != nil {
		b.head = b.st.Dice.Head.String()
	}
	step, draws, err := tx.StepDice(game, k)
	if err != nil {
		return err
	}
	if step == nil {
		return fmt.Errorf("step %d of %s has no step record in its dice log", k, game)
	}
	b.open = step.Step.OpenLink.String()
	for _, o := range step.Step.Orders {
		b.orderList = append(b.orderList, ReportOrder{Seat: o.Seat, ForStep: o.ForStep, Version: o.Version, Digest: o.Digest.String(),
			DKIM: dkimSigned(tx, game, o.Seat, o.ForStep, o.Version)})
	}
	if r := step.Step.Round; r != nil && b.sec.Beacon != nil {
		net := b.sec.Beacon.Network()
		if net == "" {
			net = "the game's beacon (not a known network)"
		}
		b.beacon = fmt.Sprintf("round %d of %s, randomness %s", r.Round, net, r.Randomness)
	}
	ended := b.g.Status == Ended
	revealed, err := tx.DiceReveals(game)
	if err != nil {
		return err
	}
	public := func(d *dice.Draw) bool {
		return !d.Sealed() || ended || slices.ContainsFunc(revealed, func(r dice.KeyReveal) bool { return r.Step == d.Step && r.Stream == d.Stream })
	}
	for _, r := range draws {
		d := r.Draw
		rd := ReportDie{Seq: d.Seq, Spec: d.Spec, Purpose: d.Purpose, Sealed: !public(d), Stream: d.Stream}
		if !rd.Sealed {
			rd.Values = ints(d.Values)
		} else {
			rd.values = ints(d.Values)
			if !slices.Contains(b.streams, d.Stream) {
				b.streams = append(b.streams, d.Stream)
			}
		}
		b.dice = append(b.dice, rd)
	}
	rbs, err := tx.DiceRollbacks(game)
	if err != nil {
		return err
	}
	count := map[uint64]int{}
	for _, r := range rbs {
		count[r.Target]++
		b.rollbacks = append(b.rollbacks, ReportRollback{Closed: r.Closed, Target: r.Target, Count: count[r.Target], Command: r.Command.String(), Reason: r.Reason})
	}
	return nil
}

func ints(vs []int64) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = int(v)
	}
	return out
}

// forSeat is the report as seat ("" for the GM) may see it: the events
// marked for it, its situation, and its own orders (the GM's has all, but
// in a game with hidden hands before its end: gmview.go).
func (b *stepReport) forSeat(tx Tx, seat string) (*Report, error) {
	game, k := b.g.ID, b.st.Number
	// view is whose view the report shows: the reader's, or for a game
	// master kept from hidden information the public one.
	view, gm := seat, GMViewAll
	if seat == "" {
		if gm = gmView(b.g, b.rules, b.st.State); gm == GMViewPublic {
			view = Spectator
		}
	}
	if seat != "" && seat != Spectator {
		if _, err := tx.Seat(game, seat); err != nil {
			return nil, fmt.Errorf("game %s has no seat %q", game, seat)
		}
	}
	r := &Report{Game: game, Kind: b.g.Kind, Title: b.rules.Title(), Seat: seat, Step: k, Phase: b.st.Phase, Closed: b.st.Closed,
		Ended: b.g.Status == Ended, Dice: b.dice, OpenLink: b.open, Head: b.head, CommitOpen: b.commits[0], CommitSealed: b.commits[1], H1: b.h1, H2: b.h2,
		Scheme: b.scheme, OrderList: b.orderList, Beacon: b.beacon, Rollbacks: b.rollbacks, GMView: gm}
	if n := gmNotice(gm); n != "" {
		r.Notices = append(r.Notices, n)
	}
	if b.sec.V2() && seat != "" && seat != Spectator {
		r.YourOrders = yourOrders(seat, k, b.orderList)
		if ss, ok := b.rules.(StreamSeats); ok {
			if b.owners == nil {
				b.owners = map[string]string{}
				for _, n := range b.streams {
					b.owners[n] = ss.StreamSeat(b.st.State, n)
				}
			}
			own := map[string]bool{}
			for _, n := range b.streams {
				if b.owners[n] == seat {
					own[n] = true
					r.Keys = append(r.Keys, ReportKey{Stream: n, Step: k, Key: dice.StreamKey(b.sec.SealedRoot, k, n).String()})
				}
			}
			if len(own) > 0 {
				// The holder sees its own draws' values: its key opens them.
				r.Dice = slices.Clone(b.dice)
				for i, d := range r.Dice {
					if d.Sealed && own[d.Stream] {
						r.Dice[i].Values, r.Dice[i].Sealed, r.Dice[i].Yours = d.values, false, true
					}
				}
			}
		}
	}
	for _, e := range b.events {
		if view != "" && len(e.Visible) > 0 && !slices.Contains(e.Visible, view) {
			continue
		}
		r.Events = append(r.Events, ReportEvent{Rule: e.Rule, Text: e.Text})
	}
	if rep, ok := b.rules.(Reporter); ok {
		sit, err := situation(rep, b.after.State, view)
		if err != nil {
			return nil, fmt.Errorf("situation after step %d: %w", k, err)
		}
		r.Situation = sit
		r.Notices = append(r.Notices, sit.Notices...)
		b.file.withArt(r, seat)
	}
	if err := b.orders(tx, r, seat, view); err != nil {
		return nil, err
	}
	if b.after.Status == "open" && !r.Ended {
		a := b.after
		r.Next = &NextStep{Step: a.Number, Phase: a.Phase, Owing: a.Owing, Deadline: a.Deadline, NoOrders: a.NoOrders,
			Local: localStamp(a.Deadline, b.zone)}
		if seat != "" && seat != Spectator {
			r.Brief = seatBrief(b.g, b.rules, a, seat, b.zone)
		}
	}
	if seat != "" && seat != Spectator && !r.Ended {
		r.Standing = standing(b.rules, b.after.State, seat)
	}
	return r, nil
}

// orders puts in r the orders the reader may see: its own; the GM's
// report has every seat's, or in the public view only who ordered and the
// digest (the order list, which a v1 game has no record of: made here).
// With publish_orders every reader has every seat's, in seat order, the
// others' in their public form; or, when the rules publish none, its own
// and the line saying why.
func (b *stepReport) orders(tx Tx, r *Report, seat, view string) error {
	game, k := b.g.ID, b.st.Number
	pub, publish := b.rules.(PublicOrders)
	if b.publish && !publish {
		r.OrdersNote = NotPublished
	}
	publish = publish && b.publish
	r.OrdersPublished = publish
	st := b.st
	listOnly := seat == "" && view == Spectator && len(r.OrderList) == 0
	seats := make([]string, 0, len(st.Used)+len(st.Repeated))
	for s := range st.Used {
		seats = append(seats, s)
	}
	for s := range st.Repeated {
		if _, ok := st.Used[s]; !ok {
			seats = append(seats, s)
		}
	}
	slices.Sort(seats)
	for _, s := range seats {
		if view != "" && s != view && !listOnly && !publish {
			continue
		}
		var f OrderFile
		var err error
		ref := OrderRef{Step: k, Version: st.Used[s]}
		if _, ok := st.Used[s]; !ok {
			ref = st.Repeated[s]
		}
		if f, err = tx.OrderVersion(game, ref.Step, s, ref.Version); err != nil {
			return err
		}
		if listOnly {
			_, dkim := DKIMAddress(f.Key)
			r.OrderList = append(r.OrderList, ReportOrder{Seat: s, ForStep: ref.Step, Version: ref.Version, Digest: f.Digest.String(), DKIM: dkim})
			if !publish {
				continue
			}
		}
		lines, ok := b.canon[s]
		if !ok {
			parsed, _ := ParseOrderFile(f.Text)
			lines, _ = b.rules.ParseOrders(st.State, s, parsed.Orders)
			if b.canon == nil {
				b.canon = map[string][]string{}
			}
			b.canon[s] = lines
		}
		if publish && view != "" && s != view {
			lines = pub.PublicOrders(st.State, s, lines)
		}
		r.Orders = append(r.Orders, SeatOrders{Seat: s, Lines: lines})
	}
	if publish {
		r.Orders = b.inSeatOrder(r.Orders)
	}
	return nil
}

// inSeatOrder puts published orders in the game's seat order, with a seat
// the step waited for that sent none listed without lines.
func (b *stepReport) inSeatOrder(orders []SeatOrders) []SeatOrders {
	out := make([]SeatOrders, 0, len(b.seats))
	for _, s := range b.seats {
		i := slices.IndexFunc(orders, func(o SeatOrders) bool { return o.Seat == s })
		switch {
		case i >= 0:
			out = append(out, orders[i])
		case slices.Contains(b.st.Owing, s):
			out = append(out, SeatOrders{Seat: s})
		}
	}
	for _, o := range orders {
		if !slices.Contains(b.seats, o.Seat) {
			out = append(out, o) // a seat the game file does not list: last
		}
	}
	return out
}

// Snapshot is the public picture of game now: where things stand and the
// map as every seat may see them, and what is due (the "map" command).
func (j *Judge) Snapshot(tx Tx, game string) (*Report, error) {
	g, err := tx.Game(game)
	if err != nil {
		return nil, err
	}
	rules, err := j.Games.Get(g.Kind)
	if err != nil {
		return nil, err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return nil, fmt.Errorf("game %s has not started", game)
	}
	r := &Report{Game: g.ID, Kind: g.Kind, Title: rules.Title(), Seat: Spectator, Snapshot: true, Step: st.Number,
		Phase: st.Phase, Closed: st.Opened, Ended: g.Status == Ended}
	if rep, ok := rules.(Reporter); ok {
		sit, err := situation(rep, st.State, Spectator)
		if err != nil {
			return nil, err
		}
		r.Situation = sit
		r.Notices = append(r.Notices, sit.Notices...)
		if f, err := j.files.get(g.File, j.Games); err == nil {
			f.withArt(r, Spectator)
		}
	}
	if st.Status == "open" && g.Status == Running {
		r.Next = &NextStep{Step: st.Number, Phase: st.Phase, Owing: st.Owing, Deadline: st.Deadline, NoOrders: st.NoOrders}
	}
	return r, nil
}

// Subject is the report mail's subject.
func (r *Report) Subject() string {
	switch {
	case r.Lead != "":
		return fmt.Sprintf("%s briefing for %s", r.Game, r.Reader())
	case r.Snapshot && r.Step == 0:
		return r.Game + " map before the start"
	case r.Snapshot:
		return fmt.Sprintf("%s map at step %d", r.Game, r.Step)
	}
	return fmt.Sprintf("%s step %d report", r.Game, r.Step)
}

// Reader names who the report is for.
func (r *Report) Reader() string {
	switch r.Seat {
	case "":
		switch r.GMView {
		case GMViewPublic:
			return "the game master (the public view: no hidden information before the end)"
		case GMViewHands:
			return "the game master (every seat's hand: gm_sees_hands)"
		}
		return "the game master"
	case Spectator:
		return "every seat (the public view)"
	}
	return "seat " + r.Seat
}

// plainBrief writes the reader's standing orders and brief, if any.
func (r *Report) plainBrief(b *strings.Builder) {
	if len(r.Standing) > 0 {
		fmt.Fprintf(b, "\nYour standing orders in force: %s.\n", strings.Join(r.Standing, "; "))
	}
	if sb := r.Brief; sb != nil {
		fmt.Fprintf(b, "\nYour orders for step %d (%s) are due by %s. %s\nWithout them %s.\n"+
			"Your pre-filled order file, %s, is attached: keep one line under each ## heading, sign it and send it.\n",
			sb.Step, sb.Phase, sb.When(), sb.Asks, sb.Default, sb.FormFile)
	}
}

// When is the deadline as reports say it: in the game's time zone and
// in UTC.
func (sb *SeatBrief) When() string {
	if sb.Local == "" {
		return stamp(sb.Deadline)
	}
	return sb.Local + " (" + stamp(sb.Deadline) + ")"
}

// When is the deadline as reports say it: in the game's time zone and
// in UTC.
func (n *NextStep) When() string {
	if n.Local == "" {
		return stamp(n.Deadline)
	}
	return n.Local + " (" + stamp(n.Deadline) + ")"
}

// PlainText is a report without templates: what the judge falls back to
// when a template fails, so a report is never lost.
func (r *Report) PlainText() string {
	var b strings.Builder
	if r.Lead != "" {
		b.WriteString(r.Lead + "\n")
	}
	if r.Snapshot {
		if r.Step == 0 {
			fmt.Fprintf(&b, "%s (%s) before the start, as %s sees it.\n", r.Game, r.Kind, r.Reader())
		} else {
			fmt.Fprintf(&b, "%s (%s) at step %d (%s), as %s sees it.\n", r.Game, r.Kind, r.Step, r.Phase, r.Reader())
		}
		for _, t := range r.Tracks {
			fmt.Fprintf(&b, "  %s: %d\n", t.Name, t.Value)
		}
		for _, u := range r.Units {
			fmt.Fprintf(&b, "  %s %s %s at %s %s %s\n", u.Side, u.ID, u.Type, u.Where, u.Strength, u.Status)
		}
		r.plainBrief(&b)
		return b.String()
	}
	fmt.Fprintf(&b, "%s (%s), step %d (%s) adjudicated %s.\nThis report is for %s.\n\nWhat happened:\n", r.Game, r.Kind, r.Step, r.Phase, stamp(r.Closed), r.Reader())
	for _, e := range r.Events {
		fmt.Fprintf(&b, "  - %s\n", e.Text)
	}
	b.WriteString("\nDice:\n")
	for _, d := range r.Dice {
		vals := fmt.Sprint(d.Values)
		if d.Sealed {
			vals = "(sealed until its key is public)"
		}
		fmt.Fprintf(&b, "  #%d %s %s  %s\n", d.Seq, d.Spec, vals, d.Purpose)
	}
	r.plainDiceChecks(&b)
	fmt.Fprintf(&b, "\nOpen dice link of step %d: %s\nDice log head: %s\n", r.Step, r.OpenLink, r.Head)
	if r.H1 != "" {
		fmt.Fprintf(&b, "Commitments (open, sealed): %s %s\nh_1 (after the header): %s\nh_2 (after the start record): %s\n", r.CommitOpen, r.CommitSealed, r.H1, r.H2)
	}
	if r.OrdersPublished || r.OrdersNote != "" {
		b.WriteString("\nOrders:\n")
		if r.OrdersNote != "" {
			fmt.Fprintf(&b, "  %s.\n", r.OrdersNote)
		}
		for _, o := range r.Orders {
			fmt.Fprintf(&b, "  %s: %s\n", o.Seat, strings.Join(o.Lines, "; "))
		}
	}
	if r.Ended {
		b.WriteString("\nThe game has ended. Its sealed dice are revealed: the whole dice log can now be checked.\n")
	}
	if r.Next != nil {
		fmt.Fprintf(&b, "\nNext: step %d (%s). Orders are due from %s by %s.\n", r.Next.Step, r.Next.Phase, strings.Join(r.Next.Owing, ", "), stamp(r.Next.Deadline))
	}
	r.plainBrief(&b)
	return b.String()
}

// plainDiceChecks writes what a seat checks of a v2 step: the order list,
// its own entry, the beacon round, its keys and the game's rollbacks.
func (r *Report) plainDiceChecks(b *strings.Builder) {
	if r.Scheme != legacy.Records.Name() && r.Scheme != dice.Scheme {
		return
	}
	b.WriteString("\nOrder list (the order files this step's dice are bound to):\n")
	if len(r.OrderList) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, o := range r.OrderList {
		fmt.Fprintf(b, "  %s: step %d, version %d\n    %s\n", o.Seat, o.ForStep, o.Version, o.Digest)
	}
	if r.YourOrders != "" {
		fmt.Fprintf(b, "%s.\n", r.YourOrders)
	}
	if r.Beacon != "" {
		fmt.Fprintf(b, "Beacon: %s\n", r.Beacon)
	}
	for _, k := range r.Keys {
		fmt.Fprintf(b, "Your hidden stream %s, key of step %d (for you alone; check with umpire verify --key %d:%s:KEY): %s\n", k.Stream, k.Step, k.Step, k.Stream, k.Key)
	}
	for _, rb := range r.Rollbacks {
		fmt.Fprintf(b, "ROLLBACK: %s\n", rb.Text())
	}
}
