//go:build integration && race

package daemon

// raceEnabled is set when the tests run with the race detector, which makes
// them several times slower: the soak runs a smaller size then.
const raceEnabled = true
