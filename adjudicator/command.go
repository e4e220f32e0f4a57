package adjudicator

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// readOnly are the commands that anyone may send unsigned
// (docs/game-file.md, "Commands by mail"), or signed: report then answers
// with the signer's own view.
var readOnly = map[string]bool{"help": true, "list": true, "status": true, "map": true, "log": true,
	"games": true, "history": true, "report": true, "key": true}

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
		if len(f) > 0 && len(f) <= 3 && readOnly[strings.ToLower(f[0])] {
			return command{name: strings.ToLower(f[0]), args: f[1:]}, true
		}
	}
	return command{}, false
}

func (in *Intake) command(a answer, c command) error {
	switch c.name {
	case "help":
		return a.reply(MailAnnouncement, "help", helpText)
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
  games            the public games, with their status and seats
  list             the same, one line a game
  status GAME      a game's state, seats, press rules and observers
  map GAME         the map and where things stand, as every seat may see it
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
  attack 1708 from 1607 1709 with US-1AD US-3ID
  end

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
