package adjudicator

import (
	"context"
	"errors"
	"fmt"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"strconv"
	"strings"
	"time"
)

// The commands a signed message may carry instead of an order file
// (docs/game-file.md, "Commands by mail"), and whether only the game master
// may give them.
var signedCommands = map[string]bool{
	"join": false, "ready": false, "notready": false, "absence": false, "resign": false,
	"create": true, "start": true, "pause": true, "resume": true, "extend": true,
	"process": true, "replace": true, "eject": true, "roll": false, "rollback": true, "approve": true, "refuse": true,
	"press": false, "observe": false, "unobserve": false, "observers": true,
	// The read-only commands, signed: report answers with the signer's view.
	"help": false, "list": false, "games": false, "status": false, "map": false, "log": false,
	"history": false, "report": false, "key": false, "units": false,
}

type signedCmd struct {
	name   string
	args   []string
	reason string // rollback's reason
	rest   string // the text after the command line (a game file for create)
}

// signedCommand reads a command from the first non-blank, non-comment line
// of a signed text.
func signedCommand(content string) (signedCmd, bool) {
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if _, ok := signedCommands[strings.ToLower(f[0])]; !ok {
			return signedCmd{}, false
		}
		return signedCmd{name: strings.ToLower(f[0]), args: f[1:], rest: strings.Join(lines[i+1:], "\n")}, true
	}
	return signedCmd{}, false
}

// line is the command line as the judge read it.
func (c signedCmd) line() string { return strings.TrimSpace(c.name + " " + strings.Join(c.args, " ")) }

// signed carries out a signed command and answers it; GM actions are
// announced to every seat. A signed text is carried out once: the digest
// of its signed bytes is recorded, and the same text sent again (a replay
// of an old mail, whatever its Message-ID) changes nothing.
func (in *Intake) signed(ctx context.Context, a answer, c signedCmd) error {
	if in.Judge == nil {
		return a.reply(MailError, c.name+" is not available", "This judge hosts no games.\n")
	}
	digest := OrderDigest(a.env.Signed.Signed)
	rec, done, err := a.tx.Command(a.env.Signed.Fingerprint, digest)
	if err != nil {
		return fmt.Errorf("intake: read command record: %w", err)
	}
	if done {
		in.log().InfoContext(ctx, "signed command sent again, not carried out", "command", rec.Command, "key", rec.Key, "done", rec.At, "digest", digest)
		return a.reply(MailError, c.name+" already done", fmt.Sprintf(
			"This signed command was already carried out on %s: %q, signed by key %s.\n"+
				"Nothing changed.\n\n"+
				"The judge carries out each signed text once, so that nobody can undo or repeat\n"+
				"your commands by sending your old mail again. To give the same command again,\n"+
				"change its text (a comment line such as '# %s' will do) and sign it again.\n",
			stamp(rec.At), rec.Command, rec.Key, a.env.Received.UTC().Format("2006-01-02 15:04")))
	}
	if err := in.carry(ctx, &a, c); err != nil || a.failed {
		return err
	}
	game := ""
	if len(c.args) > 0 && c.name != "roll" {
		game = c.args[0]
	}
	return a.tx.PutCommand(CommandRecord{Digest: digest, Game: game, Command: c.line(), Key: a.env.Signed.Fingerprint, At: a.env.Received})
}

// carry carries out a signed command and answers it; a.failed is set when
// it was not done.
func (in *Intake) carry(ctx context.Context, a *answer, c signedCmd) error {
	env, tx, j, now := a.env, a.tx, in.Judge, a.env.Received
	key := env.Signed.Fingerprint
	fail := func(err error) error { return a.notDone(c, err) }
	if len(c.args) > 0 && c.name != "roll" && c.name != "create" {
		c.args = append([]string{gameNamed(tx, c.args[0])}, c.args[1:]...)
	}
	if readOnly[c.name] {
		return in.command(*a, command{name: c.name, args: c.args})
	}
	switch c.name {
	case "press":
		return in.press(a, c)
	case "observe", "unobserve", "observers":
		return in.observe(a, c)
	}
	usage := map[string]string{
		"join": "join GAME SEAT", "ready": "ready GAME [STEP]", "notready": "notready GAME [STEP]", "absence": "absence GAME FROM TO (dates as 2026-12-24)",
		"resign": "resign GAME", "create": "create, then the game file", "start": "start GAME", "pause": "pause GAME", "resume": "resume GAME",
		"extend": "extend GAME DURATION [STEP] (such as extend club-1 24h 7)", "process": "process GAME STEP", "replace": "replace GAME SEAT", "eject": "eject GAME SEAT",
		"roll":     `roll 2d6 FOR "purpose" TO a@example.org b@example.org`,
		"rollback": "rollback GAME STEP REASON (the reason is written into the dice log)",
		"approve":  "approve GAME SEAT",
		"refuse":   "refuse GAME SEAT",
	}[c.name]
	if c.name == "roll" {
		if env.NewKey != nil {
			return fail(fmt.Errorf("key %s is not registered with this judge: join a game first, or ask the operator to add it", key))
		}
		first := strings.TrimSpace(strings.SplitN(strings.TrimSpace(env.Signed.Content), "\n", 2)[0])
		if err := j.Roll(tx, key, env.From, first, OrderDigest(env.Signed.Signed), now); err != nil {
			return fail(err)
		}
		return nil
	}
	if c.name == "process" && len(c.args) == 1 {
		// The old form, without the step: an old or delayed mail could
		// adjudicate a later step than the game master meant.
		write := "process GAME STEP"
		if g, err := tx.Game(c.args[0]); err == nil && g.Status == Running {
			write = fmt.Sprintf("process %s %d", g.ID, g.Step)
		}
		return fail(fmt.Errorf("process now names the step it adjudicates, so that an old or delayed mail cannot adjudicate a later step: write '%s'", write))
	}
	if c.name == "rollback" && len(c.args) > 2 {
		// rollback GAME STEP REASON...: the reason goes into the dice log.
		c.reason = strings.Join(c.args[2:], " ")
		c.args = c.args[:2]
	}
	argc := map[string]int{"join": 2, "ready": 1, "notready": 1, "absence": 3, "resign": 1, "create": 0, "start": 1,
		"pause": 1, "resume": 1, "extend": 2, "process": 2, "replace": 2, "eject": 2, "rollback": 2, "approve": 2, "refuse": 2}
	optionalStep := ((c.name == "ready" || c.name == "notready") && len(c.args) == 2) || (c.name == "extend" && len(c.args) == 3)
	if len(c.args) != argc[c.name] && !optionalStep {
		return fail(fmt.Errorf("write it as: %s", usage))
	}
	if c.name == "create" {
		return in.create(a, c, key, now)
	}
	// stepOpen refuses a command for a step that is no longer open.
	stepOpen := func(g Game, arg string) error {
		k, err := strconv.ParseUint(arg, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a step number (write it as: %s)", arg, usage)
		}
		if g.Status == Running && k == g.Step {
			return nil
		}
		why := fmt.Sprintf("game %s is %s", g.ID, g.Status)
		if st, err := tx.Step(g.ID, k); err == nil && !st.Closed.IsZero() {
			why = fmt.Sprintf("it was closed on %s", stamp(st.Closed))
		} else if k > g.Step {
			why = "it has not opened yet"
		}
		open := ""
		if g.Status == Running {
			open = fmt.Sprintf("; the open step is %d", g.Step)
		}
		return fmt.Errorf("step %d of %s is not open: %s%s. Nothing was done", k, g.ID, why, open)
	}
	game := c.args[0]
	g, err := tx.Game(game)
	if errors.Is(err, ErrNotFound) {
		return fail(errors.New(noGame(tx, game, "send 'list' for the games")))
	} else if err != nil {
		return err
	}
	if signedCommands[c.name] && g.GMKey != key {
		return fail(fmt.Errorf("only the game master of %s may %s it, and key %s is not the game master's", game, c.name, key))
	}
	if env.NewKey != nil && c.name != "join" {
		return fail(fmt.Errorf("key %s holds no seat and is not the game master's", key))
	}
	switch c.name {
	case "join", "replace", "eject", "approve", "refuse":
		// the seat as the game spells it, whatever the case written
		c.args[1] = seatName(tx, game, c.args[1])
	}
	seat := ""
	if seats, err := tx.Seats(game); err == nil {
		for _, s := range seats {
			if s.Holder == key {
				seat = s.Name
			}
		}
	}
	needSeat := func() error {
		if seat == "" {
			return fmt.Errorf("key %s holds no seat of %s", key, game)
		}
		return nil
	}
	switch c.name {
	case "join":
		// A v3 join's signed bytes are the seat's contribution; its dice
		// line, if any, must be the h_1 the judge committed to. Every
		// answer to it quotes the commitments.
		join := OrderDigest(env.Signed.Signed)
		brief, err := diceBriefing(tx, game)
		if err != nil {
			return err
		}
		fail = func(err error) error { return a.notDoneWith(c, err, brief) }
		if err := checkJoin(tx, g, c.rest); err != nil {
			return fail(err)
		}
		if env.NewKey != nil {
			if err := tx.PutKey(Key{Fingerprint: key, Kind: env.NewKey.Kind, Address: env.From}, env.NewKey.Public); err != nil {
				return err
			}
		}
		if addr, ok := DKIMAddress(key); ok {
			// A mail address holds the seat: the judge writes to it, and
			// to no other address, whatever Reply-To says.
			if err := tx.PutKey(Key{Fingerprint: key, Kind: KindDKIM, Address: addr}, nil); err != nil {
				return err
			}
		}
		if f, _, err := j.settings(g); err == nil && f.JoinApproval {
			if err := j.RequestSigned(tx, game, c.args[1], key, join); err != nil {
				return fail(err)
			}
			if err := j.mailKey(tx, g, g.GMKey, MailAnnouncement, fmt.Sprintf("%s: key %s asks for seat %s", game, key, c.args[1]),
				fmt.Sprintf("Key %s (%s) asks to join %s as seat %s.\nSend 'approve %s %s' or 'refuse %s %s', signed.\n",
					key, env.From, game, c.args[1], game, c.args[1], game, c.args[1])); err != nil {
				return err
			}
			return a.reply(MailAnnouncement, "join "+game+" asked", fmt.Sprintf("Your request for seat %s of %s is with the game master, who approves every player of this game. You will hear either way.\n", c.args[1], game)+
				joinHolderNote(key)+joinNote(brief, join, ""))
		}
		if err := j.JoinSigned(tx, game, c.args[1], key, join); err != nil {
			return fail(err)
		}
		own, err := j.seatSecrets(tx, g, c.args[1])
		if err != nil {
			return err
		}
		holder := holderPhrase(key, false)
		text := fmt.Sprintf("%s now holds seat %s of %s (%s).\n"+
			"The game master and the other seats are told.\n", strings.ToUpper(holder[:1])+holder[1:], c.args[1], game, g.Title) + joinHolderNote(key) + joinNote(brief, join, own)
		// the answer is the seat's briefing: the map, its units and, in
		// a running game, its orders due with a pre-filled order file.
		if r, err := j.SeatBriefing(tx, game, c.args[1], text); err == nil {
			err = a.replyReport(MailAnnouncement, "joined "+game, r.PlainText(), r)
			if err != nil {
				return err
			}
		} else if err := a.reply(MailAnnouncement, "joined "+game, text); err != nil {
			return err
		}
		// the joiner has the answer above: one mail, not two.
		return j.AnnounceExcept(tx, game, key, "seat "+c.args[1]+" taken", fmt.Sprintf("Seat %s of %s is now held by %s.\n", c.args[1], game, holderPhrase(key, true)))
	case "ready", "notready":
		if err := needSeat(); err != nil {
			return fail(err)
		}
		if len(c.args) == 2 {
			if err := stepOpen(g, c.args[1]); err != nil {
				return fail(err)
			}
		}
		st, err := j.Ready(tx, game, seat, c.name == "ready")
		if err != nil {
			return fail(err)
		}
		text := fmt.Sprintf("Seat %s of %s is %s for step %d.\n", seat, game, map[bool]string{true: "ready", false: "not ready"}[c.name == "ready"], st.Number)
		if c.name == "ready" && allReady(st) {
			f, rules, err := j.settings(g)
			if err != nil {
				return err
			}
			if f.Schedule.early() {
				err := j.Adjudicate(ctx, tx, g, f, rules, st, dice.ClosedByReady, now)
				switch {
				case isStuck(err):
					text += stuckNote(err)
				case err != nil:
					return err
				default:
					text += "Every seat is ready: the step was adjudicated at once.\n"
				}
			}
		}
		return a.reply(MailAnnouncement, c.name+" "+game, text)
	case "absence":
		if err := needSeat(); err != nil {
			return fail(err)
		}
		from, err1 := time.Parse("2006-01-02", c.args[1])
		until, err2 := time.Parse("2006-01-02", c.args[2])
		if err1 != nil || err2 != nil {
			return fail(fmt.Errorf("dates are written 2026-12-24"))
		}
		until = until.Add(24 * time.Hour) // to the end of the last day
		if err := j.Absence(tx, game, seat, from, until); err != nil {
			return fail(err)
		}
		return a.reply(MailAnnouncement, "absence "+game, fmt.Sprintf("Seat %s of %s is absent from %s to %s: a deadline in that time waits until it ends.\n",
			seat, game, c.args[1], c.args[2]))
	case "resign":
		if err := needSeat(); err != nil {
			return fail(err)
		}
		if err := j.Vacate(tx, game, seat); err != nil {
			return fail(err)
		}
		if err := a.reply(MailAnnouncement, "resigned from "+game, fmt.Sprintf("You no longer hold seat %s of %s.\n", seat, game)); err != nil {
			return err
		}
		return j.Announce(tx, game, "seat "+seat+" vacant", fmt.Sprintf("The holder of seat %s of %s resigned. The seat is vacant until the game master gives it to someone.\n", seat, game))
	}
	// The game master's commands.
	var done string
	switch c.name {
	case "start":
		if err = j.Start(tx, game, now); err == nil {
			// the start announcement said it, to each its own
			in.log().InfoContext(ctx, "game master command", "game", game, "command", c.name)
			return nil
		}
	case "pause":
		if err = j.Pause(tx, game, now); err == nil {
			done = fmt.Sprintf("The game master paused %s. No deadline runs until it is resumed.\n", game)
		}
	case "resume":
		var d time.Time
		if d, err = j.Resume(tx, game, now); err == nil {
			done = fmt.Sprintf("The game master resumed %s. The open step is now due %s.\n", game, stamp(d))
		}
	case "extend":
		if len(c.args) == 3 {
			if err := stepOpen(g, c.args[2]); err != nil {
				return fail(err)
			}
		}
		var dur time.Duration
		if dur, err = time.ParseDuration(c.args[1]); err != nil || dur <= 0 {
			return fail(fmt.Errorf("%q is not a duration such as 24h", c.args[1]))
		}
		var d time.Time
		if d, err = j.Extend(tx, game, dur); err == nil {
			done = fmt.Sprintf("The game master extended the deadline of %s by %s: it is now %s.\n", game, dur, stamp(d))
		}
	case "process":
		n := g.Step
		if err := stepOpen(g, c.args[1]); err != nil {
			return fail(err)
		}
		if err = j.Process(ctx, tx, game, now); err == nil {
			done = fmt.Sprintf("The game master had step %d of %s adjudicated now. The report follows.\n", n, game)
		}
	case "rollback":
		k, perr := strconv.ParseUint(c.args[1], 10, 64)
		if perr != nil {
			return fail(fmt.Errorf("%q is not a step number", c.args[1]))
		}
		var n uint64
		reason := c.reason
		if reason == "" {
			reason = "no reason given"
		}
		cmdDigest := OrderDigest(env.Signed.Signed)
		if n, err = j.Rollback(tx, game, k, now, cmdDigest, reason); err == nil {
			st, _ := tx.Step(game, n)
			done = fmt.Sprintf("The game master rolled %s back to the state in which step %d opened.\nReason: %s\n"+
				"Play goes on as step %d (%s): orders are due from %s by %s. Orders sent for the\nsteps in between are not used. "+
				"The new step draws fresh dice, never a die already shown.\n"+
				"The dice log records this rollback (step %d closed unplayed) with the SHA-256 of the game master's\n"+
				"signed command, %s; every later report says so.\n",
				game, st.RestoredFrom, cleanText(reason), n, st.Phase, strings.Join(st.Owing, ", "), stamp(st.Deadline), n-1, cmdDigest)
		}
	case "approve", "refuse":
		var asked string
		if asked, err = j.Decide(tx, game, c.args[1], c.name == "approve"); err == nil {
			if c.name == "refuse" {
				if err := j.mailKey(tx, g, asked, MailAnnouncement, game+": join refused",
					fmt.Sprintf("The game master of %s did not give you seat %s.\n", game, c.args[1])); err != nil {
					return err
				}
				return a.reply(MailAnnouncement, "refused", fmt.Sprintf("Key %s's request for seat %s of %s is refused; the player is told.\n", asked, c.args[1], game))
			}
			done = fmt.Sprintf("The game master gave seat %s of %s to key %s.\n", c.args[1], game, asked)
			// the new holder of a started v3 game's seat gets what the
			// start announcement gave the others: h_2, its salt
			if own, err := j.seatSecrets(tx, g, c.args[1]); err != nil {
				return err
			} else if own != "" {
				if err := j.mailKey(tx, g, asked, MailAnnouncement, game+": you hold seat "+c.args[1]+": your order salt", own); err != nil {
					return err
				}
			}
		}
	case "replace", "eject":
		if err = j.Vacate(tx, game, c.args[1]); err == nil {
			done = fmt.Sprintf("The game master %s the holder of seat %s of %s. The seat is vacant until a new player joins it.\n",
				map[string]string{"replace": "replaced", "eject": "ejected"}[c.name], c.args[1], game)
		}
	}
	if err != nil {
		return fail(err)
	}
	in.log().InfoContext(ctx, "game master command", "game", game, "command", c.name)
	// The announcement answers the command: it goes before what the
	// command caused (the report of a step processed now).
	return j.Announce(a.out, game, c.name, done)
}

// notDone answers that command c was not done, and why, and marks the
// answer failed: the command is not recorded as carried out.
func (a *answer) notDone(c signedCmd, err error) error { return a.notDoneWith(c, err, "") }

// notDoneWith is notDone with more text after the reason (a v3 game's
// dice briefing).
func (a *answer) notDoneWith(c signedCmd, err error, more string) error {
	if ob := (*OverBudget)(nil); errors.As(err, &ob) {
		return err // not an answer: the message is set aside (budget.go)
	}
	a.failed = true
	text := fmt.Sprintf("%q was not done: %v.\n", c.line(), err)
	if more != "" {
		text += "\n" + more
	}
	return a.reply(MailError, c.name+" not done", text)
}

// create makes a game from the game file that follows the command line.
func (in *Intake) create(a *answer, c signedCmd, key string, now time.Time) error {
	env, tx, j := a.env, a.tx, in.Judge
	fail := func(err error) error {
		if ob := (*OverBudget)(nil); errors.As(err, &ob) {
			return err // not an answer: the message is set aside (budget.go)
		}
		a.failed = true
		return a.reply(MailError, "create not done", fmt.Sprintf("The game was not created: %v.\n", err))
	}
	var f *GameFile
	var err error
	if berr := j.forMessage("reading the game file", func() { f, err = ParseGameFile([]byte(c.rest), j.Games) }); berr != nil {
		return fail(berr)
	}
	if err != nil {
		return fail(err)
	}
	if rules, err := j.Games.Get(f.Game); err == nil {
		if fo, ok := rules.(FileOptions); ok {
			for _, name := range fo.FileOptions() {
				if v, ok := f.Options[name]; ok && !strings.Contains(v, "\n") {
					return fail(fmt.Errorf("option %s names a file (%q), and by mail the judge reads none of its own files: put the file's text in the option as a multi-line string, between ''' and '''", name, v))
				}
			}
		}
	}
	switch f.GM {
	case "":
		f.GM = key
	case key:
	default:
		return fail(fmt.Errorf("the game file names game master key %s, but the message is signed by %s", f.GM, key))
	}
	if env.NewKey != nil {
		if err := tx.PutKey(Key{Fingerprint: key, Kind: env.NewKey.Kind, Address: env.From}, env.NewKey.Public); err != nil {
			return err
		}
	}
	file := []byte(c.rest)
	if !strings.Contains(c.rest, "gm =") {
		file = append([]byte(fmt.Sprintf("gm = %q\n", key)), file...)
	}
	if err := j.Create(tx, f, file, now); err != nil {
		return fail(err)
	}
	sec, err := tx.DiceSecrets(f.ID)
	if err != nil {
		return err
	}
	if sec.V3() {
		brief, err := diceBriefing(tx, f.ID)
		if err != nil {
			return err
		}
		return a.reply(MailAnnouncement, "created "+f.ID, fmt.Sprintf(
			"Game %s (%s, scenario %s) is created, with you as its game master.\nSeats: %s. Players join with 'join %s SEAT', signed, with their public key attached.\n"+
				"Send 'start %s' when every seat is held.\n\n%s\n"+
				"Players should send 'status %s' first and join with these lines after the join line:\n"+
				"  dice H       (H: the h_1 above, which the judge checks)\n"+
				"  nonce X      (X: 32 to 128 lowercase hex digits from a good random source)\n"+
				"so that every step's dice depend on something made after these commitments (docs/dice-log.md).\n",
			f.ID, f.Game, f.Scenario, strings.Join(f.Seats, ", "), f.ID, f.ID, brief, f.ID))
	}
	return a.reply(MailAnnouncement, "created "+f.ID, fmt.Sprintf(
		"Game %s (%s, scenario %s) is created, with you as its game master.\nSeats: %s. Players join with 'join %s SEAT', signed, with their public key attached.\n"+
			"Send 'start %s' when every seat is held.\n\nDice commitments (published before any order exists):\n  open   %s\n  sealed %s\n",
		f.ID, f.Game, f.Scenario, strings.Join(f.Seats, ", "), f.ID, f.ID, sec.Open0, sec.Sealed0))
}
