package perrote

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestGameCases runs the adjudication cases of testdata/game
// (docs/rules-cases.md): whole turns from small test boards (*.toml
// scenario files) with forced dice. The cases walk every refusal the order
// parser can make (refusals.case holds those no rule's own file shows):
// each must come with a hint.
func TestGameCases(t *testing.T) {
	refusals := &rulestest.Refusals{Dir: "."}
	rulestest.Run(t, rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Refusals: refusals, Load: func(path string, data []byte) ([]byte, error) {
		sc, err := ParseScenario(strings.TrimSuffix(filepath.Base(path), ".toml"), data)
		if err != nil {
			return nil, err
		}
		return newFromScenario(sc)
	}})
	if !t.Failed() {
		refusals.Check(t)
	}
}

// TestRefusalsDocumented: every refusal a player can meet is explained in
// docs/troubleshooting.md.
func TestRefusalsDocumented(t *testing.T) {
	rulestest.Documented(t, filepath.Join("..", "..", "..", "docs", "troubleshooting.md"), ".")
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-perrote.md, are tried in: the breakthrough
// scenario's first turn with two US units come near the Russians.
var grammarStates = map[string]rulestest.PhaseState{
	"turn":   {Seat: "Russia", Prestate: "scenario breakthrough\nset units[id=A3].hex = \"0811\"\nset units[id=S1].hex = \"0810\""},
	"split":  {Seat: "USA", Prestate: "scenario breakthrough"},
	"embark": {Seat: "Russia", Prestate: "scenario breakthrough\nset units[id=BMP2].hex = \"0611\"\nset units[id=R2].aboard = \"\"\nset units[id=R2].hex = \"0415\""},
}

func grammarConfig() rulestest.Config {
	return rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game")}
}

// TestVerbExamples: every example `help perrote` mails is accepted by the
// game's parser in a turn.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, grammarConfig(), grammarStates)
}

// TestOrdersDocumented: docs/orders-perrote.md names every verb of the
// table, and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "orders-perrote.md"), grammarStates)
}
