package legacy

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// katChains are the chains of the known-answer vectors in docs/dice-log.md:
// roots of 31 zero bytes then 0x01 (open) and 0x02 (sealed), length 8.
func katChains() (open, sealed dice.Chain) {
	open = dice.Chain{Prev: PrevLink, Length: 8}
	open.Root[31] = 1
	sealed = dice.Chain{Prev: PrevLink, Length: 8}
	sealed.Root[31] = 2
	return open, sealed
}

func katDigest() dice.Hash {
	return StepDigest("demo-1", 1, "turn-1", []dice.Hash{
		sha256.Sum256([]byte("orders A")), sha256.Sum256([]byte("orders B")),
	})
}

func mustLink(t *testing.T, c dice.Chain, i uint64) dice.Hash {
	t.Helper()
	l, err := c.Link(i)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func wantHex(t *testing.T, name string, got []byte, want string) {
	t.Helper()
	if g := hex.EncodeToString(got); g != want {
		t.Errorf("%s = %s, want %s", name, g, want)
	}
}

func TestKnownAnswerChains(t *testing.T) {
	open, sealed := katChains()
	o0, o1, s0 := open.Commitment(), mustLink(t, open, 1), sealed.Commitment()
	wantHex(t, "open[0]", o0[:], "a02c197e066811856464a2a85c7e8cb5f8168526feea604c46cae50d6842dc55")
	wantHex(t, "open[1]", o1[:], "a7c1badb48418e64e08352699d39c6bc69347b8306071d3427719900bf3562b0")
	wantHex(t, "sealed[0]", s0[:], "24f6ce45e76250a1f0d6780e3a5eb4b6b1147a32565fab8eb3f8c851005c54c5")
	if PrevLink(o1) != o0 || !LinkReaches(open.Root, 8, o0) {
		t.Error("links do not hash back to the commitment")
	}
	if _, err := open.Link(9); err == nil {
		t.Error("link 9 of a chain of 8 was given")
	}
}

func TestKnownAnswerStepDigest(t *testing.T) {
	d := katDigest()
	wantHex(t, "D_1", d[:], "e0e05a3ee7d56cf9a927d7b2473c7b3222412ff89c292841ca9ad626698d6f1c")
	// The digests are sorted before hashing: order of arrival does not matter.
	rev := StepDigest("demo-1", 1, "turn-1", []dice.Hash{
		sha256.Sum256([]byte("orders B")), sha256.Sum256([]byte("orders A")),
	})
	if rev != d {
		t.Error("D_1 depends on the order the order files arrived in")
	}
	if StepDigest("demo-1", 1, "turn-1", nil) == d {
		t.Error("D_1 does not depend on the orders")
	}
}

func TestKnownAnswerOpenStream(t *testing.T) {
	open, _ := katChains()
	s := dice.NewStream(streamTag, mustLink(t, open, 1), katDigest())
	b0 := s.Block(0)
	wantHex(t, "open stream block 0", b0[:], "92043cb520bbb548e98eefc11a813be7eb119921dbc061541628295eafab63ff")
	var got []int64
	for _, sp := range []spec.Spec{spec.Dice(1, 6), spec.Dice(1, 6), spec.DiceFrom(1, 10, 0), spec.Dice(1, 20)} {
		got = s.Draw(sp, got)
	}
	if want := []int64{2, 5, 7, 16}; !slices.Equal(got, want) {
		t.Errorf("first draws d6, d6, d10(0-9), d20 = %v, want %v", got, want)
	}
	if s.Word() != 4 {
		t.Errorf("next word index = %d, want 4", s.Word())
	}
}

func TestKnownAnswerShuffle(t *testing.T) {
	_, sealed := katChains()
	s := dice.NewStream(streamTag, mustLink(t, sealed, 1), katDigest())
	js := s.Draw(spec.Shuffle(5), nil)
	if want := []int64{1, 0, 0, 0}; !slices.Equal(js, want) {
		t.Fatalf("shuffle of 5 drew j = %v, want %v", js, want)
	}
	items := []string{"a", "b", "c", "d", "e"}
	spec.ApplyShuffle(items, js)
	if want := []string{"e", "c", "d", "a", "b"}; !slices.Equal(items, want) {
		t.Errorf("shuffled = %v, want %v", items, want)
	}
}

func TestKnownAnswerLog(t *testing.T) {
	open, sealed := katChains()
	h0 := LogStart(open.Commitment(), sealed.Commitment())
	wantHex(t, "h_0", h0[:], "225e2c0a6fde8eb79b3ed55fc4752f69b9fbcdb249a04181a50635d74a6ce5c6")
	e := Entry{Seq: 1, Step: 1, Stream: StreamOpen, Word: 0, Spec: "2d6", Values: []int64{2, 5}, Purpose: "example roll"}
	wantHex(t, "E_1", e.AppendBinary(nil),
		"000000000000000100000000000000010000000000000000000000000332643600000002000000000000000200000000000000050000000c6578616d706c6520726f6c6c")
	h1 := NextHash(h0, &e)
	wantHex(t, "h_1", h1[:], "9acfd3088b6ea94aeecccba1b3e79af67fb731ce065b9f82a00794d917fddf29")

	// The same entry made through a StepRoller: values, word and hash agree.
	log := NewLog(open.Commitment(), sealed.Commitment())
	r := NewStepRoller(log, 1, katDigest(), mustLink(t, open, 1), mustLink(t, sealed, 1))
	if got := dice.Roll(r, 2, 6, "example roll"); !slices.Equal(got, []int{2, 5}) {
		t.Fatalf("roller 2d6 = %v, want [2 5]", got)
	}
	if rec := r.Records()[0]; rec.Hash != h1 || rec.Word != 0 || rec.Spec != "2d6" {
		t.Errorf("roller record = %+v, want hash h_1 at word 0", rec)
	}
	if log.Head() != h1 || log.Seq() != 1 {
		t.Errorf("log head/seq = %s/%d, want h_1/1", log.Head(), log.Seq())
	}
}

// TestChainCheckpoints: links taken from checkpoints are the links.
func TestChainCheckpoints(t *testing.T) {
	plain := dice.Chain{Prev: PrevLink, Root: sha256.Sum256([]byte("cp")), Length: 5000}
	fast := plain.WithCheckpoints()
	if len(fast.Checkpoints) != 5 || fast.Checkpoints[0] != plain.Commitment() {
		t.Fatalf("%d checkpoints, first %s", len(fast.Checkpoints), fast.Checkpoints[0])
	}
	for _, i := range []uint64{0, 1, 1023, 1024, 1025, 2048, 4095, 4096, 4999, 5000} {
		a, _ := plain.Link(i)
		b, _ := fast.Link(i)
		if a != b {
			t.Errorf("link %d differs with checkpoints", i)
		}
	}
}

// TestChainsDifferByScheme: v1 and v2 chains of the same root differ: the
// tag is in every link.
func TestChainsDifferByScheme(t *testing.T) {
	openRoot := dice.Hash{31: 1} // the open root of the v2 vectors
	v2 := dice.Chain{Root: openRoot, Length: 8}
	v1 := Chain(openRoot, 8, nil)
	if v1.Commitment() == v2.Commitment() {
		t.Error("v1 and v2 chains give the same commitment")
	}
}
