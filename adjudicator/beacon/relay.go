// Package beacon is umpire's drand-compatible public randomness beacon
// (umpire-dice-v2 and v3, docs/dice-log.md section 5): a chain fixed in a
// game's header (Chain, drand's Quicknet), its rounds (Round), their check
// (Verifier: the BLS signature), the floor on a beacon's delay (MinDelay),
// and a Relay that fetches rounds from HTTP relays, with retries, checking
// each before it is used. It speaks drand's HTTP API: GET
// <relay>/<chain hash>/public/<round> answers
// {"round": R, "randomness": "<hex>", "signature": "<hex>"}.
package beacon

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// ErrNotYet says the relays do not have the round yet (drand answers 404 or
// 425 Too Early for a round in the future).
var ErrNotYet = errors.New("beacon round not published yet")

// Relay fetches beacon rounds from the first of its relays that has them.
// Its zero value is not usable: give it at least one URL.
type Relay struct {
	// URLs are the relays' base addresses, such as https://api.drand.sh.
	URLs []string
	// Client makes the requests; http.DefaultClient when nil.
	Client *http.Client
	// Tries is how many rounds of requests (every relay once) one Round
	// makes before it gives up; 3 when 0.
	Tries int
	// Backoff is the wait before the second round of requests, doubling
	// after; one second when 0.
	Backoff time.Duration
	// Timeout bounds each request; 10 s when 0.
	Timeout time.Duration
}

// Round fetches round r of beacon b and checks it: its number, its
// randomness (SHA-256 of its signature) and its BLS signature under the
// beacon's public key. A relay that answers a round that does not verify
// is treated as failing; another relay is asked.
func (rl *Relay) Round(ctx context.Context, b Chain, r uint64) (Round, error) {
	if len(rl.URLs) == 0 {
		return Round{}, errors.New("beacon: no relay is configured ([beacon] relays)")
	}
	v, err := NewVerifier(b)
	if err != nil {
		return Round{}, err
	}
	tries, wait := rl.Tries, rl.Backoff
	if tries <= 0 {
		tries = 3
	}
	if wait <= 0 {
		wait = time.Second
	}
	var errs []error
	for try := range tries {
		if try > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return Round{}, ctx.Err()
			case <-t.C:
			}
			wait *= 2
		}
		for _, base := range rl.URLs {
			round, err := rl.fetch(ctx, base, b.ChainHash, r)
			if err == nil {
				err = v.CheckRound(&round)
			}
			if err == nil {
				return round, nil
			}
			errs = append(errs, fmt.Errorf("%s: %w", base, err))
			if ctx.Err() != nil {
				return Round{}, ctx.Err()
			}
		}
	}
	return Round{}, fmt.Errorf("beacon round %d: %w", r, errors.Join(errs[max(len(errs)-len(rl.URLs), 0):]...))
}

// wireRound is a round as drand's HTTP API writes it.
type wireRound struct {
	Round      uint64 `json:"round"`
	Randomness string `json:"randomness"`
	Signature  string `json:"signature"`
}

func (rl *Relay) fetch(ctx context.Context, base string, chain Hash, r uint64) (Round, error) {
	timeout := rl.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := fmt.Sprintf("%s/%s/public/%d", strings.TrimRight(base, "/"), chain, r)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Round{}, err
	}
	client := rl.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return Round{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return Round{}, err
	}
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusTooEarly:
		return Round{}, ErrNotYet
	case resp.StatusCode != http.StatusOK:
		return Round{}, fmt.Errorf("HTTP %s", resp.Status)
	}
	var w wireRound
	if err := json.Unmarshal(body, &w); err != nil {
		return Round{}, fmt.Errorf("not a drand round: %w", err)
	}
	if w.Round != r {
		return Round{}, fmt.Errorf("asked for round %d, got round %d", r, w.Round)
	}
	out := Round{Round: w.Round}
	sig, err := hex.DecodeString(w.Signature)
	if err != nil || len(sig) != len(out.Signature) {
		return Round{}, fmt.Errorf("round %d: the signature is not %d bytes of hex", r, len(out.Signature))
	}
	copy(out.Signature[:], sig)
	rnd, err := hex.DecodeString(w.Randomness)
	if err != nil || len(rnd) != len(out.Randomness) {
		return Round{}, fmt.Errorf("round %d: the randomness is not 32 bytes of hex", r)
	}
	copy(out.Randomness[:], rnd)
	return out, nil
}
