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
