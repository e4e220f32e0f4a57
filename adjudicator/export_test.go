package adjudicator

import "github.com/umpire-pbem/umpire/adjudicator/dice/legacy"

// CreateUnder makes j create new games under the older dice scheme s, as
// umpire did before umpire-dice-v3 (0: under v3 again), for tests of the
// games created then.
func CreateUnder(j *Judge, s legacy.Scheme) { j.scheme = s }
