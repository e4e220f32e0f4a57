package dice

import (
	"crypto/sha256"
	"slices"
	"strings"
	"testing"
)

// The known-answer vectors of docs/dice-log.md section 13 (umpire-dice-v2).

func kat2Roots() (open, sealed Hash) {
	open[31], sealed[31] = 1, 2
	return
}

func kat2Header() *Header {
	openRoot, sealedRoot := kat2Roots()
	c := Chain{Root: openRoot, Length: 8, V2: true}
	b := Quicknet
	return &Header{Game: "demo-1", Rules: "demo", RulesVersion: "1", ChainLength: 8, OpenCommitment: c.Commitment(),
		SealedCommitment: SealedCommitment(sealedRoot), Streams: []string{"cup", "deck"}, Beacon: &b}
}

func kat2Orders() []OrderEntry {
	return []OrderEntry{
		{Seat: "A", ForStep: 1, Version: 1, Digest: sha256.Sum256([]byte("orders A"))},
		{Seat: "B", ForStep: 1, Version: 2, Digest: sha256.Sum256([]byte("orders B"))},
	}
}

func kat2Round1000() *BeaconRound {
	r := &BeaconRound{Round: 1000, Signature: [48]byte(mustHex("b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"))}
	r.Randomness = sha256.Sum256(r.Signature[:])
	return r
}

func TestKnownAnswerV2Secrets(t *testing.T) {
	openRoot, sealedRoot := kat2Roots()
	c := Chain{Root: openRoot, Length: 8, V2: true}
	wantHex(t, "open[0]", c.Commitment().bytes(), "cdbb73518de3ddccd3d39a7a789786d5b4563e9e1f03e36a7efdd62f20a0e57b")
	wantHex(t, "open[1]", mustLink(t, c, 1).bytes(), "4bfcdea9e50f6bf3ee561645fb9866fd6dbef26eee8a2e8f18f4ff5e6104430d")
	wantHex(t, "S", SealedCommitment(sealedRoot).bytes(), "a717413a114e8b0a4b21de10097e2caa7a888e2bc948574e11a325d777e5c673")
	wantHex(t, `s(1, "deck")`, StreamKey(sealedRoot, 1, "deck").bytes(), "0c65d7a910c348b4252e146da72bb5ee91451fd276de0ff2c8f52a9557c53da1")
	wantHex(t, `s(1, "cup")`, StreamKey(sealedRoot, 1, "cup").bytes(), "525265a8e06c9e60e41cb6ad9ce8c22a48f40f93535d091915e4e32bc3a36a55")
	wantHex(t, `s(3, "deck")`, StreamKey(sealedRoot, 3, "deck").bytes(), "1ef79658f76e710962ece7c6b6a30ace81eaa06ea8b9d46c4fd5866ebc03525f")
	// v1 and v2 chains of the same root differ: the tag is in every link.
	v1 := Chain{Root: openRoot, Length: 8}
	if v1.Commitment() == c.Commitment() {
		t.Error("v1 and v2 chains give the same commitment")
	}
}

func TestKnownAnswerV2Header(t *testing.T) {
	h := kat2Header()
	rec := Record{Type: TypeHeader, Header: h}
	r1 := RecordHash(TypeHeader, rec.AppendBody(nil))
	wantHex(t, "r_1", r1.bytes(), "548d55e4b24cc6b600be68ced22d0aca0b0322d90fc479bf922c1fba6c6bff81")
	var l Ledger
	if err := l.Append(&rec); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "h_1", rec.Head.bytes(), "02fc311c8e84bf0f9aee440bb48f30cda2d79c3206f0d1b36d3d721f81f31b75")
}

func TestKnownAnswerV2Beacon(t *testing.T) {
	b := Quicknet
	if r := b.RoundFor(1692805764); r != 1000 {
		t.Errorf("R for close 1692805764 = %d, want 1000", r)
	}
	if tm := b.RoundTime(1000); tm != 1692806364 {
		t.Errorf("time(1000) = %d, want 1692806364", tm)
	}
	// R is the first round at or after close + delay: one second later is
	// the next round.
	if r := b.RoundFor(1692805765); r != 1001 {
		t.Errorf("R for close 1692805765 = %d, want 1001", r)
	}
	if r := b.RoundFor(0); r != 1 {
		t.Errorf("R before genesis = %d, want 1", r)
	}
	round := kat2Round1000()
	wantHex(t, "round 1000 randomness", round.Randomness.bytes(), "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd")
	v, err := NewBeaconVerifier(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Check(1692805764, round); err != nil {
		t.Errorf("quicknet round 1000: %v", err)
	}
	if b.Network() != "drand quicknet" {
		t.Errorf("quicknet is named %q", b.Network())
	}
	bad := *round
	bad.Round = 1001
	if err := v.CheckRound(&bad); err == nil {
		t.Error("round 1000's signature passes as round 1001's")
	}
	bad = *round
	bad.Signature[5] ^= 1
	bad.Randomness = sha256.Sum256(bad.Signature[:])
	if err := v.CheckRound(&bad); err == nil {
		t.Error("a changed signature verifies")
	}
	if err := v.Check(1692805770, round); err == nil {
		t.Error("round 1000 accepted for a step that closed later")
	}
}

func TestKnownAnswerV2Step(t *testing.T) {
	orders := kat2Orders()
	wantHex(t, "digest A", orders[0].Digest.bytes(), "0ab735c00fefa9205071e38183c9d96b9d55030610c55c412eae66edd114ea44")
	wantHex(t, "digest B", orders[1].Digest.bytes(), "39c82ec12d34adc57894e1808bedf6cbb3be0329c70be1308756be9f0e68f9c1")
	round := kat2Round1000()
	d := StepDigestV2("demo-1", 1, "turn-1", orders, round)
	wantHex(t, "D_1", d.bytes(), "f087a234c1dc457b94c7cee87b31ec54a9993bfcae5847cdc47d26cec16905a8")
	wantHex(t, "D_1 without a beacon", StepDigestV2("demo-1", 1, "turn-1", orders, nil).bytes(),
		"f3712dbc57b3a45898199906dbac5430f8e3989c53b37b1ddcac418373395e6c")
	openRoot, sealedRoot := kat2Roots()
	o1 := mustLink(t, Chain{Root: openRoot, Length: 8, V2: true}, 1)
	s := NewStreamV2(o1, d)
	wantHex(t, "open block 0", s.Block(0).bytes(), "f8b4b7ceaa97a659f3809a71a5938c492bcb9b23d340ce0711d58c4d120490ad")
	var got []int64
	for _, spec := range []Spec{Dice(1, 6), Dice(1, 6), DiceFrom(1, 10, 0), Dice(1, 20)} {
		got = spec.Draw(s, got)
	}
	if want := []int64{5, 4, 3, 6}; !slices.Equal(got, want) {
		t.Errorf("first draws = %v, want %v", got, want)
	}
	if s.Word() != 4 {
		t.Errorf("next open word %d, want 4", s.Word())
	}
	deck := NewStreamV2(StreamKey(sealedRoot, 1, "deck"), d)
	wantHex(t, "deck block 0", deck.Block(0).bytes(), "1e715f9e15fd80e9551f921b37b0536816a60a7cffab962a7e83aed3441b9a30")
}

// TestKnownAnswerV2Log plays step 1 of the example game through the ledger
// and the roller and checks r_2, h_2, E_4, c_4 and h_7.
func TestKnownAnswerV2Log(t *testing.T) {
	var l Ledger
	hdr := Record{Type: TypeHeader, Header: kat2Header()}
	if err := l.Append(&hdr); err != nil {
		t.Fatal(err)
	}
	openRoot, sealedRoot := kat2Roots()
	round := kat2Round1000()
	d := StepDigestV2("demo-1", 1, "turn-1", kat2Orders(), round)
	step := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "turn-1", Close: 1692805764, ClosedBy: ClosedByDeadline,
		Orders: kat2Orders(), Round: round, OpenLink: mustLink(t, Chain{Root: openRoot, Length: 8, V2: true}, 1), Digest: d}}
	if err := l.Append(&step); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "r_2", RecordHash(TypeStep, step.AppendBody(nil)).bytes(), "8fb62a40c30d1fd2976dcdfc7f69a45de2ec2d1beb6d15d26e6685ed54cb35ff")
	wantHex(t, "h_2", step.Head.bytes(), "4e1b2d91529bc6c71b539492272d3b4abb08d3ea732696d3fc542dfa3beaf1a3")
	r := NewStepRollerV2(&l, 1, d, step.Step.OpenLink, []string{"cup", "deck"}, func(n string) (Hash, bool) { return StreamKey(sealedRoot, 1, n), true })
	if v := Roll(r, 2, 6, "example roll"); !slices.Equal(v, []int{5, 4}) {
		t.Errorf("2d6 = %v", v)
	}
	RollFrom(r, 1, 10, 0, "example d10 read 0-9")
	Roll(r, 1, 20, "example d20")
	js := r.Draw("deck", ShuffleOf(5), "example shuffle of five cards")
	if !slices.Equal(js, []int{1, 1, 1, 0}) {
		t.Errorf("shuffle j = %v, want [1 1 1 0]", js)
	}
	items := []string{"a", "b", "c", "d", "e"}
	ApplyShuffle(items, []int64{1, 1, 1, 0})
	if want := []string{"c", "a", "d", "e", "b"}; !slices.Equal(items, want) {
		t.Errorf("shuffled %v, want %v", items, want)
	}
	r.Draw("cup", DiceFrom(1, 10, 0), "hidden strength chit")
	recs := r.Records()
	e4 := recs[3].Draw.AppendE(nil)
	wantHex(t, "E_4", e4, strings.Join(strings.Fields(`0000000000000004 0000000000000001 01 00000004 6465636b 0000000000000000 00000009 73687566666c652035
     00000004 0000000000000001 0000000000000001 0000000000000001 0000000000000000
     0000001d 6578616d706c652073687566666c65206f662066697665206361726473`), ""))
	wantHex(t, "c_4", recs[3].Draw.Commitment.bytes(), "d5ed421b146d5dd65cb6f2a41254ff031191ecd7d23d7164b40c272027348946")
	wantHex(t, "h_7", l.Head.bytes(), "1415585819d11d0dcfa467539c9616299e1a8c640d674700e83c93bd85eb6be4")
	if l.Records != 7 || l.Seq != 5 {
		t.Errorf("ledger at %d records, seq %d; want 7, 5", l.Records, l.Seq)
	}
}
