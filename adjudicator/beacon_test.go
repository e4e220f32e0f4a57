package adjudicator_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/beacon/beacontest"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/games/fake"
)

// beaconGame is the duel with a beacon: a chain the test relay signs.
func beaconGame(t *testing.T) (*hosted, *beacontest.Relay) {
	t.Helper()
	relay := beacontest.New(t, "judge", uint64(start.Add(-time.Hour).Unix()), 30, 600)
	b := relay.Beacon
	file := strings.Replace(duel, "[schedule]", fmt.Sprintf("beacon = { chain_hash = %q, public_key = %q, genesis = %d, period = %d, delay = \"10m\" }\n[schedule]",
		b.ChainHash, fmt.Sprintf("%x", b.PublicKey[:]), b.Genesis, b.Period), 1)
	return host(t, file), relay
}

// TestBeaconStep: with a beacon, a step that closes mails every seat a close
// notice with the order list and the round, takes no more orders, waits for
// the round, is adjudicated with it once it is published and checked, and
// the log names the round in the step record.
func TestBeaconStep(t *testing.T) {
	h, relay := beaconGame(t)
	h.send("A", 1, "roll 2")
	r := h.send("B", 1, "roll 1") // every seat ready: the step closes
	if !strings.Contains(r, "ACCEPTED") {
		t.Fatalf("B's receipt:\n%s", r)
	}
	st := h.step(1)
	if st.Status != adjudicator.StepWaiting || st.Dice == nil || st.Dice.ClosedBy != dice.ClosedByReady {
		t.Fatalf("step 1 after every seat was ready: %+v", st)
	}
	wantRound := relay.Beacon.RoundFor(uint64(h.now.Unix()))
	if st.Dice.Round != wantRound || relay.Beacon.RoundTime(wantRound) < uint64(h.now.Unix())+600 {
		t.Errorf("waits for round %d, want %d (at least 600 s after the close)", st.Dice.Round, wantRound)
	}
	for _, to := range []string{"a@players.test", "b@players.test", "gm@players.test"} {
		n := lastText(t, h.mails(to), "step 1 closed, dice from beacon round")
		for _, want := range []string{fmt.Sprintf("round %d", wantRound), "A            step 1, version 1, digest", "B            step 1, version 1, digest", "own mail server", "reached you"} {
			if !strings.Contains(n, want) {
				t.Errorf("close notice to %s lacks %q:\n%s", to, want, n)
			}
		}
	}
	// Orders after the close are refused: the order list is fixed.
	if r := h.send("A", 1, "roll 3"); !strings.Contains(r, "NOT ACCEPTED") || !strings.Contains(r, "waits for beacon round") {
		t.Errorf("orders after the close:\n%s", r)
	}
	// Before the round's time nothing is due to fetch.
	var ok bool
	h.update(func(tx adjudicator.Tx) (err error) { _, ok, err = h.judge.Waiting(tx, "g1", h.now); return err })
	if ok {
		t.Error("the step fetches its round before the round's time")
	}
	at := time.Unix(int64(relay.Beacon.RoundTime(wantRound)), 0)
	relay.SetNow(at)
	h.now = at
	var w adjudicator.BeaconWait
	h.update(func(tx adjudicator.Tx) (err error) { w, ok, err = h.judge.Waiting(tx, "g1", h.now); return err })
	if !ok || w.Round != wantRound {
		t.Fatalf("at the round's time: waiting %v for %+v", ok, w)
	}
	rl := &beacon.Relay{URLs: []string{relay.URL}, Tries: 1}
	round, err := rl.Round(t.Context(), w.Beacon, w.Round)
	if err != nil {
		t.Fatal(err)
	}
	// A round for another step is refused, and changes nothing.
	wrong := relay.Sign(wantRound + 1)
	h.update(func(tx adjudicator.Tx) error {
		if err := h.judge.BeaconArrived(t.Context(), tx, "g1", wrong, h.now); !errors.Is(err, beacon.ErrInvalid) {
			t.Errorf("another round: %v", err)
		}
		return nil
	})
	h.update(func(tx adjudicator.Tx) error { return h.judge.BeaconArrived(t.Context(), tx, "g1", round, h.now) })
	if st := h.step(1); st.Status != adjudicator.StepClosed {
		t.Fatalf("step 1 after its round: %s", st.Status)
	}
	rep := lastText(t, h.mails("a@players.test"), "step 1 report")
	if !strings.Contains(rep, fmt.Sprintf("round %d of the game's beacon (not a known network)", wantRound)) {
		t.Errorf("A's report does not name the round:\n%s", rep)
	}
	res := h.verifyLog()
	if !res.OK() || res.Beacon != "unknown" || res.Steps != 1 || res.Rederived != 2 {
		t.Errorf("the log: %+v", res)
	}
	if n, err := replay(h); err != nil || n != 1 {
		t.Errorf("replay: %d, %v", n, err)
	}
}

// TestBeaconRelayUnreachable: while the round cannot be had the step waits
// (never another round), the game master is told, and a later try succeeds.
func TestBeaconRelayUnreachable(t *testing.T) {
	h, relay := beaconGame(t)
	h.send("A", 1, "roll 1")
	h.send("B", 1, "pass")
	st := h.step(1)
	at := time.Unix(int64(relay.Beacon.RoundTime(st.Dice.Round)), 0)
	h.now = at
	relay.SetNow(at)
	relay.SetDown(true)
	rl := &beacon.Relay{URLs: []string{relay.URL}, Tries: 2, Backoff: time.Millisecond}
	_, err := rl.Round(t.Context(), relay.Beacon, st.Dice.Round)
	if err == nil {
		t.Fatal("a relay that is down answered")
	}
	h.update(func(tx adjudicator.Tx) error { return h.judge.BeaconFailed(tx, "g1", err, h.now) })
	gm := lastText(t, h.mails("gm@players.test"), "waits for beacon round")
	if !strings.Contains(gm, "never adjudicated with another round") || !strings.Contains(gm, "503") {
		t.Errorf("the GM's notice:\n%s", gm)
	}
	st = h.step(1)
	if st.Status != adjudicator.StepWaiting || st.Dice.Tries != 1 || !st.Dice.Retry.After(h.now) {
		t.Errorf("after a failed fetch: %+v", st.Dice)
	}
	var due time.Time
	h.update(func(tx adjudicator.Tx) (err error) { due, _, err = h.judge.Due(tx, "g1"); return err })
	if !due.Equal(st.Dice.Retry) {
		t.Errorf("next try at %v, want %v", due, st.Dice.Retry)
	}
	relay.SetDown(false)
	h.now = st.Dice.Retry
	round, err := rl.Round(t.Context(), relay.Beacon, st.Dice.Round)
	if err != nil {
		t.Fatal(err)
	}
	h.update(func(tx adjudicator.Tx) error { return h.judge.BeaconArrived(t.Context(), tx, "g1", round, h.now) })
	if st := h.step(1); st.Status != adjudicator.StepClosed {
		t.Errorf("step 1 after the relay came back: %s", st.Status)
	}
	if gm := lastText(t, h.mails("gm@players.test"), "arrived"); !strings.Contains(gm, "after 1 failed tries") {
		t.Errorf("GM:\n%s", gm)
	}
}

func replay(h *hosted) (int, error) {
	var n int
	var err error
	h.update(func(tx adjudicator.Tx) error { n, err = h.judge.Replay(tx, "g1"); return nil })
	return n, err
}

// TestBeaconOption: the game file's beacon setting.
func TestBeaconOption(t *testing.T) {
	for _, c := range []struct{ setting, err string }{
		{`beacon = "drand-quicknet"`, ""},
		{`beacon = { network = "drand-quicknet", delay = "15m" }`, ""},
		{`beacon = "drand-mainnet"`, "name drand-quicknet"},
		{`beacon = { network = "drand-quicknet", delay = "1.5s" }`, "whole seconds"},
		{`beacon = { chain_hash = "00", public_key = "00", genesis = 1, period = 3 }`, "chain_hash"},
		{`beacon = { network = "drand-quicknet", colour = "red" }`, "unknown setting"},
	} {
		f, err := adjudicator.ParseGameFile([]byte(strings.Replace(duel, "[schedule]", c.setting+"\n[schedule]", 1)), adjudicator.NewRegistry(fakeGame()))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.setting, err)
		case c.err == "" && (f.Beacon == nil || f.Beacon.Network() != "drand quicknet"):
			t.Errorf("%s: beacon %+v", c.setting, f.Beacon)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.setting, err, c.err)
		}
	}
	f, _ := adjudicator.ParseGameFile([]byte(strings.Replace(duel, "[schedule]", `beacon = { network = "drand-quicknet", delay = "15m" }`+"\n[schedule]", 1)), adjudicator.NewRegistry(fakeGame()))
	if f.Beacon.Delay != 900 {
		t.Errorf("delay %d, want 900", f.Beacon.Delay)
	}
	f, _ = adjudicator.ParseGameFile([]byte(strings.Replace(duel, "[schedule]", `beacon = "drand-quicknet"`+"\n[schedule]", 1)), adjudicator.NewRegistry(fakeGame()))
	if f.Beacon.Delay != beacon.DefaultDelay {
		t.Errorf("default delay %d", f.Beacon.Delay)
	}
}

func fakeGame() adjudicator.Rules { return fake.Game }
