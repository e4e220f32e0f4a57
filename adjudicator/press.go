package adjudicator

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Press is what players of the email Diplomacy judges call the letters
// they send each other through the judge. A seat (or the game master)
// signs
//
//	press GAME TO SEAT[,SEAT...]|all|gm [grey]
//	the text, on the lines below, up to the end or a line "endpress"
//
// and the judge relays the text to the seats named (all: every seat; gm:
// the game master) and to the game master, unless the game file's [press]
// says otherwise (PressRules: to whom seats may write, grey press, the game
// master's copy, observers, while paused, after the end). The sender's seat
// is named, except in grey press, where only the game master is told. The
// press is stored with the game; it is never read as orders and never
// enters a step. The judge writes nothing of its own into press but the
// game, the seats' names and the step: no hand, no sealed value, no order.
// A press counts once against its sender in the hourly reply limit,
// however many read it, and never against its readers.

// MaxPress is the longest press text, in bytes, that the judge relays.
const MaxPress = 20000

// pressReader is one reader of a press.
type pressReader struct {
	key      string
	seat     string // the reader's seat; "" for the game master or an observer
	gm       bool
	observer bool
}

// press relays a press and answers its sender.
func (in *Intake) press(a *answer, c signedCmd) error {
	env, tx := a.env, a.tx
	key := env.Signed.Fingerprint
	const usage = "press GAME TO SEAT[,SEAT...] (or all, or gm) [grey], then the text on the lines below"
	if len(c.args) < 3 || !strings.EqualFold(c.args[1], "to") {
		return a.notDone(c, fmt.Errorf("write it as: %s", usage))
	}
	game := c.args[0]
	g, err := tx.Game(game)
	if errors.Is(err, ErrNotFound) {
		return a.notDone(c, errors.New(noGame(tx, game, "send 'games' for the games")))
	} else if err != nil {
		return err
	}
	rules := visibilityOf(g).Press
	gm := key == g.GMKey
	sender, err := seatOf(tx, game, key)
	if err != nil {
		return err
	}
	if !gm && sender == "" {
		return a.notDone(c, fmt.Errorf("key %s holds no seat of %s and is not its game master: only they send press (observers read the press sent to all)", key, game))
	}
	seats, err := tx.Seats(game)
	if err != nil {
		return err
	}
	words := slices.Clone(c.args[2:])
	grey, white := false, false
	switch strings.ToLower(words[len(words)-1]) {
	case "grey", "gray":
		grey, words = true, words[:len(words)-1]
	case "white":
		white, words = true, words[:len(words)-1]
	}
	var to []string
	broadcast, toGM := false, false
	names := make([]string, 0, len(seats))
	for _, s := range seats {
		names = append(names, s.Name)
	}
	for _, n := range strings.Split(strings.Join(words, ","), ",") {
		switch n = strings.TrimSpace(n); {
		case n == "":
		case strings.EqualFold(n, "all"):
			broadcast = true
		case strings.EqualFold(n, "gm"):
			toGM = true
		default:
			i := slices.IndexFunc(names, func(s string) bool { return strings.EqualFold(s, n) })
			if i < 0 {
				return a.notDone(c, fmt.Errorf("%s has no seat %q: its seats are %s; or write all (every seat) or gm (the game master)", game, n, strings.Join(names, ", ")))
			}
			if names[i] != sender && !slices.Contains(to, names[i]) {
				to = append(to, names[i])
			}
		}
	}
	if broadcast {
		to = nil
	}
	if gm {
		toGM = false // the game master writing to itself
	}
	if !broadcast && !toGM && len(to) == 0 {
		return a.notDone(c, fmt.Errorf("the press names no reader but yourself: write 'press %s TO SEAT', 'TO all' or 'TO gm'", game))
	}
	text, err := pressText(c.rest)
	if err != nil {
		return a.notDone(c, err)
	}
	if gm {
		if grey {
			return a.notDone(c, fmt.Errorf("the game master's press always names the game master: leave out grey"))
		}
	} else {
		if err := rules.allows(g, broadcast, toGM, len(to) > 0); err != nil {
			return a.notDone(c, err)
		}
		switch rules.Grey {
		case GreyNo:
			if grey {
				return a.notDone(c, fmt.Errorf("%s allows no grey press: its press always names the sending seat; leave out grey", game))
			}
		case GreyOnly:
			if white {
				return a.notDone(c, fmt.Errorf("all press in %s is grey: the players are never told who sent it; leave out white", game))
			}
			grey = true
		}
	}
	// The readers: the seats named (or every seat), the game master, and
	// for press to all the observers.
	var readers []pressReader
	var vacant []string
	for _, s := range seats {
		if s.Name == sender || !broadcast && !slices.Contains(to, s.Name) {
			continue
		}
		if s.Holder == "" {
			vacant = append(vacant, s.Name)
			continue
		}
		readers = append(readers, pressReader{key: s.Holder, seat: s.Name})
	}
	gmCopy := !gm && !toGM && on(rules.GMCopy)
	if !gm && (toGM || gmCopy) {
		readers = append(readers, pressReader{key: g.GMKey, gm: true})
	}
	if broadcast && on(rules.Observers) {
		obs, err := tx.Observers(game)
		if err != nil {
			return err
		}
		for _, o := range obs {
			readers = append(readers, pressReader{key: o.Key, observer: true})
		}
	}
	var keys []string
	var delivered []pressReader
	for _, r := range readers {
		if k, err := tx.Key(r.key); err != nil || k.Address == "" || slices.Contains(keys, r.key) {
			continue
		}
		keys = append(keys, r.key)
		delivered = append(delivered, r)
	}
	switch {
	case len(delivered) == 0 && len(vacant) > 0:
		return a.notDone(c, fmt.Errorf("nobody would read it: seat %s is vacant", strings.Join(vacant, ", ")))
	case len(delivered) == 0:
		return a.notDone(c, fmt.Errorf("nobody would read it: the judge knows no address of its readers"))
	}
	p := Press{Game: game, At: env.Received, Step: g.Step, From: sender, Key: key, Grey: grey, To: to, Broadcast: broadcast,
		Readers: keys, Text: text, Digest: OrderDigest(env.Signed.Signed)}
	if toGM {
		p.To = append(p.To, "gm")
	}
	n, err := tx.AddPress(p)
	if err != nil {
		return err
	}
	observers := 0
	for _, r := range delivered {
		k, _ := tx.Key(r.key)
		if r.observer {
			observers++
		}
		// Every relay counts against the sender, once for the message.
		if err := tx.Enqueue(Mail{Kind: MailPress, Game: game, To: k.Address, Subject: "umpire: " + p.subject(r.gm),
			Text: p.letter(g, n, r.gm, gmCopy, broadcast && on(rules.Observers)), Limit: a.limit()}); err != nil {
			return err
		}
	}
	var went []string
	for _, r := range delivered {
		switch {
		case r.gm && gmCopy:
			went = append(went, "the game master (a copy)")
		case r.gm:
			went = append(went, "the game master")
		case !r.observer:
			went = append(went, "seat "+r.seat)
		}
	}
	if observers > 0 {
		went = append(went, fmt.Sprintf("%d observer(s)", observers))
	}
	reply := fmt.Sprintf("Your press #%d in %s went to %s.\n", n, game, strings.Join(went, ", "))
	if len(vacant) > 0 {
		reply += fmt.Sprintf("Nobody holds seat %s: nobody read it there.\n", strings.Join(vacant, ", "))
	}
	if grey {
		reply += "It is grey press: the players who read it are not told which seat sent it; the game master is.\n"
	}
	reply += "\nAs the seats read it:\n\n" + indentLines(p.letter(g, n, false, gmCopy, broadcast && on(rules.Observers)), "  ")
	return a.reply(MailAnnouncement, fmt.Sprintf("press #%d sent", n), reply)
}

// allows refuses a seat's press that the game's press rules do not allow.
func (p PressRules) allows(g Game, broadcast, toGM, toSeats bool) error {
	switch {
	case g.Status == Paused && !on(p.Paused):
		return fmt.Errorf("%s is paused, and its press rules allow no press while it is paused: send it once a 'resume' is announced", g.ID)
	case g.Status == Ended && !on(p.Ended):
		return fmt.Errorf("%s has ended, and its press rules allow no press after the end", g.ID)
	}
	switch p.To {
	case PressNone:
		return fmt.Errorf("%s is a game without press (press.to = \"none\")", g.ID)
	case PressGM:
		if broadcast || toSeats {
			return fmt.Errorf("in %s the seats may write to the game master only: write 'press %s TO gm'", g.ID, g.ID)
		}
	case PressAll:
		if toSeats {
			return fmt.Errorf("in %s press goes to every seat at once or to the game master, never to some seats: write 'press %s TO all' or 'TO gm'", g.ID, g.ID)
		}
	}
	return nil
}

// pressText is the text of a press: the lines after the command line, up
// to a line "endpress", without blank lines around it and without control
// characters but tabs.
func pressText(rest string) (string, error) {
	lines := strings.Split(strings.ReplaceAll(rest, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if strings.EqualFold(strings.TrimSpace(l), "endpress") {
			lines = lines[:i]
			break
		}
	}
	text := strings.Trim(strings.Join(lines, "\n"), "\n")
	text = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, strings.ToValidUTF8(text, "\uFFFD"))
	switch {
	case strings.TrimSpace(text) == "":
		return "", fmt.Errorf("it has no text: write the press on the lines after the command line")
	case len(text) > MaxPress:
		return "", fmt.Errorf("its text is %d bytes, and the judge relays press of up to %d: send it in parts", len(text), MaxPress)
	}
	return text, nil
}

// subject is the subject of the press's mail to the game master (gm) or to
// any other reader.
func (p Press) subject(gm bool) string {
	switch {
	case p.From == "":
		return p.Game + " press from the game master"
	case p.Grey && !gm:
		return p.Game + " press (grey)"
	case p.Grey:
		return p.Game + " press (grey) from seat " + p.From
	}
	return p.Game + " press from seat " + p.From
}

// letter is the press as the judge mails it to a reader: the game master
// (gm) sees who sent grey press, nobody else does.
func (p Press) letter(g Game, n uint64, gm, gmCopy, observers bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Press #%d in %s (%s), sent at step %d, %s.\n", n, g.ID, g.Title, p.Step, stamp(p.At))
	switch {
	case p.From == "":
		b.WriteString("From: the game master\n")
	case p.Grey && !gm:
		b.WriteString("From: a seat of the game, not named (grey press)\n")
	case p.Grey:
		fmt.Fprintf(&b, "From: seat %s (grey press: the seats who read it are not told who sent it)\n", p.From)
	default:
		fmt.Fprintf(&b, "From: seat %s\n", p.From)
	}
	var to []string
	for _, s := range p.To {
		if s == "gm" {
			to = append(to, "the game master")
		} else {
			to = append(to, "seat "+s)
		}
	}
	if p.Broadcast {
		all := "every seat"
		if observers {
			all += " and the game's observers"
		}
		to = append([]string{all}, to...)
	}
	fmt.Fprintf(&b, "To: %s\n", strings.Join(to, ", "))
	if gmCopy {
		b.WriteString("The game master reads a copy.\n")
	}
	b.WriteString("\n" + p.Text + "\n\n")
	fmt.Fprintf(&b, "(The judge relays press as its sender wrote it and has not checked it: it is\n"+
		"not an order and changes nothing in the game. To answer, sign\n'press %s TO SEAT' (or 'TO all', 'TO gm') with your text below it.)\n", g.ID)
	return b.String()
}
