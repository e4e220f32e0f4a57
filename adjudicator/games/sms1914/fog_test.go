package sms1914

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

var strengthWords = regexp.MustCompile(`\d+-\d+ PR\d|strength \d|CEL \d|AV \d`)

// TestFogOfWar plays the demo and checks after every step what each seat
// may see (3.1.5, 3.1.6): its situation shows only the top unit of each
// enemy stack (or units it attacked this step), with no strength, CE or
// supply state; the events and dice purposes it is shown name no hidden
// enemy unit and give no enemy values; public events give no strengths;
// the spectator sees only what both seats see until the game ends, then
// everything; the game master sees everything. A leak on purpose (the game
// master's view given to a seat) is caught.
func TestFogOfWar(t *testing.T) {
	t.Parallel()
	caught, checked, enemyShown := 0, 0, 0
	var last []byte
	playDemo(t, func(step int, before, after []byte, events []adjudicator.Event, draws []legacy.EntryRecord) {
		last = after
		g, err := decode(after)
		if err != nil {
			t.Fatal(err)
		}
		for _, seat := range []string{seatAH, seatSerb} {
			viewer := seatSide(seat)
			sit, err := Game.(rules).Situation(after, seat)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, u := range sit.Units {
				fu := g.byID[u.ID]
				text.WriteString(u.ID + " " + u.Type + " " + u.Where + " " + u.Strength + " " + u.Status + "\n")
				if fu.c.Side == viewer {
					continue
				}
				enemyShown++
				if !g.Over && (!g.visibleTo(fu, viewer) || u.Strength != "" || strings.Contains(u.Status, "CE") || strings.Contains(u.Status, "Supply")) {
					t.Errorf("step %d: %s's units table shows enemy %s: %+v", step, seat, u.ID, u)
				}
			}
			for _, c := range sit.Picture.Counters {
				fu := g.byID[c.ID]
				if fu.c.Side != viewer && !g.Over && (c.Strength != "" || !g.visibleTo(fu, viewer) || slices.ContainsFunc(c.Markers, func(m string) bool { return m != "PA" })) {
					t.Errorf("step %d: %s's map shows enemy counter %+v", step, seat, c)
				}
			}
			for _, e := range events {
				if len(e.Visible) == 0 || slices.Contains(e.Visible, seat) {
					text.WriteString(e.Text + "\n")
				}
				if len(e.Visible) == 0 && strengthWords.MatchString(e.Text) {
					t.Errorf("step %d: a public event gives strengths: %q", step, e.Text)
				}
			}
			for _, d := range draws {
				text.WriteString(d.Entry.Purpose + "\n")
			}
			leaks, err := fogLeaks(after, seat, text.String())
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, l := range leaks {
				t.Errorf("step %d: %s is shown %s", step, seat, l)
			}
			// the control: the game master's view given to the seat leaks
			gm, _ := Game.(rules).Situation(after, "")
			var all strings.Builder
			for _, u := range gm.Units {
				all.WriteString(u.ID + " " + u.Strength + "\n")
			}
			if l, _ := fogLeaks(after, seat, all.String()); len(l) > 0 {
				caught++
			}
		}
		// the spectator sees what both seats see
		spec, err := Game.(rules).Situation(after, adjudicator.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range spec.Units {
			fu := g.byID[u.ID]
			if !g.Over && (!g.visibleTo(fu, fu.c.Side.Enemy()) || u.Strength != "") {
				t.Errorf("step %d: the public view shows %+v", step, u)
			}
		}
	})
	if checked == 0 || caught == 0 || enemyShown == 0 {
		t.Errorf("the fog was checked %d times, a planted leak caught %d times, enemy units shown %d times", checked, caught, enemyShown)
	}
	// after the end every view shows everything
	g, _ := decode(last)
	onMap := 0
	for _, u := range g.Units {
		if u.onMap() {
			onMap++
		}
	}
	for _, seat := range []string{adjudicator.Spectator, seatAH, seatSerb, ""} {
		sit, _ := Game.(rules).Situation(last, seat)
		shown := 0
		for _, u := range sit.Units {
			if u.Strength != "" && u.Strength != "eliminated" {
				shown++
			}
		}
		if !g.Over || shown < onMap {
			t.Errorf("after the end, %q sees %d units with their values of %d on the map", seat, shown, onMap)
		}
	}
}

// TestTopUnit is the 3.1.5 order of stacking.
func TestTopUnit(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	h := g.parse("30.20")
	put := func(ids ...string) {
		for _, u := range g.Units {
			if u.Hex == "30.20" {
				g.place(u, g.parse("31.25"))
			}
		}
		for _, id := range ids {
			g.place(g.byID[id], h)
		}
	}
	for _, tc := range []struct {
		units []string
		enemy bool
		want  string
	}{
		{[]string{"Timok-I", "Cav-Div", "Art-Serb"}, false, "Cav-Div"},      // no enemy adjacent: cavalry first
		{[]string{"Timok-I", "Cav-Div", "Art-Serb"}, true, "Timok-I"},       // enemy adjacent: the largest Formation
		{[]string{"Lim", "Timok-I"}, true, "Timok-I"},                       // the largest
		{[]string{"Lim", "Gar-Valjevo", "Art-Serb", "CT-1"}, false, "Lim"},  // an infantry Formation
		{[]string{"Gar-Valjevo", "Art-Serb", "CT-1"}, false, "Gar-Valjevo"}, // an asset before artillery
		{[]string{"Art-Serb", "CT-1"}, false, "Art-Serb"},                   // artillery before supply
		{[]string{"Beograd-Fort", "Art-Serb"}, false, "Beograd-Fort"},       // a fort before artillery
		{[]string{"Morava-I", "Sumadija-I"}, false, "Morava-I"},             // same size and PR: the umpire picks by id
	} {
		put(tc.units...)
		enemy := g.byID["9/VIII"]
		if tc.enemy {
			g.place(enemy, g.parse("30.21"))
		} else {
			g.place(enemy, g.parse("20.12"))
		}
		if got := g.topUnit(h, sb); got == nil || got.ID != tc.want {
			t.Errorf("%v, enemy adjacent %v: top %v, want %s", tc.units, tc.enemy, got, tc.want)
		}
	}
	// a Demoralized Formation goes below the others
	put("Lim", "Timok-I")
	g.byID["Timok-I"].CE = statusD1
	if got := g.topUnit(h, sb); got.ID != "Lim" {
		t.Errorf("a D1 division over a brigade: top %s", got.ID)
	}
}

// TestMontenegrinAssetCreatedUnseen: a Montenegrin asset created by 24.1
// under a Montenegrin Formation is not the top of its stack (3.1.5), so
// the A-H player learns that a counter was put in the hex and not which
// (3.1.6); the Pljevlja unit's restored SR is a strength, the Serbian
// player's alone. The Serbian player is told both.
func TestMontenegrinAssetCreatedUnseen(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	var formation, pljevlja *unit
	for _, u := range g.Units {
		switch {
		case u.ID == "Pljevlja":
			pljevlja = u
		case u.c.Nation == "Montenegro" && u.c.Formation && formation == nil:
			formation = u
		}
	}
	if formation == nil || pljevlja == nil {
		t.Fatal("the demo has no Montenegrin Formation or no Pljevlja unit")
	}
	g.place(formation, g.parse("22.29"))
	formation.Out = false
	pljevlja.SR = 1
	g.events = nil
	g.montenegrinREPLs(2)
	var created *unit
	for _, u := range g.Units {
		if u.c.Nation == "Montenegro" && !u.c.Formation && u.Hex == "22.29" {
			created = u
		}
	}
	if created == nil {
		t.Fatalf("no asset was created in 22.29; events %+v", g.events)
	}
	if g.topUnit(g.parse("22.29"), sb) == created {
		t.Fatalf("the asset %s is the top of its stack; the case needs it under %s", created.ID, formation.ID)
	}
	seen := func(seat string) string { return shownTo(g.events, seat) }
	ahText, serbText := seen(seatAH), seen(seatSerb)
	if containsToken(ahText, created.ID) || !strings.Contains(ahText, "created in 22.29") {
		t.Errorf("the A-H player is told, want the hex and not the unit:\n%s", ahText)
	}
	if strings.Contains(ahText, "Pljevlja") {
		t.Errorf("the A-H player learns the Pljevlja unit's strength:\n%s", ahText)
	}
	if !containsToken(serbText, created.ID) || !strings.Contains(serbText, "removes an SR from the Pljevlja unit") {
		t.Errorf("the Serbian player is told, want the asset's id and Pljevlja's SR:\n%s", serbText)
	}
	// two assets in one hex: said once, with their number
	created.Out = true
	g.place(created, board.ID{})
	spares := 0
	for _, u := range g.Units {
		if u.c.Nation == "Montenegro" && u.Out && !u.Gone && !u.c.Formation && u.ID != "Pljevlja" {
			spares++
		}
	}
	if spares < 2 {
		t.Fatalf("the demo has %d Montenegrin assets left to create, want 2", spares)
	}
	g.events = nil
	g.montenegrinREPLs(2)
	if ahText = seen(seatAH); ahText != "2 Montenegrin asset units are created in 22.29.\n" {
		t.Errorf("two assets created in one hex: the A-H player is told\n%s", ahText)
	}
}

// TestCombinationsSeenAsCounters: a combination (16.3) and its reverse
// (16.4) are the owner's to know by name, SRs and CE status; the enemy
// sees counters exchanged in the hex (3.1.5, 3.1.6).
func TestCombinationsSeenAsCounters(t *testing.T) {
	t.Parallel()
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := decode(state)
	for _, cb := range g.sc.Setup.Combos {
		into := g.byID[cb.Into]
		side := into.c.Side
		seen := func() (own, enemy string) {
			return shownTo(g.events, side.Seat()), shownTo(g.events, side.Enemy().Seat())
		}
		h := g.parse("12.12")
		for _, id := range cb.From {
			u := g.byID[id]
			u.Out, u.Gone = false, false
			g.place(u, h)
		}
		if !slices.Contains(cb.From, cb.Into) {
			into.Out = true
			g.place(into, board.ID{})
		}
		g.events = nil
		g.combine(side, cb.Into)
		own, enemy := seen()
		if !strings.Contains(own, cb.Into+" is formed in 12.12") {
			t.Fatalf("%s is not formed; its owner is told:\n%s", cb.Into, own)
		}
		for _, id := range append([]string{cb.Into}, cb.From...) {
			if containsToken(enemy, id) {
				t.Errorf("the enemy is told of %s's combination by name:\n%s", cb.Into, enemy)
			}
		}
		if strings.Contains(enemy, "SRs") || !strings.Contains(enemy, "Units in 12.12 combine") {
			t.Errorf("the enemy is told, want counters combined in 12.12 and no strength:\n%s", enemy)
		}
		if !cb.Reverse {
			continue
		}
		g.events = nil
		g.reverseCombo(side, cb.Into)
		own, enemy = seen()
		if !strings.Contains(own, cb.Into+" splits into") || containsToken(enemy, cb.Into) || !strings.Contains(enemy, "A Formation in 12.12 splits") {
			t.Errorf("%s's split: its owner is told\n%s\nthe enemy\n%s", cb.Into, own, enemy)
		}
		return
	}
	t.Fatal("the demo has no combination that may be split again (16.4)")
}

// shownTo is the events a seat is shown, a line each.
func shownTo(events []adjudicator.Event, seat string) string {
	var b strings.Builder
	for _, e := range events {
		if len(e.Visible) == 0 || slices.Contains(e.Visible, seat) {
			b.WriteString(e.Text + "\n")
		}
	}
	return b.String()
}
