package bu

import "testing"

// BenchmarkBotGame plays a whole three-player game between bots.
func BenchmarkBotGame(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		playGame(b, "three", uint64(i), nil)
	}
}
