package sms1914

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// benchGame builds a 35x30 map (A-H north of row 15, Serbia south, a
// railroad along each side's rear to its map edge), 120 combat units in
// two facing lines with their depots and corps trains, and the A-H attack
// declarations: 25 attacks. It returns the state at the A-H Attack Phase.
func benchGame(tb testing.TB) ([]byte, map[string][]string) {
	tb.Helper()
	var m strings.Builder
	m.WriteString("title = \"bench\"\ndefault_terrain = \"lowland\"\n[grid]\norientation = \"flat-top\"\nup = \"odd\"\nids = \"CC.RR\"\nfirst = \"01.01\"\nlast = \"35.30\"\n")
	m.WriteString("[[area]]\nname = \"Bosnia\"\nhexes = [\"01.01..35.15\"]\n[[area]]\nname = \"Serbia\"\nhexes = [\"01.16..35.30\"]\n")
	m.WriteString("[[terrain]]\nkind = \"upland\"\nhexes = [\"01.20..35.22\"]\n[[terrain]]\nkind = \"rough\"\nhexes = [\"10.02..20.05\"]\n")
	rail := func(row int) {
		// consecutive hexes of a row are adjacent (each column half a hex up or down)
		var path []string
		for c := 1; c <= 35; c++ {
			path = append(path, fmt.Sprintf("\"%02d.%02d\"", c, row))
		}
		m.WriteString("[[road]]\nkind = \"railroad\"\npath = [" + strings.Join(path, ", ") + "]\n")
	}
	rail(5)
	rail(26)
	var c strings.Builder
	c.WriteString("[[army]]\nid = \"FIFTH\"\nside = \"AH\"\ncorps_boxes = 9\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&c, "[[corps]]\nid = \"A%d\"\nside = \"AH\"\nlimit = 12\ntrain = \"CTA%d\"\n", i, i)
		fmt.Fprintf(&c, "[[corps]]\nid = \"S%d\"\nside = \"Serb\"\nlimit = 12\ntrain = \"CTS%d\"\n", i, i)
		fmt.Fprintf(&c, "[[unit]]\nid = \"CTA%d\"\nside = \"AH\"\nkind = \"train\"\nrange = 8\nextended_range = 12\nammo_limit = 9\n", i)
		fmt.Fprintf(&c, "[[unit]]\nid = \"CTS%d\"\nside = \"Serb\"\nkind = \"train\"\nrange = 8\nextended_range = 12\nammo_limit = 9\n", i)
	}
	c.WriteString("[[unit]]\nid = \"DA\"\nside = \"AH\"\nkind = \"depot\"\nrange = 12\nextended_range = 16\nammo_limit = 30\n")
	c.WriteString("[[unit]]\nid = \"DS\"\nside = \"Serb\"\nkind = \"depot\"\nrange = 12\nextended_range = 16\nammo_limit = 30\n")
	var s strings.Builder
	s.WriteString("first_turn = 5\nlast_turn = 9\nshells = 200\n[victory]\nah = 10\nserb = -10\n[[army]]\nid = \"FIFTH\"\nmarker = \"01.01\"\n")
	fmt.Fprintf(&s, "[[unit]]\nid = \"DA\"\nhex = \"18.05\"\n[[unit]]\nid = \"DS\"\nhex = \"18.26\"\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&s, "[[unit]]\nid = \"CTA%d\"\nhex = \"%02d.10\"\n[[unit]]\nid = \"CTS%d\"\nhex = \"%02d.21\"\n", i, 3+6*i, i, 3+6*i)
	}
	n := 0
	for row := 13; row <= 14; row++ {
		for col := 1; col <= 35 && n < 60; col++ {
			fmt.Fprintf(&c, "[[unit]]\nid = \"A%02d\"\nside = \"AH\"\nkind = \"infantry\"\nsize = \"XX\"\nformation = true\nbase_ce = 10\nfull = [10, 10, 3, 3]\nreduced = [7, 7, 3, 2]\n", n)
			fmt.Fprintf(&s, "[[unit]]\nid = \"A%02d\"\nhex = \"%02d.%02d\"\nattach = \"A%d\"\n", n, col, row, (col-1)/6)
			n++
		}
	}
	n = 0
	for row := 16; row <= 17; row++ {
		for col := 1; col <= 35 && n < 60; col++ {
			fmt.Fprintf(&c, "[[unit]]\nid = \"S%02d\"\nside = \"Serb\"\nkind = \"infantry\"\nsize = \"XX\"\nformation = true\nbase_ce = 10\nfull = [9, 10, 3, 2]\nreduced = [6, 7, 3, 1]\n", n)
			fmt.Fprintf(&s, "[[unit]]\nid = \"S%02d\"\nhex = \"%02d.%02d\"\nattach = \"S%d\"\n", n, col, row, (col-1)/6)
			n++
		}
	}
	state, err := Game.New("demo", map[string]string{"map": m.String(), "counters": c.String(), "scenario": s.String()})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		tb.Fatal(err)
	}
	// the A-H front line (row 14) moves down next to the Serbs (row 16): 25 attacks
	var orders []string
	for i := 0; i < 25; i++ {
		u := g.byID[fmt.Sprintf("A%02d", 35+i%25)]
		col := u.pos.Col
		g.place(u, g.parse(fmt.Sprintf("%02d.15", col)))
		orders = append(orders, fmt.Sprintf("attack %02d.16 with %s intense advance all", col, u.ID))
	}
	g.Phase, g.Phasing = phaseAttack, ah
	g.attachArmies()
	out, err := g.encode()
	if err != nil {
		tb.Fatal(err)
	}
	return out, map[string][]string{seatAH: orders}
}

// BenchmarkAttackPhaseAndSupply is the measure: an A-H Attack
// Phase with 25 declared attacks (each tracing Ammo for both sides) and
// a Supply Phase tracing supply for the 120 units, on a 35x30 map. The
// target is under 40 ms an operation.
func BenchmarkAttackPhaseAndSupply(b *testing.B) {
	state, orders := benchGame(b)
	h := sha256.Sum256([]byte("bench"))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := legacy.NewStepRoller(legacy.NewLog(h, h), 1, h, h, h)
		next, events, err := Game.Adjudicate(state, orders, r)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			n := 0
			for _, e := range events {
				if e.Rule == "9.9" {
					n++
				}
			}
			if n != 25 {
				b.Fatalf("%d combats resolved, want 25", n)
			}
		}
		g, err := decode(next)
		if err != nil {
			b.Fatal(err)
		}
		g.r = r
		g.supplyPhase(sb, nil, nil)
		g.supplyPhase(ah, nil, nil)
	}
}

// BenchmarkSupplyPhase: supply traced for the 120 units alone.
func BenchmarkSupplyPhase(b *testing.B) {
	state, _ := benchGame(b)
	for b.Loop() {
		g, err := decode(state)
		if err != nil {
			b.Fatal(err)
		}
		g.supplyPhase(sb, nil, nil)
		g.supplyPhase(ah, nil, nil)
	}
}

// TestBenchGame checks the benchmark's situation: 25 attacks resolved,
// the units supplied.
func TestBenchGame(t *testing.T) {
	t.Parallel()
	state, orders := benchGame(t)
	h := sha256.Sum256([]byte("bench"))
	r := legacy.NewStepRoller(legacy.NewLog(h, h), 1, h, h, h)
	_, events, err := Game.Adjudicate(state, orders, r)
	if err != nil {
		t.Fatal(err)
	}
	n, noAmmo := 0, 0
	for _, e := range events {
		if e.Rule == "9.9" {
			n++
		}
		if e.Rule == "9.4" {
			noAmmo++
		}
	}
	if n != 25 || noAmmo > 0 {
		t.Errorf("%d combats, %d Forces without Ammo", n, noAmmo)
	}
}
