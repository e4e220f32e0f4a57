package adjudicator

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// readOnly are the commands that anyone may send unsigned
// (docs/game-file.md, "Commands by mail"), or signed: report then answers
// with the signer's own view.
var readOnly = map[string]bool{"help": true, "list": true, "status": true, "map": true, "log": true,
	"units": true, "games": true, "history": true, "report": true, "key": true}

type command struct {
	name string
	args []string
}

// readCommand finds an unsigned read-only command in the subject (after any
// "Re:") or on the first non-blank line of the body.
func readCommand(env *Envelope) (command, bool) {
	subject := strings.TrimSpace(env.Subject)
	for more := Consuming(&subject); more(); {
		l := strings.ToLower(subject)
		if strings.HasPrefix(l, "re:") || strings.HasPrefix(l, "aw:") || strings.HasPrefix(l, "fwd:") {
			subject = strings.TrimSpace(subject[strings.IndexByte(subject, ':')+1:])
			continue
		}
		break
	}
	candidates := []string{subject}
	for _, l := range strings.Split(env.Text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			candidates = append(candidates, l)
			break
		}
	}
	for _, c := range candidates {
		f := strings.Fields(c)
		// help's topic may be a phase of several words ("help wbt NATO combat")
		if len(f) > 0 && (len(f) <= 3 || len(f) <= 8 && strings.EqualFold(f[0], "help")) && readOnly[strings.ToLower(f[0])] {
			return command{name: strings.ToLower(f[0]), args: f[1:]}, true
		}
	}
	return command{}, false
}

func (in *Intake) command(a answer, c command) error {
	if len(c.args) > 0 {
		// a game's id in any case names it
		c.args = append([]string{gameNamed(a.tx, c.args[0])}, c.args[1:]...)
	}
	switch c.name {
	case "help":
		return in.help(a, c)
	case "units":
		return in.units(a, c)
	case "games":
		return in.games(a)
	case "history":
		return in.history(a, c)
	case "report":
		return in.report(a, c)
	case "key":
		return in.key(a)
	case "list":
		games, err := listed(a.tx)
		if err != nil {
			return err
		}
		var b strings.Builder
		if len(games) == 0 {
			b.WriteString("This judge runs no games yet.\n")
		} else {
			b.WriteString("Games on this judge:\n\n")
		}
		for _, g := range games {
			fmt.Fprintf(&b, "  %-20s %-8s %-8s step %-4d %s\n", g.ID, g.Kind, g.Status, g.Step, g.Title)
		}
		return a.reply(MailAnnouncement, "list", b.String())
	case "status":
		if len(c.args) != 1 {
			return a.reply(MailError, "status needs a game", "Write 'status GAME', for example 'status club-kosovo-3'. Send 'list' for the games.\n")
		}
		g, err := a.tx.Game(c.args[0])
		if err != nil {
			return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'list' for the games"))
		}
		seats, err := a.tx.Seats(g.ID)
		if err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s (%s): %s\nStatus: %s, taking orders for step %d.\n\nSeats:\n", g.ID, g.Kind, g.Title, g.Status, g.Step)
		for _, s := range seats {
			holder := "vacant"
			if s.Holder != "" {
				holder = "held by " + holderPhrase(s.Holder, true)
			}
			fmt.Fprintf(&b, "  %-12s %s\n", s.Name, holder)
		}
		if err := stepStatus(a, g, &b); err != nil {
			return err
		}
		statusPress(a.tx, g, &b)
		brief, err := diceBriefing(a.tx, g.ID)
		if err != nil {
			return err
		}
		if brief != "" {
			fmt.Fprintf(&b, "\n%sTo join with your own contribution to the dice, sign a join with these lines after\n'join %s SEAT':\n  dice H   (H: the h_1 above)\n  nonce X  (X: 32 to 128 lowercase hex digits, such as 'openssl rand -hex 16' gives)\n", brief, g.ID)
		}
		return a.reply(MailAnnouncement, "status "+g.ID, b.String())
	case "log":
		if len(c.args) != 1 {
			return a.reply(MailError, "log needs a game", "Write 'log GAME', for example 'log club-kosovo-3', or 'log dice-service' for witnessed rolls.\n")
		}
		if _, err := a.tx.Game(c.args[0]); errors.Is(err, ErrNotFound) {
			return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'list' for the games"))
		}
		var buf bytes.Buffer
		summary, err := WritePublicLog(a.tx, c.args[0], &buf)
		if errors.Is(err, ErrNotFound) {
			return a.reply(MailError, "no dice log", fmt.Sprintf("Game %q has no dice log: it was not created by this judge.\n", c.args[0]))
		} else if err != nil {
			return err
		}
		name := c.args[0] + "-log.json"
		return a.send(MailAnnouncement, "log "+c.args[0], summary+"\n\n"+
			"The log is attached to this mail as "+name+". Save it and check it with\n\n"+
			"  umpire verify "+name+"\n\n"+
			"(add --head HEX to compare its head with the one your latest report quotes;\n"+
			"docs/dice-log.md says how to check it with a program of your own).\n",
			nil, a.limit(), File{Name: name, Type: "application/json", Data: buf.Bytes()})
	default: // map
		if len(c.args) != 1 {
			return a.reply(MailError, "map needs a game", "Write 'map GAME', for example 'map club-kosovo-3'. Send 'list' for the games.\n")
		}
		if _, err := a.tx.Game(c.args[0]); err != nil {
			return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'list' for the games"))
		}
		if in.Judge == nil {
			return a.reply(MailError, "map is not available", "This judge draws no maps.\n")
		}
		r, err := in.Judge.Snapshot(a.tx, c.args[0])
		if err != nil {
			return a.reply(MailError, "no map", fmt.Sprintf("The map of %s cannot be drawn: %v\n", c.args[0], err))
		}
		return a.replyReport(MailAnnouncement, "map "+c.args[0], r.PlainText(), r)
	}
}

const helpText = `umpire is a play-by-email judge. Everything is done by mail.

Commands anyone may send, in the subject or as the first line of the body:
  help             this text
  help GAME [TOPIC]  a game's orders: every order with its form, phase, rules
                   and an example (GAME: a kind such as wbt, or a game's id);
                   TOPIC: one order or one phase
  games            the public games, with their status and seats
  list             the same, one line a game
  status GAME      a game's state, seats, press rules and observers
  map GAME         the map and where things stand, as every seat may see it
  units GAME       the units, as you may see them: signed, your seat's own
  history GAME     the steps so far: when each opened and closed, and why
  report GAME [STEP]   a step's report again (the last one without STEP):
                   the public view, or, signed, your seat's own view
  log GAME         the game's public dice log, attached as GAME-log.json,
                   to check with umpire verify
  key              the judge's public key, to check its signatures

Signed commands (the first line of a signed text):
  join GAME SEAT          take a seat (attach your public key the first time)
  ready GAME, notready GAME, absence GAME FROM TO, resign GAME
  press GAME TO SEAT[,SEAT...]|all|gm [grey]   then your text: press to
                          other seats (and the game master), as the game allows
  observe GAME, unobserve GAME   follow a game without a seat: the public
                          view of every report (attach your key the first time)
  roll 2d6 FOR "purpose" TO a@x b@y    a witnessed roll for players anywhere
  game master: create (then the game file), start, pause, resume,
  extend GAME 24h, process GAME STEP, replace GAME SEAT, eject GAME SEAT,
  rollback GAME STEP, approve GAME SEAT, refuse GAME SEAT,
  observers GAME [allow|forbid], unobserve GAME KEY
A signed text is carried out once: to repeat a command, change its text
(a comment line such as "# 2" will do) and sign it again.

Orders are an order file, signed by the key that holds your seat:

  game: club-kosovo-3
  step: 7
  seat: NATO
  # comments start with #
  attack 1708 with US-1AD UK-1AD advance all
  attack 1709 with US-1AAA
  end

(War by Television's combat phase: each game's orders are its own; send
'help KIND' for them.)

You need not write it from nothing: when you join, when the game starts and
in every report that opens a step you owe orders for, the judge mails your
seat a briefing with the step's order file attached, pre-filled: its header,
and under a heading for each of your units or decisions the legal orders,
each commented out. Keep one line under each heading by deleting its '# ',
sign the file and send it.

Sign it with any of:
  - gpg --clearsign orders.txt, and send the signed text as the mail body;
  - PGP/MIME (your mail program's "sign" button with OpenPGP);
  - attach orders.txt and a detached signature (gpg --detach-sign -a orders.txt);
  - ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n umpire orders.txt, and attach
    orders.txt and orders.txt.sig (or paste the file then the signature).
How to make a key, send it with join and sign from your mail program
(Thunderbird, Apple Mail, Outlook, Gmail, Android phones, Proton Mail, mutt)
or a terminal, one section each: docs/signing.md.

The From address is only where answers go: the signature says who you are.
Every message gets a receipt saying what was understood. A newer signed file
for the same game, step and seat replaces the older one until the step is
adjudicated.
`

// help answers 'help' (the judge's commands, the games it hosts), 'help
// GAME' (the game's orders, from the table its parser looks verbs up in)
// and 'help GAME TOPIC' (one order or one phase). GAME is a kind, such as
// wbt, or a hosted game's id.
func (in *Intake) help(a answer, c command) error {
	var reg Registry
	if in.Judge != nil {
		reg = in.Judge.Games
	}
	kinds := slices.Sorted(maps.Keys(reg))
	if len(c.args) == 0 {
		var b strings.Builder
		b.WriteString(helpText)
		if len(kinds) > 0 {
			b.WriteString("\nThe games this judge hosts; send 'help KIND' for one's orders:\n")
			for _, k := range kinds {
				fmt.Fprintf(&b, "  %-10s %s\n", k, reg[k].Title())
			}
			b.WriteString("'help KIND TOPIC' answers one order or one phase (the topics end 'help KIND').\n")
		}
		return a.reply(MailAnnouncement, "help", b.String())
	}
	kind, id := strings.ToLower(c.args[0]), ""
	if _, ok := reg[kind]; !ok {
		if g, err := a.tx.Game(c.args[0]); err == nil {
			kind, id = g.Kind, g.ID
		}
	}
	rules, ok := reg[kind]
	if !ok {
		names := slices.Clone(kinds)
		if games, err := listed(a.tx); err == nil {
			for _, g := range games {
				names = append(names, g.ID)
			}
		}
		text := fmt.Sprintf("This judge hosts no game %q.", c.args[0])
		if near := Nearest(c.args[0], names); len(near) > 0 {
			text += " Did you mean " + strings.Join(near, " or ") + "?"
		}
		return a.reply(MailError, "help: no such game", text+"\nThe games it hosts: "+strings.Join(kinds, ", ")+". Send 'help' for the commands.\n")
	}
	gr, ok := rules.(Grammar)
	if !ok {
		return a.reply(MailError, "help: no order table", fmt.Sprintf("%s has no order table the judge can mail: see docs/orders-%s.md.\n", rules.Title(), kind))
	}
	vs := gr.Verbs()
	about := kind
	if id != "" {
		about = fmt.Sprintf("%s, the game of %s", kind, id)
	}
	if len(c.args) == 1 {
		return a.reply(MailAnnouncement, "help "+kind, vs.Help(kind, rules.Title(), about))
	}
	topic := strings.Join(c.args[1:], " ")
	if text, ok := vs.Topic(kind, topic); ok {
		return a.reply(MailAnnouncement, "help "+kind+" "+strings.ToLower(topic), text)
	}
	text := fmt.Sprintf("%s has no order or phase %q.", rules.Title(), topic)
	if near := Nearest(topic, vs.Topics()); len(near) > 0 {
		text += " Did you mean " + strings.Join(near, " or ") + "?"
	}
	return a.reply(MailError, "help: no such topic", text+fmt.Sprintf("\nThe topics:\n%sSend 'help %s' for all its orders.\n", wrapList(vs.Topics()), kind))
}

// units answers 'units GAME' with the units as the asker may see them: a
// seat's holder, signed, its own seat's units (then the others it may
// see); anyone else the public list. It lists what the game's reports
// list: the units table of its Situation.
func (in *Intake) units(a answer, c command) error {
	if len(c.args) != 1 {
		return a.reply(MailError, "units needs a game", "Write 'units GAME', for example 'units club-kosovo-3'. Send 'list' for the games.\n")
	}
	g, err := a.tx.Game(c.args[0])
	if errors.Is(err, ErrNotFound) {
		return a.reply(MailError, "no such game", noGameReply(a.tx, c.args[0], "send 'list' for the games"))
	} else if err != nil {
		return err
	}
	if in.Judge == nil {
		return a.reply(MailError, "units is not available", "This judge hosts no games.\n")
	}
	rules, err := in.Judge.Games.Get(g.Kind)
	if err != nil {
		return a.reply(MailError, "units is not available", fmt.Sprintf("The units of %s cannot be listed: %v.\n", g.ID, err))
	}
	st, err := a.tx.Step(g.ID, g.Step)
	if err != nil {
		return a.reply(MailError, "no units yet", fmt.Sprintf("Game %s has not started: it has no units on the map yet.\nSend 'status %s' to see where it stands.\n", g.ID, g.ID))
	}
	rep, ok := rules.(Reporter)
	if !ok {
		return a.reply(MailError, "units is not available", fmt.Sprintf("%s does not list its units: its reports tell what happened only.\n", rules.Title()))
	}
	seat, err := viewer(a.tx, a.env, g)
	if err != nil {
		return err
	}
	sit, err := situation(rep, st.State, seat)
	if err != nil {
		return a.reply(MailError, "units: cannot be listed", fmt.Sprintf("The units of %s cannot be listed: %v.\nTell the operator of the judge.\n", g.ID, err))
	}
	var b strings.Builder
	reader := "the public view: what every seat may see"
	switch seat {
	case "":
		reader = "the game master's view"
	case Spectator:
	default:
		reader = seat + "'s view"
	}
	fmt.Fprintf(&b, "The units of %s at step %d (%s), %s.\n", g.ID, st.Number, st.Phase, reader)
	if len(sit.Units) == 0 {
		fmt.Fprintf(&b, "\nThere are none to list at this step. Send 'map %s' for the map.\n", g.ID)
	}
	own, others := sit.Units, []Unit(nil)
	if seat != "" && seat != Spectator {
		sides := []string{seat}
		if ss, ok := rules.(SeatSides); ok {
			sides = ss.SeatSides(seat)
		}
		own, others = nil, nil
		for _, u := range sit.Units {
			if slices.ContainsFunc(sides, func(s string) bool { return strings.EqualFold(u.Side, s) }) {
				own = append(own, u)
			} else {
				others = append(others, u)
			}
		}
		fmt.Fprintf(&b, "\nYour units (%s):\n", seat)
		if len(own) == 0 {
			b.WriteString("  none on the map\n")
		}
		writeUnits(&b, own)
		if len(others) > 0 {
			b.WriteString("\nThe other units you may see:\n")
			writeUnits(&b, others)
		}
	} else if len(own) > 0 {
		b.WriteString("\n")
		writeUnits(&b, own)
	}
	if len(sit.Hand) > 0 {
		fmt.Fprintf(&b, "\nYour hand: %s\n", strings.Join(sit.Hand, ", "))
	}
	if seat == Spectator && a.env.Signed == nil {
		b.WriteString("\nSigned with the key that holds a seat, this command answers with that seat's own units first.\n")
	}
	return a.reply(MailAnnouncement, "units "+g.ID, b.String())
}

// writeUnits writes units as the reports' units table does: side, id,
// type, where, strength, status.
func writeUnits(b *strings.Builder, units []Unit) {
	for _, u := range units {
		fmt.Fprintf(b, "  %-15s %-13s %-14s %-8s %s  %s\n", u.Side, u.ID, u.Type, u.Where, u.Strength, u.Status)
	}
}

// stepStatus writes the step open in g as the asker may see it: its
// phase, deadline, who owes orders and who said ready, and for a seat's
// holder, signed, what the step asks of that seat.
func stepStatus(a answer, g Game, b *strings.Builder) error {
	st, err := a.tx.Step(g.ID, g.Step)
	if errors.Is(err, ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	fmt.Fprintf(b, "\nStep %d: %s (%s).\n", st.Number, st.Phase, st.Status)
	if st.Status != StepOpen {
		return nil
	}
	if !st.Deadline.IsZero() {
		fmt.Fprintf(b, "Deadline: %s.\n", st.Deadline.UTC().Format("Mon 2 Jan 2006 15:04 MST"))
	}
	if len(st.Owing) > 0 {
		fmt.Fprintf(b, "Orders owed by: %s.\n", strings.Join(st.Owing, ", "))
	}
	ready := "nobody yet"
	if len(st.Ready) > 0 {
		ready = strings.Join(st.Ready, ", ")
	}
	fmt.Fprintf(b, "Ready: %s.\n", ready)
	seat, err := viewer(a.tx, a.env, g)
	if err != nil {
		return err
	}
	if seat == "" || seat == Spectator {
		return nil
	}
	switch {
	case !slices.Contains(st.Owing, seat):
		fmt.Fprintf(b, "You (%s) owe no orders this step.\n", seat)
	case slices.Contains(st.Ready, seat):
		fmt.Fprintf(b, "You (%s) are ready for this step.\n", seat)
	default:
		def := st.NoOrders[seat]
		if def == "" {
			def = "the game's default"
		}
		fmt.Fprintf(b, "You (%s) owe orders for step %d; no orders by the deadline means: %s.\nSend 'help %s' for the orders, 'units %s' for your units.\n", seat, st.Number, def, g.Kind, g.ID)
	}
	return nil
}
