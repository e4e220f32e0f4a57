package bu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/kit"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Calculator is Brotherhood & Unity's rules calculator: the procedures
// `umpire resolve bu` answers (docs/resolve.md).
var Calculator = &resolve.Game{
	ID:    "bu",
	Title: "Brotherhood & Unity",
	Procedures: []*resolve.Procedure{
		combatProcedure,
		lossesProcedure,
		retreatProcedure,
		airStrikeProcedure,
		rollToReduceProcedure,
		victoryScoreProcedure,
		diplomacyProcedure,
	},
}

func yesNo(name, help string) resolve.Input {
	return resolve.Input{Name: name, Kind: resolve.Bool, Help: help}
}

func terrainNames() []string {
	out := make([]string, len(terrains))
	for i, t := range terrains {
		out[i] = string(t)
	}
	return out
}

var combatProcedure = &resolve.Procedure{
	Name:    "combat",
	Summary: "an attack's DRMs, Combat Effectiveness, Loss Numbers and critical hits (1.2.8, 13.4.4-13.4.6, 2.4.8)",
	Dice:    "2d10 read 0-9: attacker then defender",
	Inputs: []resolve.Input{
		{Name: "attacker_cf", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 999, Help: "total printed CF of the attacking units"},
		{Name: "defender_cf", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 999, Help: "total printed CF of the defending units"},
		{Name: "attacker_drm", Kind: resolve.Int, Bounded: true, Min: -20, Max: 20, Help: "the attacker's DRM from Strategy and Combat cards"},
		{Name: "defender_drm", Kind: resolve.Int, Bounded: true, Min: -20, Max: 20, Help: "the defender's DRM from Combat cards"},
		{Name: "terrain", Kind: resolve.Word, Allowed: terrainNames(), Default: "clear", Help: "terrain of the defending space (1.2.8)"},
		yesNo("trench", "the defending space has a completed entrenchment (ENT), cumulative with its terrain"),
		{Name: "turn", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: 4, Help: "game turn (the Bosniak DRM, 13.4.4.3)"},
		{Name: "bosniak", Kind: resolve.Word, Allowed: []string{"attacker", "defender", "none"}, Default: "none", Help: "which side is Bosniak (2-player: half or more of its troops, 14.6.2)"},
		yesNo("attacker_oos", "the attacking units are Out Of Supply (CF halved, rounded up)"),
		yesNo("defender_oos", "the defending units are Out Of Supply (CF halved, no Combat Card benefit)"),
		yesNo("not_all_across", "river: some attacking unit did not attack across the river, so no river effects (13.4.4.2)"),
		{Name: "attacker_cf_after", Kind: resolve.Int, Bounded: true, Min: 0, Max: 999, Unset: "attacker_cf", Help: "river only: the attacker's printed CF left after taking the defender's loss first (13.4.4.2)"},
	},
	Outputs: []resolve.Output{
		{Name: "attacker_modified", Help: "attacker's die plus every DRM"},
		{Name: "defender_modified", Help: "defender's die plus every DRM"},
		{Name: "attacker_ce", Help: "attacker's Combat Effectiveness (0.25, 0.5, 1, 1.5, 2)"},
		{Name: "defender_ce", Help: "defender's Combat Effectiveness"},
		{Name: "loss_to_defender", Help: "Loss Number the defender must take: attacker CE x CF rounded up"},
		{Name: "loss_to_attacker", Help: "Loss Number the attacker must take: defender CE x CF rounded up"},
		{Name: "attacker_critical", Help: "attacker's modified roll is 9 or more: the defender takes at least one step"},
		{Name: "defender_critical", Help: "defender's modified roll is 9 or more: the attacker takes at least one step"},
		{Name: "defender_fires_first", Help: "river: the defender's loss is taken first and the attacker fires with what is left"},
		{Name: "attacker_total_drm", Help: "every DRM on the attacker's roll"},
		{Name: "defender_total_drm", Help: "every DRM on the defender's roll"},
		{Name: "attacker_cf_used", Help: "attacker CF multiplied (OOS halved, river after losses)"},
		{Name: "defender_cf_used", Help: "defender CF multiplied (OOS halved)"},
	},
	Main: "loss_to_defender",
	Run:  runCombat,
}

func runCombat(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
	b := battle{
		AttackerCF:    in.Int("attacker_cf"),
		DefenderCF:    in.Int("defender_cf"),
		AttackerCards: cardMods(in.Int("attacker_drm")),
		DefenderCards: cardMods(in.Int("defender_drm")),
		Terrain:       terrain(in.Word("terrain")),
		Trench:        in.Bool("trench"),
		NotAllAcross:  in.Bool("not_all_across"),
		Turn:          in.Int("turn"),
		Bosniak:       who(in.Word("bosniak")),
		AttackerOOS:   in.Bool("attacker_oos"),
		DefenderOOS:   in.Bool("defender_oos"),
	}
	if in.Given("attacker_cf_after") {
		if !effects(b.Terrain, b.Trench, !b.NotAllAcross).DefenderFiresFirst {
			return nil, resolve.Bad("attacker_cf_after", "only when the defender fires first: terrain=river with every attacker across it (13.4.4.2)")
		}
		if in.Int("attacker_cf_after") > b.AttackerCF {
			return nil, resolve.Bad("attacker_cf_after", "%d is more than attacker_cf %d: it is what is left after losses", in.Int("attacker_cf_after"), b.AttackerCF)
		}
		b.AttackerCFAfter, b.AfterKnown = in.Int("attacker_cf_after"), true
	}
	res := b.Fight(r)

	rules := []string{"13.4.4", "13.4.5", "13.4.6"}
	if b.Terrain != Clear || b.Trench {
		rules = append(rules, "1.2.8")
	}
	if b.Terrain == river {
		rules = append(rules, "13.4.4.2")
	}
	if b.Bosniak != nobody {
		rules = append(rules, "13.4.4.3")
	}
	if b.AttackerOOS {
		rules = append(rules, "13.4.1.4")
	}
	if b.DefenderOOS {
		rules = append(rules, "13.4.1.4", "2.4.8")
	}
	if res.AttackerCritical || res.DefenderCritical {
		rules = append(rules, "13.4.6.4")
	}

	var ex strings.Builder
	side := func(who string, roll int, mods kit.Modifiers, q, cf, loss int, crit bool, victim string) {
		fmt.Fprintf(&ex, "%s rolls %s", who, kit.Roll(roll, mods))
		fmt.Fprintf(&ex, ", CE x%s times CF %d gives the %s a Loss Number of %d", ceText(q), cf, victim, loss)
		if crit {
			fmt.Fprintf(&ex, " and a critical hit (at least one step)")
		}
	}
	if res.DefenderFiresFirst {
		ex.WriteString("River: the defender fires first. ")
	}
	side("Attacker", res.AttackerRoll, res.AttackerMods, res.AttackerCEQuarters, res.AttackerCF, res.LossToDefender, res.AttackerCritical, "defender")
	ex.WriteString("; ")
	side("defender", res.DefenderRoll, res.DefenderMods, res.DefenderCEQuarters, res.DefenderCF, res.LossToAttacker, res.DefenderCritical, "attacker")
	ex.WriteString(".")
	if res.DefenderCardsIgnored {
		ex.WriteString(" Out Of Supply defenders get no Combat Card bonus.")
	}
	if res.DefenderFiresFirst && !b.AfterKnown {
		ex.WriteString(" The attacker's loss is taken first: give attacker_cf_after to fire with the CF left.")
	}

	out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: ex.String()}
	return out.
		Set("attacker_modified", res.AttackerModified).
		Set("defender_modified", res.DefenderModified).
		Set("attacker_ce", float64(res.AttackerCEQuarters)/4).
		Set("defender_ce", float64(res.DefenderCEQuarters)/4).
		Set("loss_to_defender", res.LossToDefender).
		Set("loss_to_attacker", res.LossToAttacker).
		Set("attacker_critical", res.AttackerCritical).
		Set("defender_critical", res.DefenderCritical).
		Set("defender_fires_first", res.DefenderFiresFirst).
		Set("attacker_total_drm", res.AttackerDRM).
		Set("defender_total_drm", res.DefenderDRM).
		Set("attacker_cf_used", res.AttackerCF).
		Set("defender_cf_used", res.DefenderCF), nil
}

// cardMods is the calculator's card DRM, given as one number, as a term
// of the roll (13.4.4).
func cardMods(drm int) kit.Modifiers {
	var mods kit.Modifiers
	mods.Add(drm, "cards", "13.4.4")
	return mods
}

func ceText(q int) string {
	return strconv.FormatFloat(float64(q)/4, 'f', -1, 64)
}

var lossesProcedure = &resolve.Procedure{
	Name:    "losses",
	Summary: "every legal allocation of a Loss Number by Maximum Fulfilment, with critical hits (13.4.6.1-13.4.6.4)",
	Inputs: []resolve.Input{
		{Name: "loss", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9999, Help: "the Loss Number to take"},
		{Name: "units", Kind: resolve.Text, Required: true, Help: "comma list of FULL_LF/REDUCED_LF:full|reduced, one per unit (add :oos to halve its LF, 13.4.6.3), e.g. 6/6:full,7/7:reduced"},
		yesNo("critical", "the enemy's modified roll was 9 or more: at least one step (13.4.6.4)"),
	},
	Outputs: []resolve.Output{
		{Name: "fulfilled", Help: "the largest LF total the steps reach without exceeding the loss"},
		{Name: "steps", Help: "step losses taken (null when equal totals take different numbers of steps: see step_choices)"},
		{Name: "allocations", Help: "every allocation reaching fulfilled: steps per unit in input order, ascending"},
		{Name: "step_choices", Help: "the distinct numbers of steps among the allocations"},
		{Name: "forced", Help: "a critical hit forced one step the Loss Number did not allow"},
	},
	Main: "fulfilled",
	Run:  runLosses,
}

// maxLossUnits bounds the units one allocation enumerates (3 steps each way
// at most, so 3^12 combinations).
const maxLossUnits = 12

// parseLossUnits reads units= of the losses procedure.
func parseLossUnits(text string) ([]lossUnit, error) {
	const form = "a comma list of FULL_LF/REDUCED_LF:full|reduced (optionally :oos), e.g. 6/6:full,7/7:reduced"
	var out []lossUnit
	parts := strings.Split(text, ",")
	if strings.TrimSpace(text) == "" {
		return nil, resolve.Bad("units", "empty: want %s", form)
	}
	if len(parts) > maxLossUnits {
		return nil, resolve.Bad("units", "%d units given, at most %d", len(parts), maxLossUnits)
	}
	for i, p := range parts {
		fields := strings.Split(strings.TrimSpace(p), ":")
		if len(fields) < 2 || len(fields) > 3 {
			return nil, resolve.Bad("units", "unit %d %q is not %s", i+1, p, form)
		}
		fs, rs, ok := strings.Cut(fields[0], "/")
		full, err1 := strconv.Atoi(strings.TrimSpace(fs))
		red, err2 := strconv.Atoi(strings.TrimSpace(rs))
		if !ok || err1 != nil || err2 != nil || full < 1 || red < 1 || full > 99 || red > 99 {
			return nil, resolve.Bad("units", "unit %d %q: LFs must be FULL_LF/REDUCED_LF, each 1 to 99; want %s", i+1, p, form)
		}
		u := lossUnit{FullLF: full, ReducedLF: red}
		switch strings.ToLower(strings.TrimSpace(fields[1])) {
		case "full":
			u.Full = true
		case "reduced":
		default:
			return nil, resolve.Bad("units", "unit %d %q: strength must be full or reduced", i+1, p)
		}
		if len(fields) == 3 {
			if strings.ToLower(strings.TrimSpace(fields[2])) != "oos" {
				return nil, resolve.Bad("units", "unit %d %q: the only suffix is :oos", i+1, p)
			}
			u.FullLF, u.ReducedLF = halfUp(u.FullLF), halfUp(u.ReducedLF)
		}
		out = append(out, u)
	}
	return out, nil
}

func runLosses(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
	units, err := parseLossUnits(in.Text("units"))
	if err != nil {
		return nil, err
	}
	loss, critical := in.Int("loss"), in.Bool("critical")
	plan := allocateLosses(loss, units, critical)
	rules := []string{"13.4.6.1", "13.4.6.2"}
	if strings.Contains(strings.ToLower(in.Text("units")), "oos") {
		rules = append(rules, "13.4.6.3")
	}
	if critical {
		rules = append(rules, "13.4.6.4")
	}
	var steps any
	if len(plan.StepCounts) == 1 {
		steps = plan.StepCounts[0]
	}
	var ex string
	switch {
	case plan.Forced:
		ex = fmt.Sprintf("No step fits within the Loss Number %d, but the critical hit forces one step on a unit of the owner's choice.", loss)
	case plan.Fulfilled == 0:
		ex = fmt.Sprintf("No step fits within the Loss Number %d, so no losses are taken.", loss)
	default:
		ex = fmt.Sprintf("The most LF reachable without exceeding %d is %d", loss, plan.Fulfilled)
		if steps != nil {
			ex += fmt.Sprintf(", in %d step(s)", plan.StepCounts[0])
		} else {
			ex += fmt.Sprintf(", in %s steps as the owner chooses", joinInts(plan.StepCounts, " or "))
		}
		if len(plan.Allocations) > 1 {
			ex += fmt.Sprintf("; the owner chooses among %d allocations.", len(plan.Allocations))
		} else {
			ex += "; there is one way to take it."
		}
		if critical {
			ex += " The critical hit changes nothing, since at least one step is taken anyway."
		}
	}
	out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: ex}
	return out.
		Set("fulfilled", plan.Fulfilled).
		Set("steps", steps).
		Set("allocations", plan.Allocations).
		Set("step_choices", plan.StepCounts).
		Set("forced", plan.Forced), nil
}

func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

var retreatProcedure = &resolve.Procedure{
	Name:    "retreat",
	Summary: "how far the defender retreats from the step-loss difference (13.4.8, 13.4.8.1, 13.4.8.4)",
	Inputs: []resolve.Input{
		{Name: "attacker_steps", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 99, Help: "step losses the attacker suffered in the battle"},
		{Name: "defender_steps", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 99, Help: "step losses the defender suffered in the battle"},
		{Name: "artillery_steps", Kind: resolve.Int, Bounded: true, Min: 0, Max: 99, Help: "of defender_steps, those from Artillery Preparation, which do not count (13.4.8)"},
		{Name: "terrain", Kind: resolve.Word, Allowed: terrainNames(), Default: "clear", Help: "terrain of the defending space (may the retreat be ignored, 13.4.8.1)"},
		yesNo("trench", "the defending space has a completed entrenchment"),
		yesNo("defender_oos", "the retreating units are Out Of Supply: steps instead of spaces (13.4.8.4)"),
	},
	Outputs: []resolve.Output{
		{Name: "spaces", Help: "spaces to retreat: 0, 1 or 2"},
		{Name: "may_ignore", Help: "the defender may instead take one extra step and stay (trench, city, mountain, swamp)"},
		{Name: "oos_steps", Help: "steps each Out Of Supply unit takes instead of retreating"},
	},
	Main: "spaces",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		att, def, art := in.Int("attacker_steps"), in.Int("defender_steps"), in.Int("artillery_steps")
		if art > def {
			return nil, resolve.Bad("artillery_steps", "%d is more than defender_steps %d, of which they are a part", art, def)
		}
		spaces := retreatSpaces(att, def-art)
		rules := []string{"13.4.8"}
		eff := effects(terrain(in.Word("terrain")), in.Bool("trench"), true)
		mayIgnore := spaces > 0 && eff.MayIgnoreRetreat
		oos := 0
		if in.Bool("defender_oos") {
			oos = oosRetreatSteps(spaces)
			if spaces > 0 {
				rules = append(rules, "13.4.8.4")
			}
		}
		if spaces > 0 && (in.Word("terrain") != "clear" || in.Bool("trench")) {
			rules = append(rules, "13.4.8.1")
		}
		ex := fmt.Sprintf("The defender lost %d step(s) more than the attacker", def-art-att)
		if art > 0 {
			ex += fmt.Sprintf(" (not counting %d from Artillery Preparation)", art)
		}
		switch spaces {
		case 0:
			ex += ", fewer than 2, so there is no retreat."
		case 1:
			ex += ", exactly 2, so he retreats 1 space."
		default:
			ex += ", more than 2, so he retreats 2 spaces."
		}
		if mayIgnore {
			ex += " He may instead take one extra step from any defending unit and ignore the whole retreat."
		}
		if oos > 0 {
			ex += fmt.Sprintf(" Out Of Supply units cannot retreat and take %d step(s) instead.", oos)
		}
		out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: ex}
		return out.Set("spaces", spaces).Set("may_ignore", mayIgnore).Set("oos_steps", oos), nil
	},
}

var airStrikeProcedure = &resolve.Procedure{
	Name:    "air_strike",
	Summary: "a NATO Air Strike: one roll per chosen full-size unit, reduced on 3-9 (7.3.1, 14.5.4)",
	Dice:    "1d10 read 0-9 per unit, in the order chosen",
	Inputs: []resolve.Input{
		{Name: "units", Kind: resolve.Int, Bounded: true, Min: 0, Max: 3, Default: "2", Help: "full-size units chosen before rolling: 2, or 3 in the 2-player game (fewer if fewer exist)"},
	},
	Outputs: []resolve.Output{
		{Name: "reduced", Help: "for each unit, in the order chosen, whether it is reduced"},
		{Name: "count", Help: "how many units are reduced"},
	},
	Main: "reduced",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		n := in.Int("units")
		red := airStrike(r, n)
		count := 0
		for _, x := range red {
			if x {
				count++
			}
		}
		rules := []string{"7.3.1"}
		if n == 3 {
			rules = append(rules, "14.5.4")
		}
		ex := fmt.Sprintf("NATO rolls once for each of %d unit(s); 3-9 reduces: %d reduced.", n, count)
		out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: ex}
		return out.Set("reduced", red).Set("count", count), nil
	},
}

var rollToReduceProcedure = &resolve.Procedure{
	Name:    "roll_to_reduce",
	Summary: "a card's \"roll to reduce X units\": one roll per unit chosen before rolling, reduced on ON-9 (12.1.2, 1.5.8 Artillery Preparation)",
	Dice:    "1d10 read 0-9 per unit, in the order chosen",
	Inputs: []resolve.Input{
		{Name: "on", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9, Help: "the lowest face that reduces, as the card prints it"},
		{Name: "units", Kind: resolve.Int, Bounded: true, Min: 0, Max: 9, Default: "1", Help: "units chosen before rolling"},
	},
	Outputs: []resolve.Output{
		{Name: "reduced", Help: "for each unit, in the order chosen, whether it is reduced"},
		{Name: "count", Help: "how many units are reduced"},
	},
	Main: "reduced",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		on, n := in.Int("on"), in.Int("units")
		red := make([]bool, n)
		count := 0
		for i := range red {
			_, red[i] = rollToReduce(r, on, fmt.Sprintf("B&U 12.1.2 roll to reduce, unit %d, reduces on %d-9", i+1, on))
			if red[i] {
				count++
			}
		}
		ex := fmt.Sprintf("One roll for each of %d unit(s) chosen before rolling; %d-9 reduces: %d reduced.", n, on, count)
		out := &resolve.Result{Rule: resolve.Rules("12.1.2"), Explain: ex}
		return out.Set("reduced", red).Set("count", count), nil
	},
}

var victoryScoreProcedure = &resolve.Procedure{
	Name:    "victory_score",
	Summary: "Victory Score = IF + SW - uncontrolled Key Region points - 5 x Intervention Level (3.1.4)",
	Inputs: []resolve.Input{
		{Name: "side", Kind: resolve.Word, Required: true, Allowed: []string{string(serb), string(croat), string(bosniak)}, Help: "the side scored"},
		{Name: "sw", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 999, Help: "the side's Strategic Will"},
		{Name: "uncontrolled_key_region_points", Kind: resolve.Int, Bounded: true, Min: 0, Max: 999, Help: "Region Points of the side's Key Regions it does not control (2-player: an ally's control counts as control, 14.4.1)"},
		{Name: "intervention", Kind: resolve.Int, Bounded: true, Min: 0, Max: 3, Help: "the side's Intervention Level"},
	},
	Outputs: []resolve.Output{
		{Name: "score", Help: "the Victory Score"},
		{Name: "initial_factor", Help: "the side's Initial Factor: Serbs 0, Croats 11, Bosniaks 16"},
		{Name: "victory_condition", Help: "SW the side needs (with all its Key Regions) to win at once (3.1.2)"},
	},
	Main: "score",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		s := Side(in.Word("side"))
		sw, pts, il := in.Int("sw"), in.Int("uncontrolled_key_region_points"), in.Int("intervention")
		score := victoryScore(s, sw, pts, il)
		ex := fmt.Sprintf("%s Victory Score: %d + %d - %d - 5x%d = %d.", s, initialFactor(s), sw, pts, il, score)
		rules := []string{"3.1.4"}
		if il == 3 {
			ex += " At Intervention Level 3 this side has lost the game at once (2.2.4)."
			rules = append(rules, "2.2.4")
		}
		out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: ex}
		return out.Set("score", score).Set("initial_factor", initialFactor(s)).Set("victory_condition", victoryCondition(s)), nil
	},
}

var diplomacyProcedure = &resolve.Procedure{
	Name:    "diplomacy",
	Summary: "FA gained by a Diplomatic Action: +1 for CV 2 or 3, +2 for CV 4 (11.1.1)",
	Inputs: []resolve.Input{
		{Name: "cv", Kind: resolve.Int, Required: true, Bounded: true, Min: 2, Max: 4, Help: "the Card Value of the card played (1.5.3)"},
	},
	Outputs: []resolve.Output{{Name: "fa", Help: "the FA shift"}},
	Main:    "fa",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		cv := in.Int("cv")
		fa := diplomacyFA(cv)
		out := &resolve.Result{Rule: "11.1.1", Explain: fmt.Sprintf("A Diplomatic Action with a CV %d card shifts Foreign Attitude by +%d.", cv, fa)}
		return out.Set("fa", fa), nil
	},
}
