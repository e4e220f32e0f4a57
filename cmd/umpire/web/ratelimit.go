package web

import (
	"sync"
	"time"
)

// rateLimiter is a token bucket per client: each holds up to burst
// requests and refills at rate a second. Buckets of clients idle long
// enough to be full again are dropped, so memory stays bounded by the
// clients of the last minute or so.
type rateLimiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	now     func() time.Time
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

// maxClients bounds the table: past it, the oldest buckets go first.
const maxClients = 100000

func newRateLimiter(rate float64, burst int, now func() time.Time) *rateLimiter {
	return &rateLimiter{rate: rate, burst: float64(burst), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token for client, or says how long until one is there.
func (l *rateLimiter) allow(client string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	full := time.Duration(l.burst / l.rate * float64(time.Second))
	if now.Sub(l.swept) > full || len(l.buckets) > maxClients {
		for k, b := range l.buckets {
			if now.Sub(b.at) >= full || len(l.buckets) > maxClients {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[client]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[client] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}
