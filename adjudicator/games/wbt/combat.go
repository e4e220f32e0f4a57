package wbt

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// battle is one attack's situation: the attacking side, the final attack and
// defense factor totals (after every factor modifier: supply, rivers,
// artillery, anti-tank...), the defender's terrain and the column shifts
// (11.5-11.25).
type battle struct {
	Side            side
	Attack, Defense int
	Terrain         terrain
	BadWeather      bool // 5.3
	CombatFirst     bool // NATO chose combat/movement this turn (5.4)
	// Shifts are the other net column shifts, + rightward: envelopment
	// (11.25, 12.6), the Milosevic Line (11.19), the 8.9 supply penalty, a
	// town in a hill hex, ...
	Shifts int
}

// Shift is the battle's net column shift, + rightward (11.22: shifts are
// cumulative).
func (b battle) Shift() (int, error) {
	t, err := terrainShift(b.Terrain)
	if err != nil {
		return 0, err
	}
	return t + weatherShift(b.Side, b.BadWeather) + sequenceShift(b.Side, b.CombatFirst) + b.Shifts, nil
}

// Odds returns the battle's raw odds (11.5, 11.6) and final odds (11.7).
func (b battle) Odds() (ratio, final, error) {
	shift, err := b.Shift()
	if err != nil {
		return ratio{}, final{}, err
	}
	raw := odds(b.Attack, b.Defense)
	return raw, finalOdds(b.Side, raw, shift), nil
}

// outcome is a resolved battle.
type outcome struct {
	Raw   ratio
	Final final
	// Roll is the CRT die, 0 when the result was automatic (11.7).
	Roll int
	// Result is the CRT cell or automatic result (11.7, 11.8).
	Result result
	// AttackerSteps and DefenderSteps are the step losses each side takes,
	// after city doubling (11.13).
	AttackerSteps, DefenderSteps int
	// CivilianCasualties reports a NATO attack into a city rolling 6: the
	// civilian casualties roll follows (13.0).
	CivilianCasualties bool
}

// Resolve fights the battle on crt: an automatic result when the final odds
// are off the table (11.7), otherwise one die on the final column (11.8);
// then city doubling (11.13).
func Resolve(b battle, crt *crt, r dice.Roller) (outcome, error) {
	raw, final, err := b.Odds()
	if err != nil {
		return outcome{}, err
	}
	o := outcome{Raw: raw, Final: final}
	if res, ok := final.Automatic.Result(); ok {
		o.Result = res
	} else {
		col, _ := final.Column()
		o.Roll = dice.Roll(r, 1, 6, fmt.Sprintf("WbT 11.8 CRT roll, %s attack at %s", b.Side, final))[0]
		o.Result = crt.Cell(col, o.Roll)
	}
	o.AttackerSteps, o.DefenderSteps = o.Result.Attacker, o.Result.Defender
	if b.Terrain == city {
		o.AttackerSteps, o.DefenderSteps = cityLosses(o.Result, final.Automatic == defenderRouted)
	}
	o.CivilianCasualties = b.Side == nato && b.Terrain == city && o.Roll == 6
	return o, nil
}

// cityLosses doubles both sides' step losses in a battle for a city hex,
// zeroes becoming ones; but the attacker's zero stays zero when the final
// odds were beyond the table (over 6:1 NATO, over 7:1 Serbs: beyondTop)
// (11.13).
func cityLosses(res result, beyondTop bool) (attacker, defender int) {
	double := func(n int) int {
		if n == 0 {
			return 1
		}
		return 2 * n
	}
	attacker, defender = double(res.Attacker), double(res.Defender)
	if beyondTop && res.Attacker == 0 {
		attacker = 0
	}
	return attacker, defender
}
