package pcs1995

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestQueueCapKeepsTheStateSmall sends 10,000 activation lines, as the
// issue-27 review did (the state grew from 4.9 kB to 484 kB and kept the
// lines for the rest of the turn): the lines beyond the cap are refused
// with their line numbers, and the state after the step holds at most the
// cap.
func TestQueueCapKeepsTheStateSmall(t *testing.T) {
	t.Parallel()
	state, err := loadTestMap(filepath.Join("testdata", "game", "test-map.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	capLines, _ := g.queueCap(NATO)
	const n = 10000
	lines := []adjudicator.OrderLine{{Line: 1, Text: "ask"}}
	for i := 2; i <= n; i++ {
		lines = append(lines, adjudicator.OrderLine{Line: i, Text: "move N-X 1003 if vp >= 99 else skip"})
	}
	canon, problems := Game.ParseOrders(state, seatNATO, lines)
	if len(canon) != capLines || len(problems) != n-capLines {
		t.Fatalf("%d lines accepted, %d refused; want %d and %d", len(canon), len(problems), capLines, n-capLines)
	}
	if p := problems[0]; p.Line != capLines+1 || !strings.Contains(p.Text, fmt.Sprintf("more than %d activation lines", capLines)) || p.Hint == "" {
		t.Errorf("first refusal %+v", p)
	}
	next, _, err := Game.Adjudicate(state, map[string][]string{seatNATO: canon}, newSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := decode(next)
	if len(after.Queue[seatNATO]) != capLines-1 {
		t.Errorf("the queue keeps %d lines, want %d", len(after.Queue[seatNATO]), capLines-1)
	}
	if grown := len(next) - len(state); grown > capLines*64 {
		t.Errorf("the state grew by %d bytes for %d queued lines", grown, capLines)
	}
}

// TestDefaultOrdersInWords: asked for its activations, a seat without
// usable orders passes for the rest of the turn (7.0), and the judge's
// receipt says so in those words (issue 31, no-ops); after a stop order
// its held queue goes on.
func TestDefaultOrdersInWords(t *testing.T) {
	t.Parallel()
	state, err := loadTestMap(filepath.Join("testdata", "game", "test-map.toml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	g.Phase = phaseQueue
	g.Pending = &pending{Kind: phaseQueue, Seat: seatNATO, Default: "pass"}
	asked, err := g.encode()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := Game.Step(asked)
	if got := adjudicator.DefaultWords(Game, asked, seatNATO, spec.NoOrders[seatNATO]); got != "NATO passes for the rest of the turn (7.0)" {
		t.Errorf("asked for activations: %q", got)
	}
	g.Pending.Resume = true
	held, _ := g.encode()
	if got := adjudicator.DefaultWords(Game, held, seatNATO, "the held queue goes on"); got != "NATO's held queue goes on as it is" {
		t.Errorf("held queue: %q", got)
	}
	g.Phase = phaseSetup
	setup, _ := g.encode()
	spec, _ = Game.Step(setup)
	if got := adjudicator.DefaultWords(Game, setup, seatNATO, spec.NoOrders[seatNATO]); got != "the default for NATO applies: the set-up hexes of the counter list" {
		t.Errorf("set-up: %q", got)
	}
}
