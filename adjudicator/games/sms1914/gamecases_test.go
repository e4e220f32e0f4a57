package sms1914

// The adjudication cases of testdata/game/*.case run on rulestest, the
// runner of every game (docs/rules-cases.md). The prestate of most cases is
// "state empty.state": the test map (the demo map and an example area with
// the rulebook's example hexes), the test counters (the demo counters and
// generic units AX, SZ, ...), the test scenario (the demo's armies and
// plans, no unit on the map), GT 5, the Serbian turn step. Setup
// directives:
//
//	phase turn|counter|attack|defend|counterattack|counterdefend|interphase [ah|serb]   (the phasing side)
//	gt N | last N | shells N | vp N | iprights N | inter N | repl NATION N | alliedfail N | allied | french
//	unit ID HEX|- [hex2=HEX] [sr=N] [ce=STATUS] [pa=HEX] [task=KIND:MP] [react=N] [rx=N] [attach=CORPS]
//	        [army=ARMY] [assigned=ID] [ammo=N] [box=NAME] [off=PLACE] [inactive] [extended] [flipped] [checked] [released] [gone]
//	control HEX... ah|serb | ip HEX ah|serb | komitadji HEX... | pontoon ah|serb HEX/HEX [built]
//	standing SEAT ORDER...       a standing order, as if the seat had sent it
//	plan ARMY active|achieved|abandoned|none [mandated=N] | marker ARMY HEX | boundaries HEX/HEX...|none
//	declare SEAT ATTACK-ORDER    an attack already declared (for the defender's answers)
//	done KEY                     a one-time award or event already given
//
// Checks:
//
//	want unit ID HEX[+HEX2]|box:NAME [sr=N] [ce=S] [pa=HEX|none] [task=K:MP|none] [react=N] [rx=N] [ammo=N] [flipped] [extended] [oos] [inactive|active] [army=A]
//	want gone ID | want out ID | want cel ID N
//	want vp N | shells N | phase P | phasing ah|serb | gt N | iprights N | repl NATION N | attacks N | winner SEAT|draw
//	want control HEX ah|serb | ip HEX [none] | plan ARMY STATE [mandated=N] | pontoon HEX/HEX built|building|none | komitadji HEX...
//	want hidden SEAT ID          the seat's situation does not show the unit
//	want visible SEAT ID         it does
//
// Every die drawn must cite a 1914 rule.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/resolve"
	"github.com/umpire-pbem/umpire/adjudicator/rulestest"
)

func TestGameCases(t *testing.T) {
	t.Parallel()
	// together the cases walk every refusal a receipt can give
	// (refusals.case holds those no rule's own file shows), each with a hint
	refusals := &rulestest.Refusals{Dir: "."}
	defer func() {
		if !t.Failed() {
			refusals.Check(t)
		}
	}()
	rulestest.Run(t, rulestest.Config{
		Rules:    Game,
		Dir:      filepath.Join("testdata", "game"),
		Load:     loadCaseState,
		Fixtures: fixtures{},
		Refusals: refusals,
		CheckDraw: func(d resolve.Draw) error {
			if !strings.HasPrefix(d.Purpose, "1914 SmS ") {
				return fmt.Errorf("a draw without a rule: %q", d.Purpose)
			}
			return nil
		},
	})
}

// loadCaseState reads a ".state" file: the options of the scenario (file
// names beside it), then the state after the first Preliminary Phase.
func loadCaseState(path string, data []byte) ([]byte, error) {
	opts := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		for _, kv := range strings.Fields(l) {
			k, v, _ := strings.Cut(kv, "=")
			b, err := os.ReadFile(filepath.Join(filepath.Dir(path), v))
			if err != nil {
				return nil, err
			}
			opts[k] = string(b)
		}
	}
	return Game.New("demo", opts)
}

type fixtures struct{}

func sideWord(s string) (side, error) {
	switch strings.ToLower(s) {
	case "ah", "a-h":
		return ah, nil
	case "serb", "serbia", "sb":
		return sb, nil
	}
	return 0, fmt.Errorf("%q: want ah or serb", s)
}

func (fixtures) Setup(state []byte, directive string, v []string) ([]byte, error) {
	g, err := decode(state)
	if err != nil {
		return nil, err
	}
	num := func(i int) (int, error) {
		if len(v) <= i {
			return 0, fmt.Errorf("%s: want a number", directive)
		}
		return strconv.Atoi(v[i])
	}
	switch directive {
	case "phase":
		g.Phase = v[0]
		if len(v) > 1 {
			if g.Phasing, err = sideWord(v[1]); err != nil {
				return nil, err
			}
		}
	case "gt":
		g.GT, err = num(0)
	case "last":
		g.Last, err = num(0)
	case "shells":
		g.Shells, err = num(0)
	case "vp":
		g.VP, err = num(0)
	case "iprights":
		var n int
		n, err = num(0)
		g.IPRights = [2]int{n, n}
	case "inter":
		g.Inter, err = num(0)
	case "alliedfail":
		g.AlliedNo, err = num(0)
	case "allied":
		g.Allied = true
	case "french":
		g.French = true
	case "repl":
		var n int
		n, err = num(1)
		g.REPL[v[0]] = n
	case "unit":
		err = placeCaseUnit(g, v)
	case "control":
		var s side
		if s, err = sideWord(v[len(v)-1]); err != nil {
			return nil, err
		}
		for _, h := range v[:len(v)-1] {
			id, err := g.grid.Parse(h)
			if err != nil {
				return nil, err
			}
			g.ctl[id] = s == ah
		}
	case "ip":
		var s side
		if s, err = sideWord(v[1]); err == nil {
			g.IPs = append(g.IPs, ip{Hex: v[0], Side: s})
		}
	case "komitadji":
		g.Komitadji = v
	case "pontoon":
		var s side
		if s, err = sideWord(v[0]); err == nil {
			g.Pontoons = append(g.Pontoons, pontoon{Side: s, Sides: v[1], Built: len(v) > 2 && v[2] == "built"})
		}
	case "standing":
		seat := v[0]
		g.keepStanding(seat, []string{strings.Join(v[1:], " ")})
	case "plan":
		a := g.army(v[0])
		if a == nil {
			return nil, fmt.Errorf("no army %s", v[0])
		}
		a.Plan = v[1]
		if a.Plan == "none" {
			a.Plan = ""
		}
		a.Lifted = a.Plan == "abandoned"
		for _, kv := range v[2:] {
			if n, ok := strings.CutPrefix(kv, "mandated="); ok {
				a.Mandated, _ = strconv.Atoi(n)
			}
		}
	case "marker":
		a := g.army(v[0])
		if a == nil {
			return nil, fmt.Errorf("no army %s", v[0])
		}
		a.Marker = v[1]
	case "boundaries":
		g.Boundaries = nil
		if v[0] != "none" {
			g.Boundaries = v
		}
	case "declare":
		s, err := sideWord(v[0])
		if err != nil {
			return nil, err
		}
		g.Attacks = append(g.Attacks, parseAttack(s, v[1:]))
	case "done":
		g.Done = append(g.Done, strings.Join(v, " "))
	default:
		return nil, rulestest.ErrUnknown
	}
	if err != nil {
		return nil, err
	}
	g.ver++
	return g.encode()
}

// placeCaseUnit puts a unit on the map: "unit ID HEX [opts]".
func placeCaseUnit(g *game, v []string) error {
	if len(v) < 2 {
		return fmt.Errorf("unit ID HEX [options]")
	}
	u := g.byID[v[0]]
	if u == nil {
		return fmt.Errorf("no unit %s", v[0])
	}
	u.Out, u.Gone = false, false
	var id board.ID
	if v[1] != "-" {
		var err error
		if id, err = g.grid.Parse(v[1]); err != nil {
			return err
		}
	}
	var id2 board.ID
	for _, kv := range v[2:] {
		k, val, _ := strings.Cut(kv, "=")
		n, _ := strconv.Atoi(val)
		switch k {
		case "hex2":
			h, err := g.grid.Parse(val)
			if err != nil {
				return err
			}
			id2 = h
		case "sr":
			u.SR = n
		case "ce":
			st, ok := parseStatus(val)
			if !ok {
				return fmt.Errorf("ce %q", val)
			}
			u.CE = st
		case "pa":
			u.PA = val
		case "task":
			kind, mp, _ := strings.Cut(val, ":")
			u.Task = kind
			u.TaskMP, _ = strconv.Atoi(mp)
		case "react":
			u.React = n
		case "rx":
			u.RiverX = n
		case "attach":
			g.Attach[u.ID] = val
		case "army":
			u.Army = val
		case "assigned":
			u.Assigned = val
		case "ammo":
			u.Ammo = n
		case "box":
			u.Box = val
		case "off":
			u.Off = val
		case "inactive":
			u.Inactive = true
		case "extended":
			u.Extended = true
		case "flipped":
			u.Flipped = true
		case "checked":
			u.Checked = true
		case "released":
			u.Released = true
		case "gone":
			u.Gone = true
			g.place(u, board.ID{})
		default:
			return fmt.Errorf("unit option %q", kv)
		}
	}
	g.place(u, id, id2)
	if u.Army == "" {
		if u.c.Side == sb {
			u.Army = "Serbia"
		} else if area, err := g.aoas(g.Boundaries, g.markers()); err == nil {
			u.Army = area[id]
		}
	}
	return nil
}

func (fixtures) Check(state []byte, name, want string) error {
	g, err := decode(state)
	if err != nil {
		return err
	}
	v := strings.Fields(want)
	eq := func(what string, got, want any) error {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("%s is %v, want %v", what, got, want)
		}
		return nil
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch name {
	case "unit":
		u := g.byID[v[0]]
		if u == nil {
			return fmt.Errorf("no unit %s", v[0])
		}
		where := u.Hex
		if u.Hex2 != "" {
			where += "+" + u.Hex2
		}
		if u.Box != "" {
			where = "box:" + u.Box
		}
		if u.Gone {
			where = "eliminated"
		}
		if err := eq(u.ID+"'s hex", where, v[1]); err != nil {
			return err
		}
		for _, kv := range v[2:] {
			k, val, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "sr":
				err = eq(u.ID+"'s SRs", u.SR, val)
			case "ce":
				err = eq(u.ID+"'s CE status", u.CE.String(), val)
			case "pa":
				got := u.PA
				if got == "" {
					got = "none"
				}
				err = eq(u.ID+"'s PA", got, val)
			case "task":
				got := "none"
				if u.Task != "" {
					got = fmt.Sprintf("%s:%d", u.Task, u.TaskMP)
				}
				err = eq(u.ID+"'s task", got, val)
			case "react":
				err = eq(u.ID+"'s reaction MPs", u.React, val)
			case "rx":
				err = eq(u.ID+"'s River Crossing marker", u.RiverX, val)
			case "army":
				err = eq(u.ID+"'s army", u.Army, val)
			case "ammo":
				err = eq(u.ID+"'s Ammo Provided marker", u.Ammo, val)
			case "flipped":
				err = eq(u.ID+" flipped", u.Flipped, true)
			case "extended":
				err = eq(u.ID+" in Extended Mode", u.Extended, true)
			case "oos":
				err = eq(u.ID+" Out of Supply", u.OOS, true)
			case "inactive":
				err = eq(u.ID+" Inactive", u.Inactive, true)
			case "active":
				err = eq(u.ID+" Inactive", u.Inactive, false)
			default:
				return fmt.Errorf("want unit option %q", kv)
			}
			if err != nil {
				return err
			}
		}
		return nil
	case "gone":
		u := g.byID[v[0]]
		if u == nil || !u.Gone {
			return fmt.Errorf("%s is not eliminated (hex %q)", v[0], u.Hex)
		}
		return nil
	case "out":
		u := g.byID[v[0]]
		if u == nil || !u.Out {
			return fmt.Errorf("%s is in play", v[0])
		}
		return nil
	case "cel":
		u := g.byID[v[0]]
		return eq(u.ID+"'s CEL", g.forceOf(u).CEL(), v[1])
	case "vp":
		return eq("VP", g.VP, v[0])
	case "shells":
		return eq("Shells", g.Shells, v[0])
	case "phase":
		return eq("phase", g.Phase, v[0])
	case "phasing":
		s, _ := sideWord(v[0])
		return eq("phasing side", g.Phasing, s)
	case "gt":
		return eq("GT", g.GT, v[0])
	case "iprights":
		return eq("IP rights", g.IPRights[sb], v[0])
	case "repl":
		return eq(v[0]+" REPLs", g.REPL[v[0]], atoi(v[1]))
	case "attacks":
		return eq("declared attacks", len(g.Attacks), v[0])
	case "winner":
		w := g.Winner
		if g.Over && w == "" {
			w = "draw"
		}
		return eq("winner", w, v[0])
	case "control":
		s, err := sideWord(v[1])
		if err != nil {
			return err
		}
		return eq(v[0]+" controlled by A-H", g.controls(g.parse(v[0]), ah), s == ah)
	case "ip":
		has := slices.ContainsFunc(g.IPs, func(ip ip) bool { return ip.Hex == v[0] })
		return eq("an IP in "+v[0], has, len(v) < 2 || v[1] != "none")
	case "plan":
		a := g.army(v[0])
		if err := eq(v[0]+"'s plan", a.Plan, v[1]); err != nil {
			return err
		}
		for _, kv := range v[2:] {
			if n, ok := strings.CutPrefix(kv, "mandated="); ok {
				return eq(v[0]+"'s Mandated Attacks", a.Mandated, n)
			}
		}
		return nil
	case "pontoon":
		got := "none"
		for _, p := range g.Pontoons {
			if p.Sides == v[0] {
				got = "building"
				if p.Built {
					got = "built"
				}
			}
		}
		return eq("pontoon at "+v[0], got, v[1])
	case "komitadji":
		return eq("Komitadji", strings.Join(g.Komitadji, " "), strings.Join(v, " "))
	case "hidden", "visible":
		sit, err := Game.(rules).Situation(state, v[0])
		if err != nil {
			return err
		}
		shown := false
		for _, u := range sit.Units {
			if u.ID == v[1] {
				shown = true
			}
		}
		for _, c := range sit.Picture.Counters {
			if c.ID == v[1] {
				shown = true
			}
		}
		return eq(v[1]+" shown to "+v[0], shown, name == "visible")
	}
	return rulestest.ErrUnknown
}

// TestRefusalsDocumented: every refusal a player can meet is explained in
// docs/troubleshooting.md.
func TestRefusalsDocumented(t *testing.T) {
	t.Parallel()
	rulestest.Documented(t, filepath.Join("..", "..", "..", "docs", "troubleshooting.md"), ".")
}

// grammarStates are the states the verb table's examples, and the order
// examples of docs/orders-sms1914.md, are tried in: the test map (the demo
// map and counters) with the rulebook's combat example's units (11.2), in
// each phase, and for the orders of one side or one kind of unit, a
// position that has one.
var grammarStates = func() map[string]rulestest.PhaseState {
	front := "state empty.state\nplan SECOND none\nplan FIFTH none\nunit Morava-I 43.40 attach=2nd\nunit Timok-I 42.39 attach=2nd\nunit 9/VIII 42.40 attach=VIII ce=-1 army=FIFTH\nunit 21/VIII 42.40 attach=VIII army=FIFTH\nunit 13/VIII 43.41 attach=VIII army=FIFTH\nunit Ma-1 42.40 army=FIFTH\nunit ADEP 45.40 army=FIFTH\nunit SDEP 40.41\ncontrol 45.40 45.41 46.41 42.40 43.41 ah\niprights 2\n"
	serb := "state empty.state\nunit SX 27.11\nunit SDEP 27.11\nunit Sandzak 22.29\nunit Cav-Div 23.13\n"
	return map[string]rulestest.PhaseState{
		"movement":            {Seat: "AH", Prestate: front + "phase turn ah"},
		"counter movement":    {Seat: "AH", Prestate: front + "phase counter serb"},
		"attack declarations": {Seat: "AH", Prestate: front + "phase attack ah"},
		"defender's answers":  {Seat: "Serb", Prestate: front + "phase attack ah\nstanding Serb defend ask\ndeclare AH attack 43.40 with 9/VIII+21/VIII\nphase defend ah"},
		"standing":            {Seat: "AH", Prestate: front + "phase turn ah"},
		"any step":            {Seat: "AH", Prestate: front + "phase turn ah"},
		"Inter-Phase":         {Seat: "AH", Prestate: front + "phase interphase ah"},
		"exit":                {Seat: "Serb", Prestate: serb},
		"Serbian standing":    {Seat: "Serb", Prestate: serb},
		"rail":                {Seat: "AH", Prestate: "state empty.state\nphase turn ah\ngt 5\nunit ADEP 06.21 army=SIXTH\nunit Sava-Sq 20.06"},
		"shells":              {Seat: "Serb", Prestate: serb},
		"komitadji":           {Seat: "Serb", Prestate: serb},
		"sirmien":             {Seat: "Serb", Prestate: serb},
		"french":              {Seat: "Serb", Prestate: serb + "gt 32"},
		"split":               {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan SIXTH none\nunit 1ID 12.20 army=SIXTH"},
		"enter":               {Seat: "Serb", Prestate: "state empty.state\nunit Sandzak - box=Centre"},
		"box":                 {Seat: "Serb", Prestate: "state empty.state\nunit Sandzak - box=Centre"},
		"twohex":              {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan SIXTH none\nunit 1ID 12.20 army=SIXTH"},
		"consolidate":         {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan SIXTH none\nunit 1ID 12.20 army=SIXTH hex2=12.21"},
		"wheel":               {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan SIXTH none\nunit 1ID 12.20 army=SIXTH hex2=12.21"},
		"displace":            {Seat: "Serb", Prestate: serb},
		"montenegro":          {Seat: "Serb", Prestate: serb},
		"combine":             {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan SECOND none\nplan FIFTH none\nunit 31-/IV 12.12 ce=-1 army=FIFTH\nunit Dani 12.12 army=FIFTH"},
		"integrate":           {Seat: "AH", Prestate: "state empty.state\nphase turn ah\nplan FIFTH none\nunit 29/IV 12.12 sr=1 army=FIFTH\nunit det.29 12.12 army=FIFTH"},
	}
}()

func grammarConfig() rulestest.Config {
	return rulestest.Config{Rules: Game, Dir: filepath.Join("testdata", "game"), Load: loadCaseState, Fixtures: fixtures{}}
}

// TestVerbExamples: every example `help sms1914` mails is accepted by the
// game's parser in a step of its phase.
func TestVerbExamples(t *testing.T) {
	rulestest.Examples(t, grammarConfig(), grammarStates)
}

// TestOrdersDocumented: docs/orders-sms1914.md names every verb of the
// table, and every order in its examples parses.
func TestOrdersDocumented(t *testing.T) {
	rulestest.OrdersDocumented(t, grammarConfig(), filepath.Join("..", "..", "..", "docs", "orders-sms1914.md"), grammarStates)
}
