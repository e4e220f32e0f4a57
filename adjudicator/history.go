package adjudicator

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// This file holds the commands that look back or around: games (the public
// games), history (a game's steps, when and why each closed), report (a
// past report again, in the asker's own view) and key (the judge's public
// signing key). Anyone may send them unsigned; report signed by a seat's
// key answers with that seat's view.

// JudgeKey is the judge's public signing key, which the key command sends.
type JudgeKey struct {
	Fingerprint string
	Armored     []byte // as gpg --export --armor writes it
}

// listed returns the games the games and list answers show: every game
// but the unlisted ones.
func listed(tx Tx) ([]Game, error) {
	games, err := tx.Games()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(games, Unlisted), nil
}

// Unlisted reports whether g's game file keeps it out of the lists of
// games (unlisted = true): it is found by its id only.
func Unlisted(g Game) bool { return visibilityOf(g).Unlisted }

// games answers with the public games: status, step and deadline, seats
// and whether observers are welcome.
func (in *Intake) games(a answer) error {
	games, err := listed(a.tx)
	if err != nil {
		return err
	}
	games = slices.DeleteFunc(games, func(g Game) bool { return g.Kind == DiceService })
	var b strings.Builder
	if len(games) == 0 {
		b.WriteString("This judge runs no public games yet.\n")
	} else {
		b.WriteString("The public games on this judge:\n")
	}
	for _, g := range games {
		seats, err := a.tx.Seats(g.ID)
		if err != nil {
			return err
		}
		var vacant []string
		for _, s := range seats {
			if s.Holder == "" {
				vacant = append(vacant, s.Name)
			}
		}
		fmt.Fprintf(&b, "\n%s: %s (%s, scenario %s)\n", g.ID, g.Title, g.Kind, g.Scenario)
		switch g.Status {
		case Forming:
			b.WriteString("  forming: not started yet\n")
		case Running, Paused:
			due := ""
			if st, err := a.tx.Step(g.ID, g.Step); err == nil && st.Status == StepOpen && g.Status == Running {
				due = ", orders due " + stamp(st.Deadline)
			}
			fmt.Fprintf(&b, "  %s at step %d%s\n", g.Status, g.Step, due)
		default:
			fmt.Fprintf(&b, "  %s after step %d\n", g.Status, max(g.Step, 1)-1)
		}
		free := "no seat vacant"
		if len(vacant) > 0 {
			free = "vacant: " + strings.Join(vacant, ", ") + fmt.Sprintf(" (join %s SEAT)", g.ID)
		}
		obs := "observers welcome"
		if g.NoObservers {
			obs = "no observers"
		}
		fmt.Fprintf(&b, "  %d seats, %s; %s\n", len(seats), free, obs)
	}
	b.WriteString("\nSend 'status GAME' for a game's seats and rules, 'history GAME' for its steps,\n" +
		"and 'observe GAME' (signed) to receive the public view of its reports.\n")
	return a.reply(MailAnnouncement, "games", b.String())
}

// history answers with a game's steps: each one's phase, when it opened
// and closed, and what closed it.
func (in *Intake) history(a answer, c command) error {
	if len(c.args) != 1 {
		return a.reply(MailError, "history needs a game", "Write 'history GAME', for example 'history club-kosovo-3'. Send 'games' for the games.\n")
	}
	g, err := a.tx.Game(c.args[0])
	if errors.Is(err, ErrNotFound) {
		return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'games' for the games"))
	} else if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "History of %s (%s), created %s; now %s.\n\n", g.ID, g.Title, stamp(g.Created), g.Status)
	if g.Step == 0 {
		b.WriteString("The game has not started: it has no steps yet.\n")
	}
	reported := 0
	for k := uint64(1); k <= g.Step; k++ {
		st, err := a.tx.Step(g.ID, k)
		if errors.Is(err, ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if st.Status == StepClosed {
			reported++
		}
		b.WriteString(historyLine(st))
	}
	if reported > 0 {
		fmt.Fprintf(&b, "\nSend 'report %s STEP' for the report of a step marked adjudicated.\n", g.ID)
	}
	return a.reply(MailAnnouncement, "history "+g.ID, b.String())
}

// historyLine is one step of a history answer.
func historyLine(st StepRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Step %d", st.Number)
	if st.Phase != "" {
		fmt.Fprintf(&b, " (%s)", st.Phase)
	}
	fmt.Fprintf(&b, ": opened %s", stamp(st.Opened))
	if st.RestoredFrom != 0 {
		fmt.Fprintf(&b, " in the state step %d opened in (a rollback)", st.RestoredFrom)
	}
	b.WriteString(".\n  ")
	closedAt := st.Closed
	if st.Dice != nil && !st.Dice.Close.IsZero() {
		closedAt = st.Dice.Close
	}
	why := "adjudicated"
	if st.Dice != nil {
		why = map[dice.ClosedBy]string{dice.ClosedByDeadline: "at its deadline", dice.ClosedByReady: "when every seat was ready",
			dice.ClosedByGM: "by the game master's process"}[st.Dice.ClosedBy]
		why = "closed " + why + " and adjudicated"
	}
	switch st.Status {
	case StepOpen:
		fmt.Fprintf(&b, "Open: orders due from %s by %s.", strings.Join(st.Owing, ", "), stamp(st.Deadline))
		if st.Extended {
			b.WriteString(" (The grace period was added.)")
		}
	case StepWaiting:
		fmt.Fprintf(&b, "Closed %s; waits for beacon round %d to roll its dice.", stamp(closedAt), st.Dice.Round)
	case StepRolledBack:
		fmt.Fprintf(&b, "Closed unplayed %s: the game master rolled the game back.", stamp(st.Closed))
	case StepOver:
		b.WriteString("The game ended here.")
	default:
		fmt.Fprintf(&b, "%s on %s.", upperFirst(why), stamp(closedAt))
		if st.Extended {
			b.WriteString(" (The grace period was added.)")
		}
	}
	b.WriteString("\n")
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// viewer is whose view of game g a message asks for: the game master's
// (""), a seat's, or the public view (Spectator). Only a verified
// signature by a key the judge knows gives more than the public view.
func viewer(tx Tx, env *Envelope, g Game) (string, error) {
	if env.Signed == nil || env.NewKey != nil {
		return Spectator, nil
	}
	key := env.Signed.Fingerprint
	if key == g.GMKey {
		return "", nil
	}
	seats, err := tx.Seats(g.ID)
	if err != nil {
		return "", err
	}
	for _, s := range seats {
		if s.Holder == key {
			return s.Name, nil
		}
	}
	return Spectator, nil
}

// report sends a past report again, as the asker may see it: a seat's
// holder its seat's view, the game master its own (gmview.go), anyone else the
// public view.
func (in *Intake) report(a answer, c command) error {
	if len(c.args) < 1 || len(c.args) > 2 {
		return a.reply(MailError, "report needs a game", "Write 'report GAME' for the last report, or 'report GAME STEP' for one step's,\nfor example 'report club-kosovo-3 4'. Send 'games' for the games.\n")
	}
	g, err := a.tx.Game(c.args[0])
	if errors.Is(err, ErrNotFound) {
		return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'games' for the games"))
	} else if err != nil {
		return err
	}
	if in.Judge == nil {
		return a.reply(MailError, "report is not available", "This judge keeps no reports.\n")
	}
	var last uint64
	for k := g.Step; k >= 1; k-- {
		if st, err := a.tx.Step(g.ID, k); err == nil && st.Status == StepClosed {
			last = k
			break
		}
	}
	k := last
	if len(c.args) == 2 {
		n, err := strconv.ParseUint(strings.TrimPrefix(c.args[1], "#"), 10, 64)
		if err != nil {
			return a.reply(MailError, "report: not a step", fmt.Sprintf("%q is not a step number: write 'report %s STEP', such as 'report %s %d'.\n", c.args[1], g.ID, g.ID, max(last, 1)))
		}
		k = n
	}
	if last == 0 {
		return a.reply(MailError, "no report yet", fmt.Sprintf("Game %s has no report yet: no step of it has been adjudicated.\nSend 'status %s' to see where it stands.\n", g.ID, g.ID))
	}
	if st, err := a.tx.Step(g.ID, k); err != nil || st.Status != StepClosed {
		why := "it does not exist"
		if err == nil {
			why = map[string]string{StepOpen: "it is open: its report comes when it is adjudicated", StepWaiting: "it waits for its beacon round",
				StepRolledBack: "it was closed unplayed by a rollback", StepOver: "it is the end of the game, which the last report told"}[st.Status]
		}
		return a.reply(MailError, fmt.Sprintf("no report of step %d", k), fmt.Sprintf(
			"Step %d of %s has no report: %s.\nThe last report is of step %d ('report %s %d'); 'history %s' lists every step.\n",
			k, g.ID, why, last, g.ID, last, g.ID))
	}
	seat, err := viewer(a.tx, a.env, g)
	if err != nil {
		return err
	}
	r, err := in.Judge.BuildReport(a.tx, g.ID, k, seat)
	if err != nil {
		return a.reply(MailError, fmt.Sprintf("no report of step %d", k), fmt.Sprintf("The report of step %d of %s cannot be made: %v.\nTell the operator of the judge.\n", k, g.ID, err))
	}
	text := fmt.Sprintf("The report of step %d of %s, sent again as %s may see it.\n", k, g.ID, r.Reader())
	if seat == Spectator && a.env.Signed == nil {
		text += "To receive your seat's own view, send this command signed with the key that holds the seat.\n"
	}
	return a.replyReport(MailAnnouncement, r.Subject()+" (sent again)", text+"\n"+r.PlainText(), r)
}

// key answers with the judge's public signing key, attached, and its
// fingerprint.
func (in *Intake) key(a answer) error {
	k := in.JudgeKey
	if k == nil {
		return a.reply(MailError, "no judge key", "This judge signs nothing it sends: it has no key to send.\n")
	}
	text := fmt.Sprintf("The judge signs every mail it sends with the OpenPGP key %s,\n"+
		"attached to this mail as umpire-judge.asc. To check the judge's mail with it:\n\n"+
		"  gpg --import umpire-judge.asc\n"+
		"  gpg --verify report.txt         (a report's text part, saved as a file)\n\n"+
		"Reports and answers with a picture or a file are signed as a whole too\n"+
		"(PGP/MIME): mail programs that read OpenPGP show that signature.\n\n"+
		"A key mailed by the judge cannot vouch for itself: compare the fingerprint\n"+
		"above with the one your game master or the judge's operator published.\n", k.Fingerprint)
	return a.send(MailAnnouncement, "the judge's key", text, nil, a.limit(),
		File{Name: "umpire-judge.asc", Type: "application/pgp-keys", Data: k.Armored})
}
