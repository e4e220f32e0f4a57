package adjudicator

import (
	"errors"
	"fmt"
	"strings"
)

// Observers follow a game without a seat: any key may send observe GAME
// (signed, with the key attached the first time) and is then mailed the
// public view of every report (Spectator: what every seat may see, never a
// hand, a sealed value or a seat's orders) and, unless the game says
// otherwise, the press sent to every seat. The game master may forbid
// observers (the game file's observers = false, or observers GAME forbid)
// and remove one (unobserve GAME KEY).

// observe carries out observe, unobserve and observers.
func (in *Intake) observe(a *answer, c signedCmd) error {
	env, tx := a.env, a.tx
	key := env.Signed.Fingerprint
	usage := map[string]string{"observe": "observe GAME", "unobserve": "unobserve GAME (the game master: unobserve GAME KEY)",
		"observers": "observers GAME [allow|forbid]"}[c.name]
	most := map[string]int{"observe": 1, "unobserve": 2, "observers": 2}[c.name]
	if len(c.args) < 1 || len(c.args) > most {
		return a.notDone(c, fmt.Errorf("write it as: %s", usage))
	}
	game := c.args[0]
	g, err := tx.Game(game)
	if errors.Is(err, ErrNotFound) {
		return a.notDone(c, errors.New(noGame(tx, game, "send 'games' for the games")))
	} else if err != nil {
		return err
	}
	gm := key == g.GMKey
	if (c.name == "observers" || len(c.args) == 2) && !gm {
		return a.notDone(c, fmt.Errorf("only the game master of %s may %s, and key %s is not the game master's", game, usage, key))
	}
	if env.NewKey != nil && c.name != "observe" {
		return a.notDone(c, fmt.Errorf("key %s is new to this judge: it observes no game", key))
	}
	switch {
	case c.name == "observe":
		if g.Kind == DiceService {
			return a.notDone(c, fmt.Errorf("the dice service is not a game: its rolls go to the parties they name, and its log is public ('log %s')", DiceService))
		}
		if g.NoObservers {
			return a.notDone(c, fmt.Errorf("the game master of %s does not allow observers", game))
		}
		if gm {
			return a.notDone(c, fmt.Errorf("you are the game master of %s: you receive every report already, with everything in it", game))
		}
		if seat, err := seatOf(tx, game, key); err != nil {
			return err
		} else if seat != "" {
			return a.notDone(c, fmt.Errorf("your key holds seat %s of %s: your seat's reports come to you already (resign the seat first to observe instead)", seat, game))
		}
		if env.NewKey != nil {
			if err := tx.PutKey(Key{Fingerprint: key, Kind: env.NewKey.Kind, Address: env.From}, env.NewKey.Public); err != nil {
				return err
			}
		}
		if err := tx.PutObserver(Observer{Game: game, Key: key, Since: env.Received}); err != nil {
			return err
		}
		if err := in.Judge.mailKey(tx, g, g.GMKey, MailAnnouncement, game+": a new observer",
			fmt.Sprintf("Key %s (%s) now observes %s: it receives the public view of every report.\n"+
				"To remove it, send 'unobserve %s %s' signed; 'observers %s forbid' removes every\nobserver and lets no new one in.\n",
				key, env.From, game, game, key, game)); err != nil {
			return err
		}
		return a.reply(MailAnnouncement, "observing "+game, fmt.Sprintf(
			"Key %s now observes %s (%s).\n\n"+
				"You will receive the public view of every report: what every seat may see, with\n"+
				"the map, and never a seat's hand, sealed dice or orders.%s\n"+
				"Send 'report %s' for the last report, 'history %s' for the steps so far, and\n"+
				"'unobserve %s' (signed) to stop. The game master is told who observes.\n",
			key, game, g.Title, pressToObservers(g), game, game, game))
	case c.name == "unobserve" && len(c.args) == 1:
		ok, err := tx.DeleteObserver(game, key)
		if err != nil {
			return err
		}
		if !ok {
			return a.notDone(c, fmt.Errorf("key %s does not observe %s", key, game))
		}
		return a.reply(MailAnnouncement, "no longer observing "+game, fmt.Sprintf("Key %s no longer observes %s: no more of its reports come to you.\n", key, game))
	case c.name == "unobserve":
		who := c.args[1]
		ok, err := tx.DeleteObserver(game, who)
		if err != nil {
			return err
		}
		if !ok {
			return a.notDone(c, fmt.Errorf("key %q does not observe %s; send 'observers %s' for the observers", who, game, game))
		}
		if err := in.Judge.mailKey(tx, g, who, MailAnnouncement, game+": you no longer observe it",
			fmt.Sprintf("The game master of %s removed you from its observers: no more of its reports come to you.\n", game)); err != nil {
			return err
		}
		return a.reply(MailAnnouncement, "observer removed", fmt.Sprintf("Key %s no longer observes %s; it is told.\n", who, game))
	}
	// observers GAME [allow|forbid]
	obs, err := tx.Observers(game)
	if err != nil {
		return err
	}
	var b strings.Builder
	if len(c.args) == 2 {
		switch strings.ToLower(c.args[1]) {
		case "allow":
			g.NoObservers = false
			b.WriteString(fmt.Sprintf("Observers may now follow %s ('observe %s', signed).\n", game, game))
		case "forbid":
			g.NoObservers = true
			for _, o := range obs {
				if _, err := tx.DeleteObserver(game, o.Key); err != nil {
					return err
				}
				if err := in.Judge.mailKey(tx, g, o.Key, MailAnnouncement, game+": you no longer observe it",
					fmt.Sprintf("The game master of %s no longer allows observers: no more of its reports come to you.\n", game)); err != nil {
					return err
				}
			}
			fmt.Fprintf(&b, "%s allows no observers now; the %d who observed were removed and told.\n", game, len(obs))
			obs = nil
		default:
			return a.notDone(c, fmt.Errorf("%q: write 'observers %s allow' or 'observers %s forbid'", c.args[1], game, game))
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
	}
	if g.NoObservers && len(c.args) == 1 {
		b.WriteString(fmt.Sprintf("%s allows no observers ('observers %s allow' lets them in).\n", game, game))
	}
	if len(obs) == 0 {
		b.WriteString("Nobody observes it.\n")
	} else {
		fmt.Fprintf(&b, "Its observers (%d):\n", len(obs))
		for _, o := range obs {
			addr := ""
			if k, err := tx.Key(o.Key); err == nil {
				addr = k.Address
			}
			fmt.Fprintf(&b, "  %s  %s, since %s\n", o.Key, addr, stamp(o.Since))
		}
		fmt.Fprintf(&b, "'unobserve %s KEY' removes one.\n", game)
	}
	return a.reply(MailAnnouncement, "observers of "+game, b.String())
}

// seatOf returns the seat of game that key holds, or "".
func seatOf(tx Tx, game, key string) (string, error) {
	seats, err := tx.Seats(game)
	if err != nil {
		return "", err
	}
	for _, s := range seats {
		if s.Holder == key {
			return s.Name, nil
		}
	}
	return "", nil
}

// pressToObservers says whether press to every seat reaches g's observers.
func pressToObservers(g Game) string {
	p := visibilityOf(g).Press
	if p.To == PressNone || !on(p.Observers) {
		return ""
	}
	return "\nPress a seat sends to every seat reaches you too."
}

// statusPress writes what status says of g's press and observers.
func statusPress(tx Tx, g Game, b *strings.Builder) {
	p := visibilityOf(g).Press
	to := map[string]string{PressNone: "none between seats (the game master may still write to all)",
		PressGM: "seats may write to the game master only", PressAll: "seats may write to all seats at once (and to the game master)",
		PressPrivate: "seats may write to any seats, or to all"}[p.To]
	fmt.Fprintf(b, "\nPress: %s.", to)
	if p.To != PressNone {
		switch p.Grey {
		case GreyYes:
			b.WriteString(" Grey press (the sender not named) is allowed.")
		case GreyOnly:
			b.WriteString(" All press is grey: the players are not told who sent it.")
		}
		if !on(p.GMCopy) {
			b.WriteString(" The game master does not read press between seats.")
		}
		if !on(p.Paused) {
			b.WriteString(" None while the game is paused.")
		}
		if !on(p.Ended) {
			b.WriteString(" None after the game ends.")
		}
	}
	b.WriteString("\n")
	obs, _ := tx.Observers(g.ID)
	if g.NoObservers {
		b.WriteString("Observers: not allowed.\n")
	} else {
		fmt.Fprintf(b, "Observers: %d ('observe %s', signed, to follow the game).\n", len(obs), g.ID)
	}
}
