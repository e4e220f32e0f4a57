package bu_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/bu"
	"github.com/umpire-pbem/umpire/adjudicator/resolve/resolvetest"
)

func TestCases(t *testing.T) { resolvetest.Run(t, bu.Calculator, "testdata") }
