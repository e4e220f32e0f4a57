package wbt_test

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/games/wbt"
	"github.com/umpire-pbem/umpire/adjudicator/resolve/resolvetest"
)

func TestCases(t *testing.T) { resolvetest.Run(t, wbt.Calculator, "testdata") }
