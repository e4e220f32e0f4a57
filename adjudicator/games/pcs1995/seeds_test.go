package pcs1995

import (
	"os"
	"strconv"
	"testing"
)

// TestManySeeds plays whole bot games with many different dice: each must
// end (a livelock of asks would not). PCS1995_SEEDS=N plays N games (the
// long mode, 100 or more); CI plays 4.
func TestManySeeds(t *testing.T) {
	t.Parallel()
	n := uint64(4)
	if v, err := strconv.Atoi(os.Getenv("PCS1995_SEEDS")); err == nil && v > 0 {
		n = uint64(v)
	}
	for s := uint64(100); s < 100+n; s++ {
		p := playGame(t, s, nil)
		g, _ := decode(p.state)
		if !g.Over {
			t.Fatalf("seed %d: not over after %d steps: %s %+v", s, p.steps, g.Phase, g.Pending)
		}
	}
}
