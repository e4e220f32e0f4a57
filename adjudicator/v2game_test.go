package adjudicator_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/legacy"
)

// TestV2GamesKeepV2: a game created under umpire-dice-v2 (CreateUnder)
// keeps v2 under a judge whose new games are v3: the judge's tests of the
// step machine, rollbacks, repeated orders, beacons, replays and exports
// pass on it as they did before v3, its log is a version 2 export with
// SHA-256 order digests and no start record, and nobody is sent a salt.
func TestV2GamesKeepV2(t *testing.T) {
	old := newJudgeV2
	newJudgeV2 = true
	defer func() { newJudgeV2 = old }()
	for name, test := range map[string]func(*testing.T){
		"early processing":   TestEarlyProcessingWhenEveryoneIsReady,
		"deadlines":          TestDeadlineRemindersAndDefaults,
		"replay":             TestReplayReproducesEveryState,
		"tampered state":     TestReplayDetectsATamperedState,
		"rollback":           TestRollback,
		"repeat last orders": TestRepeatLastOrders,
		"replay export":      TestReplayExport,
		"beacon":             TestBeaconStep,
		"phantom orders":     TestPhantomAndSubstitutedOrdersVisible,
		"hidden information": TestHiddenInformation,
	} {
		t.Run(name, test)
	}
	h := host(t, duel)
	h.send("A", 1, "roll 1")
	h.send("B", 1, "pass")
	log := h.exportLog()
	res := h.verifyLog()
	if !res.OK() || res.Version != 2 || res.StartHead != nil || !strings.Contains(string(log), `"version": 2`) {
		t.Fatalf("a v2 game's log: %+v", res)
	}
	x, err := dice.ParseExport(log)
	if err != nil {
		t.Fatal(err)
	}
	text := "game: g1\nstep: 1\nseat: A\nroll 1\nend\n"
	if d := x.Records[1].Step.Orders[0].Digest; d != legacy.OrderDigest([]byte(text)) {
		t.Errorf("a v2 order entry's digest %s is not the file's SHA-256", d)
	}
	for _, m := range h.mails("a@players.test") {
		if strings.Contains(string(m.Body), "ORDER SALT") || strings.Contains(m.Subject, "start record") {
			t.Errorf("a v2 seat got v3 mail: %s", m.Subject)
		}
	}
}
