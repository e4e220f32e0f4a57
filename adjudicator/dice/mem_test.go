package dice

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestVerifyConstantMemory: verifying a log ten times longer holds no more
// heap (sampled as it reads; within 2 MiB of slack for the collector's
// timing).
func TestVerifyConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes logs of 20k and 200k records")
	}
	peakOf := func(n int) (uint64, uint64) {
		path := filepath.Join(t.TempDir(), "log.json")
		writeBenchLog(t, path, n)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		var peak uint64
		res, err := VerifyStream(f, VerifyOptions{Progress: func(int64) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc-min(ms.HeapAlloc, base.HeapAlloc))
		}})
		if err != nil || !res.OK() {
			t.Fatal(err, res.Problem)
		}
		return peak, res.Records
	}
	small, n1 := peakOf(20_000)
	large, n2 := peakOf(200_000)
	t.Logf("peak heap: %d records %.2f MiB, %d records %.2f MiB", n1, float64(small)/(1<<20), n2, float64(large)/(1<<20))
	if large > small+2<<20 {
		t.Errorf("the heap grows with the log: %.2f MiB for %d records, %.2f MiB for %d", float64(small)/(1<<20), n1, float64(large)/(1<<20), n2)
	}
}
