// Package beacontest serves a drand-format beacon on loopback for tests: a
// relay whose rounds are signed with a BLS key the test makes, published
// when their time comes on a clock the test moves. No test reaches the
// internet.
package beacontest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
)

// Relay is a drand-format HTTP relay on loopback.
type Relay struct {
	URL    string
	Beacon beacon.Chain
	key    *bls.PrivateKey[bls.KeyG2SigG1]

	mu       sync.Mutex
	now      time.Time
	down     bool
	requests int
	forged   map[uint64]bool
}

// New starts a relay of a new chain (genesis, period in seconds, delay in
// seconds) signed by a key made from seed; it stops with the test.
func New(t testing.TB, seed string, genesis, period, delay uint64) *Relay {
	t.Helper()
	ikm := sha256.Sum256([]byte("beacontest key " + seed))
	key, err := bls.KeyGen[bls.KeyG2SigG1](ikm[:], nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := key.PublicKey().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r := &Relay{key: key, forged: map[uint64]bool{}}
	r.Beacon = beacon.Chain{ChainHash: sha256.Sum256(pk), Scheme: beacon.Scheme, Genesis: genesis, Period: period, Delay: delay}
	copy(r.Beacon.PublicKey[:], pk)
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// SetNow sets the relay's clock: rounds up to its time are published.
func (r *Relay) SetNow(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.now = t
}

// SetDown makes the relay answer every request with 503 (down) or serve
// again.
func (r *Relay) SetDown(down bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = down
}

// Forge makes the relay answer round n with a signature of another round.
func (r *Relay) Forge(n uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forged[n] = true
}

// Requests counts the requests served.
func (r *Relay) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// Sign returns round n, correctly signed.
func (r *Relay) Sign(n uint64) beacon.Round {
	var m [8]byte
	binary.BigEndian.PutUint64(m[:], n)
	msg := sha256.Sum256(m[:])
	sig := bls.Sign(r.key, msg[:])
	out := beacon.Round{Round: n}
	copy(out.Signature[:], sig)
	out.Randomness = sha256.Sum256(out.Signature[:])
	return out
}

func (r *Relay) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	down, now := r.down, r.now
	r.mu.Unlock()
	if down {
		http.Error(w, "relay down", http.StatusServiceUnavailable)
		return
	}
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	if len(parts) < 2 || parts[0] != r.Beacon.ChainHash.String() {
		http.NotFound(w, req)
		return
	}
	if parts[1] == "info" {
		writeJSON(w, map[string]any{"public_key": hex.EncodeToString(r.Beacon.PublicKey[:]), "period": r.Beacon.Period,
			"genesis_time": r.Beacon.Genesis, "hash": r.Beacon.ChainHash.String(), "schemeID": "bls-unchained-g1-rfc9380"})
		return
	}
	if len(parts) != 3 || parts[1] != "public" {
		http.NotFound(w, req)
		return
	}
	n, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil || n == 0 {
		http.Error(w, "bad round", http.StatusBadRequest)
		return
	}
	if r.Beacon.RoundTime(n) > uint64(now.Unix()) {
		http.Error(w, fmt.Sprintf("round %d is in the future", n), http.StatusTooEarly)
		return
	}
	round := r.Sign(n)
	r.mu.Lock()
	forged := r.forged[n]
	r.mu.Unlock()
	if forged {
		other := r.Sign(n + 1)
		round.Signature, round.Randomness = other.Signature, other.Randomness
	}
	writeJSON(w, map[string]any{"round": n, "randomness": round.Randomness.String(), "signature": hex.EncodeToString(round.Signature[:])})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
