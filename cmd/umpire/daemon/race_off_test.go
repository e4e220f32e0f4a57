//go:build integration && !race

package daemon

// raceEnabled is set when the tests run with the race detector.
const raceEnabled = false
