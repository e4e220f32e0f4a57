package adjudicator_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// TestV1GameStaysV1: a game created under umpire-dice-v1 (as every game of
// a store written before v2) goes on under v1 when the judge creates new
// games under v2: its log stays a v1 log that verifies, hidden draws map
// onto its sealed link, and it replays.
func TestV1GameStaysV1(t *testing.T) {
	h := hostWith(t, strings.Replace(duel, "[schedule]", "[options]\nturns = \"2\"\n[schedule]", 1), true)
	h.send("A", 1, "secret", "roll 1")
	h.send("B", 1, "secret")
	adjudicator.CreateUnder(h.judge, 0) // an umpire that creates games under the current scheme from now on
	h.send("A", 2, "roll 2")
	h.send("B", 2, "pass")
	storetest.MustView(t, h.db, func(tx *store.Tx) error {
		sec, err := tx.DiceSecrets("g1")
		if err != nil {
			return err
		}
		if sec.Scheme != 1 {
			t.Errorf("the game's scheme is %d, want 1", sec.Scheme)
		}
		x, err := tx.ExportLog("g1")
		if err != nil {
			return err
		}
		if res := legacy.Verify(x, nil); !res.OK() || res.Entries != 4 || res.Hidden != 0 || res.Verified != 4 {
			t.Errorf("the v1 log at the end: %+v", res)
		}
		return nil
	})
	if n, err := replay(h); err != nil || n != 2 {
		t.Errorf("replay of the v1 game: %d, %v", n, err)
	}
	rep := lastText(t, h.mails("a@players.test"), "step 2 report")
	if strings.Contains(rep, "Order list") {
		t.Errorf("a v1 report shows a v2 order list:\n%s", rep)
	}
}

// hostWith is host with a judge that creates v1 games when v1 is set.
func hostWith(t *testing.T, file string, v1 bool) *hosted {
	t.Helper()
	old := newJudgeV1
	newJudgeV1 = v1
	defer func() { newJudgeV1 = old }()
	return host(t, file)
}
