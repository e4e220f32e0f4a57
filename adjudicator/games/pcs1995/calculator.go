package pcs1995

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Calculator is 1995: Milosevic's Last Gamble's rules calculator: the procedures
// `umpire resolve pcs1995` answers (docs/resolve.md).
var Calculator = &resolve.Game{
	ID:    "pcs1995",
	Title: "1995: Milosevic's Last Gamble",
	Procedures: []*resolve.Procedure{
		combatProc, initiativeProc, ecProc, samProc, recoveryProc, deescalationProc,
		natoReinforcementsProc, rsReinforcementsProc, aacProc, airstrikeProc,
	},
}

var uqrWords = []string{"A", "B", "C", "D", "[A]", "[B]", "[C]", "[D]"}

// samUQRWords adds "none" for SAM fire after a mission with no targeted
// ground unit (6.6: a strategic bombing) or at an airmobile landing (3.3.1).
var samUQRWords = append(append([]string{}, uqrWords...), "none")

var combatProc = &resolve.Procedure{
	Name:    "combat",
	Summary: "resolves an ME or PA: CSA, FCR, victor, CD and the loser's LP (8.0-8.2, 7.3, 9.0)",
	Dice:    "2d8: attacker then defender",
	Inputs: []resolve.Input{
		{Name: "kind", Kind: resolve.Word, Allowed: []string{"ME", "PA"}, Required: true, Help: "Meeting Engagement (7.3) or Prepared Assault (7.4)"},
		{Name: "attacker_uqr", Kind: resolve.Word, Allowed: uqrWords, Required: true, Help: "the attacking lead unit's UQR; bracketed [B] improves one level against armor (8.1.1)"},
		{Name: "defender_uqr", Kind: resolve.Word, Allowed: uqrWords, Required: true, Help: "the defending unit's UQR"},
		{Name: "armor", Kind: resolve.Word, Allowed: []string{"none", "attacker", "defender", "both"}, Default: "none", Help: "which lead unit is armor (for bracketed UQR)"},
		{Name: "mp", Kind: resolve.Int, Bounded: true, Min: 0, Max: 4, Help: "ME only, and required there: MP spent for the ME CSA, 1 (-2) to 4 (+1) (7.3)"},
		{Name: "attacker_adjacent", Kind: resolve.Int, Bounded: true, Min: 0, Max: 5, Help: "attacking units adjacent to the combat hex besides the lead, +1 each (8.1.2; flanking units count here too)"},
		{Name: "defender_adjacent", Kind: resolve.Int, Bounded: true, Min: 0, Max: 5, Help: "defending units adjacent to the combat hex, +1 each (8.1.2)"},
		{Name: "attacker_flanking", Kind: resolve.Int, Bounded: true, Min: 0, Max: 5, Help: "units giving flank support as 8.1.3 allows: ME +2 each up to +4, PA +3 each up to +6"},
		{Name: "terrain", Kind: resolve.Word, Allowed: []string{"clear", "mountain"}, Default: "clear", Help: "the defender's hex: mountain is +2 CSA and +1 loss ratio (9.2)"},
		{Name: "city", Kind: resolve.Word, Allowed: []string{"none", "city", "capital"}, Default: "none", Help: "a city or capital in the defender's hex: +1 CSA and +1 loss ratio (9.3, 9.4, 8.2.3)"},
		{Name: "hexside", Kind: resolve.Word, Allowed: []string{"none", "river", "ridge"}, Default: "none", Help: "the hexside between the lead attacker and the defender: river +2, ridge +1 to the defender (9.5, 9.6)"},
		{Name: "attacker_air", Kind: resolve.Int, Bounded: true, Min: 0, Max: 10, Help: "highest ER of the attacker's G air units left on ground support (6.5)"},
		{Name: "defender_air", Kind: resolve.Int, Bounded: true, Min: 0, Max: 10, Help: "highest ER of the defender's G air units left on ground support (6.5)"},
		{Name: "naval", Kind: resolve.Bool, Help: "NATO naval support: the defending hex is within 2 hexes of the Adriatic coast, +2 to NATO (8.1)"},
		{Name: "nato", Kind: resolve.Word, Allowed: []string{"attacker", "defender"}, Default: "attacker", Help: "which side is NATO, who alone has naval support"},
		{Name: "highway", Kind: resolve.Bool, Help: "the lead attacks along a highway: -1 loss ratio against the defender, never under 1:1 (8.2.3, 9.7)"},
		{Name: "attacker_chit", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 20, Help: "CS read off the attacker's chit (3.5)"},
		{Name: "defender_chit", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 20, Help: "CS read off the defender's chit (3.5)"},
	},
	Outputs: []resolve.Output{
		{Name: "attacker_csa", Help: "the attacker's total CSA (8.1)"},
		{Name: "defender_csa", Help: "the defender's total CSA"},
		{Name: "attacker_fcr", Help: "chit CS + CSA + d8 (8.0)"},
		{Name: "defender_fcr"},
		{Name: "victor", Help: "attacker, defender or tie (equal FCR: no victor, no LP)"},
		{Name: "cd", Help: "the combat differential: the FCR difference"},
		{Name: "loss_ratio", Help: "the ratio against the loser, \"2:1\"; null on a tie (8.2)"},
		{Name: "lp", Help: "LP the loser must absorb: CD divided by the ratio, rounded down"},
		{Name: "lp_side", Help: "who suffers them: attacker, defender, or null on a tie"},
		{Name: "attacker_cs", Help: "the attacker's final CS: chit + CSA"},
		{Name: "defender_cs", Help: "the defender's final CS"},
		{Name: "attacker_chit_letter", Help: "the chit letter the attacker reads (a bracketed UQR against armor reads one better)"},
		{Name: "defender_chit_letter"},
	},
	Main: "victor",
	Run:  runCombat,
}

func side(w string) Side {
	switch w {
	case "attacker":
		return attacker
	case "defender":
		return defender
	case "both":
		return both
	}
	return none
}

func combatFrom(in *resolve.Values) (combat, error) {
	var c combat
	if in.Word("kind") == "PA" {
		c.Kind = pa
	}
	var err error
	if c.AttackerUQR, err = parseUQR(in.Word("attacker_uqr")); err != nil {
		return c, resolve.Bad("attacker_uqr", "%v", err)
	}
	if c.DefenderUQR, err = parseUQR(in.Word("defender_uqr")); err != nil {
		return c, resolve.Bad("defender_uqr", "%v", err)
	}
	c.Armor = side(in.Word("armor"))
	c.MP = in.Int("mp")
	switch {
	case c.Kind == me && (c.MP < 1 || c.MP > 4):
		return c, resolve.Bad("mp", "an ME must say the MP spent for its CSA, 1 to 4 (7.3)")
	case c.Kind == pa && in.Given("mp"):
		return c, resolve.Bad("mp", "only an ME spends MP for a CSA (7.3); leave it out of a PA")
	}
	c.AttackerAdjacent, c.DefenderAdjacent = in.Int("attacker_adjacent"), in.Int("defender_adjacent")
	c.AttackerFlanking = in.Int("attacker_flanking")
	if in.Word("terrain") == "mountain" {
		c.Terrain = mountain
	}
	switch in.Word("city") {
	case "city":
		c.City = plainCity
	case "capital":
		c.City = capital
	}
	switch in.Word("hexside") {
	case "river":
		c.Hexside = river
	case "ridge":
		c.Hexside = ridge
	}
	c.AttackerAir, c.DefenderAir = in.Int("attacker_air"), in.Int("defender_air")
	c.Naval, c.NATO = in.Bool("naval"), side(in.Word("nato"))
	c.Highway = in.Bool("highway")
	c.AttackerChit, c.DefenderChit = in.Int("attacker_chit"), in.Int("defender_chit")
	return c, nil
}

func runCombat(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
	c, err := combatFrom(in)
	if err != nil {
		return nil, err
	}
	ad, dd := rollCombat(r)
	o := c.Resolve(ad, dd)
	att, def := c.Adjustments()
	au, du := c.UQRs()
	rules := []string{"8.0", "8.1"}
	for _, a := range append(append([]adjustment{}, att...), def...) {
		rules = append(rules, a.Rule)
	}
	var ratio, lpSide any
	var verdict string
	switch o.Victor {
	case none:
		verdict = "the FCR are equal, so there is no victor and no LP (CD 0)"
	default:
		ratio, lpSide = fmt.Sprintf("%d:1", o.Ratio), o.LPSide.String()
		verdict = fmt.Sprintf("the %s is the victor with CD %d, and at %d:1 the %s suffers %d LP", o.Victor, o.CD, o.Ratio, o.LPSide, o.LP)
		switch {
		case c.Kind == pa:
			rules = append(rules, "8.2.2")
		default:
			rules = append(rules, "8.2.1")
		}
		if o.Victor == attacker && (c.Terrain == mountain || c.City != noCity || c.Highway) {
			rules = append(rules, "8.2.3")
		}
	}
	var better []string
	if au != c.AttackerUQR {
		better = append(better, fmt.Sprintf("the attacker's %s fights as %s", c.AttackerUQR, au.Letter()))
	}
	if du != c.DefenderUQR {
		better = append(better, fmt.Sprintf("the defender's %s fights as %s", c.DefenderUQR, du.Letter()))
	}
	letters := ""
	if len(better) > 0 {
		letters = " (against armor, bracketed: " + strings.Join(better, ", ") + ")"
	}
	explain := fmt.Sprintf("%s, attacker %s against defender %s%s: attacker chit %d + CSA %+d (%s) + die %d = FCR %d; defender chit %d + CSA %+d (%s) + die %d = FCR %d; %s.",
		c.Kind, c.AttackerUQR, c.DefenderUQR, letters,
		c.AttackerChit, o.AttackerCSA, describe(att), ad, o.AttackerFCR,
		c.DefenderChit, o.DefenderCSA, describe(def), dd, o.DefenderFCR, verdict)
	victor := o.Victor.String()
	if o.Victor == none {
		victor = "tie"
	}
	res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: explain}
	return res.Set("attacker_csa", o.AttackerCSA).Set("defender_csa", o.DefenderCSA).
		Set("attacker_fcr", o.AttackerFCR).Set("defender_fcr", o.DefenderFCR).
		Set("victor", victor).Set("cd", o.CD).Set("loss_ratio", ratio).
		Set("lp", o.LP).Set("lp_side", lpSide).
		Set("attacker_cs", o.AttackerCS).Set("defender_cs", o.DefenderCS).
		Set("attacker_chit_letter", au.Letter()).Set("defender_chit_letter", du.Letter()), nil
}

var initiativeProc = &resolve.Procedure{
	Name:    "initiative",
	Summary: "who holds the initiative this turn: NATO on turn 1, else the higher d8, ties to Russia/Serbia (3.2, 4.0)",
	Dice:    "2d8: NATO then Russia/Serbia (none on turn 1)",
	Inputs: []resolve.Input{
		{Name: "turn", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: 8, Help: "the game turn (8 monthly turns, 2.0)"},
	},
	Outputs: []resolve.Output{
		{Name: "initiative", Help: "NATO or RS"},
		{Name: "rolled", Help: "whether dice were rolled (not on turn 1)"},
	},
	Main: "initiative",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		turn := in.Int("turn")
		w, rolled := rollInitiative(r, turn)
		res := &resolve.Result{Rule: "3.2, 4.0"}
		if !rolled {
			res.Explain = "NATO has the initiative on the first turn, without a roll."
		} else if w == NATO {
			res.Explain = "NATO rolled higher and takes the initiative."
		} else {
			res.Explain = "Russia/Serbia rolled higher or tied, and ties go to Russia/Serbia: RS takes the initiative."
		}
		return res.Set("initiative", string(w)).Set("rolled", rolled), nil
	},
}

var ecProc = &resolve.Procedure{
	Name:    "ec",
	Summary: "an Effectiveness Check: d8, -1 for the initiative player, +1 for a G in ATAC, succeeds at or under the ER (3.3, 6.4)",
	Dice:    "1d8",
	Inputs: []resolve.Input{
		{Name: "er", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 10, Help: "the air unit's Effectiveness Rating"},
		{Name: "initiative", Kind: resolve.Bool, Help: "the checking player holds the initiative (-1 DRM)"},
		{Name: "g_in_atac", Kind: resolve.Bool, Help: "a G air unit checking in air-to-air combat against F (+1 DRM, 6.4)"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the d8 with its DRM"},
		{Name: "success", Help: "modified <= ER"},
	},
	Main: "success",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		er, ini, g := in.Int("er"), in.Bool("initiative"), in.Bool("g_in_atac")
		m, ok := rollEC(r, er, ini, g)
		rule := "3.3"
		if ini {
			rule = resolve.Rules(rule, "3.2")
		}
		if g {
			rule = resolve.Rules(rule, "6.4")
		}
		verdict := "fails"
		if ok {
			verdict = "succeeds"
		}
		res := &resolve.Result{Rule: rule, Explain: fmt.Sprintf("The modified roll %d against ER %d %s (an EC succeeds at or under the ER).", m, er, verdict)}
		return res.Set("modified", m).Set("success", ok), nil
	},
}

var samProc = &resolve.Procedure{
	Name:    "sam",
	Summary: "SAM fire at one air unit or landing airmobile unit: d8 + DRM, 7 or more damages (6.6, 6.6.1, 3.3.1)",
	Dice:    "1d8 (none for a UQR D target outside its home city)",
	Inputs: []resolve.Input{
		{Name: "uqr", Kind: resolve.Word, Allowed: samUQRWords, Default: "none", Help: "UQR of the ground unit the mission targeted; required unless airmobile_landing=yes; none: no targeted ground unit (a strategic bombing), no UQR or city DRM"},
		{Name: "city", Kind: resolve.Bool, Help: "the targeted unit is in a city hex (+1, not for UQR D)"},
		{Name: "home_city", Kind: resolve.Bool, Help: "it is in a friendly city its player has controlled since the start (lets a D unit fire)"},
		{Name: "airmobile_landing", Kind: resolve.Bool, Help: "the fire is at an airmobile unit landing on an enemy-controlled city (+1 only, 3.3.1)"},
	},
	Outputs: []resolve.Output{
		{Name: "rolled", Help: "whether SAM fire is rolled"},
		{Name: "modified", Help: "the d8 with its DRM, null when not rolled"},
		{Name: "damaged", Help: "the air unit is damaged (an airmobile unit routed)"},
	},
	Main: "damaged",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		landing := in.Bool("airmobile_landing")
		if !landing && !in.Given("uqr") {
			return nil, resolve.Bad("uqr", "required (the targeted ground unit's UQR, A to D, or none when the mission targets no ground unit); only an airmobile landing (3.3.1) may leave it out")
		}
		var u uqr
		noTarget := in.Word("uqr") == "none"
		if !noTarget {
			var err error
			if u, err = parseUQR(in.Word("uqr")); err != nil {
				return nil, resolve.Bad("uqr", "%v", err)
			}
		}
		if in.Bool("home_city") && in.Given("city") && !in.Bool("city") {
			return nil, resolve.Bad("home_city", "a home city is a city hex: give city=yes or leave city out")
		}
		if noTarget && !landing && (in.Bool("city") || in.Bool("home_city")) {
			return nil, resolve.Bad("city", "uqr=none means no targeted ground unit, so none is in a city (6.6.1); give the targeted unit's UQR")
		}
		t := samTarget{UQR: u, NoTarget: noTarget, City: in.Bool("city"), HomeCity: in.Bool("home_city"), AirmobileLanding: landing}
		rolled, roll, m, dmg := rollSAM(r, t)
		res := &resolve.Result{Rule: "6.6, 6.6.1"}
		if t.AirmobileLanding {
			res.Rule = "3.3.1, 6.6, 6.6.1"
		}
		var mod any
		switch {
		case !rolled:
			res.Explain = "A targeted unit of UQR D fires no SAM unless it is in a friendly city its player has held since the start: no roll."
		default:
			mod = m
			what := "the air unit is damaged"
			if t.AirmobileLanding {
				what = "the airmobile unit is routed"
			}
			if !dmg {
				what = "no effect"
			}
			res.Explain = fmt.Sprintf("SAM fire rolls %s, needing 7 or more: %s.", roll, what)
		}
		return res.Set("rolled", rolled).Set("modified", mod).Set("damaged", dmg), nil
	},
}

var recoveryProc = &resolve.Procedure{
	Name:    "recovery",
	Summary: "a routed unit's recovery roll: 1 surrenders, NATO 7+ or Serbian 6+ recovers, Russians never roll (5.3, 5.3.1)",
	Dice:    "1d8 (none for Russians)",
	Inputs: []resolve.Input{
		{Name: "nationality", Kind: resolve.Word, Required: true,
			Allowed: []string{"NATO", "Serbian", "Russian", "American", "British", "Croatian", "Slovenian", "Bosnian", "German", "Canadian", "Italian", "French"},
			Help:    "the routed unit's nationality; every NATO-side nationality uses the NATO row"},
	},
	Outputs: []resolve.Output{
		{Name: "result", Help: "recovered, surrendered, routed (stays routed) or none (Russian: no roll)"},
		{Name: "any_serbian_city", Help: "a Serbian 8: may be placed in any Serbian city not occupied by NATO"},
		{Name: "vp", Help: "VP change from a surrender (11.1): NATO -1, Serbian +1"},
	},
	Main: "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		n := natoRow
		switch in.Word("nationality") {
		case "Serbian":
			n = serbianRow
		case "Russian":
			n = russianRow
		}
		res := &resolve.Result{Rule: "5.3, 5.3.1"}
		got, any8, vp := rollRecovery(r, n)
		switch got {
		case noRoll:
			res.Explain = "Routed Russian units are removed for good without a recovery roll, and do not count as surrendered."
		case surrendered:
			res.Rule = "5.3, 11.1"
			res.Explain = fmt.Sprintf("A 1 surrenders: the unit is removed for good and VP change by %+d.", vp)
		case recovered:
			res.Explain = fmt.Sprintf("The roll reaches the %s recovery number %d: the unit re-enters like a reinforcement.", n, recoveryNumber(n))
			if any8 {
				res.Explain = "A Serbian 8 recovers and may be placed in any Serbian city, whoever controls it, unless a NATO unit occupies it."
			}
		default:
			res.Explain = fmt.Sprintf("The roll is under the %s recovery number %d and is not a 1: the unit stays routed.", n, recoveryNumber(n))
		}
		return res.Set("result", string(got)).Set("any_serbian_city", any8).Set("vp", vp), nil
	},
}

var deescalationProc = &resolve.Procedure{
	Name:    "deescalation",
	Summary: "a De-escalation roll: d8 + the VP table's DRM for that side, 7 or more succeeds (7.5)",
	Dice:    "1d8",
	Inputs: []resolve.Input{
		{Name: "vp", Kind: resolve.Int, Required: true, Bounded: true, Min: -50, Max: 70, Help: "the current VP (the table covers 1-19; beyond, the nearest band)"},
		{Name: "side", Kind: resolve.Word, Allowed: []string{"NATO", "RS"}, Required: true, Help: "who rolls"},
	},
	Outputs: []resolve.Output{
		{Name: "drm", Help: "the DRM the VP give this side"},
		{Name: "modified", Help: "d8 + DRM"},
		{Name: "success", Help: "modified 7 or more: flip one fresh enemy unit to static"},
	},
	Main: "success",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		vp, s := in.Int("vp"), faction(in.Word("side"))
		roll, m, ok := rollDeescalation(r, vp, s)
		drm, outside := deescalationDRM(vp, s)
		note := ""
		if outside {
			note = " (VP outside the 1-19 table use its nearest band)"
		}
		verdict := "fails: play passes to the opponent"
		if ok {
			verdict = "succeeds: flip one fresh enemy unit to static"
		}
		res := &resolve.Result{Rule: "7.5", Explain: fmt.Sprintf("At %d VP the %s roll is %s%s; it %s.", vp, s, roll, note, verdict)}
		return res.Set("drm", drm).Set("modified", m).Set("success", ok), nil
	},
}

var natoReinforcementsProc = &resolve.Procedure{
	Name:    "nato_reinforcements",
	Summary: "the NATO reinforcement roll: 1-2 German, 3-4 Canadian, 5-6 Italian, 7-8 French, none if already arrived (5.1, 5.1.1)",
	Dice:    "1d8 (none once all four have arrived)",
	Inputs: []resolve.Input{
		{Name: "used", Kind: resolve.Words, Allowed: natoContingents, Help: "nationalities that have already arrived (Italians placed by 5.1.2 count)"},
	},
	Outputs: []resolve.Output{
		{Name: "nationality", Help: "who arrives, or null"},
		{Name: "table", Help: "the nationality the table names for the roll, or null when there is no roll"},
		{Name: "rolled", Help: "whether the die was rolled"},
	},
	Main: "nationality",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		used := in.Words("used")
		got, named, rolled := rollNATOReinforcement(r, used)
		res := &resolve.Result{Rule: "5.1, 5.1.1"}
		var nat, tab any
		switch {
		case !rolled:
			res.Explain = "All four NATO contingents have arrived: no roll can bring more."
		case got == "":
			tab = named
			res.Explain = fmt.Sprintf("The table names the %s, who have already contributed: no NATO reinforcements this turn.", named)
		default:
			nat, tab = got, named
			res.Explain = fmt.Sprintf("The %s reinforcements arrive.", got)
		}
		return res.Set("nationality", nat).Set("table", tab).Set("rolled", rolled), nil
	},
}

var rsReinforcementsProc = &resolve.Procedure{
	Name:    "rs_reinforcements",
	Summary: "the Russian/Serbian (3 VO) reinforcement roll from turn 2: d8 less than the turn number arrives (5.2)",
	Dice:    "1d8 (none on turn 1 or once arrived)",
	Inputs: []resolve.Input{
		{Name: "turn", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: 8, Help: "the current game turn"},
		{Name: "arrived", Kind: resolve.Bool, Help: "the 3 VO units have already entered (no more rolls)"},
	},
	Outputs: []resolve.Output{
		{Name: "arrive", Help: "the 3 VO units may enter this turn"},
		{Name: "rolled", Help: "whether the die was rolled"},
	},
	Main: "arrive",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		turn := in.Int("turn")
		arrive, rolled := rollRSReinforcements(r, turn, in.Bool("arrived"))
		res := &resolve.Result{Rule: "5.2"}
		switch {
		case in.Bool("arrived"):
			res.Explain = "The 3 VO reinforcements have already entered: no roll."
		case !rolled:
			res.Explain = "Russia/Serbia rolls for reinforcements only from the second turn on."
		case arrive:
			res.Explain = fmt.Sprintf("The roll is less than the turn number %d: the 3 VO reinforcements may enter.", turn)
		default:
			res.Explain = fmt.Sprintf("The roll is not less than the turn number %d: no reinforcements.", turn)
		}
		return res.Set("arrive", arrive).Set("rolled", rolled), nil
	},
}

var aacProc = &resolve.Procedure{
	Name:    "aac",
	Summary: "the AAC Movement Allowance after a PA vacates the combat hex: d8 halved, rounded down (8.4)",
	Dice:    "1d8",
	Outputs: []resolve.Output{{Name: "aacma", Help: "MP each advancing unit may use after entering the combat hex"}},
	Main:    "aacma",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		a := rollAACMA(r)
		res := &resolve.Result{Rule: "8.4", Explain: fmt.Sprintf("Half the d8, rounded down: each advancing unit enters the combat hex free and then has an AACMA of %d.", a)}
		return res.Set("aacma", a), nil
	},
}

var airstrikeProc = &resolve.Procedure{
	Name:    "airstrike",
	Summary: "the effect of an airstrike with at least one successful EC: d8 1-2 routs the target, else it goes static (6.1.3)",
	Dice:    "1d8",
	Outputs: []resolve.Output{{Name: "result", Help: "routed or static"}},
	Main:    "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		got := rollAirstrike(r)
		res := &resolve.Result{Rule: "6.1.3", Explain: "A 1 or 2 routs the target ground unit; anything else makes it static: " + strings.ToLower(got) + "."}
		return res.Set("result", got), nil
	},
}
