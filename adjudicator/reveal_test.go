package adjudicator_test

import (
	"strings"
	"testing"
)

// TestRevealWhenSecrecyIsSpent: a fake seat that shows its cards (the rules
// call dice.Reveal) has its hand's keys published at once, for the steps
// that drew from it; every seat can then check those cards while the game
// runs, and the other hand stays sealed.
func TestRevealWhenSecrecyIsSpent(t *testing.T) {
	h := host(t, strings.Replace(duel, "[schedule]", "[options]\nturns = \"4\"\n[schedule]", 1))
	h.send("A", 1, "secret")
	h.send("B", 1, "secret")
	if res := h.verifyLog(); !res.OK() || res.Sealed != 2 || res.Reveals != 0 {
		t.Fatalf("after step 1: %+v", res)
	}
	h.send("A", 2, "secret", "show")
	h.send("B", 2, "pass")
	res := h.verifyLog()
	// A's hand drew in steps 1 and 2: both keys revealed; B's card stays
	// sealed.
	if !res.OK() || res.Reveals != 2 || res.Sealed != 1 || res.Ended {
		t.Errorf("after A showed its cards: %+v", res)
	}
	b := lastText(t, h.mails("b@players.test"), "step 2 report")
	if !strings.Contains(b, "A shows its cards") {
		t.Errorf("B's report:\n%s", b)
	}
	// Drawing again after showing: the new card's key stays sealed.
	h.send("A", 3, "show", "secret")
	h.send("B", 3, "pass")
	if res := h.verifyLog(); !res.OK() || res.Reveals != 2 || res.Sealed != 2 || res.Ended {
		t.Errorf("after A drew again: %+v (want B's and A's new card sealed)", res)
	}
	h.send("A", 4, "pass")
	h.send("B", 4, "pass")
	if res := h.verifyLog(); !res.OK() || !res.Ended || res.Sealed != 0 {
		t.Errorf("at the end: %+v", res)
	}
}
