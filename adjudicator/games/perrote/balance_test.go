package perrote

import (
	"fmt"
	"testing"
)

// TestScenarioLengths: the demo scenario always lasts the three turns the
// demo plays (and shows a fight), and "meeting", which the end-to-end test
// plays by mail, lasts six turns or more in nearly every game; neither side
// wins nearly all of them.
func TestScenarioLengths(t *testing.T) {
	for _, c := range []struct {
		scenario string
		atLeast  int
		share    float64 // of games lasting atLeast turns or more
	}{{"demo", 4, 1}, {"meeting", 6, 0.95}} {
		const games = 60
		long, wins := 0, map[string]int{}
		for i := range games {
			state, turns := playBots(t, c.scenario, fmt.Sprint("balance", i))
			st, err := decode(state)
			if err != nil {
				t.Fatal(err)
			}
			n, w := len(turns), st.Winner
			if n >= c.atLeast {
				long++
			}
			wins[w]++
		}
		t.Logf("%s: %d of %d games lasted %d turns or more; winners %v", c.scenario, long, games, c.atLeast, wins)
		if float64(long) < c.share*games {
			t.Errorf("%s: only %d of %d bot games lasted %d turns", c.scenario, long, games, c.atLeast)
		}
		for side, n := range wins {
			if side != "" && n > games*9/10 {
				t.Errorf("%s: %s won %d of %d bot games", c.scenario, side, n, games)
			}
		}
	}
}
