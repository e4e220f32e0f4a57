package sms1914

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Calculator is 1914: Serbien muß sterbien's rules calculator: the procedures
// `umpire resolve sms1914` answers (docs/resolve.md).
var Calculator = &resolve.Game{
	ID:    "sms1914",
	Title: "1914: Serbien muß sterbien",
	Procedures: []*resolve.Procedure{
		oddsProc, prDRMProc, intensityProc, ecProc, smallMagnitudeProc,
		montenegrinProc, alliedProc, combatProc, repulseProc, artilleryProc, forcedMarchProc,
	},
}

var tablesInput = resolve.Input{Name: "tables", Kind: resolve.Text,
	Help: "table file (TOML, docs/tables-sms1914.md); empty = the embedded demo (stand-in) tables"}

var oddsInputs = []resolve.Input{
	{Name: "attack", Kind: resolve.Decimal, Required: true, Help: "total modified attack strength (9.3, 9.4), above 0 (9.2.3), at most 10000"},
	{Name: "defense", Kind: resolve.Decimal, Required: true, Help: "total modified defense strength (9.3, 9.4), above 0, at most 10000"},
	{Name: "prepared", Kind: resolve.Bool, Help: "every attacking Combat unit has a Prepared Attack marker at the hex: 1 right (9.6.1)"},
	{Name: "flanked", Kind: resolve.Bool, Help: "the defender is Flanked: 2 right (9.5.2)"},
	{Name: "ip", Kind: resolve.Int, Bounded: true, Min: 0, Max: 1, Help: "a Level 1 IP in the defender's hex: 1 left (14.1)"},
	{Name: "river", Kind: resolve.Word, Allowed: []string{"none", "major", "sava_all", "sava_some"}, Default: "none",
		Help: "major: ALL attack across a Major River / Sava Island / Sava River-bend hexside or from Bottomland with River, 1 left; sava_all: ALL across the Sava, 2 left; sava_some: some across the Sava, 1 left (9.6.1); a Riverbend attacked against its arrow is a regular Sava hexside (3.5.4)"},
	{Name: "up_elevation", Kind: resolve.Bool, Help: "the defender's hex is higher than every attacker's hex: 1 left (3.6, 9.6.1)"},
	{Name: "shifts", Kind: resolve.Int, Bounded: true, Min: -20, Max: 20, Help: "other net column shifts, + is rightward (9.6.2)"},
	{Name: "low_rounding", Kind: resolve.Word, Allowed: []string{"decimal", "inverse"}, Default: "decimal",
		Help: "midpoints below 1:1: decimal compares attack/defense with the midpoint of the two ratios as numbers; inverse compares defense/attack (docs/rulings.md)"},
	tablesInput,
}

var prInputs = []resolve.Input{
	{Name: "attacker_pr", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9, Help: "highest attacking unit's Proficiency Rating (9.7)"},
	{Name: "defender_pr", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9, Help: "highest defending unit's Proficiency Rating (9.7)"},
}

func join(lists ...[]resolve.Input) []resolve.Input {
	var out []resolve.Input
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// ratOf is the exact decimal a player typed.
func ratOf(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'f', -1, 64))
	return r
}

func loadTables(in *resolve.Values) (*tables, error) {
	t, err := LoadTables(in.Text("tables"))
	if err != nil {
		return nil, resolve.Bad("tables", "%v", err)
	}
	return t, nil
}

func standIn(t *tables, used bool) string {
	if t.StandIn && used {
		return " (stand-in data from " + t.Name + ")"
	}
	return ""
}

// oddsCase is the shared odds determination of odds, combat and repulse.
type oddsCase struct {
	tables          *tables
	scale           *scale
	attack, defense *big.Rat
	odds            odds
	lowUsed         bool
}

func determine(in *resolve.Values) (*oddsCase, error) {
	a, d := in.Float("attack"), in.Float("defense")
	if a <= 0 {
		return nil, resolve.Bad("attack", "must be above 0: a unit with attack strength zero cannot attack (9.2.3)")
	}
	if d <= 0 {
		return nil, resolve.Bad("defense", "must be above 0")
	}
	// strengths are counter sums, halves at most (9.4, 19.1.6); the bounds
	// keep the odds scale finite
	for _, v := range []struct {
		name string
		x    float64
	}{{"attack", a}, {"defense", d}} {
		if v.x < 0.01 || v.x > 10000 {
			return nil, resolve.Bad(v.name, "must be from 0.01 to 10000")
		}
	}
	t, err := loadTables(in)
	if err != nil {
		return nil, err
	}
	s, err := t.Scale()
	if err != nil {
		return nil, resolve.Bad("tables", "%v", err)
	}
	sh := shifts{
		Prepared:    in.Bool("prepared"),
		Flanked:     in.Bool("flanked"),
		IP:          in.Int("ip"),
		River:       river(in.Word("river")),
		UpElevation: in.Bool("up_elevation"),
		Other:       in.Int("shifts"),
	}
	c := &oddsCase{tables: t, scale: s, attack: ratOf(a), defense: ratOf(d)}
	c.odds = determineOdds(s, c.attack, c.defense, sh, in.Word("low_rounding") == "inverse")
	c.lowUsed = s.UsesLowColumns(c.attack, c.defense, c.odds)
	return c, nil
}

// decimal writes a typed strength as the player typed it: 14, 13.5, 0.001.
func decimal(r *big.Rat) string {
	if r.IsInt() {
		return r.RatString()
	}
	t := strings.TrimRight(r.FloatString(10), "0")
	return strings.TrimSuffix(t, ".")
}

func (c *oddsCase) rules() string {
	r := []string{"9.6"}
	if c.odds.Net != 0 {
		r = append(r, "9.6.1", "9.6.2")
	}
	if c.odds.Final != c.odds.Column {
		r = append(r, "9.6.2", "9.9")
	}
	return resolve.Rules(r...)
}

func (c *oddsCase) sentence() string {
	s := c.scale
	txt := fmt.Sprintf("%s:%s rounds to %s", decimal(c.attack), decimal(c.defense), s.Name(c.odds.Initial))
	if c.odds.Net != 0 {
		txt += fmt.Sprintf(", %+d net column shifts give %s", c.odds.Net, s.Name(c.odds.Final))
	}
	if c.odds.Final != c.odds.Column {
		return txt + fmt.Sprintf(", resolved on the %s column", s.Name(c.odds.Column))
	}
	return txt + fmt.Sprintf(" (the %s column)", s.Name(c.odds.Column))
}

var oddsProc = &resolve.Procedure{
	Name:    "odds",
	Summary: "initial odds (midpoint rounding), net column shifts and the CRT column (9.6, 9.6.1, 9.6.2, 9.9)",
	Inputs:  oddsInputs,
	Outputs: []resolve.Output{
		{Name: "ratio", Help: "initial odds after 9.6 midpoint rounding (1:5, 10:1 ... beyond the table)"},
		{Name: "column", Help: "final column used on the CRT"},
		{Name: "final", Help: "final odds before clamping to the table, e.g. 10:1 or 1:5 (9.6.2)"},
		{Name: "net_shifts", Help: "net column shifts applied, + rightward"},
	},
	Main: "column",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		c, err := determine(in)
		if err != nil {
			return nil, err
		}
		s := c.scale
		res := &resolve.Result{Rule: c.rules(), Explain: c.sentence() + standIn(c.tables, c.lowUsed) + "."}
		return res.Set("ratio", s.Name(c.odds.Initial)).Set("column", s.Name(c.odds.Column)).
			Set("final", s.Name(c.odds.Final)).Set("net_shifts", c.odds.Net), nil
	},
}

var prDRMProc = &resolve.Procedure{
	Name:    "pr_drm",
	Summary: "the PR DRM on the white combat die: defender's highest PR minus attacker's highest (9.7)",
	Inputs:  prInputs,
	Outputs: []resolve.Output{{Name: "drm", Help: "DRM to the white die, may be negative"}},
	Main:    "drm",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		d := prdrm(in.Int("attacker_pr"), in.Int("defender_pr"))
		res := &resolve.Result{Rule: "9.7", Explain: fmt.Sprintf("Defender PR %d minus attacker PR %d gives %+d to the white die.", in.Int("defender_pr"), in.Int("attacker_pr"), d)}
		return res.Set("drm", d), nil
	},
}

var intensityWords = []string{"intense", "not"}

var intensityProc = &resolve.Procedure{
	Name:    "intensity",
	Summary: "battle intensity from the two declarations, attacker first (9.1.1f, 9.8.1)",
	Inputs: []resolve.Input{
		{Name: "attacker", Kind: resolve.Word, Allowed: intensityWords, Default: "not", Help: "the attacker's declaration"},
		{Name: "defender", Kind: resolve.Word, Allowed: intensityWords, Default: "not", Help: "the defender's declaration"},
	},
	Outputs: []resolve.Output{{Name: "battle", Help: "low, attacker, defender or high"}},
	Main:    "battle",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		b := intensity(in.Word("attacker") == "intense", in.Word("defender") == "intense")
		names := map[Battle]string{lowIntensity: "Low Intensity", AttackerIntense: "Attacker Intense", DefenderIntense: "Defender Intense", highIntensity: "High Intensity"}
		res := &resolve.Result{Rule: "9.8.1", Explain: fmt.Sprintf("Attacker %s, defender %s: a %s combat.", in.Word("attacker"), in.Word("defender"), names[b])}
		return res.Set("battle", string(b)), nil
	},
}

var ecProc = &resolve.Procedure{
	Name:    "ec",
	Summary: "a post-combat Effectiveness Check and its failure results (6.2, 10.0, 10.2, 10.3), or a Repulse EC (7.4.4, 7.4.5)",
	Dice:    "2d6",
	Inputs: []resolve.Input{
		{Name: "cel", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 20, Help: "the Force's current CEL (6.1.2)"},
		{Name: "drm", Kind: resolve.Int, Bounded: true, Min: -20, Max: 20, Help: "net EC DRM: CRT + Artillery + Flanked +1 (10.0)"},
		{Name: "status", Kind: resolve.Word, Allowed: StatusNames(), Default: "none", Help: "the Formation's CE Status before the check, for the CI/Demoralized retreats (6.1.4, 10.3)"},
		{Name: "check", Kind: resolve.Word, Allowed: []string{"post_combat", "repulse"}, Default: "post_combat",
			Help: "post_combat: the 10.3 failure table; repulse: a Repulse EC (7.4.4 repulsed Force, give drm=1; 7.4.5 failed Repulse, unmodified), where a failure is one CEL reduction"},
	},
	Outputs: []resolve.Output{
		{Name: "total", Help: "2d6 + drm"},
		{Name: "passed", Help: "total at most the CEL (6.2.1)"},
		{Name: "failed_by", Help: "total minus CEL, 0 when passed"},
		{Name: "cel_reductions", Help: "1 for failing by 1-3, 2 for 4-6, 3 for 7+ (10.3); 1 for any failure with check=repulse (7.4.4, 7.4.5)"},
		{Name: "strength_reduction", Help: "failing by 7 or more inflicts an SR (10.3)"},
		{Name: "retreat", Help: "hexes from the failure itself: 1 for failing by 7+ (10.3)"},
		{Name: "new_status", Help: "the Formation's CE Status after the reductions"},
		{Name: "status_retreat", Help: "1 hex if now CI, 2 if it became Demoralized (10.3), on top of retreat; 0 with check=repulse"},
		{Name: "overflow_srs", Help: "reductions past D2 converted into SRs (6.1.3, 10.3)"},
	},
	Main: "passed",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		cel, drm := in.Int("cel"), in.Int("drm")
		before, _ := parseStatus(in.Word("status"))
		repulse := in.Word("check") == "repulse"
		purpose, rules := "post-combat check", []string{"6.2.1", "10.2"}
		if repulse {
			purpose, rules = "Repulse check", []string{"6.2.1", "7.4.4", "7.4.5"}
		}
		e := rollEC(r, cel, drm, purpose)
		f := postCombatFailure(e.FailedBy)
		if repulse {
			f = repulseFailure(e.FailedBy)
		}
		after, overflow := before.Reduce(f.CELReductions)
		sr := 0
		if !repulse {
			// the 10.3 CI and Demoralized retreats follow a post-combat EC only
			sr = statusRetreat(before, after)
		}
		var txt string
		if e.Passed {
			txt = fmt.Sprintf("%d%+d = %d is at most CEL %d: passed", e.Dice, drm, e.Total, cel)
		} else {
			txt = fmt.Sprintf("%d%+d = %d is above CEL %d: failed by %d, %d CEL reduction(s)", e.Dice, drm, e.Total, cel, e.FailedBy, f.CELReductions)
			if f.SR {
				txt += ", a strength reduction and a 1-hex retreat"
			}
			if repulse {
				txt += " (a failed Repulse EC is one reduction whatever the margin)"
			}
		}
		if !e.Passed && !repulse {
			rules = append(rules, "10.3")
		}
		if after != before {
			txt += fmt.Sprintf("; status %s becomes %s", before, after)
		}
		if overflow > 0 {
			txt += fmt.Sprintf(" with %d reduction(s) past D2 becoming SRs", overflow)
			rules = append(rules, "6.1.3")
		}
		if sr > 0 {
			rules = append(rules, "10.3")
			if after == statusCI {
				txt += "; now CI, it retreats 1 hex"
			} else {
				txt += "; it became Demoralized and retreats 2 hexes"
			}
		}
		res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: txt + "."}
		return res.Set("total", e.Total).Set("passed", e.Passed).Set("failed_by", e.FailedBy).
			Set("cel_reductions", f.CELReductions).Set("strength_reduction", f.SR).Set("retreat", f.Retreat).
			Set("new_status", after.String()).Set("status_retreat", sr).Set("overflow_srs", overflow), nil
	},
}

var smallMagnitudeProc = &resolve.Procedure{
	Name:    "small_magnitude",
	Summary: "whether CRT and Intensity SRs are suffered against an enemy under one division-equivalent (9.10.1)",
	Dice:    "1d6, none when the SR is automatic",
	Inputs: []resolve.Input{
		{Name: "enemy_size", Kind: resolve.Word, Allowed: []string{"1/4", "1/2", "3/4"}, Required: true, Help: "the enemy's participating division-equivalents (1.1)"},
		{Name: "srs", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: 2, Help: "total CRT and Intensity SRs the side would suffer"},
	},
	Outputs: []resolve.Output{
		{Name: "srs_suffered", Help: "0 or 1: a result listed on the table inflicts an SR"},
		{Name: "rolled", Help: "false when the SR is automatic"},
	},
	Main: "srs_suffered",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		q := map[string]int{"1/4": 1, "1/2": 2, "3/4": 3}[in.Word("enemy_size")]
		srs := in.Int("srs")
		got, rolled, err := smallMagnitude(r, q, srs)
		if err != nil {
			return nil, resolve.Bad("srs", "%v", err)
		}
		var txt string
		if !rolled {
			txt = fmt.Sprintf("Against %s DE, %d SRs become 1 SR automatically.", in.Word("enemy_size"), srs)
		} else {
			txt = fmt.Sprintf("Against %s DE with %d SR(s), a %d or more inflicts 1 SR: %d suffered.", in.Word("enemy_size"), srs, smallMagnitudeNeed(q, srs), got)
		}
		res := &resolve.Result{Rule: "9.10.1", Explain: txt}
		return res.Set("srs_suffered", got).Set("rolled", rolled), nil
	},
}

var montenegrinProc = &resolve.Procedure{
	Name:    "montenegrin_repls",
	Summary: "Montenegrin REPLs at an Inter-Phase, from the second on, +1 after the 8th (24.1)",
	Dice:    "1d6 from the 2nd Inter-Phase, none before",
	Inputs: []resolve.Input{
		{Name: "interphase", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 99, Help: "which Inter-Phase (1 = the first; 0 = the At Start row)"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the d6 plus DRM, null when there is no roll"},
		{Name: "repls", Help: "Montenegrin REPLs received"},
		{Name: "rolled", Help: "false before the 2nd Inter-Phase"},
	},
	Main: "repls",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		ip := in.Int("interphase")
		_, mod, repls, rolled := montenegrinREPLs(r, ip)
		res := &resolve.Result{Rule: "24.1"}
		if !rolled {
			res.Explain = fmt.Sprintf("No Montenegrin REPL roll before the 2nd Inter-Phase (this is Inter-Phase %d).", ip)
			return res.Set("modified", nil).Set("repls", 0).Set("rolled", false), nil
		}
		res.Explain = fmt.Sprintf("Inter-Phase %d: modified roll %d (DRM %+d) gives %d Montenegrin REPL(s).", ip, mod, montenegrinDRM(ip), repls)
		return res.Set("modified", mod).Set("repls", repls).Set("rolled", true), nil
	},
}

var alliedProc = &resolve.Procedure{
	Name:    "allied_assistance",
	Summary: "the Serbian Allied Assistance roll at an Inter-Phase with no Shells (23.2.2)",
	Dice:    "1d6",
	Inputs: []resolve.Input{
		{Name: "failures", Kind: resolve.Int, Bounded: true, Min: 0, Max: 99, Help: "earlier failed Allied Assistance rolls, +1 each"},
		{Name: "cumulative", Kind: resolve.Bool, Default: "yes", Help: "no: only the last failure's +1 counts (docs/rulings.md)"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the d6 plus DRM"},
		{Name: "success", Help: "a modified 6 or more: 4 Shells per GT from now on"},
	},
	Main: "success",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		f := in.Int("failures")
		_, mod, ok := alliedAssistance(r, f, in.Bool("cumulative"))
		word := "the Allies fail to send assistance"
		if ok {
			word = "the Allies send shells: 4 Shells per GT from now on"
		}
		res := &resolve.Result{Rule: "23.2.2", Explain: fmt.Sprintf("Modified roll %d (DRM %+d): %s.", mod, alliedAssistanceDRM(f, in.Bool("cumulative")), word)}
		return res.Set("modified", mod).Set("success", ok), nil
	},
}

var battleInput = resolve.Input{Name: "battle", Kind: resolve.Word, Allowed: []string{"low", "attacker", "defender", "high"}, Default: "low",
	Help: "battle intensity (9.8.1), for the retreat and Intensity SRs (9.8.2)"}

var combatProc = &resolve.Procedure{
	Name:    "combat",
	Summary: "odds, the CRT roll with the PR DRM, and the result under the battle intensity (9.1.1, 9.6-9.9)",
	Dice:    "2d6: white then black",
	Inputs:  join(oddsInputs, prInputs, []resolve.Input{battleInput}),
	Outputs: []resolve.Output{
		{Name: "column", Help: "CRT column used"},
		{Name: "white_modified", Help: "white die + PR DRM (9.7)"},
		{Name: "result", Help: "CRT cell as printed, attacker/defender, retreats as ① ②"},
		{Name: "ratio", Help: "initial odds"},
		{Name: "final", Help: "final odds before clamping"},
		{Name: "row", Help: "CRT row read (white_modified clamped to the table's rows)"},
		{Name: "attacker_drm", Help: "attacker's post-combat EC DRM from the CRT"},
		{Name: "defender_drm", Help: "defender's post-combat EC DRM from the CRT"},
		{Name: "attacker_e", Help: "E: CEL reductions to each attacking Force"},
		{Name: "defender_e", Help: "E: CEL reductions to each defending Force"},
		{Name: "attacker_s", Help: "s results against the attacker"},
		{Name: "defender_s", Help: "s results against the defender"},
		{Name: "black_retreat", Help: "black-circled retreat in the result (0, 1, 2)"},
		{Name: "white_retreat", Help: "white-circled retreat in the result (0, 1, 2)"},
		{Name: "defender_retreat", Help: "hexes the defender retreats under the battle intensity (9.8.2)"},
		{Name: "attacker_srs", Help: "attacker SRs: s results + Intensity SR (before Small Magnitude, 9.10.1)"},
		{Name: "defender_srs", Help: "defender SRs: s results + a ② carried out + Intensity SR (before Small Magnitude)"},
		{Name: "defender_ec", Help: "false when the final odds are lower than 1:4: no defender EC (10.0)"},
	},
	Main: "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		c, err := determine(in)
		if err != nil {
			return nil, err
		}
		crt, err := c.tables.CRT()
		if err != nil {
			return nil, resolve.Bad("tables", "%v", err)
		}
		s := c.scale
		pr := prdrm(in.Int("attacker_pr"), in.Int("defender_pr"))
		roll := crt.RollCRT(r, c.odds.Column, pr, "combat at "+s.Name(c.odds.Column))
		b := Battle(in.Word("battle"))
		o := roll.Result.Apply(b)
		checks := defenderChecks(c.odds.Final)
		txt := fmt.Sprintf("%s; white %d%+d = %d, black %d gives %s", c.sentence(), roll.White, pr, roll.WhiteModified, roll.Black, roll.Result.Printed)
		if o.DefenderRetreat > 0 {
			txt += fmt.Sprintf("; the defender retreats %d hex(es)", o.DefenderRetreat)
		} else if roll.Result.BlackRetreat+roll.Result.WhiteRetreat > 0 {
			txt += fmt.Sprintf("; the retreat is ignored in a %s intensity battle", b)
		}
		if !checks {
			txt += "; odds below 1:4, so no defender EC"
		}
		rules := []string{c.rules(), "9.7", "9.9.1", "9.9.2"}
		if o.AttackerIntSR+o.DefenderIntSR > 0 || b != lowIntensity {
			rules = append(rules, "9.8.2")
		}
		if !checks {
			rules = append(rules, "10.0")
		}
		res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: txt + standIn(c.tables, true) + "."}
		return res.Set("column", s.Name(c.odds.Column)).Set("white_modified", roll.WhiteModified).Set("result", roll.Result.Printed).
			Set("ratio", s.Name(c.odds.Initial)).Set("final", s.Name(c.odds.Final)).Set("row", roll.Row).
			Set("attacker_drm", roll.Result.Attacker.DRM).Set("defender_drm", roll.Result.Defender.DRM).
			Set("attacker_e", roll.Result.Attacker.E).Set("defender_e", roll.Result.Defender.E).
			Set("attacker_s", roll.Result.Attacker.S).Set("defender_s", roll.Result.Defender.S).
			Set("black_retreat", roll.Result.BlackRetreat).Set("white_retreat", roll.Result.WhiteRetreat).
			Set("defender_retreat", o.DefenderRetreat).Set("attacker_srs", o.AttackerSRs).Set("defender_srs", o.DefenderSRs).
			Set("defender_ec", checks), nil
	},
}

var repulseProc = &resolve.Procedure{
	Name:    "repulse",
	Summary: "a Repulse attempt: automatic at 8:1, a CRT roll at 3:1, 4:1 or 6:1 needing a black retreat, failure below (7.4.3-7.4.5)",
	Dice:    "2d6: white then black, only at 3:1, 4:1 or 6:1",
	Inputs:  join(oddsInputs, prInputs),
	Outputs: []resolve.Output{
		{Name: "column", Help: "CRT column"},
		{Name: "rolled", Help: "whether the CRT was rolled"},
		{Name: "white_modified", Help: "white die + PR DRM, null without a roll"},
		{Name: "result", Help: "CRT cell as printed, null without a roll"},
		{Name: "success", Help: "the Repulse succeeds: the defending stack retreats 2 hexes and its Force makes an EC at +1 (7.4.4)"},
		{Name: "ratio", Help: "initial odds"},
		{Name: "final", Help: "final odds before clamping"},
	},
	Main: "success",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		c, err := determine(in)
		if err != nil {
			return nil, err
		}
		crt, err := c.tables.CRT()
		if err != nil {
			return nil, resolve.Bad("tables", "%v", err)
		}
		s := c.scale
		pr := prdrm(in.Int("attacker_pr"), in.Int("defender_pr"))
		out := repulse(r, crt, c.odds.Column, pr)
		res := &resolve.Result{Rule: resolve.Rules(c.rules(), "7.4.3")}
		res.Set("column", s.Name(c.odds.Column)).Set("rolled", out.Rolled)
		switch {
		case out.Rolled:
			verdict := "no black retreat, so the Repulse fails"
			if out.Success {
				verdict = "a black retreat, so the Repulse succeeds"
			}
			res.Rule = resolve.Rules(res.Rule, "9.7", "7.4.4", "7.4.5")
			res.Explain = fmt.Sprintf("%s; white %d%+d = %d, black %d gives %s: %s%s.", c.sentence(), out.Roll.White, pr, out.Roll.WhiteModified, out.Roll.Black, out.Roll.Result.Printed, verdict, standIn(c.tables, true))
			res.Set("white_modified", out.Roll.WhiteModified).Set("result", out.Roll.Result.Printed)
		case out.Success:
			res.Rule = resolve.Rules(res.Rule, "7.4.4")
			res.Explain = c.sentence() + ": the Repulse succeeds automatically" + standIn(c.tables, c.lowUsed) + "."
			res.Set("white_modified", nil).Set("result", nil)
		default:
			res.Rule = resolve.Rules(res.Rule, "7.4.5")
			res.Explain = c.sentence() + ": below 3:1 the Repulse fails" + standIn(c.tables, c.lowUsed) + "."
			res.Set("white_modified", nil).Set("result", nil)
		}
		return res.Set("success", out.Success).Set("ratio", s.Name(c.odds.Initial)).Set("final", s.Name(c.odds.Final)), nil
	},
}

var artilleryProc = &resolve.Procedure{
	Name:    "artillery",
	Summary: "the Artillery Table EC DRM: enemy AV against friendly division-equivalents (10.1)",
	Inputs: []resolve.Input{
		{Name: "av", Kind: resolve.Decimal, Required: true, Help: "the enemy's total AV (10.1.1); a fraction rounds up (10.1.1a)"},
		{Name: "de", Kind: resolve.Text, Required: true, Help: "friendly division-equivalents in the combat: 1/4, 0.5, 2 1/2 ... (1.1; a defending Fort is 1/2)"},
		tablesInput,
	},
	Outputs: []resolve.Output{
		{Name: "drm", Help: "EC DRM to the friendly Forces"},
		{Name: "av_total", Help: "the AV total used (rounded up)"},
	},
	Main: "drm",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		avf := in.Float("av")
		if avf < 0 || avf > 1000 {
			return nil, resolve.Bad("av", "must be from 0 to 1000")
		}
		de, err := parseDE(in.Text("de"))
		if err != nil {
			return nil, resolve.Bad("de", "%v", err)
		}
		t, err := loadTables(in)
		if err != nil {
			return nil, err
		}
		a, err := t.ArtilleryTable()
		if err != nil {
			return nil, resolve.Bad("tables", "%v", err)
		}
		av := artilleryAV(ratOf(avf))
		drm, _, _ := a.Lookup(av, de)
		rules := "10.1.2"
		if !ratOf(avf).IsInt() {
			rules = "10.1.1a, 10.1.2"
		}
		res := &resolve.Result{Rule: rules, Explain: fmt.Sprintf("Enemy AV %d against %s friendly division-equivalent(s) gives %+d to the friendly EC%s.", av, formatDE(de), drm, standIn(t, true))}
		return res.Set("drm", drm).Set("av_total", av), nil
	},
}

var forcedMarchProc = &resolve.Procedure{
	Name:    "forced_march",
	Summary: "a Forced March EC, +1 per Forced March MP, and the Forced March Results Table (7.2.3, 7.2.3a, 8.2.4a)",
	Dice:    "2d6",
	Inputs: []resolve.Input{
		{Name: "cel", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 20, Help: "the Force's current CEL"},
		{Name: "fm_mp", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: 7, Help: "Forced March MPs expended: +1 each (7.2.3); infantry at most 3 (7.2.1)"},
		{Name: "unit", Kind: resolve.Word, Allowed: []string{"infantry", "cavalry"}, Required: true, Help: "the unit type that marched (7.2.3a)"},
		tablesInput,
	},
	Outputs: []resolve.Output{
		{Name: "total", Help: "2d6 + Forced March MPs"},
		{Name: "passed", Help: "total at most the CEL"},
		{Name: "failed_by", Help: "total minus CEL, 0 when passed"},
		{Name: "result", Help: "Forced March Results Table cell, null when passed"},
		{Name: "cel_reductions", Help: "-#E: CEL reductions"},
		{Name: "srs", Help: "S: strength reductions"},
		{Name: "remove_pa", Help: "↑: remove the PA marker"},
	},
	Main: "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		unit, mp := in.Word("unit"), in.Int("fm_mp")
		if limit := forcedMarchMax(unit == "cavalry", false); mp > limit {
			return nil, resolve.Bad("fm_mp", "%s may Forced March at most %d MPs (7.2.1)", unit, limit)
		}
		t, err := loadTables(in)
		if err != nil {
			return nil, err
		}
		fm, err := t.ForcedMarchTable()
		if err != nil {
			return nil, resolve.Bad("tables", "%v", err)
		}
		if _, ok := fm.Lookup(1, unit); !ok {
			return nil, resolve.Bad("tables", "table file %s: field forced_march.units has no %s column", t.Name, unit)
		}
		e := rollEC(r, in.Int("cel"), mp, "Forced March check")
		res := &resolve.Result{Rule: "7.2.3"}
		if e.Passed {
			res.Explain = fmt.Sprintf("%d%+d = %d is at most CEL %d: the Forced March EC passes.", e.Dice, mp, e.Total, in.Int("cel"))
			return res.Set("total", e.Total).Set("passed", true).Set("failed_by", 0).Set("result", nil).
				Set("cel_reductions", 0).Set("srs", 0).Set("remove_pa", false), nil
		}
		m, _ := fm.Lookup(e.FailedBy, unit)
		res.Rule = "7.2.3, 7.2.3a"
		res.Explain = fmt.Sprintf("%d%+d = %d fails CEL %d by %d: %s gives %s%s.", e.Dice, mp, e.Total, in.Int("cel"), e.FailedBy, unit, m.Printed, standIn(t, true))
		return res.Set("total", e.Total).Set("passed", false).Set("failed_by", e.FailedBy).Set("result", m.Printed).
			Set("cel_reductions", m.CELReductions).Set("srs", m.SRs).Set("remove_pa", m.RemovePA), nil
	},
}
