package adjudicator

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// DiceService is the game id of the public chain that witnessed rolls are
// made on: "roll" requests from players outside any hosted game. Its log is
// exported like a game's ("log dice-service").
const DiceService = "dice-service"

var rollRequest = regexp.MustCompile(`(?i)^roll\s+(\d+)d(\d+)(\(0-9\))?\s+for\s+"([^"]{1,200})"\s+to\s+(.+)$`)

// Roll makes one witnessed roll on the dice service's public chain for the
// holder of key: step k of the chain, its digest bound to the signed
// request, its link revealed at once. Every named party and the requester get
// the result with what they need to check it later.
func (j *Judge) Roll(tx Tx, key, from, request string, requestDigest dice.Hash, now time.Time) error {
	m := rollRequest.FindStringSubmatch(strings.TrimSpace(request))
	if m == nil {
		return fmt.Errorf(`write it as: roll 2d6 FOR "purpose" TO alice@example.org bob@example.org (or 1d10(0-9) for a d10 read 0-9)`)
	}
	count, _ := strconv.Atoi(m[1])
	faces, _ := strconv.Atoi(m[2])
	sp := spec.Dice(count, faces)
	if m[3] != "" {
		if faces != 10 {
			return fmt.Errorf("(0-9) goes with d10 only")
		}
		sp = spec.DiceFrom(count, 10, 0)
	}
	if err := sp.Validate(); err != nil || count > 100 || faces > 1000 {
		return fmt.Errorf("roll 1 to 100 dice of 2 to 1000 faces")
	}
	var to []string
	for _, a := range strings.Fields(strings.ReplaceAll(m[5], ",", " ")) {
		addr, err := mail.ParseAddress(a)
		if err != nil {
			return fmt.Errorf("%q is not a mail address", a)
		}
		to = append(to, addr.Address)
	}
	if len(to) > 20 {
		return fmt.Errorf("name at most 20 parties")
	}
	g, err := tx.Game(DiceService)
	if errors.Is(err, ErrNotFound) {
		if err := j.Create(tx, &GameFile{ID: DiceService, Game: DiceService, Title: "the dice service's public chain"}, nil, now); err != nil {
			return err
		}
		g, err = tx.Game(DiceService)
		if err == nil {
			g.Status = Running
			err = tx.PutGame(g)
		}
	}
	if err != nil {
		return err
	}
	k := g.Step + 1
	sec, err := tx.DiceSecrets(DiceService)
	if err != nil {
		return err
	}
	phase := "roll"
	purpose := fmt.Sprintf("%s for %s, witnessed by %s", m[4], key, strings.Join(to, ", "))
	var faceList []int
	var seq uint64
	var open, head dice.Hash
	orders := []dice.Hash{requestDigest}
	if sec.V2() {
		// The request is the step's one order entry: its signed bytes are
		// the "orders", the requester the seat, and the step closes when
		// the request arrives.
		ledger, err := tx.DiceLedger(DiceService)
		if err != nil {
			return err
		}
		oc, _ := sec.chains()
		if open, err = oc.Link(k); err != nil {
			return fmt.Errorf("the dice service's chain is used up: %w", err)
		}
		ol := []dice.OrderEntry{{Seat: "request", ForStep: k, Version: 1, Digest: requestDigest}}
		digest := ledger.StepDigest(DiceService, k, phase, ol, nil)
		step := dice.Record{Type: dice.TypeStep, Step: &dice.Step{K: k, Phase: phase, Close: uint64(now.Unix()), ClosedBy: dice.ClosedByGM,
			Orders: ol, OpenLink: open, Digest: digest}}
		if err := ledger.Append(&step); err != nil {
			return err
		}
		r := dice.NewStepRoller(&ledger, k, digest, open, nil, nil)
		faceList = r.Draw(dice.Open, sp, purpose)
		if err := tx.AddDiceLog(DiceService, append([]dice.Record{step}, r.Records()...)); err != nil {
			return err
		}
		seq, head = r.Records()[0].Draw.Seq, ledger.Head
	} else {
		var sealed dice.Hash
		open, sealed, err = stepLinks(sec, k)
		if err != nil {
			return fmt.Errorf("the dice service's chain is used up: %w", err)
		}
		h, s, err := tx.DiceHead(DiceService)
		if err != nil {
			return err
		}
		digest := legacy.StepDigest(DiceService, k, phase, orders)
		r := legacy.NewStepRoller(legacy.ResumeLog(h, s), k, digest, open, sealed)
		faceList = r.Draw(dice.Open, sp, purpose)
		recs := r.Records()
		if err := tx.AddDiceRecords(DiceService, recs); err != nil {
			return err
		}
		if err := tx.PutStepLinks(DiceService, k, phase, orders, digest, &open, nil); err != nil {
			return err
		}
		seq, head = recs[0].Seq, recs[0].Hash
	}
	g.Step = k
	if err := tx.PutGame(g); err != nil {
		return err
	}
	if err := tx.PutStep(StepRecord{Game: DiceService, Number: k, Phase: phase, Status: StepClosed, Opened: now, Closed: now, Orders: orders}); err != nil {
		return err
	}
	text := fmt.Sprintf("A witnessed roll on the umpire dice service.\n\nRequested by key %s (%s) for: %s\nRoll: %s = %v\n\n"+
		"To check it: fetch the service's public log (mail 'log %s') and run 'umpire verify' on it.\n"+
		"This roll is draw %d, step %d of the chain; its open link is %s\n"+
		"and the log head after it is %s.\nThe chain's commitment, published before this roll, is %s.\n"+
		"The roll is bound to the SHA-256 of the signed request, %s.\n",
		key, from, m[4], sp, faceList, DiceService, seq, k, open, head, sec.Open0, requestDigest)
	for _, addr := range append([]string{from}, to...) {
		if err := tx.Enqueue(Mail{Kind: MailAnnouncement, Game: DiceService, To: addr, Subject: fmt.Sprintf("umpire: witnessed roll %s for %q: %v", sp, m[4], faceList), Text: text,
			Limit: "key " + key}); err != nil { // a roll's mails count once against the requester's key
			return err
		}
	}
	return nil
}
