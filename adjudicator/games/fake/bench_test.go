package fake_test

import (
	"crypto/sha256"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
)

// BenchmarkAdjudicateStep adjudicates the first order step of a quartet,
// every seat ordered by the bot, with its dice drawn from the real scheme's
// streams; it reports the draws per step.
//
//	go test -run '^$' -bench AdjudicateStep ./adjudicator/games/fake
func BenchmarkAdjudicateStep(b *testing.B) {
	state, err := fake.Game.New("quartet", nil)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := fake.Game.Step(state)
	if err != nil {
		b.Fatal(err)
	}
	orders := map[string][]string{}
	for _, seat := range spec.Owing {
		lines, err := fake.Game.(adjudicator.Bot).Bot(state, seat)
		if err != nil {
			b.Fatal(err)
		}
		var ol []adjudicator.OrderLine
		for i, l := range lines {
			ol = append(ol, adjudicator.OrderLine{Line: i + 1, Text: l})
		}
		canon, problems := fake.Game.ParseOrders(state, seat, ol)
		if len(problems) > 0 {
			b.Fatalf("the bot's orders for %s: %v", seat, problems)
		}
		orders[seat] = canon
	}
	h := func(s string) dice.Hash { return dice.Hash(sha256.Sum256([]byte(s))) }
	draws := 0
	for b.Loop() {
		r := legacy.NewStepRoller(legacy.NewLog(h("open0"), h("sealed0")), 1, h("digest"), h("open1"), h("sealed1"))
		if _, _, err := fake.Game.Adjudicate(state, orders, r); err != nil {
			b.Fatal(err)
		}
		draws = len(r.Records())
	}
	b.ReportMetric(float64(draws), "draws/step")
}
