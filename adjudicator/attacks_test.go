package adjudicator_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// What a seat checks of a step (docs/dice-log.md, "What each seat checks"):
// the entry under its seat is the version and digest of its last receipt,
// or there is none when it sent nothing.
var receiptRE = regexp.MustCompile(`version (\d+)\.\n(?s:.*)Order file digest \([^)]*\): ([0-9a-f]{64})`)

func seatCheck(t *testing.T, receipt, report string) (ok bool, why string) {
	t.Helper()
	m := regexp.MustCompile(`your orders: (version \d+, digest\s+[0-9a-f]{64}|none included)`).FindStringSubmatch(strings.Join(strings.Fields(report), " "))
	if m == nil {
		t.Fatalf("the report has no 'your orders' line:\n%s", report)
	}
	if receipt == "" {
		return m[1] == "none included", "sent nothing, report says " + m[1]
	}
	r := receiptRE.FindStringSubmatch(receipt)
	if r == nil {
		t.Fatalf("receipt without version and digest:\n%s", receipt)
	}
	want := "version " + r[1] + ", digest " + r[2]
	return m[1] == want, "receipt says " + want + ", report says " + m[1]
}

const duelLate = `id = "g1"
game = "fake"
scenario = "duel"
gm = "GMKEY"
[schedule]
every = "48h"
early = false
`

// TestPhantomAndSubstitutedOrdersVisible: an operator who puts an order
// file under a seat (a variant the seat never sent, or orders for a seat
// that sent none) changes that seat's entry in the order list, and the
// seat's report shows it: its check against its receipt fails. An honest
// step passes the same check.
func TestPhantomAndSubstitutedOrdersVisible(t *testing.T) {
	h := host(t, duelLate)
	ra := h.send("A", 1, "roll 1")
	h.tick(start.Add(49 * time.Hour))
	a := lastText(t, h.mails("a@players.test"), "step 1 report")
	b := lastText(t, h.mails("b@players.test"), "step 1 report")
	if ok, why := seatCheck(t, ra, a); !ok {
		t.Errorf("honest step, A: %s", why)
	}
	if ok, why := seatCheck(t, "", b); !ok {
		t.Errorf("honest step, B: %s", why)
	}

	// Step 2: the operator substitutes a variant of A's orders and adds a
	// phantom file under B.
	ra = h.send("A", 2, "roll 1")
	h.update(func(tx adjudicator.Tx) error {
		for _, f := range []adjudicator.OrderFile{
			{Game: "g1", Step: 2, Seat: "A", Text: "game: g1\nstep: 2\nseat: A\nroll 3\n# a variant\nend\n"},
			{Game: "g1", Step: 2, Seat: "B", Text: "game: g1\nstep: 2\nseat: B\nroll 3\nend\n"},
		} {
			f.Signed = []byte(f.Text)
			f.Digest = legacy.OrderDigest(f.Signed)
			f.Received = h.now
			if _, err := tx.AddOrderFile(f); err != nil {
				return err
			}
		}
		return nil
	})
	h.tick(start.Add(97 * time.Hour))
	a = lastText(t, h.mails("a@players.test"), "step 2 report")
	b = lastText(t, h.mails("b@players.test"), "step 2 report")
	if ok, why := seatCheck(t, ra, a); ok {
		t.Errorf("a substituted file passes A's check: %s", why)
	}
	if ok, why := seatCheck(t, "", b); ok {
		t.Errorf("a phantom file under B passes B's check: %s", why)
	}
	// The order list in the public log is the one the reports show.
	if res := h.verifyLog(); !res.OK() {
		t.Errorf("log: %v", res.Problem)
	}
}

// TestRollbackInEveryLaterReport: after a rollback every report says it,
// with its reason, and the log holds the rollback record.
func TestRollbackInEveryLaterReport(t *testing.T) {
	h := host(t, strings.Replace(duel, "[schedule]", "[options]\nturns = \"3\"\n[schedule]", 1))
	h.send("A", 1, "roll 1")
	h.send("B", 1, "roll 1")
	var n uint64
	cmd := legacy.OrderDigest([]byte("rollback g1 1 misread orders"))
	h.update(func(tx adjudicator.Tx) (err error) {
		n, err = h.judge.Rollback(tx, "g1", 1, h.now, cmd, "misread orders")
		return err
	})
	if n != 3 {
		t.Fatalf("play goes on as step %d, want 3 (step 2 closed unplayed)", n)
	}
	for _, k := range []int{3, 4} {
		h.send("A", k, "roll 1")
		h.send("B", k, "pass")
		for _, to := range []string{"a@players.test", "b@players.test", "gm@players.test"} {
			rep := strings.Join(strings.Fields(lastText(t, h.mails(to), "step "+string(rune('0'+k))+" report")), " ")
			for _, want := range []string{"ROLLBACK: Step 2 was closed unplayed", "step 1 opened (rollback 1 to step 1)", cmd.String(), "Reason: misread orders"} {
				if !strings.Contains(rep, want) {
					t.Errorf("step %d report to %s lacks %q:\n%s", k, to, want, rep)
				}
			}
		}
	}
	res := h.verifyLog()
	if !res.OK() || res.Rollbacks != 1 || res.Steps != 3 {
		t.Errorf("log: %+v", res)
	}
}

// TestRunningGameHiddenCardsCannotBeRead: every hidden card of a running
// fake game, searched for in its public log with every public 32-byte
// value as a key and with v1's unkeyed hash, is found nowhere; the holder's
// own key (from its report) opens its card and no other.
func TestRunningGameHiddenCardsCannotBeRead(t *testing.T) {
	h := host(t, duel)
	h.send("A", 1, "secret", "secret")
	h.send("B", 1, "secret")
	log := h.exportLog()
	x, err := dice.ParseExport(log)
	if err != nil {
		t.Fatal(err)
	}
	hexRE := regexp.MustCompile(`[0-9a-f]{64}`)
	var public []dice.Hash
	for _, s := range hexRE.FindAllString(string(log), -1) {
		v, _ := dice.ParseHash(s)
		public = append(public, v)
	}
	hidden := 0
	for _, r := range x.Records {
		if r.Type != dice.TypeDraw || r.Draw.Stream == dice.Open {
			continue
		}
		hidden++
		if r.Draw.Values != nil {
			t.Fatalf("a hidden draw's values are in the public log of a running game: %+v", r.Draw)
		}
		d := *r.Draw
		for v := int64(0); v < 9; v++ {
			d.Values = []int64{v}
			for _, k := range public {
				if d.Commit(k) == d.Commitment {
					t.Errorf("draw %d's card found with a public value as key", d.Seq)
				}
			}
		}
	}
	if hidden != 3 {
		t.Fatalf("%d hidden draws, want 3", hidden)
	}
	// A's report carries A's key; with it, verify opens A's two cards and
	// not B's.
	a := lastText(t, h.mails("a@players.test"), "step 1 report")
	key := regexp.MustCompile(`(?s)Your hidden stream hand-a.*?([0-9a-f]{64})`).FindStringSubmatch(a)
	if key == nil {
		t.Fatalf("A's report has no key:\n%s", a)
	}
	k, _ := dice.ParseHash(key[1])
	res, err := dice.VerifyStream(bytes.NewReader(log), dice.VerifyOptions{Keys: []dice.KeyReveal{{Step: 1, Stream: "hand-a", Key: k}}})
	if err != nil || !res.OK() {
		t.Fatalf("verify with A's key: %v %+v", err, res)
	}
	if len(res.Opened) != 2 || res.Opened[0].Stream != "hand-a" || res.Opened[1].Stream != "hand-a" {
		t.Errorf("A's key opened %+v", res.Opened)
	}
	// A wrong key is caught, not believed.
	k[0] ^= 1
	res, _ = dice.VerifyStream(bytes.NewReader(log), dice.VerifyOptions{Keys: []dice.KeyReveal{{Step: 1, Stream: "hand-a", Key: k}}})
	if res.OK() {
		t.Error("a wrong key opened A's cards")
	}
	if b := lastText(t, h.mails("b@players.test"), "step 1 report"); strings.Contains(b, key[1]) || strings.Contains(b, "hand-a (for you alone)") {
		t.Errorf("B's report carries A's key:\n%s", b)
	}
}
