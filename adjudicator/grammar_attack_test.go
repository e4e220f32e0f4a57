package adjudicator_test

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// buStandingOrders is every one-line standing combat or interrupt order of
// Brotherhood & Unity, as docs/orders-bu.md gives their forms: a card (S,
// C or B and its number) with, for an interrupt, its trigger and the seat
// it answers. The audit read the Croat's hand from these.
func buStandingOrders() []string {
	var out []string
	triggers := []string{"event", "op", "sr", "rp", "dp", "attack", "any"}
	for _, side := range []string{"S", "C", "B"} {
		for n := 1; n <= 99; n++ {
			card := fmt.Sprintf("%s%d", side, n)
			out = append(out, "combat "+card, "interrupt "+card)
			for _, on := range triggers {
				out = append(out, "interrupt "+card+" on "+on)
				for _, by := range []string{"Serb", "Croat", "Bosniak"} {
					out = append(out, "interrupt "+card+" on "+on+" by "+by)
				}
			}
		}
	}
	return append(out, "combat none", "interrupt none")
}

// sms1914Doctrines is every defence doctrine line of 1914 as
// docs/orders-sms1914.md gives its forms: Intense by hex, when the
// attacker declared Intense, or by the final odds; ask, auto, not, clear.
func sms1914Doctrines() []string {
	out := []string{"defend ask", "defend auto", "defend not", "defend clear", "defend intense if attacker"}
	for x := 1; x <= 12; x++ {
		for y := 1; y <= 12; y++ {
			out = append(out, fmt.Sprintf("defend intense if odds<=%d:%d", x, y), fmt.Sprintf("defend intense if odds>=%d:%d", x, y))
		}
	}
	for c := 1; c <= 60; c++ {
		for r := 1; r <= 60; r++ {
			out = append(out, fmt.Sprintf("defend intense at %02d.%02d", c, r))
		}
	}
	return out
}

var hexValue = regexp.MustCompile(`[0-9a-f]{64}`)

// bruteForce tries every order file a seat could have sent with one line
// of lines (the header of the entry's game, step and seat, as the order
// file format writes it) against each order entry of a public log: as its
// SHA-256 (umpire-dice-v2's digest), and as a v3 digest keyed with every
// 32-byte value the log shows, in case one of them were a salt, and with
// the salts given. It returns the entries found and the texts tried.
func bruteForce(t *testing.T, log []byte, game string, lines []string, salts ...dice.Hash) (found map[string]string, tried int) {
	t.Helper()
	x, err := dice.ParseExport(log)
	if err != nil {
		t.Fatal(err)
	}
	public := salts
	for _, s := range hexValue.FindAllString(string(log), -1) {
		h, _ := dice.ParseHash(s)
		public = append(public, h)
	}
	found = map[string]string{}
	for _, r := range x.Records {
		if r.Type != dice.TypeStep {
			continue
		}
		for _, o := range r.Step.Orders {
			for _, l := range lines {
				text := []byte(fmt.Sprintf("game: %s\nstep: %d\nseat: %s\n%s\n%s\nend\n", game, o.ForStep, o.Seat, carrier, l))
				tried++
				if sha256.Sum256(text) == o.Digest {
					found[fmt.Sprintf("%s step %d", o.Seat, o.ForStep)] = l
					continue
				}
				for _, salt := range public {
					if dice.OrderDigest(salt, o.ForStep, o.Version, text) == o.Digest {
						found[fmt.Sprintf("%s step %d", o.Seat, o.ForStep)] = l
					}
				}
			}
		}
	}
	return found, tried
}

// carrier is the fake game's order each file of TestBruteForceOrderGrammar
// starts with: the fake game ignores the other games' lines, and a file of
// which not one line can be used is not stored (issue 31, no-ops), so its
// digest would never reach the log.
const carrier = "pass"

// TestBruteForceOrderGrammar: the audit's attack on hidden orders. Seats
// send one-line standing orders of B&U (combat and interrupt cards) and
// 1914 defence doctrines; an attacker holding the public dice log tries
// every line of both grammars. Against a v2 game it finds every order
// (the control: the enumeration covers what was sent); against a v3 game,
// whose digests are keyed by each seat's salt, it finds none.
func TestBruteForceOrderGrammar(t *testing.T) {
	grammar := append(buStandingOrders(), sms1914Doctrines()...)
	sent := map[string]string{"A step 1": "combat C15", "B step 1": "defend intense if odds<=1:1",
		"A step 2": "interrupt C22 on op by Croat", "B step 2": "defend intense at 30.09"}
	for _, v2 := range []bool{true, false} {
		name := map[bool]string{true: "umpire-dice-v2", false: "umpire-dice-v3"}[v2]
		t.Run(name, func(t *testing.T) {
			old := newJudgeV2
			newJudgeV2 = v2
			defer func() { newJudgeV2 = old }()
			h := host(t, duelLate)
			for k := 1; k <= 2; k++ {
				for _, seat := range []string{"A", "B"} {
					if r := h.send(seat, k, carrier, sent[fmt.Sprintf("%s step %d", seat, k)]); !strings.Contains(r, "\nACCEPTED") {
						t.Fatalf("%s's orders for step %d were not accepted:\n%s", seat, k, r)
					}
				}
				h.tick(start.Add(time.Duration(49*k) * time.Hour))
			}
			log := h.exportLog()
			if res := h.verifyLog(); !res.OK() || res.Steps != 2 {
				t.Fatalf("the log: %+v", res)
			}
			found, tried := bruteForce(t, log, "g1", grammar)
			t.Logf("%s: %d order files tried, %d of 4 orders found", name, tried, len(found))
			if v2 {
				for k, l := range sent {
					if found[k] != l {
						t.Errorf("the control: %s's %q was not found in a v2 log (found %q)", k, l, found[k])
					}
				}
				return
			}
			if len(found) != 0 {
				t.Errorf("a v3 log gives away orders: %v", found)
			}
			// With B's salt (its holder's, or anyone's after the end)
			// the same search finds B's orders and A's still not.
			var sec adjudicator.DiceSecrets
			h.update(func(tx adjudicator.Tx) (err error) { sec, err = tx.DiceSecrets("g1"); return err })
			found, _ = bruteForce(t, log, "g1", sms1914Doctrines(), dice.OrderSalt(sec.SealedRoot, "B"))
			if len(found) != 2 || found["B step 1"] != sent["B step 1"] || found["B step 2"] != sent["B step 2"] {
				t.Errorf("B's salt opens %v, want B's two orders", found)
			}
		})
	}
}
