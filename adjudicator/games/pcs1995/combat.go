package pcs1995

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// kind is a combat's type (7.3, 7.4).
type kind int

// The two kinds of combat.
const (
	me kind = iota // Meeting Engagement
	pa             // Prepared Assault
)

func (k kind) String() string {
	if k == pa {
		return "PA"
	}
	return "ME"
}

// Side is a side of a combat; None is no side (a tie has no victor).
type Side int

// The sides of a combat.
const (
	none Side = iota
	attacker
	defender
	both // only for Combat.Armor: both leads are armor
)

func (s Side) String() string {
	switch s {
	case attacker:
		return "attacker"
	case defender:
		return "defender"
	case both:
		return "both"
	}
	return "none"
}

// terrain is the defender's hex terrain for combat (9.1, 9.2).
type terrain int

// The hex terrains.
const (
	Clear terrain = iota
	mountain
)

// city is a city in the defender's hex (9.3, 9.4); a city in a mountain hex
// takes both the city and the mountain benefits.
type city int

// The city kinds.
const (
	noCity city = iota
	plainCity
	capital
)

// hexside is the hexside the lead attacker attacks across (9.5, 9.6).
type hexside int

// The hexside features.
const (
	noHexside hexside = iota
	river
	ridge
)

// combat is one combat's situation (8.0-8.2): what decides the CSA of each
// lead unit and the loss ratio. The chits are the CS already read off the
// drawn combat chits (3.5) for each lead unit's UQR.
type combat struct {
	Kind                     kind
	AttackerUQR, DefenderUQR uqr
	Armor                    Side // which lead units are armor (None, Attacker, Defender or Both)
	MP                       int  // ME only: MP spent for the ME CSA, 1 to 4 (7.3)
	AttackerAdjacent         int  // friendly units adjacent to the combat hex, lead excluded (8.1.2)
	DefenderAdjacent         int
	AttackerFlanking         int // units giving flank support (8.1.3)
	Terrain                  terrain
	City                     city
	Hexside                  hexside
	AttackerAir, DefenderAir int  // highest ER of G air units on ground support, 0 if none (6.5)
	Naval                    bool // NATO naval support (8.1)
	NATO                     Side // the side that is NATO, for naval support
	Highway                  bool // the lead attacks along a highway (8.2.3, 9.7)
	AttackerChit             int  // CS on the attacker's chit
	DefenderChit             int
}

// adjustment is one CSA (8.1) and the rule granting it.
type adjustment struct {
	Name  string
	Rule  string
	Value int
}

// mecsa is the CSA for the MP an ME spends (7.3 table; the 8.1 summary's
// "-1 to +2" contradicts both the table and the 8.1.4 example): 1 MP -2, 2 MP
// -1, 3 MP 0, 4 MP +1.
func mecsa(mp int) int { return mp - 3 }

// flankingCSA is the attacker's flank support CSA (8.1): +2 per unit in an
// ME up to +4, +3 per unit in a PA up to +6.
func flankingCSA(k kind, units int) int {
	per := 2
	if k == pa {
		per = 3
	}
	return per * min(units, 2)
}

// UQRs are the ratings the leads fight with (8.1.1): each bracketed UQR
// improves against an armored enemy lead.
func (c combat) UQRs() (uqr, uqr) {
	defArmor := c.Armor == defender || c.Armor == both
	attArmor := c.Armor == attacker || c.Armor == both
	return c.AttackerUQR.InCombat(defArmor), c.DefenderUQR.InCombat(attArmor)
}

// Adjustments lists each side's CSA (8.1, 7.3, 9.0), zero ones left out.
func (c combat) Adjustments() (att, def []adjustment) {
	add := func(list *[]adjustment, name, rule string, v int) {
		if v != 0 {
			*list = append(*list, adjustment{name, rule, v})
		}
	}
	au, du := c.UQRs()
	ua, ud := uqrcsa(au, du)
	if c.Kind == me {
		add(&att, "MP spent", "7.3", mecsa(c.MP))
	}
	add(&att, "UQR", "8.1.1", ua)
	add(&att, "adjacent units", "8.1.2", c.AttackerAdjacent)
	add(&att, "flanking", "8.1.3", flankingCSA(c.Kind, c.AttackerFlanking))
	add(&att, "ground support", "6.5", c.AttackerAir)
	add(&def, "UQR", "8.1.1", ud)
	add(&def, "adjacent units", "8.1.2", c.DefenderAdjacent)
	if c.Terrain == mountain {
		add(&def, "mountain", "9.2", 2)
	}
	switch c.City {
	case plainCity:
		add(&def, "city", "9.3", 1)
	case capital:
		add(&def, "capital", "9.4", 1)
	}
	switch c.Hexside {
	case river:
		add(&def, "river", "9.5", 2)
	case ridge:
		add(&def, "ridge", "9.6", 1)
	}
	add(&def, "ground support", "6.5", c.DefenderAir)
	if c.Naval {
		if c.NATO == defender {
			add(&def, "naval support", "8.1", 2)
		} else {
			add(&att, "naval support", "8.1", 2)
		}
	}
	return att, def
}

// sum totals adjustments.
func sum(adj []adjustment) int {
	t := 0
	for _, a := range adj {
		t += a.Value
	}
	return t
}

// describe writes adjustments with the rule granting each, as the
// combat is reported: "MP spent +1 (7.3), adjacent units +3 (8.1.2)".
func describe(adj []adjustment) string {
	if len(adj) == 0 {
		return "none"
	}
	parts := make([]string, len(adj))
	for i, a := range adj {
		parts[i] = fmt.Sprintf("%s %+d (%s)", a.Name, a.Value, a.Rule)
	}
	return strings.Join(parts, ", ")
}

// outcome is a resolved combat (8.0, 8.2).
type outcome struct {
	AttackerCSA, DefenderCSA int
	AttackerCS, DefenderCS   int // final CS: chit + CSA
	AttackerFCR, DefenderFCR int
	Victor                   Side // None on equal FCR
	CD                       int
	Ratio                    int  // the loss ratio r (r:1) against the loser; 0 on a tie
	LP                       int  // floor(CD / r)
	LPSide                   Side // the loser, None on a tie
}

// lossRatio is the loss ratio against the loser (8.2): in an ME 1:1
// against a beaten attacker and 2:1 against a beaten defender, in a PA 1:1
// against either. Only the ratio against the defender changes (8.2.3): +1 in
// a city or mountain hex (once, even for a city in a mountain hex), -1 for
// an attack along a highway, kept within 1:1 to 3:1 (8.2, 9.2, 9.7).
func lossRatio(k kind, victor Side, cityOrMountain, highway bool) int {
	if victor != attacker {
		return 1
	}
	r := 1
	if k == me {
		r = 2
	}
	if cityOrMountain {
		r++
	}
	if highway {
		r--
	}
	return max(1, min(3, r))
}

// Resolve adds the CSA to the chits and the dice to the final CS (8.0):
// the higher FCR is the victor, the CD is the difference and the loser
// suffers CD divided by the loss ratio, any remainder ignored (8.2.1). Equal
// FCR have no victor and no LP.
func (c combat) Resolve(attackerDie, defenderDie int) outcome {
	att, def := c.Adjustments()
	var o outcome
	o.AttackerCSA, o.DefenderCSA = sum(att), sum(def)
	o.AttackerCS, o.DefenderCS = c.AttackerChit+o.AttackerCSA, c.DefenderChit+o.DefenderCSA
	o.AttackerFCR, o.DefenderFCR = o.AttackerCS+attackerDie, o.DefenderCS+defenderDie
	switch {
	case o.AttackerFCR > o.DefenderFCR:
		o.Victor, o.LPSide = attacker, defender
		o.CD = o.AttackerFCR - o.DefenderFCR
	case o.DefenderFCR > o.AttackerFCR:
		o.Victor, o.LPSide = defender, attacker
		o.CD = o.DefenderFCR - o.AttackerFCR
	default:
		return o
	}
	o.Ratio = lossRatio(c.Kind, o.Victor, c.Terrain == mountain || c.City != noCity, c.Highway)
	o.LP = o.CD / o.Ratio
	return o
}

// rollCombat rolls the attacker's d8 and then the defender's (8.0).
func rollCombat(r dice.Roller, detail ...string) (int, int) {
	a := dice.Roll(r, 1, 8, purpose("1995 8.0 attacker's combat die", detail))[0]
	d := dice.Roll(r, 1, 8, purpose("1995 8.0 defender's combat die", detail))[0]
	return a, d
}
