package adjudicator

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// beaconFloorError says why a beacon's delay is refused for an
// umpire-dice-v3 game, and what to ask for.
func beaconFloorError(b beacon.Chain) error {
	floor := beacon.MinDelay(b.Period)
	return fmt.Errorf("beacon.delay: %d s is under the least delay the judge accepts for a beacon whose rounds come every %d s: "+
		"ask for at least %q (%d s: the larger of 60 s and 10 periods), so that nobody can know a step's round when its close notice leaves; "+
		"\"10m\" is recommended (docs/game-file.md)", b.Delay, b.Period, fmt.Sprint(floor)+"s", floor)
}

// startRecord writes the start record of an umpire-dice-v3 game (record
// 2: every seat's contribution, the SHA-256 of the signed join by which
// its holder took it, and the commitment to its order salt) and queues the
// start announcement, which announce queues once step 1 is open: to each
// holder with its own order salt, to the game master without any. Other
// games have none. Both happen in the transaction that opens step 1, so
// that no order is taken before the announcement is in the outbox.
func (j *Judge) startRecord(tx Tx, g Game, seats []Seat) (announce func() error, err error) {
	none := func() error {
		return j.startMails(tx, g, seats, "start: your orders", "start", func(string) string { return startedText(tx, g.ID) })
	}
	sec, err := tx.DiceSecrets(g.ID)
	if err != nil || !sec.V3() {
		return none, err
	}
	ledger, err := tx.DiceLedger(g.ID)
	if err != nil {
		return none, err
	}
	names := make([]string, 0, len(seats))
	joins := map[string]dice.Hash{}
	for _, s := range seats {
		names = append(names, s.Name)
		if s.Holder != "" {
			joins[s.Name] = s.Join
		}
	}
	st, err := dice.NewStart(sec.SealedRoot, names, joins)
	if err != nil {
		return none, fmt.Errorf("game %s: %w", g.ID, err)
	}
	rec := dice.Record{Type: dice.TypeStart, Start: st}
	if err := ledger.Append(&rec); err != nil {
		return none, err
	}
	if err := tx.AddDiceLog(g.ID, []dice.Record{rec}); err != nil {
		return none, err
	}
	h1, err := headAfterHeader(tx, g.ID)
	if err != nil {
		return none, err
	}
	var entries strings.Builder
	for _, e := range st.Seats {
		join := e.Join.String()
		if e.Join.IsZero() {
			join += " (no signed join: no contribution)"
		}
		fmt.Fprintf(&entries, "  %s\n    join            %s\n    salt commitment %s\n", e.Seat, join, e.SaltCommitment)
	}
	text := func(seat string) string {
		var b strings.Builder
		b.WriteString(startedText(tx, g.ID))
		fmt.Fprintf(&b, "\nBefore step 1 opened, the judge wrote the start record of %s (record 2 of its dice log):\n"+
			"every seat's contribution (the SHA-256 of the signed join by which its holder took it) and the\n"+
			"commitment to its order salt.\n\n%s\n"+
			"h_1, the log head after the header: %s\n"+
			"h_2, the log head after the start record: %s\n"+
			"Every step's dice depend on h_2, so on every seat's join, made after the dice were committed.\n",
			g.ID, entries.String(), h1, rec.Head)
		if seat == "" {
			b.WriteString("\nEach seat's holder gets its order salt in its own copy of this mail; the game master gets none.\n")
			return b.String()
		}
		salt := sec.orderSalt(seat)
		fmt.Fprintf(&b, "\nYOUR ORDER SALT, for seat %s alone (keep it; show it to nobody):\n  %s\n\n"+
			"Your order files' digests in the dice log and in your receipts are keyed with it, so that\n"+
			"nobody who reads the public log can test a guess of your orders against them. Check now:\n"+
			"  - your seat's join above is the SHA-256 of your signed join (your join answer quoted it);\n"+
			"  - h_1 above is the head your join answer quoted;\n"+
			"  - the salt is the one committed to: umpire verify --salt %s:%s LOG\n"+
			"    (LOG: the public dice log, mail 'log %s');\n"+
			"  - each receipt's digest is your file's: umpire digest FILE --salt %s --step K --version N.\n",
			seat, salt, seat, salt, g.ID, salt)
		return b.String()
	}
	return func() error {
		return j.startMails(tx, g, seats, "start: the start record and your order salt", "start: the start record", text)
	}, nil
}

// startMails queues the start announcement: to each holder its briefing
// (the map, its units and its orders due, with a pre-filled order file)
// after text(seat), to the game master text("") unless it holds a seat;
// the subjects say what each mail holds.
func (j *Judge) startMails(tx Tx, g Game, seats []Seat, seatSubject, gmSubject string, text func(seat string) string) error {
	for _, s := range seats {
		if s.Holder == "" {
			continue
		}
		if err := j.briefKey(tx, g, s.Holder, s.Name, g.ID+": "+seatSubject, text(s.Name)); err != nil {
			return err
		}
	}
	if slicesHolder(seats, g.GMKey) {
		return nil // the game master holds a seat: it had its seat's copy
	}
	return j.mailKey(tx, g, g.GMKey, MailAnnouncement, g.ID+": "+gmSubject, text(""))
}

// briefKey queues to the holder of key seat's briefing (SeatBriefing)
// after lead; when the briefing cannot be made, lead alone.
func (j *Judge) briefKey(tx Tx, g Game, key, seat, subject, lead string) error {
	to, lead, err := keyMail(tx, g, key, lead)
	if to == "" || err != nil {
		return err
	}
	r, err := j.SeatBriefing(tx, g.ID, seat, lead)
	if err != nil {
		return tx.Enqueue(Mail{Kind: MailAnnouncement, Game: g.ID, To: to, Subject: "umpire: " + subject, Text: lead})
	}
	return tx.Enqueue(Mail{Kind: MailAnnouncement, Game: g.ID, To: to, Subject: "umpire: " + subject, Text: r.PlainText(), Report: r, Files: r.Files()})
}

func slicesHolder(seats []Seat, key string) bool {
	for _, s := range seats {
		if s.Holder == key {
			return true
		}
	}
	return false
}

// headAfterHeader returns h_1 of a v2 or v3 game, the head after its
// header record.
func headAfterHeader(tx Tx, game string) (dice.Hash, error) {
	hdr, err := tx.DiceRecord(game, 1)
	if err != nil {
		return dice.Hash{}, err
	}
	return hdr.Head, nil
}

// diceBriefing is what every mail about an umpire-dice-v3 game quotes: the
// commitments made before any order (open[0], S, the beacon), h_1, h_2
// once the game has started, and the log head now. It is empty for other
// games.
func diceBriefing(tx Tx, game string) (string, error) {
	sec, err := tx.DiceSecrets(game)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil || !sec.V3() {
		return "", err
	}
	ledger, err := tx.DiceLedger(game)
	if err != nil {
		return "", err
	}
	h1, err := headAfterHeader(tx, game)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Dice commitments of %s (%s), published before any order:\n  open commitment   %s\n  sealed commitment %s\n  beacon            %s\n  h_1               %s (the log head after the header)\n",
		game, dice.Scheme, sec.Open0, sec.Sealed0, beaconText(sec.Beacon), h1)
	if ledger.Started {
		fmt.Fprintf(&b, "  h_2               %s (after the start record)\n", ledger.StartHead)
	}
	fmt.Fprintf(&b, "  log head now      %s\n", ledger.Head)
	return b.String(), nil
}

// beaconText names a game's beacon as its header fixes it.
func beaconText(b *beacon.Chain) string {
	if b == nil {
		return "none"
	}
	net := b.Network()
	if net == "" {
		net = "not a known network"
	}
	return fmt.Sprintf("%s: chain %s, genesis %d, period %d s, delay %d s (%s periods)", net, b.ChainHash, b.Genesis, b.Period, b.Delay,
		beacon.Periods(b.Delay, b.Period))
}

// nonceLine and diceLine are the lines a v3 join may carry after its
// command line (docs/dice-log.md section 4).
var (
	diceLine  = regexp.MustCompile(`^dice\s+(\S+)$`)
	nonceLine = regexp.MustCompile(`^nonce\s+(\S+)$`)
	nonceHex  = regexp.MustCompile(`^[0-9a-f]{32,128}$`)
)

// checkJoin reads the lines after a join's command line. In an
// umpire-dice-v3 game they may be "dice H", H the h_1 the player fetched
// (it must be the game's), and "nonce X", X 32 to 128 lowercase hex
// digits; comments and blank lines aside, nothing else. Other games'
// joins are read as before.
func checkJoin(tx Tx, g Game, rest string) error {
	sec, err := tx.DiceSecrets(g.ID)
	if err != nil || !sec.V3() {
		return err
	}
	h1, err := headAfterHeader(tx, g.ID)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.ReplaceAll(rest, "\r\n", "\n"), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		what := "dice"
		if m := diceLine.FindStringSubmatch(l); m != nil {
			if m[1] != h1.String() {
				return fmt.Errorf("its dice line names %s, but the h_1 of %s (the log head after its header, which 'status %s' quotes) is %s: "+
					"the judge will not take a join made against other dice commitments", m[1], g.ID, g.ID, h1)
			}
		} else if m := nonceLine.FindStringSubmatch(l); m != nil {
			what = "nonce"
			if !nonceHex.MatchString(m[1]) {
				return fmt.Errorf("its nonce %q is not 32 to 128 lowercase hex digits (such as the output of 'openssl rand -hex 16')", m[1])
			}
		} else {
			return fmt.Errorf("line %q: after 'join GAME SEAT' a join holds only 'dice H' (the h_1 'status %s' quotes) and 'nonce X' (32 to 128 lowercase hex digits)", l, g.ID)
		}
		if seen[what] {
			return fmt.Errorf("it has two %s lines", what)
		}
		seen[what] = true
	}
	return nil
}

// joinNote is what a v3 join answer adds: the contribution the join made,
// the commitments it was made against, and, when given, what the holder of
// a started game's seat gets (own).
func joinNote(brief string, join dice.Hash, own string) string {
	if brief == "" {
		return ""
	}
	return fmt.Sprintf("\nYour join's contribution to the start record: SHA-256 of its signed bytes\n  %s\n"+
		"If your join had a dice line, the judge checked it against h_1 below; check h_1 against what\n"+
		"'status' gave you before you joined, and your contribution in the start announcement.\n\n%s%s",
		join, brief, own)
}

// seatSecrets is what the holder of a seat of a started umpire-dice-v3
// game is told privately: h_2 and its order salt ("" before the start, and
// in other games).
func (j *Judge) seatSecrets(tx Tx, g Game, seat string) (string, error) {
	sec, err := tx.DiceSecrets(g.ID)
	if err != nil || !sec.V3() {
		return "", err
	}
	ledger, err := tx.DiceLedger(g.ID)
	if err != nil || !ledger.Started {
		return "", err
	}
	salt := sec.orderSalt(seat)
	return fmt.Sprintf("\n%s has started: h_2, the log head after its start record, is %s.\n"+
		"YOUR ORDER SALT, for seat %s alone (keep it; show it to nobody):\n  %s\n"+
		"Check it: umpire verify --salt %s:%s LOG (LOG: mail 'log %s'). Your receipts' digests are keyed\n"+
		"with it: umpire digest FILE --salt %s --step K --version N.\n", g.ID, ledger.StartHead, seat, salt, seat, salt, g.ID, salt), nil
}
