package bu

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// FuzzParseOrders: no order text makes the parser fail; every refusal has
// a line and a hint, and what it accepts it reads again the same.
//
//	go test -run '^$' -fuzz FuzzParseOrders ./adjudicator/games/bu
func FuzzParseOrders(f *testing.F) {
	states := map[string][]byte{}
	for _, phase := range []string{"round", "start", "setup"} {
		st, err := Game.New("three", nil)
		if err != nil {
			f.Fatal(err)
		}
		g, _ := decode(st)
		g.Turn = 3
		g.Phase = phase
		if phase == "round" {
			g.Active = SeatSerb
			g.Hands[SeatSerb] = []string{"S13", "S25", "S11", "S22"}
		}
		states[phase], _ = g.encode()
	}
	for _, seed := range []string{
		"play S13 op\nmove VRS-1+VRS-2 doboj derventa\nattack brcko from bijeljina priboj loznica:SDG-1>priboj combat S11 losses auto advance all",
		"play S25 event\nattack brcko from bijeljina prep ARBIH-1 advance VRS-E1>srebrenik",
		"play S13 sr\nredeploy VRS-1 banja-luka", "play S13 rp\nrecreate VRS-3 banja-luka full\nreplace VRS-4",
		"losses VRS-1 VRS-2\nretreat move doboj\nadvancing all\ncombat S11 at brcko\ninterrupt S22 on event by Croat\nstrike ARBIH-E1\nsupply VRS-5",
		"reinforce VRS-19 prijedor\nrecover SDG-1\nwithdraw SDG-2\ndeploy SDG-3 loznica", "region srednja-bosna bosniak", "play S13 dp for croat",
		"move", "attack", "attack x from", "play", "lose", "retreat VRS-1", "advance >", "#", "play S13 op\nmove VRS-1 brčko",
	} {
		for phase := range states {
			f.Add(phase, seed)
		}
	}
	f.Fuzz(func(t *testing.T, phase, text string) {
		state, ok := states[phase]
		if !ok {
			return
		}
		var lines []adjudicator.OrderLine
		for i, l := range strings.Split(text, "\n") {
			lines = append(lines, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon, problems := Game.ParseOrders(state, SeatSerb, lines)
		for _, p := range problems {
			if p.Hint == "" || p.Line < 1 || p.Line > len(lines) {
				t.Fatalf("problem %+v for %q: a line and a hint", p, text)
			}
		}
		var again []adjudicator.OrderLine
		for i, l := range canon {
			again = append(again, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon2, problems2 := Game.ParseOrders(state, SeatSerb, again)
		if len(problems2) > 0 || strings.Join(canon, "\n") != strings.Join(canon2, "\n") {
			t.Fatalf("canonical %q read again: %q, %+v", canon, canon2, problems2)
		}
	})
}

// FuzzParseCards: no card file makes the reader fail without an error, and
// what it accepts has each card's effects within the vocabulary.
func FuzzParseCards(f *testing.F) {
	sc, err := Data{}.Load()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(demoCards))
	f.Add("[[card]]\nid = \"X1\"\ntitle = \"t\"\ndeck = \"Serb\"\nperiod = \"both\"\ncv = 2\ntype = \"other\"\n  [[card.effect]]\n  kind = \"sw\"\n  value = 1\n")
	f.Add("[[card]]\nid = \"X1\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := ParseCards("cards.toml", []byte(text), sc.Map, sc.Counters)
		if err != nil {
			if !strings.Contains(err.Error(), "cards.toml") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for _, c := range d.Cards {
			if len(c.Effects) == 0 || c.CV < 2 || c.CV > 4 {
				t.Fatalf("card %+v accepted", c)
			}
		}
	})
}
