package adjudicator

import (
	"fmt"
	"slices"
	"strings"
	"time"

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
	// Seat is the reader; "" is the game master, who sees everything, and
	// Spectator anyone (what every seat may see).
	Seat string
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
	Situation                             // the state after the step, as the seat may see it
	Orders                   []SeatOrders `json:",omitempty"` // orders adjudicated, as the seat may see them
	Next                     *NextStep    `json:",omitempty"`
	Ended                    bool         `json:",omitempty"`
}

// ReportEvent is one thing that happened, with its rule.
type ReportEvent struct {
	Rule string `json:",omitempty"`
	Text string
}

// ReportDie is one draw of the step. Sealed draws show no values until the
// game ends.
type ReportDie struct {
	Seq     uint64
	Spec    string
	Purpose string
	Values  []int `json:",omitempty"`
	Sealed  bool  `json:",omitempty"`
}

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
}

// Situation is where things stand, as one seat may see it: a game's
// Reporter builds it from a state.
type Situation struct {
	Tracks []board.Track `json:",omitempty"`
	Units  []Unit        `json:",omitempty"`
	// Hand is the reader's own hidden holding (cards, chits): never shown
	// to another seat.
	Hand []string `json:",omitempty"`
	// Picture is the map; nil for none.
	Picture *board.Picture `json:",omitempty"`
	// Notices are the game's warnings (stand-in data).
	Notices []string `json:",omitempty"`
}

// Unit is one row of the units table.
type Unit struct {
	Side, ID, Type, Where, Strength, Status string
}

// Spectator is the reader of public views: what every seat may see.
const Spectator = "*"

// Reporter is implemented by rules that describe their state for reports.
// Situation must leave out what seat may not see (another seat's hand,
// hidden units); seat "" is the game master, who sees everything, and
// Spectator sees what every seat may.
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

// forSeat is the report as seat ("" for the GM) may see it: the events
// marked for it, its situation, and its own orders (the GM's has all).
func (b *stepReport) forSeat(tx Tx, seat string) (*Report, error) {
	game, k := b.g.ID, b.st.Number
	if seat != "" {
		if _, err := tx.Seat(game, seat); err != nil {
			return nil, fmt.Errorf("game %s has no seat %q", game, seat)
		}
	}
	r := &Report{Game: game, Kind: b.g.Kind, Title: b.rules.Title(), Seat: seat, Step: k, Phase: b.st.Phase, Closed: b.st.Closed,
		Ended: b.g.Status == Ended, Dice: b.dice, OpenLink: b.open, Head: b.head, CommitOpen: b.commits[0], CommitSealed: b.commits[1]}
	for _, e := range b.events {
		if seat != "" && len(e.Visible) > 0 && !slices.Contains(e.Visible, seat) {
			continue
		}
		r.Events = append(r.Events, ReportEvent{Rule: e.Rule, Text: e.Text})
	}
	if rep, ok := b.rules.(Reporter); ok {
		sit, err := rep.Situation(b.after.State, seat)
		if err != nil {
			return nil, fmt.Errorf("situation after step %d: %w", k, err)
		}
		r.Situation = sit
		r.Notices = append(r.Notices, sit.Notices...)
	}
	// orders: the reader's own; the GM's report has every seat's.
	st := b.st
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
		if seat != "" && s != seat {
			continue
		}
		var f OrderFile
		var err error
		if v, ok := st.Used[s]; ok {
			f, err = tx.OrderVersion(game, k, s, v)
		} else {
			ref := st.Repeated[s]
			f, err = tx.OrderVersion(game, ref.Step, s, ref.Version)
		}
		if err != nil {
			return nil, err
		}
		parsed, _ := ParseOrderFile(f.Text)
		lines, _ := b.rules.ParseOrders(st.State, s, parsed.Orders)
		r.Orders = append(r.Orders, SeatOrders{Seat: s, Lines: lines})
	}
	if b.after.Status == "open" && !r.Ended {
		a := b.after
		r.Next = &NextStep{Step: a.Number, Phase: a.Phase, Owing: a.Owing, Deadline: a.Deadline, NoOrders: a.NoOrders}
	}
	return r, nil
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
		sit, err := rep.Situation(st.State, Spectator)
		if err != nil {
			return nil, err
		}
		r.Situation = sit
		r.Notices = append(r.Notices, sit.Notices...)
	}
	if st.Status == "open" && g.Status == Running {
		r.Next = &NextStep{Step: st.Number, Phase: st.Phase, Owing: st.Owing, Deadline: st.Deadline, NoOrders: st.NoOrders}
	}
	return r, nil
}

// Subject is the report mail's subject.
func (r *Report) Subject() string {
	if r.Snapshot {
		return fmt.Sprintf("%s map at step %d", r.Game, r.Step)
	}
	return fmt.Sprintf("%s step %d report", r.Game, r.Step)
}

// Reader names who the report is for.
func (r *Report) Reader() string {
	switch r.Seat {
	case "":
		return "the game master"
	case Spectator:
		return "every seat (the public view)"
	}
	return "seat " + r.Seat
}

// PlainText is a report without templates: what the judge falls back to
// when a template fails, so a report is never lost.
func (r *Report) PlainText() string {
	var b strings.Builder
	if r.Snapshot {
		fmt.Fprintf(&b, "%s (%s) at step %d (%s), as %s sees it.\n", r.Game, r.Kind, r.Step, r.Phase, r.Reader())
		for _, t := range r.Tracks {
			fmt.Fprintf(&b, "  %s: %d\n", t.Name, t.Value)
		}
		for _, u := range r.Units {
			fmt.Fprintf(&b, "  %s %s %s at %s %s %s\n", u.Side, u.ID, u.Type, u.Where, u.Strength, u.Status)
		}
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
			vals = "(sealed until the game ends)"
		}
		fmt.Fprintf(&b, "  #%d %s %s  %s\n", d.Seq, d.Spec, vals, d.Purpose)
	}
	fmt.Fprintf(&b, "\nOpen dice link of step %d: %s\nDice log head: %s\n", r.Step, r.OpenLink, r.Head)
	if r.Ended {
		b.WriteString("\nThe game has ended. The sealed dice links are revealed: the whole dice log can now be checked.\n")
	}
	if r.Next != nil {
		fmt.Fprintf(&b, "\nNext: step %d (%s). Orders are due from %s by %s.\n", r.Next.Step, r.Next.Phase, strings.Join(r.Next.Owing, ", "), stamp(r.Next.Deadline))
	}
	return b.String()
}
