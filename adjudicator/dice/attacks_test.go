package dice

import (
	"bytes"
	"crypto/sha256"
	"os"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// The attacks on umpire-dice-v1 that issue 13 names, replayed against v2:
// each must now fail for the attacker.

// exportOf writes records as an export, the heads as they stand.
func exportOf(t *testing.T, recs []Record, root *Hash, revealed []KeyReveal) []byte {
	t.Helper()
	var buf bytes.Buffer
	i := 0
	if _, err := WriteExport(&buf, root, revealed, func() (*Record, error) {
		if i == len(recs) {
			return nil, nil
		}
		i++
		return &recs[i-1], nil
	}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rechain recomputes every head, as a forger who controls the whole log
// would.
func rechain(t *testing.T, recs []Record) {
	t.Helper()
	var head Hash
	var buf []byte
	for i := range recs {
		buf = recs[i].AppendBody(buf[:0])
		head = nextHead(head, recordHash(recs[i].Type, buf))
		recs[i].Head = head
	}
}

func exampleRecords(t *testing.T) ([]Record, []KeyReveal) {
	t.Helper()
	data, err := os.ReadFile("testdata/dice-v2-example.json")
	if err != nil {
		t.Fatal(err)
	}
	x, err := ParseExport(data)
	if err != nil {
		t.Fatal(err)
	}
	return x.Records, x.Revealed
}

// TestHeadCoversStepRecords: every field of a step record, a step that drew
// no dice, a phantom order entry and every field of a rollback are in the
// head. Changed and left as they are, the verifier names the record;
// changed with every head recomputed, the log ends in another head than the
// one the reports quoted (v1 let all of these through with the head
// unchanged).
func TestHeadCoversStepRecords(t *testing.T) {
	reported := "942af9fa46fc1064a7981780c2ee20233aeecebefd20be6f8fc13fde08dc1b7b"
	type change struct {
		name string
		edit func(recs []Record) []Record
	}
	step := func(recs []Record, k uint64) *Step {
		for _, r := range recs {
			if r.Type == TypeStep && r.Step.K == k {
				return r.Step
			}
		}
		t.Fatalf("no step %d", k)
		return nil
	}
	changes := []change{
		{"phase", func(r []Record) []Record { step(r, 1).Phase = "turn-2"; return r }},
		{"close", func(r []Record) []Record { step(r, 4).Close++; return r }},
		{"closed_by", func(r []Record) []Record { step(r, 4).ClosedBy = ClosedByGM; return r }},
		{"an order digest", func(r []Record) []Record { step(r, 1).Orders[0].Digest[0] ^= 1; return r }},
		{"an order version", func(r []Record) []Record { step(r, 1).Orders[1].Version = 1; return r }},
		{"an order's for_step", func(r []Record) []Record { step(r, 3).Orders[1].ForStep = 3; return r }},
		{"a phantom order entry", func(r []Record) []Record {
			s := step(r, 4)
			s.Orders = append(s.Orders, OrderEntry{Seat: "C", ForStep: 4, Version: 1, Digest: sha256.Sum256([]byte("phantom"))})
			return r
		}},
		{"the digest D_k", func(r []Record) []Record { step(r, 4).Digest[3] ^= 1; return r }},
		{"the beacon round's signature", func(r []Record) []Record { step(r, 4).Round.Signature[0] ^= 1; return r }},
		{"the open link", func(r []Record) []Record { step(r, 3).OpenLink[0] ^= 1; return r }},
		{"the rollback's reason", func(r []Record) []Record { r[8].Rollback.Reason = "a typo"; return r }},
		{"the rollback's target", func(r []Record) []Record { r[8].Rollback.Target = 2; return r }},
		{"the rollback's command", func(r []Record) []Record { r[8].Rollback.Command = Hash{}; return r }},
		{"the rollback deleted", func(r []Record) []Record { return append(r[:8:8], r[9:]...) }},
		{"step 4 (no dice) deleted", func(r []Record) []Record { return r[:12] }},
		{"a reveal deleted", func(r []Record) []Record { return append(r[:7:7], r[8:]...) }},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			recs, revealed := exampleRecords(t)
			if c.name == "a reveal deleted" {
				revealed = nil
			}
			recs = c.edit(recs)
			// Left as they are: the verifier refuses the log.
			res, err := VerifyStream(bytes.NewReader(exportOf(t, recs, nil, revealed)), VerifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK() && res.Head.String() == reported {
				t.Errorf("changed and not rechained: verifies with the reported head")
			}
			// Every head recomputed: the head is not the reported one,
			// or the log does not verify at all.
			rechain(t, recs)
			res, err = VerifyStream(bytes.NewReader(exportOf(t, recs, nil, revealed)), VerifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK() && res.Head.String() == reported {
				t.Errorf("a rechained forgery ends in the reported head")
			}
		})
	}
}

// TestDeletedStepInTheMiddle: a step that drew no dice, deleted from the
// middle of a log whose heads are all recomputed, still fails: step numbers
// are each taken once, in order.
func TestDeletedStepInTheMiddle(t *testing.T) {
	var l Ledger
	hdr := kat2Header()
	hdr.Beacon = nil
	recs := []Record{{Type: TypeHeader, Header: hdr}}
	openRoot, _ := kat2Roots()
	c := Chain{Root: openRoot, Length: 8}
	for k := uint64(1); k <= 3; k++ {
		link, _ := c.Link(k)
		recs = append(recs, Record{Type: TypeStep, Step: &Step{K: k, Phase: "turn", Orders: []OrderEntry{}, OpenLink: link,
			Digest: stepDigestV2(hdr.Game, k, "turn", nil, nil)}})
	}
	for i := range recs {
		if err := l.Append(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	res, err := VerifyStream(bytes.NewReader(exportOf(t, recs, nil, nil)), VerifyOptions{})
	if err != nil || !res.OK() {
		t.Fatalf("the honest log: %v %+v", err, res)
	}
	forged := append(recs[:2:2], recs[3])
	rechain(t, forged)
	res, err = VerifyStream(bytes.NewReader(exportOf(t, forged, nil, nil)), VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK() || !strings.Contains(res.Problem.Reason, "next step number is 2") {
		t.Errorf("step 2 deleted, heads recomputed: %+v", res.Problem)
	}
}

// TestHiddenDrawsCannotBeGuessed: the v1 attack (hash every candidate value
// with the public bytes and compare) has nothing to compare with: a hidden
// draw's commitment is keyed, and no public 32-byte value of the log is its
// key. The same search with the true key finds the value, so the search
// itself works.
func TestHiddenDrawsCannotBeGuessed(t *testing.T) {
	recs, revealed := exampleRecords(t)
	var public []Hash
	for _, r := range recs {
		public = append(public, r.Head)
		switch r.Type {
		case TypeHeader:
			public = append(public, r.Header.OpenCommitment, r.Header.SealedCommitment, Hash(r.Header.Beacon.ChainHash))
		case TypeStep:
			public = append(public, r.Step.OpenLink, r.Step.Digest)
			if r.Step.Round != nil {
				public = append(public, Hash(r.Step.Round.Randomness))
			}
		case TypeReveal:
			public = append(public, r.Reveal.Key)
		}
	}
	_, sealedRoot := kat2Roots()
	for _, r := range recs {
		if r.Type != TypeDraw || r.Draw.Values != nil {
			continue
		}
		d := *r.Draw
		sp, _ := spec.Parse(d.Spec)
		guess := func(keys []Hash) []int64 {
			var found []int64
			for v := int64(0); v < int64(sp.Faces)+int64(sp.Base); v++ {
				d.Values = []int64{v}
				for _, k := range keys {
					if d.Commit(k) == d.Commitment {
						found = append(found, v)
					}
				}
				// v1's attack: an unkeyed hash of the entry.
				if sha256.Sum256(d.AppendE(nil)) == d.Commitment {
					found = append(found, v)
				}
			}
			return found
		}
		if found := guess(public); len(found) != 0 {
			t.Errorf("draw %d (%s of %q): the public log gives its value away: %v", d.Seq, d.Spec, d.Stream, found)
		}
		if found := guess([]Hash{StreamKey(sealedRoot, d.Step, d.Stream)}); len(found) != 1 {
			t.Errorf("draw %d: the true key finds %v, want one value", d.Seq, found)
		}
	}
	// Revealing s(1, "deck") opens nothing else: no other key of the game
	// is derivable from it by the scheme's own functions.
	key := revealed[0].Key
	derived := []Hash{prevLink(key), SealedCommitment(key), StreamKey(key, 1, "cup"), StreamKey(key, 3, "deck"), sha256.Sum256(key[:])}
	for _, other := range []Hash{StreamKey(sealedRoot, 1, "cup"), StreamKey(sealedRoot, 3, "deck"), StreamKey(sealedRoot, 2, "deck")} {
		for _, d := range derived {
			if d == other {
				t.Errorf("a revealed key leads to another: %s", other)
			}
		}
	}
}

// TestBeaconFixesTheDiceAfterTheOrders: with a beacon, D_k depends on the
// round's randomness, so a seat colluding with the operator cannot pick the
// variant of its order file that gives the dice it wants before the round
// is published: the same order list under two rounds gives unrelated dice.
func TestBeaconFixesTheDiceAfterTheOrders(t *testing.T) {
	orders := kat2Orders()
	r1 := kat2Round1000()
	r2 := &beacon.Round{Round: 1001}
	r2.Randomness = sha256.Sum256([]byte("another round"))
	d1 := stepDigestV2("demo-1", 1, "turn-1", orders, r1)
	d2 := stepDigestV2("demo-1", 1, "turn-1", orders, r2)
	if d1 == d2 || d1 == stepDigestV2("demo-1", 1, "turn-1", orders, nil) {
		t.Error("D_k does not depend on the beacon round")
	}
}
