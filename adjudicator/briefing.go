package adjudicator

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Briefer is implemented by rules that can brief a seat on the step open
// in state: what the step asks of it and, for each of its units or
// decisions, the order lines it may send. The judge mails the brief, with
// a pre-filled order file made of it (OrderForm), on join, on start and in
// every report that opens a step the seat owes orders for.
//
// The contract, checked for every game by rulestest.Briefings over whole
// games: a file made of at most one line of each Choice, and at least one
// line in all, keeping a line of a choice with Needs only together with
// one of those lines, is accepted by ParseOrders with no problem, and no
// line of it is a no-op. A seat that owes orders has at least one Choice
// without Needs.
type Briefer interface {
	Brief(state []byte, seat string) Brief
}

// Brief is what the step open in a state asks of one seat.
type Brief struct {
	// Asks says in a sentence or two what the step asks of the seat
	// ("Move your units and declare attacks", "Choose where each
	// retreating unit goes").
	Asks string
	// Choices are the seat's units and decisions, in the order a player
	// would take them: each with the lines it may send.
	Choices []Choice
}

// Choice is one unit or decision of a brief.
type Choice struct {
	// About names what the choice is about: a unit with its values and
	// position ("ARBIH-2 infantry 3-4 at tuzla"), or a decision ("the
	// card to play").
	About string
	// Lines are complete order lines the game's parser accepts in the
	// step, each one a legal answer; a file sends at most one of them.
	Lines []string
	// Default says what happens about it when no line is sent, a clause
	// ("it holds"); "" says nothing.
	Default string
	// Needs, when set, are lines of other choices one of which a file
	// must keep for a line of this choice to be legal (a move that only
	// an operations card played makes possible); the form lists them.
	Needs []string `json:",omitempty"`
}

// StandingOrders is implemented by rules whose seats give standing orders
// (orders that stay in force from step to step until changed, such as how
// losses are taken): the lines in force for seat in state, written as the
// parser takes them, defaults included. Every report shows them.
type StandingOrders interface {
	Standing(state []byte, seat string) []string
}

// FormMark starts each line of a pre-filled order file that a player may
// keep by deleting the mark; FormHeading starts a choice's heading;
// FormNeeds starts the heading line listing a choice's Needs.
const (
	FormMark    = "# "
	FormHeading = "## "
	FormNeeds   = "needs: "
)

// OrderForm is the pre-filled order file for seat of game at step (its
// phase) from brief: the header filled in, then each choice as a heading
// and its lines, each commented out, for the player to keep one by
// deleting its "# ", sign and send. A brief without choices gives a file
// that says there is nothing to order.
func OrderForm(game, seat string, step uint64, phase string, brief Brief) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Order file of %s for %s, step %d (%s).\n", seat, game, step, phase)
	if brief.Asks != "" {
		for _, l := range wrapWords(brief.Asks, 76) {
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString("# Keep at most one line under each ## heading by deleting its '# ';\n")
	b.WriteString("# every other line starting with # is a comment. Then sign and send.\n")
	fmt.Fprintf(&b, "game: %s\nstep: %d\nseat: %s\n", game, step, seat)
	if len(brief.Choices) == 0 {
		b.WriteString("\n# Nothing to order in this step.\n")
	}
	for _, c := range brief.Choices {
		head := c.About
		if c.Default != "" {
			head += "; without an order " + c.Default
		}
		head += ". Keep one:"
		b.WriteString("\n")
		if len(c.Needs) > 0 {
			head = strings.TrimSuffix(head, " Keep one:") + " Keep one only with one of the lines after 'needs:'."
		}
		for i, l := range wrapWords(head, 75) {
			if i == 0 {
				b.WriteString(FormHeading + l + "\n")
			} else {
				b.WriteString(FormHeading + "  " + l + "\n")
			}
		}
		if len(c.Needs) > 0 {
			b.WriteString(FormHeading + FormNeeds + strings.Join(c.Needs, " | ") + "\n")
		}
		for _, l := range c.Lines {
			b.WriteString(FormMark + l + "\n")
		}
	}
	b.WriteString("end\n")
	return b.String()
}

// FormChoices reads back a pre-filled order file (OrderForm): its
// header lines, and each choice's heading (without its closing "Keep
// one:") with its lines, as a player's program or a test reads the file
// it was mailed.
func FormChoices(form string) (header []string, choices []Choice) {
	for _, l := range strings.Split(form, "\n") {
		l = strings.TrimRight(l, "\r")
		switch {
		case strings.HasPrefix(l, FormHeading+FormNeeds) && len(choices) > 0:
			choices[len(choices)-1].Needs = strings.Split(strings.TrimPrefix(l, FormHeading+FormNeeds), " | ")
		case strings.HasPrefix(l, FormHeading+"  ") && len(choices) > 0:
			choices[len(choices)-1].About += " " + strings.TrimPrefix(l, FormHeading+"  ")
		case strings.HasPrefix(l, FormHeading):
			choices = append(choices, Choice{About: strings.TrimPrefix(l, FormHeading)})
		case strings.HasPrefix(l, FormMark) && len(choices) > 0:
			choices[len(choices)-1].Lines = append(choices[len(choices)-1].Lines, strings.TrimPrefix(l, FormMark))
		case l != "" && !strings.HasPrefix(l, "#") && l != "end":
			header = append(header, l)
		}
	}
	for i := range choices {
		choices[i].About = strings.TrimSuffix(strings.TrimSuffix(choices[i].About, ". Keep one:"), ". Keep one only with one of the lines after 'needs:'.")
	}
	return header, choices
}

// wrapWords breaks s into lines of at most width characters at spaces
// (a longer word has a line of its own).
func wrapWords(s string, width int) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			out = append(out, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// SeatBrief is a seat's brief for the step open, as mailed: in the report
// that opens the step, and in the answers to join and start.
type SeatBrief struct {
	Step  uint64
	Phase string
	// Asks says what the step asks of the seat (the rules' Brief).
	Asks string
	// Deadline is when the step closes; Local is it in the game's time
	// zone ("Thu 3 Dec 2026 20:00 CET"), "" when that zone is UTC.
	Deadline time.Time
	Local    string `json:",omitempty"`
	// Default says in words what no usable orders mean (DefaultWords).
	Default string
	// Form is the pre-filled order file (OrderForm), attached as
	// FormFile.
	Form     string
	FormFile string
}

// Zone is the game's time zone: the one its schedule's cron names
// (CRON_TZ=...), else UTC.
func (f *GameFile) Zone() *time.Location {
	if s, ok := f.Schedule.parsed.(*cron.SpecSchedule); ok && s.Location != nil {
		return s.Location
	}
	return time.UTC
}

// localStamp is t in zone, "" when zone is UTC.
func localStamp(t time.Time, zone *time.Location) string {
	if zone == nil || zone == time.UTC || t.IsZero() {
		return ""
	}
	return t.In(zone).Format("Mon 2 Jan 2006 15:04 MST")
}

// seatBrief is seat's brief for st, the step open in game g (nil when the
// seat owes nothing in it).
func seatBrief(g Game, rules Rules, st StepRecord, seat string, zone *time.Location) *SeatBrief {
	if st.Status != "open" || !slices.Contains(st.Owing, seat) {
		return nil
	}
	sb := &SeatBrief{Step: st.Number, Phase: st.Phase, Deadline: st.Deadline, Local: localStamp(st.Deadline, zone),
		Default:  DefaultWords(rules, st.State, seat, st.NoOrders[seat]),
		FormFile: fmt.Sprintf("%s-step%d-%s-orders.txt", g.ID, st.Number, fileWord(seat))}
	var brief Brief
	if b, ok := rules.(Briefer); ok {
		brief = b.Brief(st.State, seat)
	} else {
		brief.Asks = fmt.Sprintf("Send your orders for %s: 'help %s' mails this game's orders.", st.Phase, g.Kind)
	}
	sb.Asks = brief.Asks
	sb.Form = OrderForm(g.ID, seat, st.Number, st.Phase, brief)
	return sb
}

// fileWord is name as a word of a file name: lowercase letters, digits
// and '-'.
func fileWord(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// standing is seat's standing orders in state, when the rules have any.
func standing(rules Rules, state []byte, seat string) []string {
	if s, ok := rules.(StandingOrders); ok && seat != "" && seat != Spectator {
		return s.Standing(state, seat)
	}
	return nil
}

// Files are what a report's mail attaches: the seat's pre-filled order
// file when the report briefs it.
func (r *Report) Files() []File {
	if r.Brief == nil || r.Brief.Form == "" {
		return nil
	}
	return []File{{Name: r.Brief.FormFile, Type: "text/plain", Data: []byte(r.Brief.Form)}}
}

// SeatBriefing is the briefing mailed to seat of game on join and start:
// the game as the seat sees it now (map, units, tracks, standing orders)
// and, when a step is open that it owes orders for, its brief; lead is
// what the mail says first. Before the start it shows the scenario's
// set-up.
func (j *Judge) SeatBriefing(tx Tx, game, seat, lead string) (*Report, error) {
	g, err := tx.Game(game)
	if err != nil {
		return nil, err
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return nil, err
	}
	r := &Report{Game: g.ID, Kind: g.Kind, Title: rules.Title(), Seat: seat, Snapshot: true, Lead: lead, Ended: g.Status == Ended}
	var state []byte
	st, err := tx.Step(game, g.Step)
	switch {
	case err == nil:
		state, r.Step, r.Phase, r.Closed = st.State, st.Number, st.Phase, st.Opened
		if st.Status == "open" && g.Status == Running {
			r.Next = &NextStep{Step: st.Number, Phase: st.Phase, Owing: st.Owing, Deadline: st.Deadline, NoOrders: st.NoOrders,
				Local: localStamp(st.Deadline, f.Zone())}
			r.Brief = seatBrief(g, rules, st, seat, f.Zone())
		}
	case errors.Is(err, ErrNotFound) && g.Status == Forming:
		if state, err = j.newState(rules, game, g.Scenario, f.Options); err != nil {
			return nil, fmt.Errorf("game %s: %w", game, err)
		}
		r.Phase = "set-up, before the start"
	default:
		return nil, err
	}
	if rep, ok := rules.(Reporter); ok {
		sit, err := situation(rep, state, seat)
		if err != nil {
			return nil, err
		}
		r.Situation = sit
		r.Notices = append(r.Notices, sit.Notices...)
		f.withArt(r, seat)
	}
	r.Standing = standing(rules, state, seat)
	return r, nil
}

// NumberLines are texts as the lines of an order file, numbered from 1.
func NumberLines(texts ...string) []OrderLine {
	out := make([]OrderLine, len(texts))
	for i, t := range texts {
		out[i] = OrderLine{Line: i + 1, Text: t}
	}
	return out
}

// Keep adds to lines each candidate not in it yet that legal takes on its
// own, while lines holds fewer than most (0: no bound): how a brief offers
// only the lines its game's parser accepts.
func Keep(lines []string, most int, legal func(line string) bool, cands ...string) []string {
	for _, c := range cands {
		if (most == 0 || len(lines) < most) && !slices.Contains(lines, c) && legal(c) {
			lines = append(lines, c)
		}
	}
	return lines
}
