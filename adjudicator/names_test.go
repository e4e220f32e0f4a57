package adjudicator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// sendText delivers text as seat's signed order file and returns the
// answer's text.
func (h *hosted) sendText(seat, text string) string {
	h.t.Helper()
	from := strings.ToLower(seat) + "@players.test"
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("%s-%d@players.test", seat, rand.Int()), From: from,
		Received: h.now, Text: text, Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: h.keys[seat], Content: text, Signed: []byte(text)}}
	var answer string
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.intake.Handle(context.Background(), &capture{Tx: tx, to: from, got: &answer}, env)
		return err
	})
	return answer
}

// TestNamesInAnyCase: a game's id and a seat's name match in any case in
// an order file, a join and a command, and the answer says them as the
// game spells them.
func TestNamesInAnyCase(t *testing.T) {
	h := host(t, duel)
	r := h.sendText("A", "game: G1\nstep: 1\nseat: a\nroll 2\nend\n")
	if !strings.Contains(r, "ACCEPTED: orders of seat A for step 1 of g1") {
		t.Errorf("orders for 'seat: a' of 'game: G1':\n%s", r)
	}
	if st := h.step(1); !slices.Contains(st.Ready, "A") {
		t.Errorf("seat A not ready after its orders written in another case: %v", st.Ready)
	}
	if r := h.ask("", "status G1"); !strings.Contains(r, "g1") || strings.Contains(r, "no game") {
		t.Errorf("status G1:\n%s", r)
	}
	h.update(func(tx adjudicator.Tx) error { return h.judge.Vacate(tx, "g1", "A") })
	if r := h.ask("A", "join G1 a"); !strings.Contains(r, "seat A of g1") || strings.Contains(r, "not done") {
		t.Errorf("join G1 a:\n%s", r)
	}
}

// TestDidYouMeanSeatAndGame: an unknown seat or game gets the nearest
// names.
func TestDidYouMeanSeatAndGame(t *testing.T) {
	h := host(t, duel)
	r := h.sendText("A", "game: g1\nstep: 1\nseat: AA\nroll 2\nend\n")
	if !strings.Contains(r, `game g1 has no seat "AA"`) || !strings.Contains(r, "hint: did you mean A?") {
		t.Errorf("seat AA:\n%s", r)
	}
	r = h.sendText("A", "game: g2\nstep: 1\nseat: A\nroll 2\nend\n")
	if !strings.Contains(r, `there is no game "g2"`) || !strings.Contains(r, "did you mean g1?") {
		t.Errorf("game g2:\n%s", r)
	}
}

// TestHeaderProblemsAtOnce: a misspelt header is named, with the header it
// looks like; the seat's and the step's problems come in one answer; and
// the subject never says "step 0".
func TestHeaderProblemsAtOnce(t *testing.T) {
	h := host(t, duel)
	r := h.sendText("A", "game: g1\nstpe: 1\nseat: A\nroll 2\nend\n")
	if !strings.Contains(r, "line 2: the order file does not say which step it is for: this line is no header") ||
		!strings.Contains(r, "hint: did you mean 'step:'? write it as in 'step: 7'") {
		t.Errorf("stpe: 1:\n%s", r)
	}
	ms := h.mails("a@players.test")
	if subj := ms[len(ms)-1].Subject; strings.Contains(subj, "step 0") || !strings.Contains(subj, "receipt g1 A: NOT accepted") {
		t.Errorf("subject %q", subj)
	}
	// B's key signs for seat A and names step 2: both in one answer.
	r = h.sendText("B", "game: g1\nstep: 2\nseat: A\nroll 2\nend\n")
	if !strings.Contains(r, "line 3: seat A of g1 is not held by the key that signed") || !strings.Contains(r, "line 2: step 2 is not open") {
		t.Errorf("seat and step mismatch:\n%s", r)
	}
	// a step that is no number and a seat the game has not, at once
	r = h.sendText("A", "game: g1\nstep: x\nseat: Q\nroll 2\nend\n")
	if !strings.Contains(r, `line 2: step "x" is not a step number`) || !strings.Contains(r, `line 3: game g1 has no seat "Q"`) {
		t.Errorf("bad step and seat:\n%s", r)
	}
}
