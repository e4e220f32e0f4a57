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
