package sms1914

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// montenegrinDRM is the Montenegrin REPL DRM: +1 after the 8th Inter-Phase,
// that is from the 9th on (24.1).
func montenegrinDRM(interphase int) int {
	if interphase > 8 {
		return 1
	}
	return 0
}

// montenegrinTable is the 24.1 Montenegrin REPLs Table: 1 gives 3 REPLs, 2
// gives 2, 3 gives 1, and 4-7 none.
func montenegrinTable(modified int) int {
	switch {
	case modified <= 1:
		return 3
	case modified == 2:
		return 2
	case modified == 3:
		return 1
	}
	return 0
}

// montenegrinREPLs rolls for Montenegrin REPLs at an Inter-Phase (24.1):
// from the second Inter-Phase on, 1d6 plus the DRM on the table; before
// that there is no roll and no REPLs.
func montenegrinREPLs(r dice.Roller, interphase int) (roll string, modified, repls int, rolled bool) {
	if interphase < 2 {
		return "", 0, 0, false
	}
	d := dice.Roll(r, 1, 6, "1914 SmS 24.1 Montenegrin REPLs roll")[0]
	var mods kit.Modifiers
	mods.Add(montenegrinDRM(interphase), fmt.Sprintf("Inter-Phase %d", interphase), "24.1")
	modified = d + mods.Sum()
	return kit.Roll(d, mods), modified, montenegrinTable(modified), true
}
