package adjudicator

import (
	"context"
	"io"
	"slices"

	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// Tx is what intake reads and writes in the one store transaction that also
// records the message as consumed.
type Tx interface {
	Game(id string) (Game, error)
	Games() ([]Game, error)
	PutGame(g Game) error
	Seat(game, name string) (Seat, error)
	Seats(game string) ([]Seat, error)
	PutSeat(s Seat) error
	Key(fingerprint string) (Key, error)
	PutKey(k Key, public []byte) error
	Step(game string, n uint64) (StepRecord, error)
	PutStep(s StepRecord) error
	LatestOrders(game string, step uint64) ([]OrderFile, error)
	OrderVersion(game string, step uint64, seat string, version uint64) (OrderFile, error)
	AddEvents(game string, step uint64, events []Event) error
	Events(game string, step uint64) ([]Event, error)
	DiceSecrets(game string) (DiceSecrets, error)
	PutDiceSecrets(game string, s DiceSecrets) error
	DiceHead(game string) (dice.Hash, uint64, error)
	AddDiceRecords(game string, records []legacy.EntryRecord) error
	PutStepLinks(game string, step uint64, phase string, orders []dice.Hash, digest dice.Hash, open, sealed *dice.Hash) error
	// ExportLog is a v1 game's public dice log (docs/dice-log.md, appendix).
	ExportLog(game string) (*legacy.Export, error)
	// The umpire-dice-v2 or -v3 log of a game (docs/dice-log.md).
	DiceLedger(game string) (dice.Ledger, error)
	// DiceRecord returns record n of it (1: the header).
	DiceRecord(game string, n uint64) (dice.Record, error)
	AddDiceLog(game string, records []dice.Record) error
	// StepDice returns step k's step record and draws (nil: none).
	StepDice(game string, k uint64) (*dice.Record, []dice.Record, error)
	// StreamSteps lists the steps that drew from hidden stream name.
	StreamSteps(game, name string) ([]uint64, error)
	DiceReveals(game string) ([]dice.KeyReveal, error)
	DiceRollbacks(game string) ([]dice.Rollback, error)
	// WriteDiceLog writes the public export of a v2 game's log.
	WriteDiceLog(game string, w io.Writer) (dice.Hash, error)
	AddOrderFile(o OrderFile) (version uint64, err error)
	// OrderDigestVersion returns the version of seat's orders for step
	// with digest d (0 if none) and the newest version (0 if none).
	OrderDigestVersion(game string, step uint64, seat string, d dice.Hash) (version, latest uint64, err error)
	AddReceipt(r Receipt) error
	Enqueue(m Mail) error
	RecordBounce(b Bounce) error
	// Command returns the record of the signed command that key signed
	// whose signed bytes have digest d; ok is false when none was carried
	// out.
	Command(key string, d dice.Hash) (c CommandRecord, ok bool, err error)
	// PutCommand records a signed command that was carried out.
	PutCommand(c CommandRecord) error
	// A game's observers (observe.go): PutObserver keeps the first date
	// of a key that observes already; DeleteObserver's ok is false when
	// key was none.
	Observers(game string) ([]Observer, error)
	PutObserver(o Observer) error
	DeleteObserver(game, key string) (ok bool, err error)
	// AddPress stores press with the game (press.go) and returns its
	// number in the game.
	AddPress(p Press) (uint64, error)
	// Archived returns the record of game id if the operator archived it
	// (archived.go); ok is false when it was not.
	Archived(id string) (a ArchivedGame, ok bool, err error)
}

// Outcome says what intake made of a message.
type Outcome int

// The outcomes of intake.
const (
	// Understood messages were acted on or answered: orders accepted or
	// refused for a reason of the game, commands, automatic mail recorded.
	Understood Outcome = iota
	// Refused messages could not be acted on: unreadable, unsigned, a bad
	// signature, an unknown key, too large. They are answered and kept apart.
	Refused
)

// Intake turns incoming messages into order files and answers.
type Intake struct {
	Logger *slog.Logger
	// Judge checks orders against the games' rules and runs the steps; with
	// none, order files are checked for game, step, seat and signature only.
	Judge *Judge
	// JudgeKey is the judge's public signing key, which the key command
	// sends; nil when the judge signs nothing.
	JudgeKey *JudgeKey
}

// Handle decides what env means, writes its effects through tx and queues
// the answer. It returns an error only when tx fails: everything a player can
// send gets an answer instead.
//
// The answer to the message is queued before anything the message causes
// (the report of a step its orders completed, announcements): a player
// reads the receipt for his orders before the report they led to.
func (in *Intake) Handle(ctx context.Context, tx Tx, env *Envelope) (Outcome, error) {
	later := &deferred{Tx: tx}
	o, err := in.handle(ctx, answer{tx: later, out: tx, env: env}, env)
	if err != nil {
		return o, err
	}
	return o, later.flush()
}

// deferred is the Tx intake works through: the mails queued through it
// wait until flush, after the answer, which goes to the store at once.
type deferred struct {
	Tx
	mails []Mail
}

func (d *deferred) Enqueue(m Mail) error {
	d.mails = append(d.mails, m)
	return nil
}

func (d *deferred) flush() error {
	for _, m := range d.mails {
		if err := d.Tx.Enqueue(m); err != nil {
			return err
		}
	}
	d.mails = nil
	return nil
}

func (in *Intake) handle(ctx context.Context, a answer, env *Envelope) (Outcome, error) {
	tx := a.tx
	switch {
	case env.Bounce != nil:
		in.log().InfoContext(ctx, "bounce recorded", "original", env.Bounce.OriginalMessageID, "recipient", env.Bounce.Recipient, "status", env.Bounce.Status)
		return Understood, tx.RecordBounce(*env.Bounce)
	case env.Automatic != "":
		in.log().InfoContext(ctx, "automatic mail not answered", "from", env.From, "why", env.Automatic)
		return Understood, nil
	case env.Unreadable != "":
		return Refused, a.reply(MailError, "could not read your message",
			"Your message could not be read: "+env.Unreadable+".\n\n"+
				"Please send your order file as plain text in the body of the mail, or as a\n"+
				"text attachment, signed as explained in the 'help' reply.\n")
	case env.TooLarge:
		why := fmt.Sprintf("Your message is %d bytes; the judge reads messages of up to %d bytes.", env.Size, env.Limit)
		if env.TooLargeWhy != "" {
			why = "Your message is too large for the judge: " + env.TooLargeWhy + "."
		}
		return Refused, a.reply(MailError, "message too large", why+"\n\n"+
			"Order files are small: please send the order file alone, without pictures\n"+
			"or other attachments.\n")
	}
	if env.Signed == nil {
		if cmd, ok := readCommand(env); ok {
			return Understood, in.command(a, cmd)
		}
		// In a game that lets a mail address hold a seat, the DKIM
		// signature of the address's provider stands for a key's.
		if env.DKIM != nil || env.DKIMProblem != "" {
			if g, ok := dkimGame(a.tx, env); ok {
				if env.DKIM == nil {
					return Refused, dkimRefusal(a, g, env.DKIMProblem)
				}
				env.Signed = env.DKIM
			}
		}
	}
	switch {
	case env.UnknownKey != "":
		return Refused, a.reply(MailError, "signed by an unknown key",
			fmt.Sprintf("Your message is signed by key %s, which the judge does not know:\n"+
				"no seat of any game is held by it.\n\n"+
				"To take a seat, send 'join GAME SEAT' signed with this key and with your public\n"+
				"key attached (or 'observe GAME' to follow a game without a seat); if you hold\n"+
				"a seat with another key, sign with that one.\n", env.UnknownKey))
	case env.KeyProblem != "":
		return Refused, a.reply(MailError, "signature not accepted",
			"Your message is signed, but the judge cannot accept the signature: "+env.KeyProblem+".\n\n"+
				"Nothing was accepted. If you renewed your key, attach the updated public key\n"+
				"(gpg --export --armor YOUR-KEY-ID) to your next message: the judge merges it\n"+
				"into the copy it has. A revoked key stays revoked: join with a new key.\n")
	case env.SignatureProblem != "":
		return Refused, a.reply(MailError, "signature does not verify",
			"The signature on your message does not verify: "+env.SignatureProblem+".\n\n"+
				"Nothing was accepted. The judge saw "+sawMessage(env)+" whose signed text is not\n"+
				"the text that was signed: it was changed after signing (mail programs re-wrap\n"+
				"lines or change spaces), or the signature belongs to other text. From\n"+
				clientName(env)+": "+signedTextFix(env)+".\n")
	case env.HTMLOnly && env.Signed == nil:
		// An HTML-only message whose signed block verified over the lines
		// the HTML displays (Mailvelope in Gmail) is read as any other.
		return Refused, a.reply(MailError, "please send plain text",
			"Your message has only an HTML part: the judge saw an HTML-only message from\n"+
				clientName(env)+", and it reads plain text. "+upper(ClientFor(env.Client).PlainText)+";\n"+
				"or attach the order file as a .txt file with its signature.\n")
	case env.Signed == nil:
		return Refused, a.reply(MailError, "orders must be signed",
			"Your message is not signed, so the judge cannot tell who sent it (the From\n"+
				"address proves nothing). Sign your order file with the key that holds your seat.\n\n"+
				signingPointer(env.Client)+"\n"+
				"In a terminal:\n"+
				"  gpg --clearsign orders.txt                  (then send orders.txt.asc's text)\n"+
				"  ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n umpire orders.txt\n"+
				"                                              (attach orders.txt and orders.txt.sig)\n\n"+
				"Send 'help' for all the ways to sign.\n")
	}
	if cmd, ok := signedCommand(env.Signed.Content); ok {
		return Understood, in.signed(ctx, a, cmd)
	}
	if env.NewKey != nil {
		return Refused, a.reply(MailError, "signed by an unknown key",
			fmt.Sprintf("Your message is signed by key %s, which holds no seat. Orders are taken only from the key\n"+
				"that holds a seat: send 'join GAME SEAT' signed with this key first.\n", env.NewKey.Fingerprint))
	}
	return in.orders(ctx, a)
}

// clientName names the mail program a message came from, for an answer.
func clientName(env *Envelope) string { return ClientFor(env.Client).Name }

// signedTextFix is the one setting that keeps a signed text unchanged
// from the sender's client: for an HTML-only message, sending plain text.
func signedTextFix(env *Envelope) string {
	if env.HTMLOnly {
		return ClientFor(env.Client).PlainText
	}
	return ClientFor(env.Client).KeepText
}

// sawMessage says what the judge saw: "a message from Outlook".
func sawMessage(env *Envelope) string {
	if env.HTMLOnly {
		return "an HTML-only message from " + clientName(env)
	}
	return "a message from " + clientName(env)
}

// upper returns s with its first letter made upper case.
func upper(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func (in *Intake) log() *slog.Logger {
	if in.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return in.Logger
}

// answer queues replies to one incoming message. tx is what handling the
// message reads and writes through (its mails wait until the answer is
// queued); out is the store's Tx, where the answer goes at once.
type answer struct {
	tx  Tx
	out Tx
	env *Envelope
	n   int
	// failed is set when the message's command was answered "not done".
	failed bool
}

func (a *answer) reply(kind MailKind, subject, text string) error {
	return a.replyReport(kind, subject, text, nil)
}

// limit names whom an answer to the message counts against in the hourly
// reply limit: the verified key of a signed message, else the address
// answered. The From address proves nothing, so a forged one costs its
// owner only the answers to unsigned mail.
func (a *answer) limit() string {
	if s := a.env.Signed; s != nil {
		return "key " + s.Fingerprint
	}
	return "address " + strings.ToLower(a.env.From)
}

// replyReport answers with a report the outbox renders (text, HTML, map).
func (a *answer) replyReport(kind MailKind, subject, text string, r *Report) error {
	return a.send(kind, subject, text, r, a.limit())
}

// receipt answers orders that were accepted: that receipt is never held
// back by the reply limit.
func (a *answer) receipt(subject, text string) error {
	return a.send(MailReceipt, subject, text, nil, "")
}

func (a *answer) send(kind MailKind, subject, text string, r *Report, limit string, files ...File) error {
	if a.env.From == "" {
		return nil // nowhere to answer
	}
	if a.env.KeyNote != "" {
		text = a.env.KeyNote + "\n\n" + text
	}
	refs := append([]string(nil), a.env.References...)
	if a.env.MessageID != "" {
		refs = append(refs, a.env.MessageID)
	}
	subj := "umpire: " + subject
	if a.env.Subject != "" {
		subj += " (re: " + truncate(a.env.Subject, 60) + ")"
	}
	if r != nil {
		files = append(files, r.Files()...)
	}
	a.n++
	return a.out.Enqueue(Mail{Kind: kind, To: a.env.From, Subject: subj, Text: text,
		InReplyTo: a.env.MessageID, References: refs, Report: r, Limit: limit, Files: files})
}

func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// orders handles a verified order file.
func (in *Intake) orders(ctx context.Context, a answer) (Outcome, error) {
	env := a.env
	of, problems := ParseOrderFile(env.Signed.Content)
	// the game and seat as the game spells them, whatever the case written
	of.Game = gameNamed(a.tx, of.Game)
	of.Seat = seatName(a.tx, of.Game, of.Seat)
	rc := Receipt{MessageID: env.MessageID, Game: of.Game, Seat: of.Seat, Step: of.Step,
		Digest: OrderDigest(env.Signed.Signed), Echo: of.Echo(), At: env.Received}
	if len(problems) == 0 {
		problems = in.checkSeat(a.tx, env.Signed.Fingerprint, &of)
	} else if of.Game != "" {
		// every header's problem in one answer: the game's checks of the
		// seat and step the file does give
		for _, p := range in.checkSeat(a.tx, env.Signed.Fingerprint, &of) {
			if (of.Step == 0 && p.Line == of.StepLine) || (of.Seat == "" && p.Line == of.SeatLine) {
				continue // the header's own problem says it
			}
			problems = append(problems, p)
		}
	}
	if len(problems) == 0 {
		dup, p, err := replayed(a.tx, &of, rc.Digest)
		if err != nil {
			return Understood, err
		}
		if dup != 0 {
			rc.Accepted, rc.Version = true, dup
			brief, err := keyReceipt(a.tx, &rc, env.Signed.Signed)
			if err != nil {
				return Understood, err
			}
			if err := a.tx.AddReceipt(rc); err != nil {
				return Understood, fmt.Errorf("intake: store receipt: %w", err)
			}
			return Understood, a.reply(MailReceipt, fmt.Sprintf("receipt %s %s step %d: already accepted", of.Game, of.Seat, of.Step),
				fmt.Sprintf("This order file is identical to version %d of seat %s's orders for step %d of %s,\n"+
					"which the judge already has and which still stands. Nothing changed.\n\n%s%s",
					dup, of.Seat, of.Step, of.Game, digestLine(&rc), brief))
		}
		problems = p
	}
	rc.Problems = problems
	var ignored []Problem
	var brief, deflt string
	noneUsable, emptyOrders := false, false
	checked := false // the game's rules read the lines of the file stored
	processed, stuck := false, ""
	if len(problems) == 0 {
		chk, err := in.checkOrders(a.tx, &of)
		if err != nil {
			return Understood, err
		}
		canon, problems, hosted := chk.canon, chk.problems, chk.hosted
		deflt = chk.deflt
		if cut := cutLines(env.Signed.Content, problems); len(cut) > 0 {
			// A line the rules cannot read is the rest of the line above it,
			// cut by the mail program: refused, never joined by guess.
			rc.Problems = cut
		} else if hosted && len(problems) > 0 && len(canon) == 0 {
			// Not one line can be used: storing the file would replace the
			// seat's orders with nothing, silently (docs/rulings.md, issue
			// 31 (no-ops)).
			rc.Problems = append(problems, Problem{Text: "not one order line of this file can be used, so nothing was stored and your seat is not marked ready",
				Hint: fmt.Sprintf("fix the lines above ('help %s' mails the orders this step takes); to take the default on purpose, send the file with no order lines", chk.kind)})
			noneUsable = true
		} else {
			ignored = withPrefix("ignored: ", problems)
			if hosted {
				rc.Echo = echo(&of, numbered(&of, canon, ignored), deflt)
				checked = true
				emptyOrders = len(canon) == 0
				if emptyOrders && chk.no == "repeat" {
					deflt = of.Seat + " gives no orders this step: a file, even an empty one, stops the repeat of its last orders"
				}
			}
			rc.Problems = ignored
			v, err := a.tx.AddOrderFile(OrderFile{Game: of.Game, Step: of.Step, Seat: of.Seat, Digest: rc.Digest,
				Key: env.Signed.Fingerprint, Signed: env.Signed.Signed, Text: env.Signed.Content,
				Received: env.Received, MessageID: env.MessageID})
			if err != nil {
				return Understood, fmt.Errorf("intake: store order file: %w", err)
			}
			rc.Accepted, rc.Version = true, v
			if brief, err = keyReceipt(a.tx, &rc, env.Signed.Signed); err != nil {
				return Understood, err
			}
			in.log().InfoContext(ctx, "orders accepted", "game", of.Game, "step", of.Step, "seat", of.Seat, "version", v, "digest", shownDigest(&rc))
			if hosted {
				if processed, err = in.ready(ctx, a.tx, &of, len(ignored) == 0, env.Received); isStuck(err) {
					stuck = stuckNote(err)
				} else if err != nil {
					return Understood, err
				}
			}
		}
	}
	if err := a.tx.AddReceipt(rc); err != nil {
		return Understood, fmt.Errorf("intake: store receipt: %w", err)
	}
	subject := receiptSubject(&of, rc.Accepted)
	text := receiptText(env, &of, &rc, checked)
	switch {
	case stuck != "":
		text += "\n" + stuck
	case processed:
		text += "\nEvery seat is ready: the step was adjudicated at once. The report follows.\n"
	case rc.Accepted && checked && len(ignored) == 0:
		text += "\nYour seat is now ready. Send 'notready' (signed) to hold the step until the deadline.\n"
	case rc.Accepted && len(ignored) > 0:
		text += "\nBecause some lines were ignored, your seat is not marked ready: fix them and send the file again.\n"
	}
	switch {
	case noneUsable:
		_, latest, err := a.tx.OrderDigestVersion(of.Game, of.Step, of.Seat, rc.Digest)
		if err != nil {
			return Understood, fmt.Errorf("intake: read order versions: %w", err)
		}
		if latest > 0 {
			text += fmt.Sprintf("\nYour version %d of these orders stands: the step uses it unless you send another.\n", latest)
		} else if deflt != "" {
			text += "\nIf no usable orders of yours arrive before the deadline, at the deadline " + deflt + ".\n"
		}
	case deflt != "" && rc.Accepted && emptyOrders:
		text += "\nYour file gives no orders: at the deadline " + deflt + ".\n"
	}
	if brief != "" {
		text += "\n" + brief
	}
	if rc.Accepted {
		return Understood, a.receipt(subject, text)
	}
	return Understood, a.reply(MailReceipt, subject, text)
}

// receiptSubject is a receipt's subject: "receipt GAME SEAT step N:
// accepted", leaving out what the file did not say (never "step 0").
func receiptSubject(of *ParsedOrders, accepted bool) string {
	parts := []string{"receipt"}
	for _, p := range []string{of.Game, of.Seat} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if of.Step != 0 {
		parts = append(parts, fmt.Sprintf("step %d", of.Step))
	}
	return strings.Join(parts, " ") + ": " + map[bool]string{true: "accepted", false: "NOT accepted"}[accepted]
}

// cutLines returns a problem for each line the game's rules could not read
// that is the rest of the line above it, cut by a mail program that wraps
// long lines (CutLines), or nil.
func cutLines(text string, ignored []Problem) []Problem {
	var cut []Problem
	if len(ignored) == 0 {
		return nil
	}
	cutAt := map[int]bool{}
	for _, n := range CutLines(text, 1) {
		cutAt[n] = true
	}
	for _, p := range ignored {
		if cutAt[p.Line] {
			cut = append(cut, Problem{Line: p.Line,
				Text: fmt.Sprintf("this line looks like the end of line %d, cut off by your mail program, which breaks lines longer than %d characters (Gmail's plain text mode does); the judge does not guess how the two went together", p.Line-1, WrapLimit),
				Hint: fmt.Sprintf("shorten line %d to under %d characters, or send the order file as an attachment (orders.txt with its signature), which no mail program re-wraps", p.Line-1, WrapLimit)})
		}
	}
	return cut
}

// checkOrders reads the order lines with the game's rules. It returns the
// canonical orders and a problem for each line the rules do not accept
// (those lines are left out when the step is adjudicated). hosted is false
// for a game the judge runs no step machine for (no rules for its kind):
// its order files get the header checks only.
func (in *Intake) checkOrders(tx Tx, of *ParsedOrders) (checked, error) {
	if in.Judge == nil {
		return checked{}, nil
	}
	g, err := tx.Game(of.Game)
	if err != nil {
		return checked{}, err
	}
	rules, err := in.Judge.Games.Get(g.Kind)
	if err != nil {
		return checked{}, nil
	}
	st, err := tx.Step(of.Game, of.Step)
	if errors.Is(err, ErrNotFound) {
		return checked{}, nil
	} else if err != nil {
		return checked{}, err
	}
	if !slices.Contains(st.Owing, of.Seat) {
		return checked{problems: []Problem{{Text: fmt.Sprintf("step %d (%s) waits for orders from %s only, not from %s",
			of.Step, st.Phase, strings.Join(st.Owing, ", "), of.Seat), Hint: "your orders are kept, but this step will not use them"}}}, nil
	}
	c := checked{hosted: true, kind: g.Kind, no: st.NoOrders[of.Seat]}
	what := fmt.Sprintf("reading the orders of %s for step %d of %s", of.Seat, of.Step, of.Game)
	if err := in.Judge.forMessage(what, func() {
		c.canon, c.problems = rules.ParseOrders(st.State, of.Seat, of.Orders)
		c.deflt = DefaultWords(rules, st.State, of.Seat, st.NoOrders[of.Seat])
	}); err != nil {
		return checked{}, err
	}
	return c, nil
}

// checked is what the game's rules made of an order file's lines: the
// canonical orders, a problem for each line they do not accept, and what
// no usable orders from the seat mean at the deadline (DefaultWords).
// hosted is false for a game the judge runs no step machine for.
type checked struct {
	canon    []string
	problems []Problem
	hosted   bool
	kind     string
	deflt    string
	no       string // the step's NoOrders for the seat
}

// withPrefix returns problems with prefix before each text.
func withPrefix(prefix string, problems []Problem) []Problem {
	for i := range problems {
		problems[i].Text = prefix + problems[i].Text
	}
	return problems
}

// ready marks the seat ready when its orders are clean, and adjudicates the
// step at once when every seat owing orders is ready and the game allows it.
func (in *Intake) ready(ctx context.Context, tx Tx, of *ParsedOrders, clean bool, now time.Time) (bool, error) {
	st, err := in.Judge.Ready(tx, of.Game, of.Seat, clean)
	if err != nil {
		return false, err
	}
	if !allReady(st) {
		return false, nil
	}
	g, err := tx.Game(of.Game)
	if err != nil {
		return false, err
	}
	f, rules, err := in.Judge.settings(g)
	if err != nil || !f.Schedule.early() {
		return false, err
	}
	if err := in.Judge.Adjudicate(ctx, tx, g, f, rules, st, dice.ClosedByReady, now); err != nil {
		return false, err
	}
	return true, nil
}

// numbered gives each canonical order the line it came from ("move A1
// 0101  # line 4"), as docs/order-file.md promises: the order lines the
// rules did not refuse, in the file's order, when they are as many as the
// orders (every game's parser reads a line into one order, in order);
// else the orders as they are.
func numbered(of *ParsedOrders, canon []string, refused []Problem) []string {
	bad := map[int]bool{}
	for _, p := range refused {
		bad[p.Line] = true
	}
	var kept []int
	for _, o := range of.Orders {
		if !bad[o.Line] {
			kept = append(kept, o.Line)
		}
	}
	if len(kept) != len(canon) {
		return canon
	}
	out := make([]string, len(canon))
	for i, c := range canon {
		if strings.Contains(c, "#") {
			out[i] = fmt.Sprintf("%s; line %d", c, kept[i])
		} else {
			out[i] = fmt.Sprintf("%-40s # line %d", c, kept[i])
		}
	}
	return out
}

func echo(of *ParsedOrders, canon []string, deflt string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "game: %s\nstep: %d\nseat: %s\n", of.Game, of.Step, of.Seat)
	if len(canon) == 0 && deflt != "" {
		b.WriteString("(no orders: at the deadline " + deflt + ")\n")
	} else if len(canon) == 0 {
		b.WriteString("(no orders: the game's default for a seat without orders applies)\n")
	}
	for _, o := range canon {
		b.WriteString(o + "\n")
	}
	b.WriteString("end\n")
	return b.String()
}

// replayed compares an order file with the versions already accepted. A
// copy of the newest version changes nothing (its version is returned); a
// copy of an older one is refused, since anyone who saw that mail could send
// it again to undo the seat's newer orders.
func replayed(tx Tx, of *ParsedOrders, digest dice.Hash) (uint64, []Problem, error) {
	v, latest, err := tx.OrderDigestVersion(of.Game, of.Step, of.Seat, digest)
	switch {
	case err != nil:
		return 0, nil, fmt.Errorf("intake: read order versions: %w", err)
	case v == 0:
		return 0, nil, nil
	case v == latest:
		return v, nil, nil
	}
	return 0, []Problem{{Text: fmt.Sprintf("this order file is a copy of version %d, which version %d has replaced; "+
		"a copy of an older file is refused so that nobody can undo your orders by sending an old mail again", v, latest),
		Hint: "to go back to those orders, change any line (a comment will do) and sign the file again"}}, nil
}

// checkSeat checks that the game exists, the step is open and the signing
// key holds the seat.
func (in *Intake) checkSeat(tx Tx, key string, of *ParsedOrders) []Problem {
	g, err := tx.Game(of.Game)
	if errors.Is(err, ErrNotFound) {
		if note, ok := archivedNote(tx, of.Game); ok {
			return []Problem{{Line: of.GameLine, Text: note, Hint: "this judge takes no more orders for it; send 'list' for the games it runs"}}
		}
		return []Problem{{Line: of.GameLine, Text: fmt.Sprintf("there is no game %q", of.Game), Hint: nearGames(tx, of.Game) + "send 'list' for the games this judge runs"}}
	} else if err != nil {
		return []Problem{{Line: of.GameLine, Text: "the game could not be read: " + err.Error(), Hint: "nothing is wrong with your file: send it again later, or tell the game master"}}
	}
	// the seat's and the step's problems are told together
	var problems []Problem
	seat, err := tx.Seat(of.Game, of.Seat)
	if err != nil {
		text, hint := noSeat(tx, of.Game, of.Seat)
		problems = append(problems, Problem{Line: of.SeatLine, Text: text, Hint: hint})
	} else if seat.Holder != key {
		problems = append(problems, Problem{Line: of.SeatLine, Text: fmt.Sprintf("seat %s of %s is not held by the key that signed (%s)", of.Seat, of.Game, key),
			Hint: "sign with the key that holds the seat"})
	}
	switch {
	case g.Status != "running":
		return append(problems, Problem{Line: of.StepLine, Text: fmt.Sprintf("game %s is %s: it takes no orders now", of.Game, g.Status), Hint: statusHint(g.Status)})
	case of.Step != g.Step:
		return append(problems, Problem{Line: of.StepLine, Text: fmt.Sprintf("step %d is not open: game %s is taking orders for step %d", of.Step, of.Game, g.Step),
			Hint: fmt.Sprintf("write 'step: %d'", g.Step)})
	case len(problems) > 0:
		return problems
	}
	if st, err := tx.Step(of.Game, of.Step); err == nil && st.Status == StepWaiting && st.Dice != nil {
		return []Problem{{Line: of.StepLine, Text: fmt.Sprintf("step %d of %s closed at %s: its order list is fixed and it waits for beacon round %d",
			of.Step, of.Game, stamp(st.Dice.Close), st.Dice.Round),
			Hint: fmt.Sprintf("send orders for step %d once the report of step %d has come", of.Step+1, of.Step)}}
	}
	return nil
}

func receiptText(env *Envelope, of *ParsedOrders, rc *Receipt, checked bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Receipt for your message <%s> received %s.\n\n", env.MessageID, env.Received.UTC().Format(time.RFC1123))
	if rc.Accepted {
		fmt.Fprintf(&b, "ACCEPTED: orders of seat %s for step %d of %s, version %d.\n", rc.Seat, rc.Step, rc.Game, rc.Version)
		if rc.Version > 1 {
			fmt.Fprintf(&b, "They replace version %d until the step is adjudicated; every version is kept.\n", rc.Version-1)
		}
		fmt.Fprintf(&b, "Version %d counts: the step uses the last version the judge accepts from your seat before\n"+
			"it closes, so this one unless you send another. The step's report lists it under your seat.\n", rc.Version)
	} else {
		fmt.Fprintf(&b, "NOT ACCEPTED: nothing was stored. Fix the problems below and send the file again.\n")
	}
	if addr, ok := DKIMAddress(env.Signed.Fingerprint); ok {
		fmt.Fprintf(&b, "Sent from %s, signed by its mail provider (DKIM), not by a key.\n", addr)
	} else {
		fmt.Fprintf(&b, "Signed by %s key %s.\n", env.Signed.Kind, env.Signed.Fingerprint)
	}
	b.WriteString(digestLine(rc))
	if rc.Accepted {
		b.WriteString("This digest is bound into the step's dice: keep it to check the dice log.\n")
	}
	if len(rc.Problems) > 0 {
		b.WriteString("\nProblems:\n")
		for _, p := range rc.Problems {
			if p.Line > 0 {
				fmt.Fprintf(&b, "  line %d: %s\n", p.Line, p.Text)
			} else {
				fmt.Fprintf(&b, "  %s\n", p.Text)
			}
			if p.Hint != "" {
				fmt.Fprintf(&b, "    hint: %s\n", p.Hint)
			}
		}
	}
	b.WriteString("\nUnderstood:\n")
	b.WriteString(indentLines(rc.Echo, "  "))
	switch {
	case rc.Accepted && checked:
		b.WriteString("\nThe orders above were checked against the game's rules; lines marked ignored\n" +
			"will not be used. Send a newer signed file at any time before the deadline to\nreplace them.\n")
	case rc.Accepted:
		b.WriteString("\nThe orders are checked against the game's rules when the step is adjudicated;\n" +
			"send a newer signed file at any time before the deadline to replace them.\n")
	}
	return b.String()
}

// keyReceipt gives the receipt of an accepted order file of an
// umpire-dice-v3 game its keyed digest (the one the order list will hold)
// and returns the game's dice briefing for the receipt to quote; other
// games' receipts are unchanged.
func keyReceipt(tx Tx, rc *Receipt, signed []byte) (string, error) {
	sec, err := tx.DiceSecrets(rc.Game)
	if errors.Is(err, ErrNotFound) || err == nil && !sec.V3() {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	rc.Keyed = dice.OrderDigest(sec.orderSalt(rc.Seat), rc.Step, rc.Version, signed)
	return diceBriefing(tx, rc.Game)
}

// shownDigest is the digest a receipt quotes: keyed by the seat's salt in
// an umpire-dice-v3 game, the SHA-256 of the signed bytes before.
func shownDigest(rc *Receipt) dice.Hash {
	if !rc.Keyed.IsZero() {
		return rc.Keyed
	}
	return rc.Digest
}

// digestLine is the receipt's digest line.
func digestLine(rc *Receipt) string {
	if rc.Keyed.IsZero() {
		return fmt.Sprintf("Order file digest (SHA-256): %s\n", rc.Digest)
	}
	return fmt.Sprintf("Order file digest (%s, keyed with your seat's order salt): %s\n"+
		"It is the digest your entry in the step's order list will hold; only your salt makes it:\n"+
		"umpire digest FILE --salt YOUR-SALT --step %d --version %d gives it from the signed file.\n",
		dice.Scheme, rc.Keyed, rc.Step, rc.Version)
}

func indentLines(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

// statusHint says when a game that takes no orders will take them again.
func statusHint(status string) string {
	switch status {
	case Paused:
		return "the game master paused it: send your orders again once a 'resume' is announced"
	case Forming:
		return "the game has not started: orders are taken once the game master's 'start' is announced"
	}
	return "the game has ended: the last report says how ('status GAME' shows it)"
}
