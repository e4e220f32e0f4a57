package wbt

import (
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestDefaultOrdersInWords: in a movement or combat phase a seat without
// usable orders moves or attacks nothing, and the receipt says so in
// those words (issue 31, no-ops); other phases word their NoOrders.
func TestDefaultOrdersInWords(t *testing.T) {
	state, err := Game.New("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := decode(state)
	if err != nil {
		t.Fatal(err)
	}
	for phase, want := range map[string]string{
		phaseNATOMove:   "NATO moves no unit this phase",
		phaseNATOCombat: "NATO makes no attack this phase",
	} {
		g.Phase = phase
		s, err := g.encode()
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := Game.Step(s)
		if got := adjudicator.DefaultWords(Game, s, "NATO", spec.NoOrders["NATO"]); got != want {
			t.Errorf("%s: %q, want %q", phase, got, want)
		}
	}
	g.Phase = phaseSetupSerb
	s, _ := g.encode()
	spec, _ := Game.Step(s)
	if got := adjudicator.DefaultWords(Game, s, "Serb", spec.NoOrders["Serb"]); got != "the default for Serb applies: the demo set-up" {
		t.Errorf("Serbian set-up: %q", got)
	}
}
