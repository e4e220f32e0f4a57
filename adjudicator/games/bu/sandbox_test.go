package bu

import (
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestOrderRefusedAtAdjudicationIsSaid: the step reads its orders again on
// the position the receipt read them on, so none is refused; should one be
// (orders that never went through a receipt), the seat is told which and
// why in an event of its own, and the line is not dropped without a word.
func TestOrderRefusedAtAdjudicationIsSaid(t *testing.T) {
	t.Parallel()
	state, err := Game.New("three", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, events, err := Game.Adjudicate(state, map[string][]string{seatSerb: {"losses ,", "advancing all", "pass now"}}, newSeeded(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Not carried out: losses , (\",\": a unit list names units", "Not carried out: pass now (pass takes nothing more"} {
		i := slices.IndexFunc(events, func(e adjudicator.Event) bool { return strings.Contains(e.Text, want) })
		if i < 0 {
			t.Errorf("no event %q among %v", want, events)
			continue
		}
		if e := events[i]; !slices.Equal(e.Visible, []string{seatSerb}) {
			t.Errorf("event %q is shown to %v, want Serb alone (its orders are its own)", e.Text, e.Visible)
		}
	}
	if slices.ContainsFunc(events, func(e adjudicator.Event) bool { return strings.Contains(e.Text, "advancing all") }) {
		t.Errorf("the accepted standing order is reported as not carried out: %v", events)
	}
}
