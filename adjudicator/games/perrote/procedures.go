package perrote

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

var shootProc = &resolve.Procedure{
	Name:    "shoot",
	Summary: "a weapon's shooting dice against troops or a vehicle: wound number and hits (Shooting, the weapon sections, Tanks, APC/AFVs, Cover, Body Armor)",
	Dice:    "one d6 per shooting die (none when no hit is possible); with body_armor=reroll, one d6 per hit re-rolled",
	Inputs: []resolve.Input{
		{Name: "weapon", Kind: resolve.Word, Allowed: weaponKeys(), Required: true, Help: "the firing weapon"},
		{Name: "target", Kind: resolve.Word, Allowed: []string{"troops", "vehicle", "light_vehicle"}, Default: "troops", Help: "what is shot at; light vehicles (motorbikes) are shot at as troops"},
		{Name: "armor", Kind: resolve.Word, Allowed: []string{"none", "mbt", "afv"}, Default: "none", Help: "a vehicle target's armor class"},
		{Name: "facing", Kind: resolve.Word, Allowed: []string{"front", "side", "rear"}, Default: "front", Help: "the side of an armored vehicle the shot strikes"},
		{Name: "cover", Kind: resolve.Word, Allowed: []string{"none", "light", "heavy"}, Default: "none", Help: "the target's cover: light +1 (trees, fences, smoke), heavy +2 (foxholes, walls, windows, behind a hill)"},
		{Name: "linear_cover", Kind: resolve.Bool, Help: "the cover is linear (hedge, fence, riverbank): it counts only when between the target's majority and the shooter (cover_between); of no stated strength it is light"},
		{Name: "cover_between", Kind: resolve.Bool, Default: "yes", Help: "for linear cover: it lies between the majority of the target and the shooter"},
		{Name: "moved_max", Kind: resolve.Bool, Help: "the target moved its maximum this turn (troops two hexes, vehicles four): +1"},
		{Name: "weapon_moved", Kind: resolve.Bool, Help: "the firing weapon moved this turn (no extra die for standing still)"},
		{Name: "models", Kind: resolve.Int, Bounded: true, Min: 1, Max: 50, Default: "1", Help: "models in the target hex, for hex weapons (one die or more per model)"},
		{Name: "body_armor", Kind: resolve.Word, Allowed: []string{"none", "plus1", "reroll"}, Default: "none", Help: "body armor (against small arms) or reactive vehicle armor (against missiles and RPGs): +1 to the wound number, or the shooter re-rolls each hit once"},
		{Name: "range", Kind: resolve.Int, Bounded: true, Min: 0, Max: 99, Help: "hexes to the target, not counting the firer's hex; a target out of range is refused (0 or omitted: not checked)"},
		{Name: "ap_grenade", Kind: resolve.Word, Allowed: []string{"adds", "subtracts"}, Default: "adds", Help: "antipersonnel grenades: the text adds one to the troops' wound number (adds); subtracts reads it as a bonus to the thrower"},
	},
	Outputs: []resolve.Output{
		{Name: "wound_number", Help: "the lowest face that hits after every modifier; ones always miss so never below 2; 7 or more cannot hit"},
		{Name: "dice_rolled", Help: "shooting dice rolled (0 when no hit is possible)"},
		{Name: "hits", Help: "hits scored: each removes a model, or rolls vehicle damage"},
		{Name: "over", Help: "per hit, how far its face went over the wound number (vehicle_damage over=)"},
		{Name: "rerolled", Help: "the re-rolls of the hits forced by body_armor=reroll"},
		{Name: "suppresses", Help: "the weapon always counts as suppression fire as well as kill fire"},
	},
	Main: "hits",
	Run:  runShoot,
}

var (
	targets    = map[string]target{"troops": troops, "vehicle": vehicle, "light_vehicle": lightVehicle}
	armors     = map[string]armor{"none": noArmor, "mbt": mbt, "afv": afv}
	facings    = map[string]facing{"front": front, "side": side, "rear": rear}
	covers     = map[string]cover{"none": noCover, "light": lightCover, "heavy": heavyCover}
	bodyArmors = map[string]bodyArmor{"none": noBodyArmor, "plus1": plusOne, "reroll": reroll}
)

func runShoot(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
	w, err := weaponByKey(in.Word("weapon"))
	if err != nil {
		return nil, resolve.Bad("weapon", "%v", err)
	}
	if w.Key == "ap_grenade" && in.Word("ap_grenade") == "subtracts" {
		w.TroopMod = -1
	}
	s := shot{
		Weapon:      w,
		Target:      targets[in.Word("target")],
		Armor:       armors[in.Word("armor")],
		Facing:      facings[in.Word("facing")],
		Cover:       covers[in.Word("cover")],
		Linear:      in.Bool("linear_cover"),
		Between:     in.Bool("cover_between"),
		MovedMax:    in.Bool("moved_max"),
		WeaponMoved: in.Bool("weapon_moved"),
		Models:      in.Int("models"),
		BodyArmor:   bodyArmors[in.Word("body_armor")],
	}
	if err := s.Check(); err != nil {
		se := err.(*shotError)
		return nil, resolve.Bad(se.Field, "%s", se.Msg)
	}
	if in.Given("range") && in.Int("range") > w.Range {
		return nil, resolve.Bad("range", "%s %s shoots at most %d hexes", article(w.Name), w.Name, w.Range)
	}
	res := s.Fire(r)
	rules := []string{ruleShooting, w.Rule}
	var parts []string
	for _, m := range s.Modifiers() {
		rules = append(rules, m.Rule)
		parts = append(parts, fmt.Sprintf("%+d %s", m.Value, m.Why))
	}
	if s.Target == lightVehicle {
		rules = append(rules, ruleMovement)
	}
	explain := fmt.Sprintf("%s at %s: base %d+", capitalize(w.Name), strings.ReplaceAll(in.Word("target"), "_", " "), s.Target.BaseWound())
	if len(parts) > 0 {
		explain += " " + strings.Join(parts, " ")
	}
	if w.IgnoresCover && s.cover() != noCover {
		explain += " (the flamethrower ignores cover)"
	}
	if res.Wound > 6 {
		explain += fmt.Sprintf(" makes the wound number %d, so no hit is possible and no dice are rolled", res.Wound)
	} else {
		explain += fmt.Sprintf(" makes the wound number %d (ones always miss), so %s %s %d+ and %s %s", res.Wound,
			plural(res.DiceRolled, "die", "dice"), map[bool]string{true: "needs", false: "need"}[res.DiceRolled == 1], res.Wound,
			map[bool]string{true: "scores", false: "score"}[res.DiceRolled == 1], plural(res.Hits, "hit", "hits"))
		if len(res.Rerolled) > 0 {
			explain += " after the armor re-rolls"
			rules = append(rules, ruleBodyArmor)
		}
		if !s.WeaponMoved && !w.OneShot {
			rules = append(rules, ruleMovement)
		}
		if s.Target == vehicle && res.Hits > 0 {
			explain += "; each hit rolls vehicle damage with its over"
			rules = append(rules, ruleDamage)
		}
	}
	if w.AlwaysSuppresses {
		explain += "; it always counts as suppression fire and kill fire"
		rules = append(rules, ruleSuppression)
	}
	explain += "."
	out := &resolve.Result{Rule: resolve.Rules(rules...), Explain: explain}
	return out.Set("wound_number", res.Wound).Set("dice_rolled", res.DiceRolled).Set("hits", res.Hits).
		Set("over", res.Over).Set("rerolled", res.Rerolled).Set("suppresses", w.AlwaysSuppresses), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var vehicleDamageProc = &resolve.Procedure{
	Name:    "vehicle_damage",
	Summary: "a d6 on the vehicle damage chart, plus the points the hit went over the wound number (Vehicle Damage)",
	Dice:    "1d6",
	Inputs: []resolve.Input{
		{Name: "over", Kind: resolve.Int, Bounded: true, Min: 0, Max: 20, Help: "points the hit's face went over the wound number (shoot's over)"},
		{Name: "passengers", Kind: resolve.Int, Bounded: true, Min: 0, Max: 99, Help: "passengers carried (half, rounded up, die on a 5; all on a 6)"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the d6 plus over"},
		{Name: "result", Help: "the chart line, 1 to 6 (above 6 reads 6)"},
		{Name: "effect", Help: "stunned, motive_damage, motive_crippled, fire_control_damage, fire_control_crippled or destroyed"},
		{Name: "crew_killed", Help: "the crew is killed (5 and 6)"},
		{Name: "passengers_killed", Help: "passengers killed"},
	},
	Main: "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		over := in.Int("over")
		m, e := rollVehicleDamage(r, over)
		killed := passengersKilled(e.Result, in.Int("passengers"))
		explain := fmt.Sprintf("The damage roll %d plus %d over is %d: %s.", m-over, over, m, e.Text)
		if over == 0 {
			explain = fmt.Sprintf("The damage roll is %d: %s.", m, e.Text)
		}
		res := &resolve.Result{Rule: ruleDamage, Explain: explain}
		return res.Set("modified", m).Set("result", e.Result).Set("effect", e.Key).
			Set("crew_killed", e.CrewKilled).Set("passengers_killed", killed), nil
	},
}

var turnOrderProc = &resolve.Procedure{
	Name:    "turn_order",
	Summary: "each unit's d20 turn order roll with suppression and morale, grouped highest first (Turn Order, Kill fire/suppression fire, Morale, Sneak Attack)",
	Dice:    "1d20 per unit in input order (none for units placed by sneak attack)",
	Inputs: []resolve.Input{
		{Name: "units", Kind: resolve.Words, Required: true, Help: "the units' names, comma separated"},
		{Name: "suppression", Kind: resolve.Ints, Bounded: true, Min: 0, Max: 99, Help: "suppression fire each unit took (-5 each), one per unit; empty for none"},
		{Name: "casualties", Kind: resolve.Words, Help: "each unit's lost/original models (Morale: -5 from 25%), one per unit; empty for none"},
		{Name: "special", Kind: resolve.Words, Allowed: yesNo, Help: "yes for special forces (suppressed only from 50%), one per unit; empty for none"},
		{Name: "heroic", Kind: resolve.Words, Allowed: yesNo, Help: "yes for heroic units (ignore morale), one per unit; empty for none"},
		{Name: "placed", Kind: resolve.Words, Allowed: yesNo, Help: "yes for units placed by sneak attack this turn (count as rolling a one, no die), one per unit; empty for none"},
	},
	Outputs: []resolve.Output{
		{Name: "order", Help: "groups of units acting at the same time, highest number first, each in input order"},
		{Name: "numbers", Help: "each group's modified number, same order"},
		{Name: "rolls", Help: "each unit's d20 (1 when placed), input order"},
		{Name: "modified", Help: "each unit's modified number (never below 1), input order"},
		{Name: "states", Help: "each unit's morale state, input order"},
		{Name: "may_advance", Help: "each unit may move toward the enemy (pinned units need a roll of 15+, falling back never), input order"},
	},
	Main: "order",
	Run:  runTurnOrder,
}

func runTurnOrder(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
	names := in.Words("units")
	if len(names) == 0 {
		return nil, resolve.Bad("units", "name at least one unit")
	}
	units := make([]unit, len(names))
	for i, n := range names {
		for _, m := range names[:i] {
			if strings.EqualFold(m, n) {
				return nil, resolve.Bad("units", "%s is named twice", n)
			}
		}
		units[i].Name = n
	}
	if sup := in.Ints("suppression"); len(sup) > 0 {
		if len(sup) != len(units) {
			return nil, resolve.Bad("suppression", "gives %d counts for %d units: give one per unit", len(sup), len(units))
		}
		for i, s := range sup {
			units[i].Suppression = s
		}
	}
	if cas := in.Words("casualties"); len(cas) > 0 {
		if len(cas) != len(units) {
			return nil, resolve.Bad("casualties", "gives %d entries for %d units: give one lost/original per unit", len(cas), len(units))
		}
		for i, c := range cas {
			lost, orig, err := parseCasualties(c)
			if err != nil {
				return nil, resolve.Bad("casualties", "%q %v", c, err)
			}
			units[i].Lost, units[i].Original = lost, orig
		}
	}
	for _, flag := range []string{"special", "heroic", "placed"} {
		ws := in.Words(flag)
		if len(ws) == 0 {
			continue
		}
		if len(ws) != len(units) {
			return nil, resolve.Bad(flag, "gives %d entries for %d units: give yes or no per unit", len(ws), len(units))
		}
		for i, w := range ws {
			yes := w == "yes"
			switch flag {
			case "special":
				units[i].Special = yes
			case "heroic":
				units[i].Heroic = yes
			case "placed":
				units[i].Placed = yes
			}
		}
	}
	t := rollTurnOrder(r, units)
	order := make([][]string, len(t.Groups))
	var desc []string
	for k, g := range t.Groups {
		order[k] = []string{}
		for _, i := range g {
			order[k] = append(order[k], names[i])
		}
		desc = append(desc, fmt.Sprintf("%s on %d", strings.Join(order[k], " and "), t.Numbers[k]))
	}
	states := make([]string, len(units))
	advance := make([]bool, len(units))
	rules := []string{ruleTurnOrder}
	for i, u := range units {
		m := u.Morale()
		states[i] = m.String()
		advance[i] = m.MayAdvance(t.Rolls[i])
		if u.Suppression > 0 {
			rules = append(rules, ruleSuppression)
		}
		if u.Lost > 0 {
			rules = append(rules, ruleMorale)
		}
		if u.Heroic {
			rules = append(rules, ruleHeroic)
		}
		if u.Placed {
			rules = append(rules, ruleSneak)
		}
	}
	explain := "Acting order: " + strings.Join(desc, ", then ") + "; units on the same number act at the same time."
	res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: explain}
	return res.Set("order", order).Set("numbers", t.Numbers).Set("rolls", t.Rolls).Set("modified", t.Modified).
		Set("states", states).Set("may_advance", advance), nil
}

// parseCasualties reads lost/original.
func parseCasualties(s string) (lost, original int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		lost, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			original, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	switch {
	case !ok || err != nil:
		return 0, 0, fmt.Errorf("is not lost/original (2/7)")
	case original < 1:
		return 0, 0, fmt.Errorf("needs an original size of at least 1")
	case lost < 0 || lost > original:
		return 0, 0, fmt.Errorf("needs lost from 0 to the original size")
	}
	return lost, original, nil
}

var moraleProc = &resolve.Procedure{
	Name:    "morale",
	Summary: "a unit's morale state from its casualties as a share of its original size (Morale, Heroic)",
	Inputs: []resolve.Input{
		{Name: "lost", Kind: resolve.Int, Bounded: true, Min: 0, Max: 999, Help: "models lost"},
		{Name: "original", Kind: resolve.Int, Bounded: true, Min: 1, Max: 999, Required: true, Help: "the unit's original size"},
		{Name: "special", Kind: resolve.Bool, Help: "special forces: suppressed only from 50%"},
		{Name: "heroic", Kind: resolve.Bool, Help: "heroic: ignores morale"},
	},
	Outputs: []resolve.Output{
		{Name: "state", Help: "steady, suppressed (25%: -5 turn order), pinned (50%: also no move toward the enemy unless the turn order roll is 15+) or falling_back (75%: also must move away or into hard cover)"},
		{Name: "drm", Help: "the turn order modifier (0 or -5)"},
	},
	Main: "state",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		lost, orig := in.Int("lost"), in.Int("original")
		if lost > orig {
			return nil, resolve.Bad("lost", "%d is more than the original %d", lost, orig)
		}
		m := morale(lost, orig, in.Bool("special"), in.Bool("heroic"))
		rules := []string{ruleMorale}
		explain := fmt.Sprintf("%d lost of %d is %s%%: %s", lost, orig, percent(lost, orig), strings.ReplaceAll(m.String(), "_", " "))
		if in.Bool("heroic") {
			rules = append(rules, ruleHeroic)
			explain += " (heroic units ignore morale)"
		}
		if m != steady {
			explain += ", -5 to the turn order roll"
		}
		res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: explain + "."}
		return res.Set("state", m.String()).Set("drm", m.Drm()), nil
	},
}

func percent(a, b int) string {
	return strconv.FormatFloat(100*float64(a)/float64(b), 'f', -1, 64)
}

var handToHandProc = &resolve.Procedure{
	Name:    "hand_to_hand",
	Summary: "one round of close combat, man against man, the lower d6 falling (Hand to Hand)",
	Dice:    "1d6 per man: fight by fight (pairs, then the extra men dealt out from the first fight), attackers' dice before defenders'",
	Inputs: []resolve.Input{
		{Name: "attackers", Kind: resolve.Int, Bounded: true, Min: 1, Max: 99, Required: true, Help: "attacking men"},
		{Name: "defenders", Kind: resolve.Int, Bounded: true, Min: 1, Max: 99, Required: true, Help: "defending men"},
		{Name: "group", Kind: resolve.Word, Allowed: []string{"pairs", "highest"}, Default: "pairs", Help: "a man facing several: pairs (he falls if any rolls higher; if he beats any, one of them falls) or highest (only the highest opponent's die counts)"},
	},
	Outputs: []resolve.Output{
		{Name: "attacker_losses", Help: "attacking men removed"},
		{Name: "defender_losses", Help: "defending men removed"},
		{Name: "fights", Help: "each fight's [attackers, defenders]"},
	},
	Main: "defender_losses",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		rule := pairs
		if in.Word("group") == "highest" {
			rule = highest
		}
		fights := handToHand(r, in.Int("attackers"), in.Int("defenders"), rule)
		al, dl := losses(fights)
		sizes := make([][]int, len(fights))
		for i, f := range fights {
			sizes[i] = []int{f.Attackers, f.Defenders}
		}
		explain := fmt.Sprintf("In %s the attackers lose %d and the defenders %d; the lower die falls, a tie removes no one", plural(len(fights), "fight", "fights"), al, dl)
		if in.Int("attackers") != in.Int("defenders") {
			explain += ", and a man who beats several opponents removes only one"
		}
		res := &resolve.Result{Rule: ruleHandToHand, Explain: explain + "."}
		return res.Set("attacker_losses", al).Set("defender_losses", dl).Set("fights", sizes), nil
	},
}

var mortarProc = &resolve.Procedure{
	Name:    "mortar",
	Summary: "a mortar's hex hit roll, and where a miss lands (Mortars)",
	Dice:    "1d6 hit; on a miss 1d6 scatter",
	Inputs: []resolve.Input{
		{Name: "spotter", Kind: resolve.Bool, Help: "another unit spots (and does not move this turn)"},
		{Name: "visible", Kind: resolve.Bool, Help: "the mortar can see the target"},
	},
	Outputs: []resolve.Output{
		{Name: "hit", Help: "the aimed hex is hit (3+ spotted or seen, 5+ otherwise)"},
		{Name: "scatter", Help: "on a miss, the adjacent hex hit: 1 the hex toward the mortar, 2-6 clockwise from it; null on a hit"},
		{Name: "need", Help: "the roll needed"},
	},
	Main: "hit",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		need := mortarNeed(in.Bool("spotter"), in.Bool("visible"))
		hit, sc := mortarHex(r, in.Bool("spotter"), in.Bool("visible"))
		res := &resolve.Result{Rule: ruleMortars}
		if hit {
			res.Explain = fmt.Sprintf("The mortar needs %d+ and hits the hex it aimed at; now roll shoot weapon=mortar for the models in it.", need)
			return res.Set("hit", true).Set("scatter", nil).Set("need", need), nil
		}
		res.Explain = fmt.Sprintf("The mortar needs %d+ and misses; the round lands in adjacent hex %d (1 is the hex toward the mortar, then clockwise).", need, sc)
		return res.Set("hit", false).Set("scatter", sc).Set("need", need), nil
	},
}

var smokeProc = &resolve.Procedure{
	Name:    "smoke",
	Summary: "the end-of-turn roll for smoke: 1-4 disperses, 5-6 lasts the next turn (Smoke Launchers)",
	Dice:    "1d6",
	Outputs: []resolve.Output{{Name: "disperses", Help: "the smoke disperses now (else it lasts the next turn, then disperses)"}},
	Main:    "disperses",
	Run: func(_ *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		d := smokeDisperses(r)
		res := &resolve.Result{Rule: ruleSmoke, Explain: "On 1-4 the smoke disperses at the end of the turn; on 5-6 it lasts the next turn and then disperses."}
		return res.Set("disperses", d), nil
	},
}

var sneakAttackProc = &resolve.Procedure{
	Name:    "sneak_attack",
	Summary: "whether units held off table by sneak attack show up this turn: 6+ on turn 1, 5+ on turn 2, one less each turn (Sneak Attack/Forward Deployment)",
	Dice:    "1d6 (none from turn 6, when they cannot fail)",
	Inputs: []resolve.Input{
		{Name: "turn", Kind: resolve.Int, Bounded: true, Min: 1, Max: 99, Required: true, Help: "the game turn"},
	},
	Outputs: []resolve.Output{
		{Name: "arrives", Help: "the units show up"},
		{Name: "need", Help: "the roll needed"},
		{Name: "rolled", Help: "a die was rolled"},
	},
	Main: "arrives",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		turn := in.Int("turn")
		need := sneakNeed(turn)
		arrives, rolled := sneakArrives(r, turn)
		explain := fmt.Sprintf("On turn %d they need %d+ on a d6", turn, need)
		switch {
		case !rolled:
			explain += ", which cannot fail, so they arrive without a roll"
		case arrives:
			explain += " and arrive"
		default:
			explain += " and do not arrive"
		}
		explain += "; placed units count as rolling a one for turn order."
		res := &resolve.Result{Rule: ruleSneak, Explain: explain}
		return res.Set("arrives", arrives).Set("need", need).Set("rolled", rolled), nil
	},
}
