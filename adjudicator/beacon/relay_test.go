package beacon_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/beacon/beacontest"
)

var genesis = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func TestRelayFetchesAndChecksRounds(t *testing.T) {
	r := beacontest.New(t, "a", uint64(genesis.Unix()), 30, 600)
	r.SetNow(genesis.Add(time.Hour))
	rl := &beacon.Relay{URLs: []string{r.URL}, Tries: 2, Backoff: time.Millisecond}
	got, err := rl.Round(t.Context(), r.Beacon, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got != r.Sign(100) {
		t.Errorf("round 100 = %+v", got)
	}
	// A round not published yet: the relay says too early.
	if _, err := rl.Round(t.Context(), r.Beacon, 1000); !errors.Is(err, beacon.ErrNotYet) {
		t.Errorf("a future round: %v", err)
	}
	// A relay answering another round's signature is caught by the BLS
	// check, and another relay is asked.
	r.Forge(101)
	if _, err := rl.Round(t.Context(), r.Beacon, 101); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Errorf("a forged round: %v", err)
	}
	good := beacontest.New(t, "a", uint64(genesis.Unix()), 30, 600) // the same chain, another relay
	good.SetNow(genesis.Add(time.Hour))
	rl.URLs = append(rl.URLs, good.URL)
	if got, err := rl.Round(t.Context(), r.Beacon, 101); err != nil || got != good.Sign(101) {
		t.Errorf("with a second relay: %+v, %v", got, err)
	}
	// A round of another chain's key does not pass for this one.
	other := beacontest.New(t, "b", uint64(genesis.Unix()), 30, 600)
	other.SetNow(genesis.Add(time.Hour))
	if _, err := (&beacon.Relay{URLs: []string{other.URL}, Tries: 1}).Round(t.Context(), func() beacon.Chain {
		b := other.Beacon
		b.PublicKey = r.Beacon.PublicKey
		return b
	}(), 100); err == nil {
		t.Error("a round signed by another key verified")
	}
}

func TestRelayRetriesThenGivesUp(t *testing.T) {
	r := beacontest.New(t, "a", uint64(genesis.Unix()), 30, 600)
	r.SetNow(genesis.Add(time.Hour))
	r.SetDown(true)
	rl := &beacon.Relay{URLs: []string{r.URL}, Tries: 3, Backoff: time.Millisecond}
	if _, err := rl.Round(t.Context(), r.Beacon, 10); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("a relay that is down: %v", err)
	}
	if n := r.Requests(); n != 3 {
		t.Errorf("%d requests, want 3 tries", n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := rl.Round(ctx, r.Beacon, 10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := (&beacon.Relay{}).Round(t.Context(), r.Beacon, 10); err == nil {
		t.Error("no relay configured, no error")
	}
}

// TestRelayQuicknetRecorded: drand quicknet's rounds 1000, 1002 and 1003,
// as the spec records them, served by a local relay and checked under
// quicknet's real public key.
func TestRelayQuicknetRecorded(t *testing.T) {
	recorded := map[string]string{
		"1000": `{"round":1000,"randomness":"fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd","signature":"b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"}`,
		"1002": `{"round":1002,"randomness":"339d3f0e702ed27d36966c6ee85a2bc762a24e178e7e5c835d9b5a7509cb920c","signature":"ab066f9c12dd6de1336fca0f925192fb0c72a771c3e4c82ede1fd362c1a770f9eb05843c6308ce2530b53a99c0281a6e"}`,
		"1003": `{"round":1003,"randomness":"758f0c906d8c5296a032a66f0d96c6e0eeea4291e8fc9830bbfb19a2ba8610a9","signature":"b104c82771698f45fd8dcfead083d482694c31ab519bcef077f126f3736fe98c8392fd5d45d88aeb76b56ccfcb0296d7"}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prefix := "/" + beacon.Quicknet.ChainHash.String() + "/public/"
		body, ok := recorded[strings.TrimPrefix(r.URL.Path, prefix)]
		if !strings.HasPrefix(r.URL.Path, prefix) || !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	rl := &beacon.Relay{URLs: []string{srv.URL}, Tries: 1}
	for _, n := range []uint64{1000, 1002, 1003} {
		got, err := rl.Round(t.Context(), beacon.Quicknet, n)
		if err != nil {
			t.Fatalf("quicknet round %d: %v", n, err)
		}
		if got.Round != n {
			t.Errorf("round %d came back as %d", n, got.Round)
		}
	}
	// Round 1002's answer under the number 1001 is refused.
	recorded["1001"] = strings.Replace(recorded["1002"], `"round":1002`, `"round":1001`, 1)
	if _, err := rl.Round(t.Context(), beacon.Quicknet, 1001); err == nil {
		t.Error("round 1002's signature accepted as round 1001")
	}
}
