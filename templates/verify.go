package templates

import (
	"fmt"
	"io"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// The text "umpire verify" prints (the browser's verifier writes the same
// in site/assets/verify-worker.js).

// WriteVerification writes the result of verifying the dice log at name,
// as "umpire verify" prints it: what was checked and the head, or the first
// record that does not hold. wantHead, when set, is the head the reader's
// latest report quoted, which the log's head is compared with.
func WriteVerification(w io.Writer, name string, res *dice.Result, wantHead *dice.Hash) {
	scheme := legacy.Records.Name()
	if res.Version == dice.Version {
		scheme = dice.Scheme
	}
	if !res.OK() {
		fmt.Fprintf(w, "FAILED %s (game %s, %s)\n  %s\n", name, res.Game, scheme, res.Problem.Error())
		fmt.Fprintf(w, "  Nothing from this record on can be trusted.\n")
		return
	}
	state := "running"
	if res.Ended {
		state = "ended: its sealed root is public"
	}
	fmt.Fprintf(w, "OK %s (game %s, %s, %s)\n", name, res.Game, scheme, state)
	fmt.Fprintf(w, "  %d records: %d steps, %d draws (%d re-derived", res.Records, res.Steps, res.Draws, res.Rederived)
	if res.Sealed > 0 {
		fmt.Fprintf(w, ", %d hidden whose key is not public: their place and form checked", res.Sealed)
	}
	fmt.Fprintf(w, "), %s, %s.\n", plural(int(res.Reveals), "key reveal"), plural(int(res.Rollbacks), "rollback"))
	switch res.Beacon {
	case "":
		fmt.Fprintf(w, "  No beacon: the dice depend on the judge's committed secrets and the orders.\n")
	case "unknown":
		fmt.Fprintf(w, "  Beacon: UNKNOWN network. Its rounds verify under the key in the header, but a round signed\n  by a key the operator holds proves nothing: check that key yourself.\n")
	default:
		fmt.Fprintf(w, "  Beacon: %s; every step's round verified.\n", res.Beacon)
	}
	if res.Beacon != "" {
		fmt.Fprintf(w, "  Beacon delay: %d s (%s periods of %d s)", res.Delay, beacon.Periods(res.Delay, res.Period), res.Period)
		if res.DelayUnderFloor {
			fmt.Fprintf(w, ", under %s's floor of %d s: a v3 game may not ask for it", dice.Scheme, beacon.MinDelay(res.Period))
		}
		fmt.Fprintf(w, ".\n")
	}
	if res.StartHead != nil {
		fmt.Fprintf(w, "  Start record: %s, %d contributed a signed join; h_2 %s.\n", plural(res.Seats, "seat"), res.Joined, res.StartHead)
	} else if res.Version == dice.Version {
		fmt.Fprintf(w, "  No start record: the game has not started.\n")
	}
	if res.OrdersChecked > 0 {
		fmt.Fprintf(w, "  %s checked against the export's order files.\n", plural(int(res.OrdersChecked), "order entry"))
	}
	for _, d := range res.Opened {
		fmt.Fprintf(w, "  Your stream %s, step %d, draw %d (%s): %v  %s\n", d.Stream, d.Step, d.Seq, d.Spec, d.Values, d.Purpose)
	}
	for _, s := range res.Salts {
		fmt.Fprintf(w, "  Your salt for seat %s is the one the start record commits to. Your order entries (compare each with your receipt, or 'umpire digest'):\n", s.Seat)
		if len(s.Entries) == 0 {
			fmt.Fprintf(w, "    (none)\n")
		}
		for _, e := range s.Entries {
			fmt.Fprintf(w, "    step %d: sent for step %d, version %d, digest %s\n", e.Step, e.ForStep, e.Version, e.Digest)
		}
	}
	fmt.Fprintf(w, "  Log head %s\n", res.Head)
	switch {
	case wantHead == nil:
		fmt.Fprintf(w, "  Compare this head with the one quoted in your latest report (or pass it with --head).\n")
	case *wantHead == res.Head:
		fmt.Fprintf(w, "  It is the head you gave: this is the log your report quoted.\n")
	default:
		fmt.Fprintf(w, "HEAD DIFFERS: you gave %s.\n  The log verifies, but it is not the log that report quoted.\n", *wantHead)
	}
}

// WriteLegacyVerification writes the result of verifying an umpire-dice-v1
// log at name, as "umpire verify" prints it.
func WriteLegacyVerification(w io.Writer, name string, res *legacy.Result) {
	if !res.OK() {
		fmt.Fprintf(w, "FAILED %s (game %s)\n  %s\n", name, res.Game, res.Problem.Error())
		fmt.Fprintf(w, "  Nothing from this entry on can be trusted; the log has %d steps and %d entries.\n", res.Steps, res.Entries)
		return
	}
	fmt.Fprintf(w, "OK %s (game %s)\n", name, res.Game)
	fmt.Fprintf(w, "  %d steps, %d entries: %d re-derived from their revealed links", res.Steps, res.Entries, res.Verified)
	if res.Hidden > 0 {
		fmt.Fprintf(w, ",\n  %s taken by their stated hash until their link is revealed", plural(res.Hidden, "sealed entry"))
	}
	fmt.Fprintf(w, ".\n  Log head %s\n  Compare this head with the one quoted in your latest report.\n", res.Head)
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
