package adjudicator_test

import (
	"slices"
	"strings"
	"testing"
)

// TestNoUsableLineRefused: a file whose every order line the rules refuse
// is not accepted (the seat's orders are not replaced by nothing), does not
// mark the seat ready, says why with a hint, and says in plain words what
// the step's default will do at the deadline (docs/rulings.md, issue 31
// (no-ops)).
func TestNoUsableLineRefused(t *testing.T) {
	h := host(t, duel)
	r := h.send("A", 1, "roll 9", "fly to the moon")
	for _, want := range []string{"NOT ACCEPTED", "line 4: roll 9", "line 5: ", "not one order line of this file can be used",
		"your seat is not marked ready", "hint: fix the lines above ('help fake'", "If no usable orders of yours arrive before the deadline, at the deadline A passes: it gives no orders this step."} {
		if !strings.Contains(r, want) {
			t.Errorf("receipt lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "ignored: ") {
		t.Errorf("a refused file's lines are called ignored:\n%s", r)
	}
	if st := h.step(1); slices.Contains(st.Ready, "A") {
		t.Errorf("seat A ready after a file of no usable line: %v", st.Ready)
	}
	// An earlier good version stands after a file of no usable line.
	h.send("A", 1, "roll 2")
	if r := h.send("A", 1, "roll 9"); !strings.Contains(r, "Your version 1 of these orders stands") {
		t.Errorf("the receipt does not say the earlier version stands:\n%s", r)
	}
	if st := h.step(1); !slices.Contains(st.Ready, "A") {
		t.Errorf("seat A's good orders lost their readiness to a refused file: %v", st.Ready)
	}
}

// TestEmptyFileSaysTheDefault: a file with no order lines is the seat's
// choice of the default: accepted, the seat ready, and the receipt says
// what the default does in plain words.
func TestEmptyFileSaysTheDefault(t *testing.T) {
	h := host(t, duel)
	r := h.send("A", 1, "# nothing this time")
	for _, want := range []string{"ACCEPTED", "(no orders: at the deadline A passes: it gives no orders this step)",
		"Your file gives no orders: at the deadline A passes", "Your seat is now ready"} {
		if !strings.Contains(r, want) {
			t.Errorf("receipt lacks %q:\n%s", want, r)
		}
	}
}
