package sms1914_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/sms1914"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/adjudicator/resolve/resolvetest"
)

func TestCases(t *testing.T) { resolvetest.Run(t, sms1914.Calculator, "testdata") }

// TestDeclarations checks the procedure declarations the way the registry
// does, and that the listing names every contract procedure.
func TestDeclarations(t *testing.T) {
	t.Parallel()
	resolve.NewRegistry(sms1914.Calculator)
	var b strings.Builder
	resolve.List(&b, sms1914.Calculator)
	for _, p := range []string{"odds", "pr_drm", "intensity", "ec", "small_magnitude", "montenegrin_repls", "allied_assistance", "combat"} {
		if sms1914.Calculator.Procedure(p) == nil || !strings.Contains(b.String(), p) {
			t.Errorf("procedure %s missing", p)
		}
	}
}
