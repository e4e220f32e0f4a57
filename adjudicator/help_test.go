package adjudicator_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
)

// ask sends text as the first line of a mail: signed by seat's key, or
// unsigned when seat is "", and returns the answer's text.
func (h *hosted) ask(seat, text string) string {
	h.t.Helper()
	from := "stranger@players.test"
	env := &adjudicator.Envelope{MessageID: fmt.Sprintf("ask-%d@players.test", rand.Int()), From: from, Received: h.now, Subject: text}
	if seat != "" {
		from = strings.ToLower(seat) + "@players.test"
		body := text + "\n"
		env = &adjudicator.Envelope{MessageID: fmt.Sprintf("ask-%d@players.test", rand.Int()), From: from, Received: h.now, Text: body,
			Signed: &adjudicator.Signature{Kind: "ssh", Fingerprint: h.keys[seat], Content: body, Signed: []byte(body)}}
	}
	var answer string
	h.update(func(tx adjudicator.Tx) error {
		_, err := h.intake.Handle(context.Background(), &capture{Tx: tx, to: from, got: &answer}, env)
		return err
	})
	return answer
}

// TestHelpGame: 'help GAME' mails the game's orders from the table its
// parser looks verbs up in: every verb's form, phase and example; 'help
// GAME TOPIC' one verb or one phase; an unknown game or topic gets the
// nearest names; 'help' lists the hosted games.
func TestHelpGame(t *testing.T) {
	h := host(t, duel)
	verbs := fake.Game.(adjudicator.Grammar).Verbs()
	for _, ask := range []string{"help fake", "HELP Fake", "help g1"} {
		got := h.ask("", ask)
		for _, v := range verbs {
			for _, want := range []string{v.Form, "example: " + v.Example, v.Summary} {
				if !strings.Contains(got, want) {
					t.Errorf("%q: the answer lacks %q:\n%s", ask, want, got)
				}
			}
		}
		for _, want := range []string{"order step:\n", "window:\n", "phase: order step", "Send 'help fake TOPIC' for one order or one phase; the topics are\n  roll, move"} {
			if !strings.Contains(got, want) {
				t.Errorf("%q: the answer lacks %q:\n%s", ask, want, got)
			}
		}
	}
	for _, c := range []struct{ ask, want, not string }{
		{"help fake challenge", "challenge SEAT\n  the next step is a window in which SEAT alone decides\n  phase: order step\n  rules: fake\n  example: challenge B", "roll N"},
		{"help fake window", "window (fake): the orders of this phase", "roll N"},
		{"help fake Order Step", "order step (fake): the orders of this phase\n\nroll N", "accept"},
		{"help fake chalenge", `Fake (a test game) has no order or phase "chalenge". Did you mean challenge?`, ""},
		{"help fak", `This judge hosts no game "fak". Did you mean fake?`, ""},
		{"help", "'help KIND' for one's orders:\n  fake       Fake (a test game)", ""},
		{"help", "  help GAME [TOPIC]  a game's orders", ""},
	} {
		got := h.ask("", c.ask)
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%q: want %q (and not %q) in:\n%s", c.ask, c.want, c.not, got)
		}
	}
	// signed, the same answer
	if got := h.ask("A", "help fake roll"); !strings.Contains(got, "example: roll 2") {
		t.Errorf("signed help fake roll:\n%s", got)
	}
}

// TestUnitsAndStatusInTheSeatsView: 'units GAME' signed by a seat's holder
// lists that seat's units first, unsigned the public list; 'status GAME'
// says the step, its phase, deadline and who is ready, and to a seat what
// the step asks of it.
func TestUnitsAndStatusInTheSeatsView(t *testing.T) {
	h := host(t, duel)
	got := h.ask("A", "units g1")
	own, others, ok := strings.Cut(got, "The other units you may see:")
	if !ok || !strings.Contains(got, "A's view") || !strings.Contains(own, "Your units (A):") ||
		!strings.Contains(own, "A1") || !strings.Contains(own, "0101") || strings.Contains(own, "B1") || !strings.Contains(others, "B1") {
		t.Errorf("units g1, signed by A:\n%s", got)
	}
	got = h.ask("", "units g1")
	if !strings.Contains(got, "the public view") || !strings.Contains(got, "A1") || !strings.Contains(got, "B2") || strings.Contains(got, "Your units") {
		t.Errorf("units g1, unsigned:\n%s", got)
	}
	if got := h.ask("", "units nowhere"); !strings.Contains(got, `There is no game "nowhere"`) {
		t.Errorf("units nowhere:\n%s", got)
	}

	got = h.ask("", "status g1")
	for _, want := range []string{"Step 1: turn-1 (open).", "Deadline: Wed 25 Nov 2026 18:00 UTC.", "Orders owed by: A, B.", "Ready: nobody yet."} {
		if !strings.Contains(got, want) {
			t.Errorf("status g1: lacks %q:\n%s", want, got)
		}
	}
	if r := h.send("A", 1, "roll 2"); !strings.Contains(r, "ACCEPTED") {
		t.Fatalf("A's orders:\n%s", r)
	}
	if got := h.ask("A", "status g1"); !strings.Contains(got, "Ready: A.") || !strings.Contains(got, "You (A) are ready for this step.") {
		t.Errorf("status g1, signed by A after its orders:\n%s", got)
	}
	if got := h.ask("B", "status g1"); !strings.Contains(got, "You (B) owe orders for step 1; no orders by the deadline means: pass.") {
		t.Errorf("status g1, signed by B:\n%s", got)
	}
}

// TestUnitsOfASeatWithTwoSides: the units of a seat are those of the sides
// it plays, as its game names them: the Bosniak-Croat seat of 2-player B&U
// both allies', A-H in 1914 Austria-Hungary's.
func TestUnitsOfASeatWithTwoSides(t *testing.T) {
	hostGames = adjudicator.NewRegistry(bu.Game, sms1914.Game)
	defer func() { hostGames = nil }()
	for _, c := range []struct {
		file, seat  string
		own, notOwn []string
	}{
		{"id = \"g1\"\ngame = \"bu\"\nscenario = \"two\"\ngm = \"GMKEY\"\n[schedule]\nevery = \"48h\"\n", "BC", []string{"ARBIH-", "HVO-"}, []string{"VRS-"}},
		{"id = \"g1\"\ngame = \"sms1914\"\nscenario = \"demo\"\ngm = \"GMKEY\"\n[schedule]\nevery = \"48h\"\n", "AH", []string{"Austria-Hungary"}, []string{"Serbia "}},
	} {
		h := host(t, c.file)
		got := h.ask(c.seat, "units g1")
		_, own, _ := strings.Cut(got, "Your units ("+c.seat+"):")
		own, _, _ = strings.Cut(own, "The other units you may see:")
		for _, w := range c.own {
			if !strings.Contains(own, w) {
				t.Errorf("units g1 signed by %s: its own units lack %q:\n%s", c.seat, w, got)
			}
		}
		for _, w := range c.notOwn {
			if strings.Contains(own, w) {
				t.Errorf("units g1 signed by %s: its own units hold %q:\n%s", c.seat, w, got)
			}
		}
	}
}

// TestHelpExampleIsTheOrderFilePages: the order file 'help' mails is
// docs/order-file.md's, whose orders War by Television's parser accepts
// (wbt's TestOrderFileExample), so the example is a real game's grammar.
func TestHelpExampleIsTheOrderFilePages(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "order-file.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```orders NATO combat\n")
	if !ok {
		t.Fatal("docs/order-file.md has no ```orders NATO combat block")
	}
	block, _, _ = strings.Cut(block, "```")
	help := host(t, duel).ask("", "help")
	n := 0
	for l := range strings.SplitSeq(block, "\n") {
		l = strings.TrimSpace(strings.SplitN(l, "#", 2)[0])
		if l == "" {
			continue
		}
		n++
		if !strings.Contains(help, "\n  "+l+"\n") {
			t.Errorf("help's order file lacks docs/order-file.md's line %q:\n%s", l, help)
		}
	}
	if n < 5 {
		t.Errorf("docs/order-file.md's example has %d lines", n)
	}
}
