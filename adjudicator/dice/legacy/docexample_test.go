package legacy

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

var update = flag.Bool("update", false, "rewrite docs/examples/dice-log-example.json")

// docExample is the worked example of docs/dice-log.md: the known-answer
// chains, step 1 with the orders "orders A" and "orders B", three open rolls
// and a sealed shuffle whose link is not revealed yet.
func docExample() *Export {
	open, sealed := katChains()
	x := NewExport("demo-1", open.Length, open.Commitment(), sealed.Commitment())
	orders := []dice.Hash{sha256.Sum256([]byte("orders A")), sha256.Sum256([]byte("orders B"))}
	d := StepDigest("demo-1", 1, "turn-1", orders)
	o1, _ := open.Link(1)
	s1, _ := sealed.Link(1)
	log := NewLog(open.Commitment(), sealed.Commitment())
	r := NewStepRoller(log, 1, d, o1, s1)
	dice.Roll(r, 2, 6, "example roll")
	r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), "example d10 read 0-9")
	dice.Roll(r, 1, 20, "example d20")
	dice.Shuffle(r, "sealed", 5, "example shuffle of five cards")
	x.Steps = append(x.Steps, ExportStep{Step: 1, Phase: "turn-1", Orders: orders, Digest: d, Open: &o1})
	for _, rec := range r.Records() {
		x.AddRecord(rec, rec.Stream == StreamSealed)
	}
	return x
}

func TestDocExample(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "examples", "dice-log-example.json")
	var want bytes.Buffer
	if err := docExample().Write(&want); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./adjudicator/dice/legacy -run TestDocExample -update)", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s is not what the code exports (run with -update and review the diff)", path)
	}
	x, err := ReadExport(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	res := Verify(x, nil)
	if !res.OK() || res.Verified != 3 || res.Hidden != 1 {
		t.Errorf("doc example verifies as %+v, want 3 verified and 1 hidden", res)
	}
}
