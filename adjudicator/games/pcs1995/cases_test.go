package pcs1995_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/pcs1995"
	"github.com/umpire-pbem/umpire/adjudicator/resolve/resolvetest"
)

func TestCases(t *testing.T) { resolvetest.Run(t, pcs1995.Calculator, "testdata") }
