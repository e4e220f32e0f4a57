package adjudicator_test

import (
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestEveryProblemHasAHint: every refusal the judge itself makes (the
// order file's header, the game, seat and step it names) says what would
// be legal; intake_test.go drives them.
func TestEveryProblemHasAHint(t *testing.T) {
	rulestest.StaticHints(t, ".")
	rulestest.StaticHints(t, "games/fake")
	rulestest.Documented(t, filepath.Join("..", "docs", "troubleshooting.md"), ".")
}
