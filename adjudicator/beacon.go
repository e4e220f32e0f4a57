package adjudicator

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// BeaconOption is a game file's beacon setting (docs/game-file.md): the
// name of a known network, or a table with a network or a whole chain
// description, and the delay from a step's close to the round it uses.
//
//	beacon = "drand-quicknet"
//	beacon = { network = "drand-quicknet", delay = "15m" }
//	beacon = { chain_hash = "...", public_key = "...", genesis = 1692803367, period = 3, delay = "10m" }
type BeaconOption struct {
	beacon.Chain
}

// beaconNetworks are the networks a game file may name.
var beaconNetworks = map[string]beacon.Chain{"drand-quicknet": beacon.Quicknet}

// UnmarshalTOML reads the setting.
func (o *BeaconOption) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		b, ok := beaconNetworks[v]
		if !ok {
			return fmt.Errorf("beacon %q: name drand-quicknet, or give the chain as a table (docs/game-file.md)", v)
		}
		o.Chain = b
		return nil
	case map[string]any:
		return o.table(v)
	}
	return fmt.Errorf("beacon: a network name such as \"drand-quicknet\", or a table")
}

func (o *BeaconOption) table(t map[string]any) error {
	str := func(k string) (string, bool, error) {
		x, ok := t[k]
		if !ok {
			return "", false, nil
		}
		s, isStr := x.(string)
		if !isStr {
			return "", true, fmt.Errorf("beacon.%s: want a string", k)
		}
		return s, true, nil
	}
	num := func(k string) (uint64, error) {
		x, ok := t[k].(int64)
		if !ok || x < 0 {
			return 0, fmt.Errorf("beacon.%s: want a whole number of seconds", k)
		}
		return uint64(x), nil
	}
	for k := range t {
		if !slices.Contains([]string{"network", "delay", "chain_hash", "public_key", "genesis", "period", "scheme"}, k) {
			return fmt.Errorf("beacon: unknown setting %q (network, delay, chain_hash, public_key, genesis, period, scheme)", k)
		}
	}
	network, named, err := str("network")
	if err != nil {
		return err
	}
	if named {
		b, ok := beaconNetworks[network]
		if !ok {
			return fmt.Errorf("beacon.network %q: this judge knows drand-quicknet; give another chain by chain_hash, public_key, genesis and period", network)
		}
		o.Chain = b
	} else {
		ch, ok1, err1 := str("chain_hash")
		pk, ok2, err2 := str("public_key")
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if !ok1 || !ok2 {
			return fmt.Errorf("beacon: give network, or chain_hash, public_key, genesis and period")
		}
		h, err := dice.ParseHash(ch)
		if err != nil {
			return fmt.Errorf("beacon.chain_hash: %w", err)
		}
		key, err := hex.DecodeString(pk)
		if err != nil || len(key) != 96 {
			return fmt.Errorf("beacon.public_key: want 192 hex digits (a compressed G2 point)")
		}
		o.Chain = beacon.Chain{ChainHash: beacon.Hash(h), Scheme: beacon.Scheme, PublicKey: [96]byte(key), Delay: beacon.DefaultDelay}
		if o.Genesis, err = num("genesis"); err != nil {
			return err
		}
		if o.Period, err = num("period"); err != nil || o.Period < 1 || o.Period > 86400 {
			return fmt.Errorf("beacon.period: want 1 to 86400 seconds")
		}
		if s, ok, _ := str("scheme"); ok && s != beacon.Scheme {
			return fmt.Errorf("beacon.scheme %q: only %s is accepted", s, beacon.Scheme)
		}
	}
	if x, ok := t["delay"]; ok {
		s, isStr := x.(string)
		d, err := time.ParseDuration(s)
		if !isStr || err != nil || d < 0 || d%time.Second != 0 || d > (1<<32-1)*time.Second {
			return fmt.Errorf("beacon.delay: want a duration in whole seconds, such as \"10m\"")
		}
		o.Delay = uint64(d / time.Second)
	}
	if _, err := beacon.NewVerifier(o.Chain); err != nil {
		return fmt.Errorf("beacon: %w", err)
	}
	return nil
}

// BeaconSource fetches and checks rounds of a beacon (a relay client). It
// does network I/O: the judge never calls it inside a store transaction.
type BeaconSource interface {
	Round(ctx context.Context, b beacon.Chain, round uint64) (beacon.Round, error)
}

// BeaconWait is a step waiting for its beacon round.
type BeaconWait struct {
	Game   string
	Step   uint64
	Beacon beacon.Chain
	Round  uint64
}

// Waiting returns the beacon round game's step waits for, when its time
// (and the time of the next try) has come at now.
func (j *Judge) Waiting(tx Tx, game string, now time.Time) (BeaconWait, bool, error) {
	g, err := tx.Game(game)
	if err != nil || g.Status != Running {
		return BeaconWait{}, false, err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil || st.Status != StepWaiting || st.Dice == nil {
		return BeaconWait{}, false, nil
	}
	sec, err := tx.DiceSecrets(game)
	if err != nil || sec.Beacon == nil {
		return BeaconWait{}, false, err
	}
	if now.Before(beaconDue(sec.Beacon, st.Dice)) {
		return BeaconWait{}, false, nil
	}
	return BeaconWait{Game: game, Step: st.Number, Beacon: *sec.Beacon, Round: st.Dice.Round}, true, nil
}

// beaconDue is when a waiting step should fetch its round: at the round's
// time, or at the next retry after a failure.
func beaconDue(b *beacon.Chain, d *StepDice) time.Time {
	due := time.Unix(int64(b.RoundTime(d.Round)), 0)
	if d.Retry.After(due) {
		due = d.Retry
	}
	return due
}

// BeaconArrived adjudicates game's waiting step with round r, which it
// checks first: the round the step's close names, signed by the header's
// beacon. A round that does not verify changes nothing.
func (j *Judge) BeaconArrived(ctx context.Context, tx Tx, game string, r beacon.Round, now time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil {
		return err
	}
	if st.Status != StepWaiting || st.Dice == nil {
		return fmt.Errorf("step %d of %s is %s, not waiting for a beacon round", st.Number, game, st.Status)
	}
	sec, err := tx.DiceSecrets(game)
	if err != nil {
		return err
	}
	v, err := beacon.NewVerifier(*sec.Beacon)
	if err != nil {
		return err
	}
	if err := v.Check(uint64(st.Dice.Close.Unix()), &r); err != nil {
		return err
	}
	f, rules, err := j.settings(g)
	if err != nil {
		return err
	}
	if st.Dice.Tries > 0 {
		if err := j.mailKey(tx, g, g.GMKey, MailAnnouncement, fmt.Sprintf("%s step %d: beacon round %d arrived", g.ID, st.Number, r.Round),
			fmt.Sprintf("Round %d of the beacon arrived after %d failed tries; step %d of %s is adjudicated now.\n", r.Round, st.Dice.Tries, st.Number, g.ID)); err != nil {
			return err
		}
	}
	return j.play(ctx, tx, g, f, rules, st, sec, &r, now)
}

// BeaconFailed records that round of game's waiting step could not be had:
// the step waits, the next try is later (doubling from a minute to an hour),
// and the game master is told at once and then every six hours.
func (j *Judge) BeaconFailed(tx Tx, game string, why error, now time.Time) error {
	g, err := tx.Game(game)
	if err != nil {
		return err
	}
	st, err := tx.Step(game, g.Step)
	if err != nil || st.Status != StepWaiting || st.Dice == nil {
		return err
	}
	st.Dice.Tries++
	wait := time.Minute << min(st.Dice.Tries-1, 6)
	st.Dice.Retry = now.Add(min(wait, time.Hour))
	tell := st.Dice.Told.IsZero() || now.Sub(st.Dice.Told) >= 6*time.Hour
	if tell {
		st.Dice.Told = now
	}
	if err := tx.PutStep(st); err != nil {
		return err
	}
	j.log().Warn("beacon round not had", "game", game, "step", st.Number, "round", st.Dice.Round, "tries", st.Dice.Tries, "err", why)
	if !tell {
		return nil
	}
	return j.mailKey(tx, g, g.GMKey, MailAnnouncement, fmt.Sprintf("%s step %d waits for beacon round %d", g.ID, st.Number, st.Dice.Round),
		fmt.Sprintf("Step %d of %s closed at %s and waits for round %d of its beacon, which was due at %s.\n"+
			"The judge could not have it (%d tries so far): %v.\n"+
			"The step waits: it is never adjudicated with another round. The judge tries again at %s\n"+
			"and tells you again if it still fails. Check the judge's beacon relays ([beacon] relays in its configuration).\n",
			st.Number, g.ID, stamp(st.Dice.Close), st.Dice.Round, stamp(time.Unix(int64(beaconOf(tx, game).RoundTime(st.Dice.Round)), 0)),
			st.Dice.Tries, why, stamp(st.Dice.Retry)))
}

func beaconOf(tx Tx, game string) *beacon.Chain {
	sec, err := tx.DiceSecrets(game)
	if err != nil || sec.Beacon == nil {
		return &beacon.Chain{}
	}
	return sec.Beacon
}

// closeNotice mails every seat and the game master the order list of a
// step that closed and the beacon round it will be adjudicated with
// (docs/dice-log.md section 5): each seat checks its entry, and that the
// notice came before the round's time.
func (j *Judge) closeNotice(tx Tx, g Game, st StepRecord, b *beacon.Chain) error {
	var sb strings.Builder
	d := st.Dice
	fmt.Fprintf(&sb, "Step %d (%s) of %s closed at %s (%d), closed by %s.\n\n", st.Number, st.Phase, g.ID, stamp(d.Close), d.Close.Unix(), closedByText(d.ClosedBy))
	sb.WriteString("Its dice are bound to this order list (seat, step the orders were sent for, version, digest):\n")
	writeOrderList(&sb, d.Orders)
	net := b.Network()
	if net == "" {
		net = "a beacon this judge's game file describes (not a known network)"
	}
	at := time.Unix(int64(b.RoundTime(d.Round)), 0)
	fmt.Fprintf(&sb, "\nThe step is adjudicated with round %d of %s, published at %s (%d).\n"+
		"Nobody, the judge included, can know that round before then, so nobody could have chosen\n"+
		"these orders to suit the dice.\n\n"+
		"Check: your entry above is your last accepted version (the receipt said which), no entry\n"+
		"stands under your seat that you did not send, and this mail reached you (by the time your\n"+
		"own mail server stamped on it) before %s.\n",
		d.Round, net, stamp(at), at.Unix(), stamp(at))
	return j.Announce(tx, g.ID, fmt.Sprintf("step %d closed, dice from beacon round %d", st.Number, d.Round), sb.String())
}

func writeOrderList(sb *strings.Builder, orders []dice.OrderEntry) {
	if len(orders) == 0 {
		sb.WriteString("  (no orders)\n")
	}
	for _, o := range orders {
		fmt.Fprintf(sb, "  %-12s step %d, version %d, digest %s\n", o.Seat, o.ForStep, o.Version, o.Digest)
	}
}

func closedByText(c dice.ClosedBy) string {
	switch c {
	case dice.ClosedByReady:
		return "readiness (the last seat owing orders became ready)"
	case dice.ClosedByGM:
		return "the game master's process command"
	}
	return "its deadline"
}
