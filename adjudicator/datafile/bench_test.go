package datafile

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDecode measures files as a hostile game master would write
// them, each as large as a mail may carry, against the baseline read in the
// same run: the largest plain file accepted (units of two keys up to
// MaxEntries). Each hostile file is refused or read in time and memory of
// the baseline's order, never growing with the square of its depth; the
// deep ones cost a few microseconds, refused before any decoding.
//
//	go test -run '^$' -bench Decode -benchmem ./adjudicator/datafile
func BenchmarkDecode(b *testing.B) {
	// fill repeats unit (a format with one %d, for a key of its own)
	// while the file stays within limit bytes and MaxEntries
	fill := func(unit string, perUnit, limit int) string {
		var s strings.Builder
		for i := 0; s.Len() < limit-2*len(unit) && (i+1)*perUnit <= MaxEntries; i++ {
			fmt.Fprintf(&s, unit, i)
		}
		return s.String()
	}
	files := []struct{ name, text string }{
		{"baseline-plain", fill("[[unit]]\nid = \"U%d\"\nhex = \"0101\"\n", 7, MaxSize)},
		{"deep-tables-16kB", nestedTables(4000)},
		{"deep-tables-2MiB", nestedTables(MaxSize / 6)},
		{"deep-arrays-2MiB", "a = " + strings.Repeat("[", MaxSize/2-8) + strings.Repeat("]", MaxSize/2-8)},
		{"dotted-keys-2MiB", strings.Repeat("a.", MaxSize/2-8) + "b = 1\n"},
		{"too-many-2MiB", fill("k%d = 1\n", 1, MaxSize+MaxEntries) + "x = 1\n"},
		{"flat-keys-at-limit", fill("k%d = 1\n", 1, MaxSize)},
		{"tables-at-depth-limit", fill("k%d"+nestedTables(MaxDepth - 1)[1:], MaxDepth*(MaxDepth+1)/2, MaxSize)},
		{"unknown-keys-at-limit", fill("k%d.a.b.c = {d = {e = 2}}\n", 4+5+6, MaxSize)},
		{"array-at-limit", "a = [" + strings.Repeat("1,", MaxEntries-2) + "]\n"},
	}
	for _, f := range files {
		var v struct {
			Unit []struct {
				ID  string `toml:"id"`
				Hex string `toml:"hex"`
			} `toml:"unit"`
		}
		data := []byte(f.text)
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Decode("bench.toml", data, &v)
			}
		})
	}
}
