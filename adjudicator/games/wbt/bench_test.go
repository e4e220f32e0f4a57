package wbt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// benchState is a NATO combat phase on a 50x45 map: 40 NATO units (30 of
// them each attacking a Serbian unit) with highways down every fifth column
// to supply sources on the northern edge.
func benchState(b *testing.B) ([]byte, []string) {
	var m strings.Builder
	m.WriteString("title = \"bench\"\n[grid]\nfirst = \"0101\"\nlast = \"5045\"\n")
	m.WriteString("[[terrain]]\nkind = \"hills\"\nhexes = [\"0130..5035\"]\n")
	m.WriteString("[[area]]\nname = \"Hungary\"\nhexes = [\"0101..5002\"]\n[[area]]\nname = \"Serbia\"\nhexes = [\"0103..5045\"]\n")
	m.WriteString("[[hexsides]]\nkind = \"river\"\nsides = [\"0510/0511\"]\n")
	var sources []string
	for c := 1; c <= 50; c += 5 {
		var path []string
		for r := 1; r <= 45; r++ {
			path = append(path, fmt.Sprintf("\"%02d%02d\"", c, r))
		}
		fmt.Fprintf(&m, "[[road]]\nkind = \"highway\"\npath = [%s]\n", strings.Join(path, ", "))
		sources = append(sources, fmt.Sprintf("\"%02d01\"", c))
	}
	for c := 3; c <= 50; c += 10 {
		fmt.Fprintf(&m, "[[place]]\nhex = \"%02d25\"\nkind = \"city\"\nname = \"C%d\"\n", c, c)
	}
	fmt.Fprintf(&m, "[sets]\nsupply_source = [%s]\nmilosevic_line = []\n", strings.Join(sources, ", "))
	var cs strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&cs, "[[unit]]\nid = \"N-%02d\"\nside = \"NATO\"\nnationality = \"US\"\nmobility = \"mech\"\nfactors = [\"8\", \"6\", \"4\", \"2\"]\nmove = 8\n", i)
	}
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&cs, "[[unit]]\nid = \"S-%02d\"\nside = \"Serb\"\nnationality = \"Serbia\"\nmobility = \"mech\"\nfactors = [\"2-4\"]\nmove = 6\n", i)
	}
	s := &State{Data: Data{MapName: "bench-map", Map: m.String(), CountersName: "bench-counters", Counters: cs.String(), CRTName: "demo"},
		AAARange: 10, Turn: 3, Length: 14, Phase: phaseNATOCombat, Plan: []string{phaseSerbCombat, phaseSerbMove}, ReconMarker: 4, MePPs: 50,
		Sequence: "move-combat", Standing: map[string][]string{"Serb:losses": {"S-01"}}}
	var orders []string
	for i := 1; i <= 40; i++ {
		col, row := 2+i%30, 19
		if i > 30 {
			col, row = 4+i, 10
		}
		s.Units = append(s.Units, &unit{ID: fmt.Sprintf("N-%02d", i), Hex: fmt.Sprintf("%02d%02d", col, row), Steps: 4})
	}
	for i := 1; i <= 30; i++ {
		col := 2 + i%30
		s.Units = append(s.Units, &unit{ID: fmt.Sprintf("S-%02d", i), Hex: fmt.Sprintf("%02d20", col), Steps: 1})
		orders = append(orders, fmt.Sprintf("attack %02d20 with N-%02d advance all", col, i))
	}
	st := mustJSON(s)
	if _, err := decode(st); err != nil {
		b.Fatal(err)
	}
	return st, orders
}

// BenchmarkNATOCombatPhase adjudicates a NATO combat phase of 30 battles,
// tracing supply for the 40 NATO units before each (8.4).
func BenchmarkNATOCombatPhase(b *testing.B) {
	state, orders := benchState(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		next, events, err := Game.Adjudicate(state, map[string][]string{seatNATO: orders}, newSeeded(uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		if len(events) < 60 {
			b.Fatalf("%d events for 30 battles", len(events))
		}
		// the report traces every NATO unit's supply again (8.2)
		if _, err := Game.(adjudicator.Reporter).Situation(next, seatNATO); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBrief briefs NATO in its first movement phase of the demo (its
// units' moves and bridge work), the Serbs in their first combat phase,
// and NATO in the 40-unit combat phase of benchState.
func BenchmarkBrief(b *testing.B) {
	state, _ := Game.New("demo", nil)
	at := map[string][]byte{}
	for range 20 {
		g, _ := decode(state)
		if g.Phase == phaseNATOMove && at["demo NATO movement"] == nil {
			at["demo NATO movement"] = state
		}
		if g.Phase == phaseSerbCombat && at["demo Serbian combat"] == nil {
			at["demo Serbian combat"] = state
		}
		seat, _ := g.owing()
		orders, _ := rules{}.Bot(state, seat)
		next, _, err := Game.Adjudicate(state, map[string][]string{seat: orders}, newSeeded(1))
		if err != nil {
			b.Fatal(err)
		}
		state = next
	}
	at["40 NATO units in combat"], _ = benchState(b)
	br := Game.(adjudicator.Briefer)
	for _, name := range []string{"demo NATO movement", "demo Serbian combat", "40 NATO units in combat"} {
		st := at[name]
		g, _ := decode(st)
		seat, _ := g.owing()
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(br.Brief(st, seat).Choices) == 0 {
					b.Fatal("no choices")
				}
			}
		})
	}
}
