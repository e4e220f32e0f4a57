package wbt

import (
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
)

// Calculator is War by Television: Kosovo 1999's rules calculator: the procedures
// `umpire resolve wbt` answers (docs/resolve.md).
var Calculator = &resolve.Game{
	ID:    "wbt",
	Title: "War by Television: Kosovo 1999",
	Procedures: []*resolve.Procedure{
		oddsProc, weatherProc, meppsProc, victoryProc, bridgeRepairProc, bridgeDemolitionProc,
		antitankProc, artilleryProc, riverProc, combatProc, civilianProc, reconstitutionProc,
	},
}

// oddsInputs are the inputs odds and combat share.
var oddsInputs = []resolve.Input{
	{Name: "side", Kind: resolve.Word, Allowed: []string{"NATO", "Serb", "Serbs"}, Required: true,
		Help: "the attacking side (its CRT heading row, 11.7)"},
	{Name: "attack", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9999,
		Help: "total attack factors after every factor modifier (rivers, supply, artillery...)"},
	{Name: "defense", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9999,
		Help: "total defense factors after every factor modifier (anti-tank, supply, 1st AAA support...)"},
	{Name: "terrain", Kind: resolve.Word, Allowed: terrainNames, Default: "clear",
		Help: "the defender's hex: city/mountain 2L, town/hills 1L, clear/forest none; marsh cannot be attacked (11.13-11.17)"},
	{Name: "shifts", Kind: resolve.Int, Bounded: true, Min: -20, Max: 20,
		Help: "other net column shifts, + rightward: envelopment +1 (11.25, 12.6), Milosevic Line -1 (11.19), Albanian/Macedonian supply -1 (8.9)"},
	{Name: "weather", Kind: resolve.Word, Allowed: []string{"good", "bad"}, Default: "good",
		Help: "bad weather shifts NATO attacks one column left (5.3)"},
	{Name: "sequence", Kind: resolve.Word, Allowed: []string{"combat-move", "move-combat", "combat-movement", "movement-combat"}, Default: "move-combat",
		Help: "NATO's sequence this turn: combat-move shifts NATO attacks one column right (5.4); ignored for Serb attacks"},
}

func battleOf(in *resolve.Values) (battle, error) {
	b := battle{
		Attack:      in.Int("attack"),
		Defense:     in.Int("defense"),
		BadWeather:  in.Word("weather") == "bad",
		CombatFirst: strings.HasPrefix(in.Word("sequence"), "combat"),
		Shifts:      in.Int("shifts"),
	}
	if in.Word("side") != "NATO" {
		b.Side = serb
	}
	t, err := parseTerrain(in.Word("terrain"))
	if err != nil {
		return b, resolve.Bad("terrain", "%v", err)
	}
	b.Terrain = t
	if _, err := b.Shift(); err != nil {
		return b, resolve.Bad("terrain", "%v", err)
	}
	return b, nil
}

// jsonOdds is odds as an output: "3:1", or null when unbounded.
func jsonOdds(r ratio) any {
	if r.Unbounded != 0 {
		return nil
	}
	return r.String()
}

func jsonAutomatic(a automatic) any {
	if res, ok := a.Result(); ok {
		return res.String()
	}
	return nil
}

// oddsRules lists the rules that decided a battle's odds, and says so.
func oddsRules(b battle, raw ratio, f final) (rules []string, text string) {
	var s strings.Builder
	fmt.Fprintf(&s, "%s %d against %d", b.Side, b.Attack, b.Defense)
	switch {
	case b.Attack == b.Defense:
		rules = append(rules, "11.6")
		fmt.Fprintf(&s, " is 1:1 (equal factors)")
	case raw.Unbounded > 0:
		rules = append(rules, "11.5")
		s.WriteString(" has no finite odds (no defense factors)")
	case raw.Unbounded < 0:
		rules = append(rules, "11.6")
		s.WriteString(" has no finite odds (no attack factors)")
	case b.Attack > b.Defense:
		rules = append(rules, "11.5")
		fmt.Fprintf(&s, " is %s (rounded down)", raw)
	default:
		rules = append(rules, "11.6")
		fmt.Fprintf(&s, " is %s (rounded up)", raw)
	}
	var shifts []string
	name := func(n int) string {
		if n > 0 {
			return fmt.Sprintf("%dR", n)
		}
		return fmt.Sprintf("%dL", -n)
	}
	if t, _ := terrainShift(b.Terrain); t != 0 {
		shifts = append(shifts, b.Terrain.String()+" "+name(t))
		rules = append(rules, map[terrain]string{city: "11.13", town: "11.13", mountain: "11.14", hills: "11.15"}[b.Terrain])
	}
	if w := weatherShift(b.Side, b.BadWeather); w != 0 {
		shifts = append(shifts, "bad weather "+name(w))
		rules = append(rules, "5.3")
	}
	if q := sequenceShift(b.Side, b.CombatFirst); q != 0 {
		shifts = append(shifts, "combat/movement sequence "+name(q))
		rules = append(rules, "5.4")
	}
	if b.Shifts != 0 {
		shifts = append(shifts, "other "+name(b.Shifts))
	}
	net, _ := b.Shift()
	switch {
	case len(shifts) == 1:
		fmt.Fprintf(&s, "; shift %s", shifts[0])
	case len(shifts) > 1:
		rules = append(rules, "11.22")
		fmt.Fprintf(&s, "; shifts %s", strings.Join(shifts, ", "))
		if net == 0 {
			s.WriteString(" cancel out")
		} else {
			fmt.Fprintf(&s, " make %s", name(net))
		}
	}
	if b.Side == serb && (b.BadWeather || b.CombatFirst) {
		s.WriteString(" (bad weather and NATO's sequence shift only NATO attacks)")
	}
	if f.Adjusted {
		rules = append(rules, "11.7")
		fmt.Fprintf(&s, ", counted from the table's end column as the odds are beyond the %s CRT", b.Side)
	}
	switch f.Automatic {
	case attackerRepulsed:
		rules = append(rules, "11.7")
		if f.Odds.Unbounded == 0 {
			fmt.Fprintf(&s, "; final odds %s are %s or lower", f, columnNames[b.Side][0])
		} else {
			fmt.Fprintf(&s, ", below the %s column", columnNames[b.Side][0])
		}
		s.WriteString(": automatic 3/0, no roll")
	case defenderRouted:
		rules = append(rules, "11.7")
		if f.Odds.Unbounded == 0 {
			fmt.Fprintf(&s, "; final odds %s are greater than %s", f, columnNames[b.Side][columns-1])
		} else {
			fmt.Fprintf(&s, ", beyond the %s column", columnNames[b.Side][columns-1])
		}
		s.WriteString(": automatic 0/6, no roll")
	default:
		fmt.Fprintf(&s, "; the %s column of the %s row", f, b.Side)
	}
	return rules, s.String()
}

var oddsProc = &resolve.Procedure{
	Name:    "odds",
	Summary: "combat odds, column shifts and automatic results (5.3, 5.4, 11.5-11.7, 11.13-11.19, 11.22)",
	Inputs:  oddsInputs,
	Outputs: []resolve.Output{
		{Name: "ratio", Help: "the odds before shifts: high odds rounded down (11.5), poor odds rounded up (11.6); null with a zero total"},
		{Name: "column", Help: "the final odds after shifts, a column of the side's CRT row unless automatic (11.7)"},
		{Name: "automatic", Help: `"3/0" (final odds 1:4 NATO / 1:3 Serbs or lower), "0/6" (beyond 6:1 NATO / 7:1 Serbs) or null (11.7)`},
	},
	Main: "column",
	Run: func(in *resolve.Values, _ dice.Roller) (*resolve.Result, error) {
		b, err := battleOf(in)
		if err != nil {
			return nil, err
		}
		raw, f, _ := b.Odds()
		rules, text := oddsRules(b, raw, f)
		res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: text + "."}
		return res.Set("ratio", jsonOdds(raw)).Set("column", jsonOdds(f.Odds)).Set("automatic", jsonAutomatic(f.Automatic)), nil
	},
}

var combatProc = &resolve.Procedure{
	Name:    "combat",
	Summary: "a battle: odds, shifts, the CRT roll and city doubling (11.5-11.13)",
	Dice:    "1d6 on the CRT, none for an automatic result",
	Inputs: append(append([]resolve.Input{}, oddsInputs...), resolve.Input{
		Name: "tables", Kind: resolve.Text,
		Help: "the CRT table file (docs/tables-wbt.md); empty for the embedded stand-in table",
	}),
	Outputs: []resolve.Output{
		{Name: "column", Help: "the final odds after shifts (as odds)"},
		{Name: "result", Help: `the CRT cell or automatic result, "A/D" step losses (11.8, 11.9)`},
		{Name: "attacker_steps", Help: "attacker step losses, doubled in a city with zeroes becoming ones (11.13)"},
		{Name: "defender_steps", Help: "defender step losses, doubled in a city with zeroes becoming ones (11.13)"},
		{Name: "ratio", Help: "the odds before shifts (11.5, 11.6)"},
		{Name: "automatic", Help: `"3/0", "0/6" or null (11.7)`},
		{Name: "civilian_casualties", Help: "a NATO attack into a city rolled 6: roll for civilian casualties (13.0)"},
	},
	Main: "result",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		b, err := battleOf(in)
		if err != nil {
			return nil, err
		}
		crt, err := crtOf(in)
		if err != nil {
			return nil, err
		}
		o, err := Resolve(b, crt, r)
		if err != nil {
			return nil, resolve.Bad("terrain", "%v", err)
		}
		rules, text := oddsRules(b, o.Raw, o.Final)
		if o.Roll > 0 {
			rules = append(rules, "11.8")
			text += fmt.Sprintf(", where a roll of %d gives %s", o.Roll, o.Result)
			if crt.StandIn {
				text += " on the stand-in CRT (not the published table)"
			}
		}
		if b.Terrain == city {
			rules = append(rules, "11.13")
			text += fmt.Sprintf("; in a city the losses double to %d/%d", o.AttackerSteps, o.DefenderSteps)
			if o.Final.Automatic == defenderRouted && o.Result.Attacker == 0 {
				text += " (the attacker's zero stays zero beyond the table)"
			}
		}
		if o.CivilianCasualties {
			rules = append(rules, "13.0")
			text += "; a 6 into a city calls for the civilian casualties roll"
		}
		res := &resolve.Result{Rule: resolve.Rules(rules...), Explain: text + "."}
		return res.Set("column", jsonOdds(o.Final.Odds)).Set("result", o.Result.String()).
			Set("attacker_steps", o.AttackerSteps).Set("defender_steps", o.DefenderSteps).
			Set("ratio", jsonOdds(o.Raw)).Set("automatic", jsonAutomatic(o.Final.Automatic)).
			Set("civilian_casualties", o.CivilianCasualties), nil
	},
}

// crtOf loads the tables= file, or the demo table when it is empty.
func crtOf(in *resolve.Values) (*crt, error) {
	path := strings.TrimSpace(in.Text("tables"))
	if path == "" {
		return DemoCRT(), nil
	}
	c, err := loadCRT(path)
	if err != nil {
		return nil, resolve.Bad("tables", "%v", err)
	}
	return c, nil
}

var weatherProc = &resolve.Procedure{
	Name:    "weather",
	Summary: "a game turn's weather (5.3)",
	Dice:    "1d6 from turn 3; none on turns 1 and 2",
	Inputs: []resolve.Input{
		{Name: "turn", Kind: resolve.Int, Required: true, Bounded: true, Min: 1, Max: gameTurns, Help: "the game turn"},
		{Name: "previous", Kind: resolve.Word, Allowed: []string{"good", "bad"}, Default: "good", Help: "the previous game turn's weather"},
		{Name: "before_previous", Kind: resolve.Word, Allowed: []string{"good", "bad"}, Default: "good",
			Help: "the weather the turn before that: never widens the bad range beyond 5-6 (5.3)"},
	},
	Outputs: []resolve.Output{
		{Name: "weather", Help: "good or bad"},
		{Name: "rolled", Help: "whether a die was rolled (from turn 3)"},
	},
	Main: "weather",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		turn, prevBad := in.Int("turn"), in.Word("previous") == "bad"
		bad, roll := weather(turn, prevBad, r)
		w := map[bool]string{false: "good", true: "bad"}[bad]
		res := &resolve.Result{Rule: "5.3"}
		if roll == 0 {
			res.Explain = fmt.Sprintf("Turn %d's weather is automatically good, with no roll.", turn)
		} else {
			need := "6"
			if prevBad {
				need = "5 or 6 after a bad turn (never wider)"
			}
			res.Explain = fmt.Sprintf("Turn %d: bad weather on %s; the roll of %d makes it %s.", turn, need, roll, w)
		}
		return res.Set("weather", w).Set("rolled", roll != 0), nil
	},
}

var meppsProc = &resolve.Procedure{
	Name:    "mepps_check",
	Summary: "a MePPs-loss check: one die halved, rounded up (4.2, 4.4-4.6, 4.8)",
	Dice:    "1d6",
	Outputs: []resolve.Output{{Name: "loss", Help: "MePPs lost, 1 to 3"}},
	Main:    "loss",
	Run: func(_ *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		loss := mePPsCheck(r, "WbT 4.4 MePPs-loss check")
		res := &resolve.Result{Rule: "4.4", Explain: fmt.Sprintf("The die halved, rounded up, costs NATO %d MePPs.", loss)}
		return res.Set("loss", loss), nil
	},
}

var victoryProc = &resolve.Procedure{
	Name:    "victory_check",
	Summary: "the NATO victory check (4.9, 5.5)",
	Dice:    "1d6 with 4 to 8 cities; none otherwise",
	Inputs: []resolve.Input{
		{Name: "cities", Kind: resolve.Int, Bounded: true, Min: 0, Max: 9,
			Help: "rump-Yugoslav city hexes NATO controls in overland supply (a count: 0 if not given)"},
		{Name: "reconstitution", Kind: resolve.Bool, Help: "the turn was a reconstitution turn, of either kind: no check (5.5)"},
	},
	Outputs: []resolve.Output{
		{Name: "victory", Help: "NATO wins"},
		{Name: "rolled", Help: "whether a die was rolled"},
	},
	Main: "victory",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		n, recon := in.Int("cities"), in.Bool("reconstitution")
		win, roll := victoryCheck(n, recon, r)
		res := &resolve.Result{Rule: "4.9"}
		highest, _, _ := victoryRollNeeded(n)
		switch {
		case recon:
			res.Rule = "5.5"
			res.Explain = "No victory check is made at the end of a reconstitution turn."
		case n >= 9:
			res.Explain = "All nine cities: automatic NATO victory, no roll."
		case n <= 3:
			res.Rule = "4.9, 5.5"
			res.Explain = fmt.Sprintf("%d cities: no chance of victory and no check (four or more are needed).", n)
		default:
			res.Explain = fmt.Sprintf("%d cities win on a roll of %d or less; the roll of %d %s.", n, highest, roll, map[bool]string{true: "wins", false: "fails"}[win])
		}
		return res.Set("victory", win).Set("rolled", roll != 0), nil
	},
}

// nationalities are the NATO nationalities (2.4) as names, adjectives and
// abbreviations.
var nationalities = []string{
	"US", "USA", "American", "UK", "British", "France", "French", "F", "Germany", "German", "GR",
	"Italy", "Italian", "IT", "Croatia", "Croatian", "C", "Czech", "CZ", "Hungary", "Hungarian", "H",
	"Poland", "Polish", "P", "Kosovo", "Kosovar", "Kosovars", "KO", "KLA", "Britain",
}

var bridgeRepairProc = &resolve.Procedure{
	Name:    "bridge_repair",
	Summary: "a NATO bridge repair attempt (10.18)",
	Dice:    "1d6",
	Inputs: []resolve.Input{
		{Name: "nationality", Kind: resolve.Word, Allowed: nationalities, Required: true,
			Help: "the repairing unit's nationality: US, UK, German or French +1"},
		{Name: "oos", Kind: resolve.Bool, Help: "the unit is out of supply: -1"},
		{Name: "across", Kind: resolve.Bool, Help: "the unit is directly across the river hexside from Serbian units: -1"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the modified roll"},
		{Name: "repaired", Help: "3-7 repairs the bridge; 0-2 (or -1) fails"},
	},
	Main: "repaired",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		gp := greatPower(in.Word("nationality"))
		mod := bridgeRepairModifier(gp, in.Bool("oos"), in.Bool("across"))
		modified, ok := repairBridge(gp, in.Bool("oos"), in.Bool("across"), r)
		res := &resolve.Result{Rule: "10.18", Explain: fmt.Sprintf("The roll of %d, modified %+d, is %d: %s.",
			modified-mod, mod, modified, map[bool]string{true: "the bridge is repaired (3-7)", false: "the attempt fails (0-2)"}[ok])}
		return res.Set("modified", modified).Set("repaired", ok), nil
	},
}

var bridgeDemolitionProc = &resolve.Procedure{
	Name:    "bridge_demolition",
	Summary: "a Serbian bridge demolition attempt; NATO demolitions are automatic (10.19)",
	Dice:    "1d6 for the Serbs; none for NATO",
	Inputs: []resolve.Input{
		{Name: "side", Kind: resolve.Word, Allowed: []string{"Serb", "Serbs", "NATO"}, Default: "Serb",
			Help: "who demolishes: the Serbs roll, NATO succeeds automatically"},
	},
	Outputs: []resolve.Output{{Name: "demolished", Help: "3-6 demolishes the bridge, 1-2 fails"}},
	Main:    "demolished",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		res := &resolve.Result{Rule: "10.19"}
		if in.Word("side") == "NATO" {
			res.Explain = "NATO demolitions are automatic, with no roll (none on reconstitution turns; in bad weather only next to NATO units)."
			return res.Set("demolished", true), nil
		}
		roll, ok := demolishBridge(r)
		res.Explain = fmt.Sprintf("The roll of %d %s (3-6 demolishes, 1-2 fails).", roll, map[bool]string{true: "demolishes the bridge", false: "fails"}[ok])
		return res.Set("demolished", ok), nil
	},
}

var antitankProc = &resolve.Procedure{
	Name:    "antitank",
	Summary: "a Serbian anti-tank unit's defense factor (11.21)",
	Dice:    "1d6 per anti-tank unit against mechanized attackers; none otherwise",
	Inputs: []resolve.Input{
		{Name: "attackers", Kind: resolve.Word, Allowed: []string{"mech", "nonmech"}, Default: "mech",
			Help: "nonmech when every attacking NATO unit is heliborne, non-mechanized or dismounted (factor 1, no roll)"},
		{Name: "units", Kind: resolve.Int, Bounded: true, Min: 1, Max: 12, Default: "1",
			Help: "anti-tank units in the defending hex"},
	},
	Outputs: []resolve.Output{
		{Name: "defense", Help: "the anti-tank defense factor (the total of all units)"},
		{Name: "factors", Help: "each unit's factor, 1 to 3"},
	},
	Main: "defense",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		nonMech := in.Word("attackers") == "nonmech"
		fs := antiTankDefense(in.Int("units"), nonMech, r)
		total := 0
		for _, f := range fs {
			total += f
		}
		res := &resolve.Result{Rule: "11.21"}
		if nonMech {
			res.Explain = fmt.Sprintf("Every attacker is heliborne, non-mechanized or dismounted: each anti-tank unit defends with 1, no roll, for %d.", total)
		} else {
			res.Explain = fmt.Sprintf("Each anti-tank unit defends with its die halved, rounded up: %s, for %d.", joinInts(fs), total)
		}
		return res.Set("defense", total).Set("factors", fs), nil
	},
}

var artilleryProc = &resolve.Procedure{
	Name:    "artillery",
	Summary: "Serbian artillery attack factors, capped at the non-artillery factors (11.20)",
	Dice:    "1d6 per artillery unit",
	Inputs: []resolve.Input{
		{Name: "non_artillery", Kind: resolve.Int, Required: true, Bounded: true, Min: 0, Max: 9999,
			Help: "non-artillery Serbian attack factors in the battle"},
		{Name: "units", Kind: resolve.Int, Bounded: true, Min: 0, Max: 12, Default: "1",
			Help: "artillery units in the battle"},
	},
	Outputs: []resolve.Output{
		{Name: "factors", Help: "each artillery unit's rolled attack factor"},
		{Name: "total", Help: "the artillery factors added to the attack: their sum, at most the non-artillery factors"},
	},
	Main: "total",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		fs := artilleryFactors(in.Int("units"), r)
		non := in.Int("non_artillery")
		total := artilleryTotal(fs, non)
		sum := 0
		for _, f := range fs {
			sum += f
		}
		res := &resolve.Result{Rule: "11.20"}
		res.Explain = fmt.Sprintf("The artillery rolls %s, %d factors", joinInts(fs), sum)
		if sum > total {
			res.Explain += fmt.Sprintf(", capped at the %d non-artillery factors: %d.", non, total)
		} else {
			res.Explain += fmt.Sprintf(", within the %d non-artillery factors.", non)
		}
		return res.Set("factors", fs).Set("total", total), nil
	},
}

var riverProc = &resolve.Procedure{
	Name:    "river_crossing",
	Summary: "the extra MP to cross an unbridged river hexside (10.15, 12.3)",
	Dice:    "1d6, none for the MEF or the 1st AAA",
	Inputs: []resolve.Input{
		{Name: "unit", Kind: resolve.Word, Allowed: []string{"other", "MEF", "AAA"}, Default: "other",
			Help: "MEF pays 1 with no roll; AAA (the 1st AAA rebasing) ignores rivers; other rolls (one roll per NATO unit or Serbian stack)"},
	},
	Outputs: []resolve.Output{{Name: "extra_mp", Help: "extra MP to cross; a unit that cannot pay is stalled for the phase"}},
	Main:    "extra_mp",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		c := map[string]crosser{"other": otherUnit, "MEF": mef, "AAA": airAssault}[in.Word("unit")]
		extra, rolled := riverCrossingCost(c, r)
		res := &resolve.Result{Rule: "10.15"}
		switch {
		case c == mef:
			res.Explain = "The MEF always pays 1 extra MP to cross an unbridged river, with no roll."
		case c == airAssault:
			res.Rule = "12.3"
			res.Explain = "The 1st AAA ignores rivers when it rebases: no extra MP."
		case rolled:
			res.Explain = fmt.Sprintf("The roll of %d is the extra MP to cross; a unit that cannot pay it is stalled in its hex for the phase.", extra)
		}
		return res.Set("extra_mp", extra), nil
	},
}

var civilianProc = &resolve.Procedure{
	Name:    "civilian_casualties",
	Summary: "the game length after a NATO attack into a city rolled 6 (13.0)",
	Dice:    "1d6",
	Inputs: []resolve.Input{
		{Name: "single_nationality", Kind: resolve.Bool, Help: "only one nationality made the attack: -1"},
		{Name: "length", Kind: resolve.Int, Bounded: true, Min: 1, Max: gameTurns, Default: "14", Help: "the game length before this roll"},
		{Name: "turn", Kind: resolve.Int, Bounded: true, Min: 0, Max: gameTurns, Help: "the current game turn (0 if not given)"},
	},
	Outputs: []resolve.Output{
		{Name: "modified", Help: "the modified roll"},
		{Name: "length", Help: "the game length: the modified roll less one comes off the length before (from 14: 6 leaves 9), cumulatively"},
		{Name: "last_turn", Help: "the last game turn: the length, or the current turn when it is already past it"},
	},
	Main: "length",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		single, length, turn := in.Bool("single_nationality"), in.Int("length"), in.Int("turn")
		if turn > length {
			return nil, resolve.Bad("turn", "turn %d is past the game length %d", turn, length)
		}
		_, modified, newLength := civilianCasualties(single, length, r)
		last := max(newLength, turn)
		res := &resolve.Result{Rule: "13.0", Explain: fmt.Sprintf("The modified roll of %d takes %d turns off the %d-turn game (deductions are cumulative), leaving %d turns",
			modified, civilianCasualtyDeduction(modified), length, newLength)}
		if last > newLength {
			res.Explain += fmt.Sprintf("; turn %d is already past it, so it is played out as the last turn", turn)
		}
		res.Explain += "."
		return res.Set("modified", modified).Set("length", newLength).Set("last_turn", last), nil
	},
}

var reconstitutionProc = &resolve.Procedure{
	Name:    "reconstitution",
	Summary: "the NATO reconstitution check on the turn the marker is on (9.2-9.4)",
	Dice:    "1d6 unless discretionary",
	Inputs: []resolve.Input{
		{Name: "turn", Kind: resolve.Int, Required: true, Bounded: true, Min: firstReconstitutionCheck, Max: gameTurns,
			Help: "the game turn the reconstitution marker is on"},
		{Name: "discretionary", Kind: resolve.Bool, Help: "NATO calls a discretionary reconstitution before rolling (9.4)"},
	},
	Outputs: []resolve.Output{
		{Name: "reconstitution", Help: "none, mandatory (5-6) or discretionary"},
		{Name: "rolled", Help: "whether a die was rolled"},
		{Name: "next_check", Help: "the turn the marker moves to: three on after a reconstitution, else the next turn"},
	},
	Main: "reconstitution",
	Run: func(in *resolve.Values, r dice.Roller) (*resolve.Result, error) {
		turn := in.Int("turn")
		out, roll, next := checkReconstitution(turn, in.Bool("discretionary"), r)
		res := &resolve.Result{Rule: "9.2"}
		switch {
		case out == Discretionary:
			res.Rule = "9.4"
			res.Explain = fmt.Sprintf("NATO calls a discretionary reconstitution on turn %d; the marker moves to turn %d.", turn, next)
		case out == mandatory:
			res.Explain = fmt.Sprintf("The roll of %d makes turn %d a mandatory reconstitution turn; the marker moves to turn %d.", roll, turn, next)
		default:
			res.Explain = fmt.Sprintf("The roll of %d mandates no reconstitution; check again on turn %d.", roll, next)
		}
		return res.Set("reconstitution", out.String()).Set("rolled", roll != 0).Set("next_check", next), nil
	},
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, ", ")
}
