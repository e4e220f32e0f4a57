package bu

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
)

// ceQuarters is the Combat Effectiveness of a modified roll in quarters
// (13.4.5): 0 is x0.25, 1-2 x0.5, 3-6 x1, 7-8 x1.5, 9 x2. The table covers
// 0 to 9: a modified roll below 0 reads the 0 row and one above 9 the 9
// row (ruling; 13.4.6.4 speaks of "9 or higher").
func ceQuarters(modified int) int {
	switch {
	case modified <= 0:
		return 1
	case modified <= 2:
		return 2
	case modified <= 6:
		return 4
	case modified <= 8:
		return 6
	}
	return 8
}

// critical reports a critical hit: a modified roll of 9 or more (13.4.6.4).
func critical(modified int) bool { return modified >= 9 }

// lossNumber is CE x CF rounded up to the nearest integer (13.4.6), the CE
// given in quarters.
func lossNumber(ceQuarters, cf int) int {
	return (ceQuarters*cf + 3) / 4
}

// halfUp halves a CF or LF rounded up, as being Out Of Supply does (2.4.8,
// 13.4.1.4, 13.4.6.3).
func halfUp(x int) int { return (x + 1) / 2 }

// who names a side of a battle.
type who string

// The sides of a battle, and no one.
const (
	nobody   who = "none"
	attacker who = "attacker"
	defender who = "defender"
)

// battle is one attack as 13.4 calculates it.
type battle struct {
	AttackerCF, DefenderCF int           // printed totals of the units in the battle
	AttackerCards          kit.Modifiers // DRMs from Strategy and Combat cards on the attacker's roll
	DefenderCards          kit.Modifiers // DRMs from Combat cards on the defender's roll
	Terrain                terrain
	Trench                 bool // the defending space holds a completed entrenchment
	NotAllAcross           bool // river: some attacking unit did not attack across it (13.4.4.2)
	Turn                   int
	Bosniak                who  // which side takes the Bosniak DRM (13.4.4.3, 14.6.2)
	AttackerOOS            bool // every attacking unit is Out Of Supply
	DefenderOOS            bool // every defending unit is Out Of Supply
	// AttackerCFAfter, when AfterKnown, is the attacker's printed CF left
	// after it took the defender's loss first (river, 13.4.4.2).
	AttackerCFAfter int
	AfterKnown      bool
}

// battleResult is what the two rolls of a Battle come to.
type battleResult struct {
	AttackerRoll, DefenderRoll         int
	AttackerDRM, DefenderDRM           int           // every modifier applied
	AttackerMods, DefenderMods         kit.Modifiers // the same, each named with its rule
	AttackerModified, DefenderModified int
	AttackerCEQuarters                 int
	DefenderCEQuarters                 int
	AttackerCF, DefenderCF             int // the CF multiplied (OOS halved)
	LossToDefender, LossToAttacker     int
	AttackerCritical, DefenderCritical bool
	DefenderFiresFirst                 bool
	DefenderCardsIgnored               bool // OOS defenders lose their card bonus (2.4.8)
	Effects                            terrainEffect
}

// Resolve works out a battle from the two unmodified d10 rolls (read 0-9):
// DRMs (13.4.4), Combat Effectiveness (13.4.5), Loss Numbers (13.4.6) and
// critical hits (13.4.6.4). Out Of Supply units fight at half CF rounded up
// (13.4.1.4) and defending OOS units get no benefit from Combat Cards
// (2.4.8: a positive card DRM is dropped, a negative one stays). Behind a
// river the defender fires first and the attacker's Loss Number comes from
// the CF it has left (13.4.4.2), when that is known.
func (b battle) Resolve(attackerRoll, defenderRoll int) battleResult {
	res := battleResult{AttackerRoll: attackerRoll, DefenderRoll: defenderRoll}
	res.Effects = effects(b.Terrain, b.Trench, !b.NotAllAcross)
	res.DefenderFiresFirst = res.Effects.DefenderFiresFirst
	res.AttackerMods = append(append(res.AttackerMods, b.AttackerCards...), res.Effects.AttackerMods...)
	defCards := b.DefenderCards
	if b.DefenderOOS && defCards.Sum() > 0 {
		defCards = nil
		res.DefenderCardsIgnored = true
	}
	res.DefenderMods = append(append(res.DefenderMods, defCards...), res.Effects.DefenderMods...)
	bosniakTerm := fmt.Sprintf("Bosniak on turn %d", b.Turn)
	switch b.Bosniak {
	case attacker:
		res.AttackerMods.Add(bosniakDRM(b.Turn), bosniakTerm, "13.4.4.3")
	case defender:
		res.DefenderMods.Add(bosniakDRM(b.Turn), bosniakTerm, "13.4.4.3")
	}
	res.AttackerDRM, res.DefenderDRM = res.AttackerMods.Sum(), res.DefenderMods.Sum()
	res.AttackerModified = attackerRoll + res.AttackerDRM
	res.DefenderModified = defenderRoll + res.DefenderDRM
	res.AttackerCEQuarters = ceQuarters(res.AttackerModified)
	res.DefenderCEQuarters = ceQuarters(res.DefenderModified)
	res.AttackerCritical = critical(res.AttackerModified)
	res.DefenderCritical = critical(res.DefenderModified)

	attCF := b.AttackerCF
	if res.DefenderFiresFirst && b.AfterKnown {
		attCF = b.AttackerCFAfter
	}
	res.AttackerCF, res.DefenderCF = attCF, b.DefenderCF
	if b.AttackerOOS {
		res.AttackerCF = halfUp(attCF)
	}
	if b.DefenderOOS {
		res.DefenderCF = halfUp(b.DefenderCF)
	}
	res.LossToDefender = lossNumber(res.AttackerCEQuarters, res.AttackerCF)
	res.LossToAttacker = lossNumber(res.DefenderCEQuarters, res.DefenderCF)
	return res
}

// Fight rolls the two combat dice, the attacker's then the defender's
// (13.4.5), and resolves the battle.
func (b battle) Fight(r dice.Roller) battleResult { return b.FightAt(r, "") }

// FightAt is Fight for a battle named in the rolls' purposes (the hosted
// game's battles: "the attack on Brčko").
func (b battle) FightAt(r dice.Roller, battle string) battleResult {
	suffix := ""
	if battle != "" {
		suffix = ", " + battle
	}
	a := r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), "B&U 13.4.5 attacker's combat effectiveness roll"+suffix)[0]
	d := r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), "B&U 13.4.5 defender's combat effectiveness roll"+suffix)[0]
	return b.Resolve(a, d)
}
