package mail

import (
	"math/rand/v2"
	"time"
)

// Backoff is an exponential delay with jitter: the n-th consecutive failure
// waits about Base·2^(n-1), never more than Max, spread ±20% so that many
// retries do not fall on the same instant.
type Backoff struct {
	Base time.Duration
	Max  time.Duration
}

// Delay returns the wait after the n-th consecutive failure (n >= 1).
func (b Backoff) Delay(n int) time.Duration {
	d := b.Base
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	jitter := time.Duration(float64(d) * 0.4 * (rand.Float64() - 0.5))
	return max(d+jitter, 0)
}
