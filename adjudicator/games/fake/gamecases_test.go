package fake_test

import (
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestGameCases runs the adjudication cases of testdata/game
// (docs/rules-cases.md).
func TestGameCases(t *testing.T) {
	rulestest.Run(t, rulestest.Config{Rules: fake.Game, Dir: filepath.Join("testdata", "game")})
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-fake.md, are tried in, by phase.
var grammarStates = map[string]rulestest.PhaseState{
	"order step": {Seat: "A", Prestate: "scenario duel"},
	"window":     {Seat: "B", Prestate: "scenario duel\nset window = \"B\"\nset challenger = \"A\""},
}

// TestVerbExamples: every example `help fake` mails is accepted by the
// game's parser in a step of its phase.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, rulestest.Config{Rules: fake.Game, Dir: filepath.Join("testdata", "game")}, grammarStates)
}

// TestOrdersDocumented: docs/orders-fake.md names every verb of the table,
// and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, rulestest.Config{Rules: fake.Game, Dir: filepath.Join("testdata", "game")},
		filepath.Join("..", "..", "..", "docs", "orders-fake.md"), grammarStates)
}
