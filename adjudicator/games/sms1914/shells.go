package sms1914

import (
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// alliedAssistanceDRM is the DRM of the Allied Assistance roll: +1 for each
// earlier failed roll (23.2.2), read as cumulative; with cumulative false,
// only the +1 of the last failure counts.
func alliedAssistanceDRM(failures int, cumulative bool) int {
	if !cumulative {
		return min(failures, 1)
	}
	return failures
}

// alliedAssistance rolls the Inter-Phase Allied Assistance 1d6 of a Serb
// with no Shells (23.2.2): a modified 6 or more sends shells (4 Shells per
// GT from then on); 1-5 fails.
func alliedAssistance(r dice.Roller, failures int, cumulative bool) (roll string, modified int, success bool) {
	d := dice.Roll(r, 1, 6, "1914 SmS 23.2.2 Allied Assistance roll")[0]
	var mods kit.Modifiers
	mods.Add(alliedAssistanceDRM(failures, cumulative), "earlier failures", "23.2.2")
	modified = d + mods.Sum()
	return kit.Roll(d, mods), modified, modified >= 6
}
