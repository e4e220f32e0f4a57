package perrote_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/perrote"
	"github.com/umpire-pbem/umpire/adjudicator/resolve/resolvetest"
)

func TestCases(t *testing.T) { resolvetest.Run(t, perrote.Calculator, "testdata") }
