package bu

import (
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

// TestRefusalsDocumented: every refusal a player can meet is explained in
// docs/troubleshooting.md.
func TestRefusalsDocumented(t *testing.T) {
	t.Parallel()
	rulestest.Documented(t, filepath.Join("..", "..", "..", "docs", "troubleshooting.md"), ".")
}
