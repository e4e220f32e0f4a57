package perrote

import (
	"fmt"
	"github.com/umpire-pbem/umpire/adjudicator"
	"strings"
	"testing"
)

// bigScenario is a 40x30 board with 40 units, 20 a side, in range of each
// other across scattered woods.
func bigScenario() string {
	var b strings.Builder
	b.WriteString("title = \"Benchmark\"\nturns = 10\n[board]\ncols = 40\nrows = 30\n[terrain]\ntrees = [")
	for i := 0; i < 12; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "\"%02d%02d\"", 16+i%8, 2+i*2)
	}
	b.WriteString("]\n[[victory]]\nkind = \"destroy\"\nshare = 1.0\n")
	for s, side := range []string{"Russia", "USA"} {
		fmt.Fprintf(&b, "[[side]]\nname = %q\n", side)
		for i := 0; i < 20; i++ {
			col := 12 + s*14 + i%3
			typ := []string{"russian-squad", "us-squad"}[s]
			if i%5 == 4 {
				typ = []string{"t80-uk", "m1-abrams"}[s]
			}
			fmt.Fprintf(&b, "  [[side.unit]]\n  id = \"%c%d\"\n  type = %q\n  hex = \"%02d%02d\"\n", side[0], i, typ, col, 2+i)
		}
	}
	return b.String()
}

// BenchmarkAdjudicateTurn adjudicates the first turn of a 40-unit battle
// on a 40x30 board, every unit ordered by the bot.
func BenchmarkAdjudicateTurn(b *testing.B) {
	sc, err := ParseScenario("bench", []byte(bigScenario()))
	if err != nil {
		b.Fatal(err)
	}
	state, err := newFromScenario(sc)
	if err != nil {
		b.Fatal(err)
	}
	orders := map[string][]string{}
	for _, seat := range sc.Seats {
		orders[seat], err = Bot(state, seat)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Game.Adjudicate(state, orders, stepRoller("bench", uint64(i+1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBrief briefs Russia in the breakthrough scenario at its start,
// and in the 40-unit battle on a 40x30 board where every unit is in range
// of the enemy.
func BenchmarkBrief(b *testing.B) {
	sc, err := ParseScenario("bench", []byte(bigScenario()))
	if err != nil {
		b.Fatal(err)
	}
	big, err := newFromScenario(sc)
	if err != nil {
		b.Fatal(err)
	}
	breakthrough, err := Game.New("breakthrough", nil)
	if err != nil {
		b.Fatal(err)
	}
	br := Game.(adjudicator.Briefer)
	for _, c := range []struct {
		name  string
		state []byte
	}{{"breakthrough", breakthrough}, {"40units", big}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(br.Brief(c.state, "Russia").Choices) == 0 {
					b.Fatal("no choices")
				}
			}
		})
	}
}
