package dice

import (
	"bytes"
	"os"
	"testing"
)

// readExampleRecords reads an example export into records.
func readExampleRecords(t *testing.T, data []byte) ([]Record, *Hash, []KeyReveal) {
	t.Helper()
	x, err := ParseExport(data)
	if err != nil {
		t.Fatal(err)
	}
	return x.Records, x.SealedRoot, x.Revealed
}

// TestLedgerRebuildsExample: the ledger, fed the example's records, gives
// every head the example states (a sealed draw whose values are unknown
// keeps its count from the spec).
func TestLedgerRebuildsExample(t *testing.T) {
	data, _ := readTestdata(t, "dice-v2-example-ended.json")
	recs, _, _ := readExampleRecords(t, data)
	var l Ledger
	for i := range recs {
		want := recs[i].Head
		if err := l.Append(&recs[i]); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		if recs[i].Head != want {
			t.Errorf("record %d (%s): head %s, want %s", i+1, recs[i].Type, recs[i].Head, want)
		}
	}
}

func readTestdata(t *testing.T, name string) ([]byte, error) {
	t.Helper()
	b, err := bytes.NewBuffer(nil), error(nil)
	data, err := readFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	b.Write(data)
	return b.Bytes(), nil
}

var readFile = os.ReadFile
