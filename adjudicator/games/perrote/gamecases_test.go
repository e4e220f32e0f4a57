package perrote_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestGameCases runs the adjudication cases of testdata/game
// (docs/rules-cases.md): whole turns from small test boards (*.toml
// scenario files) with forced dice.
func TestGameCases(t *testing.T) {
	rulestest.Run(t, rulestest.Config{Rules: perrote.Game, Dir: filepath.Join("testdata", "game"), Load: func(path string, data []byte) ([]byte, error) {
		sc, err := perrote.ParseScenario(strings.TrimSuffix(filepath.Base(path), ".toml"), data)
		if err != nil {
			return nil, err
		}
		return perrote.NewFromScenario(sc)
	}})
}
