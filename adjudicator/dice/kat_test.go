package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/beacon"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// The known-answer vectors of docs/dice-log.md section 13, umpire-dice-v3
// (the inputs of v2's, with seats A and B joined by the signed bytes
// "join demo-1 A" and "join demo-1 B").

func kat3Header() *Header {
	h := kat2Header()
	h.Scheme = Scheme
	return h
}

func kat3Start(t *testing.T) *Start {
	t.Helper()
	_, sealedRoot := kat2Roots()
	st, err := NewStart(sealedRoot, []string{"B", "A"}, map[string]Hash{
		"A": sha256.Sum256([]byte("join demo-1 A")), "B": sha256.Sum256([]byte("join demo-1 B"))})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func kat3Orders() []OrderEntry {
	_, sealedRoot := kat2Roots()
	return []OrderEntry{
		{Seat: "A", ForStep: 1, Version: 1, Digest: OrderDigest(OrderSalt(sealedRoot, "A"), 1, 1, []byte("orders A"))},
		{Seat: "B", ForStep: 1, Version: 2, Digest: OrderDigest(OrderSalt(sealedRoot, "B"), 1, 2, []byte("orders B"))},
	}
}

// kat3Log appends the header and the start record to a new ledger.
func kat3Log(t *testing.T) (*Ledger, Record, Record) {
	t.Helper()
	var l Ledger
	hdr := Record{Type: TypeHeader, Header: kat3Header()}
	if err := l.Append(&hdr); err != nil {
		t.Fatal(err)
	}
	start := Record{Type: TypeStart, Start: kat3Start(t)}
	if err := l.Append(&start); err != nil {
		t.Fatal(err)
	}
	return &l, hdr, start
}

func TestKnownAnswerV3Salts(t *testing.T) {
	_, sealedRoot := kat2Roots()
	tA, tB := OrderSalt(sealedRoot, "A"), OrderSalt(sealedRoot, "B")
	wantHex(t, "t(A)", tA.bytes(), "87e360b236270fb9e74e01a4a32552bc8adbfe540221cd5de50045200d1c1d9d")
	wantHex(t, "t(B)", tB.bytes(), "61cbde8e54e54cc8b819f1f5937df755d76947d41281171ffa43b83c58c75589")
	wantHex(t, "T(A)", saltCommitment(tA).bytes(), "c6233daed2d8730cd2efc2c1a0a02caee709bd1194cd32e1db6c4191db16f73c")
	wantHex(t, "T(B)", saltCommitment(tB).bytes(), "5bed52c2e781c4a8707470a122ecc4e524d9167ff297c83c5954c9bdfb81f086")
	orders := kat3Orders()
	wantHex(t, "digest A", orders[0].Digest.bytes(), "0d078d7f70e1158aa8eade39b5217649953f56f5d2b7a98f3f11f9a85f319512")
	wantHex(t, "digest B", orders[1].Digest.bytes(), "9a2b6c0ed8d3e7aab5a74375e1b4d8d71a3c29f9e3e9bf124ac77465e45a0665")
	wantHex(t, "digest A (step 3)", OrderDigest(tA, 3, 1, []byte("orders A, step 3")).bytes(),
		"44beb807f63682dda63e2b701457b272f807c6ca8118542c441cea1a6cdd1dc4")
	// The same text for another step, or as another version, has an
	// unrelated digest; and no digest is the unkeyed hash of the text.
	if OrderDigest(tA, 2, 1, []byte("orders A")) == orders[0].Digest || OrderDigest(tA, 1, 2, []byte("orders A")) == orders[0].Digest {
		t.Error("for_step or version does not enter the digest")
	}
	if orders[0].Digest == sha256.Sum256([]byte("orders A")) || OrderDigest(tB, 1, 1, []byte("orders A")) == orders[0].Digest {
		t.Error("the digest does not depend on the seat's salt")
	}
	// A salt is not another derivation of the root: no stream key, and
	// none of the domain strings is a prefix of another.
	if tA == StreamKey(sealedRoot, 0, "A") {
		t.Error("t(A) is a stream key")
	}
	tags := []string{chainTag, tagSealed, tagKey, tagStep, tagStream, tagHide, tagRecord, tagLog, tagSalt, tagSaltC, tagOrder, tagStepV3}
	for i, a := range tags {
		for j, b := range tags {
			if i != j && strings.HasPrefix(b, a) {
				t.Errorf("domain string %q is a prefix of %q", a, b)
			}
		}
	}
	if beacon.MinDelay(3) != 60 || beacon.MinDelay(30) != 300 || beacon.MinDelay(1) != 60 {
		t.Errorf("beacon delay floors %d %d %d, want 60 300 60", beacon.MinDelay(3), beacon.MinDelay(30), beacon.MinDelay(1))
	}
}

func TestKnownAnswerV3Records(t *testing.T) {
	l, hdr, start := kat3Log(t)
	wantHex(t, "open[0]", hdr.Header.OpenCommitment.bytes(), "cdbb73518de3ddccd3d39a7a789786d5b4563e9e1f03e36a7efdd62f20a0e57b")
	wantHex(t, "S", hdr.Header.SealedCommitment.bytes(), "a717413a114e8b0a4b21de10097e2caa7a888e2bc948574e11a325d777e5c673")
	wantHex(t, "r_1", recordHash(TypeHeader, hdr.AppendBody(nil)).bytes(), "140cc8214a8b7d9fea105545e92fb05c2dacd00b595ec7b70debb5b10f0732db")
	wantHex(t, "h_1", hdr.Head.bytes(), "42d28402316a63b50b39ca1f91ec1a55502fc7797b14d4a59b7f0a4e9c5b092b")
	wantHex(t, "join A", start.Start.Seats[0].Join.bytes(), "2362d1c23248a8b100bb5e9be88f25b89659f083192cf46fa61063f08523de2a")
	wantHex(t, "join B", start.Start.Seats[1].Join.bytes(), "11d92547eae5e8fddcbaf4e453f09c952e0c31e8778fd62b547cf850fd7a9a61")
	wantHex(t, "start body", start.AppendBody(nil), strings.Join(strings.Fields(`00000002
		00000001 41 2362d1c23248a8b100bb5e9be88f25b89659f083192cf46fa61063f08523de2a
		c6233daed2d8730cd2efc2c1a0a02caee709bd1194cd32e1db6c4191db16f73c
		00000001 42 11d92547eae5e8fddcbaf4e453f09c952e0c31e8778fd62b547cf850fd7a9a61
		5bed52c2e781c4a8707470a122ecc4e524d9167ff297c83c5954c9bdfb81f086`), ""))
	wantHex(t, "r_2", recordHash(TypeStart, start.AppendBody(nil)).bytes(), "675640b91b7947e36d17520db73d1b462d03e1be1245c141a1c22dff51b5e3cd")
	wantHex(t, "h_2", start.Head.bytes(), "a8a8eb35ef3a3d030c4ce735193cb8c594163161e545a5d501a29607b3f073b9")
	if !l.Started || l.StartHead != start.Head || !slices.Equal(l.Seats, []string{"A", "B"}) {
		t.Errorf("the ledger after the start record: %+v", l)
	}
	// The same header under v2 is another record: the scheme is in it.
	if recordHash(TypeHeader, (&Record{Type: TypeHeader, Header: kat2Header()}).AppendBody(nil)) == recordHash(TypeHeader, hdr.AppendBody(nil)) {
		t.Error("the v2 and v3 headers hash alike")
	}
}

// TestKnownAnswerV3Step plays step 1 of the example game under v3 through
// the ledger and the roller: D_k, the open block, the first draws, the
// hidden shuffle and its commitment, r_3, h_3 and h_8.
func TestKnownAnswerV3Step(t *testing.T) {
	l, _, start := kat3Log(t)
	openRoot, sealedRoot := kat2Roots()
	round := kat2Round1000()
	wantHex(t, "round 1000 randomness", round.Randomness[:], "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd")
	h2 := start.Head
	d := stepDigest(h2, "demo-1", 1, "turn-1", kat3Orders(), round)
	wantHex(t, "D_1", d.bytes(), "5c504c0873317b2ec49166448e092d776f327c208b031f65a27711a60ddf02aa")
	wantHex(t, "D_1 without a beacon", stepDigest(h2, "demo-1", 1, "turn-1", kat3Orders(), nil).bytes(),
		"00b514fa8942682eb2be73971401735715c21a9bd23d5588c610ac2e2291a105")
	if stepDigest(Hash{}, "demo-1", 1, "turn-1", kat3Orders(), round) == d {
		t.Error("D_k does not depend on h_2")
	}
	link := mustLink(t, Chain{Root: openRoot, Length: 8}, 1)
	s := newStream(link, d)
	wantHex(t, "open block 0", s.Block(0).bytes(), "0a24c299c43907ebb563a9194ec14f50874db2601f97b8d7a85ee9678940283d")
	step := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "turn-1", Close: 1692805764, ClosedBy: ClosedByDeadline,
		Orders: kat3Orders(), Round: round, OpenLink: link, Digest: d}}
	if err := l.Append(&step); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "r_3", recordHash(TypeStep, step.AppendBody(nil)).bytes(), "06c0cc501e8cdc718ffbbb6d9876647f0ce84ff81a6afd0c6291b3e7d5c06b1b")
	wantHex(t, "h_3", step.Head.bytes(), "0f460b597416b2dcf99f8e34a5cd20c8ccba06ab180d869edd27f9a7f6efc5c4")
	r := NewStepRoller(l, 1, d, link, []string{"cup", "deck"}, func(n string) (Hash, bool) { return StreamKey(sealedRoot, 1, n), true })
	var got []int
	got = append(got, Roll(r, 2, 6, "example roll")...)
	got = append(got, r.Draw(Open, spec.DiceFrom(1, 10, 0), "example d10 read 0-9")...)
	got = append(got, Roll(r, 1, 20, "example d20")...)
	if want := []int{4, 4, 9, 1}; !slices.Equal(got, want) {
		t.Errorf("first draws = %v, want %v", got, want)
	}
	if r.open.Word() != 4 {
		t.Errorf("next open word %d, want 4", r.open.Word())
	}
	js := r.Draw("deck", spec.Shuffle(5), "example shuffle of five cards")
	if !slices.Equal(js, []int{3, 1, 0, 1}) {
		t.Errorf("shuffle j = %v, want [3 1 0 1]", js)
	}
	items := []string{"a", "b", "c", "d", "e"}
	spec.ApplyShuffle(items, []int64{3, 1, 0, 1})
	if want := []string{"c", "e", "a", "b", "d"}; !slices.Equal(items, want) {
		t.Errorf("shuffled %v, want %v", items, want)
	}
	r.Draw("cup", spec.DiceFrom(1, 10, 0), "hidden strength chit")
	wantHex(t, "c_4", r.Records()[3].Draw.Commitment.bytes(), "6781d0e2afcb8d6fd93c661f701009a6a5462df0853f92b56b88c2c67dae63d8")
	wantHex(t, "h_8", l.Head.bytes(), "3802eae725c593a9fb086b1487363bdc518c05f7080c9a8bd4fb4e4a3228b1fa")
	if l.Records != 8 || l.Seq != 5 {
		t.Errorf("ledger at %d records, seq %d; want 8, 5", l.Records, l.Seq)
	}
}

// TestLedgerV3Places: the ledger refuses what v3 forbids: a record other
// than the start record (or the end) as record 2, a start record
// elsewhere, an order entry of a seat the start record does not name, a
// close going backwards, and a header asking for a beacon delay under the
// floor.
func TestLedgerV3Places(t *testing.T) {
	openRoot, _ := kat2Roots()
	link := mustLink(t, Chain{Root: openRoot, Length: 8}, 1)
	var l Ledger
	hdr := Record{Type: TypeHeader, Header: kat3Header()}
	if err := l.Append(&hdr); err != nil {
		t.Fatal(err)
	}
	early := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "p", OpenLink: link, Orders: []OrderEntry{}}}
	if err := (&Ledger{Head: l.Head, Records: 1, L: 8, V3: true}).Append(&early); err == nil {
		t.Error("a step record before the start record is accepted")
	}
	start := Record{Type: TypeStart, Start: kat3Start(t)}
	if err := l.Append(&start); err != nil {
		t.Fatal(err)
	}
	again := Record{Type: TypeStart, Start: kat3Start(t)}
	if err := l.Append(&again); err == nil {
		t.Error("a second start record is accepted")
	}
	stranger := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "p", Close: 100, Orders: []OrderEntry{{Seat: "C", ForStep: 1, Version: 1}}}}
	if err := l.Append(&stranger); err == nil {
		t.Error("an order entry of a seat the start record does not name is accepted")
	}
	first := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "p", Close: 100, Orders: []OrderEntry{}}}
	if err := l.Append(&first); err != nil {
		t.Fatal(err)
	}
	back := Record{Type: TypeStep, Step: &Step{K: 2, Phase: "p", Close: 99, Orders: []OrderEntry{}}}
	if err := l.Append(&back); err == nil {
		t.Error("a close going backwards is accepted")
	}
	same := Record{Type: TypeStep, Step: &Step{K: 2, Phase: "p", Close: 100, Orders: []OrderEntry{}}}
	if err := l.Append(&same); err != nil {
		t.Errorf("an equal close: %v", err)
	}
	short := kat3Header()
	short.Beacon.Delay = 59
	if err := (&Ledger{}).Append(&Record{Type: TypeHeader, Header: short}); err == nil {
		t.Error("a v3 header with a beacon delay of 59 s is accepted")
	}
	v2 := kat2Header()
	v2.Beacon.Delay = 0
	if err := (&Ledger{}).Append(&Record{Type: TypeHeader, Header: v2}); err != nil {
		t.Errorf("a v2 header keeps its delay of 0: %v", err)
	}
}

// The known-answer vectors of docs/dice-log.md section 13 (umpire-dice-v2).

func kat2Roots() (open, sealed Hash) {
	open[31], sealed[31] = 1, 2
	return
}

func kat2Header() *Header {
	openRoot, sealedRoot := kat2Roots()
	c := Chain{Root: openRoot, Length: 8}
	b := beacon.Quicknet
	return &Header{Game: "demo-1", Rules: "demo", RulesVersion: "1", ChainLength: 8, OpenCommitment: c.Commitment(),
		SealedCommitment: SealedCommitment(sealedRoot), Streams: []string{"cup", "deck"}, Beacon: &b}
}

func kat2Orders() []OrderEntry {
	return []OrderEntry{
		{Seat: "A", ForStep: 1, Version: 1, Digest: sha256.Sum256([]byte("orders A"))},
		{Seat: "B", ForStep: 1, Version: 2, Digest: sha256.Sum256([]byte("orders B"))},
	}
}

func kat2Round1000() *beacon.Round {
	r := &beacon.Round{Round: 1000, Signature: [48]byte(mustHex("b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39"))}
	r.Randomness = sha256.Sum256(r.Signature[:])
	return r
}

func TestKnownAnswerV2Secrets(t *testing.T) {
	openRoot, sealedRoot := kat2Roots()
	c := Chain{Root: openRoot, Length: 8}
	wantHex(t, "open[0]", c.Commitment().bytes(), "cdbb73518de3ddccd3d39a7a789786d5b4563e9e1f03e36a7efdd62f20a0e57b")
	wantHex(t, "open[1]", mustLink(t, c, 1).bytes(), "4bfcdea9e50f6bf3ee561645fb9866fd6dbef26eee8a2e8f18f4ff5e6104430d")
	wantHex(t, "S", SealedCommitment(sealedRoot).bytes(), "a717413a114e8b0a4b21de10097e2caa7a888e2bc948574e11a325d777e5c673")
	wantHex(t, `s(1, "deck")`, StreamKey(sealedRoot, 1, "deck").bytes(), "0c65d7a910c348b4252e146da72bb5ee91451fd276de0ff2c8f52a9557c53da1")
	wantHex(t, `s(1, "cup")`, StreamKey(sealedRoot, 1, "cup").bytes(), "525265a8e06c9e60e41cb6ad9ce8c22a48f40f93535d091915e4e32bc3a36a55")
	wantHex(t, `s(3, "deck")`, StreamKey(sealedRoot, 3, "deck").bytes(), "1ef79658f76e710962ece7c6b6a30ace81eaa06ea8b9d46c4fd5866ebc03525f")
}

func TestKnownAnswerV2Header(t *testing.T) {
	h := kat2Header()
	rec := Record{Type: TypeHeader, Header: h}
	r1 := recordHash(TypeHeader, rec.AppendBody(nil))
	wantHex(t, "r_1", r1.bytes(), "548d55e4b24cc6b600be68ced22d0aca0b0322d90fc479bf922c1fba6c6bff81")
	var l Ledger
	if err := l.Append(&rec); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "h_1", rec.Head.bytes(), "02fc311c8e84bf0f9aee440bb48f30cda2d79c3206f0d1b36d3d721f81f31b75")
}

func TestKnownAnswerV2Beacon(t *testing.T) {
	b := beacon.Quicknet
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
	wantHex(t, "round 1000 randomness", round.Randomness[:], "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd")
	v, err := beacon.NewVerifier(b)
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
	d := stepDigestV2("demo-1", 1, "turn-1", orders, round)
	wantHex(t, "D_1", d.bytes(), "f087a234c1dc457b94c7cee87b31ec54a9993bfcae5847cdc47d26cec16905a8")
	wantHex(t, "D_1 without a beacon", stepDigestV2("demo-1", 1, "turn-1", orders, nil).bytes(),
		"f3712dbc57b3a45898199906dbac5430f8e3989c53b37b1ddcac418373395e6c")
	openRoot, sealedRoot := kat2Roots()
	o1 := mustLink(t, Chain{Root: openRoot, Length: 8}, 1)
	s := newStream(o1, d)
	wantHex(t, "open block 0", s.Block(0).bytes(), "f8b4b7ceaa97a659f3809a71a5938c492bcb9b23d340ce0711d58c4d120490ad")
	var got []int64
	for _, sp := range []spec.Spec{spec.Dice(1, 6), spec.Dice(1, 6), spec.DiceFrom(1, 10, 0), spec.Dice(1, 20)} {
		got = s.Draw(sp, got)
	}
	if want := []int64{5, 4, 3, 6}; !slices.Equal(got, want) {
		t.Errorf("first draws = %v, want %v", got, want)
	}
	if s.Word() != 4 {
		t.Errorf("next open word %d, want 4", s.Word())
	}
	deck := newStream(StreamKey(sealedRoot, 1, "deck"), d)
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
	d := stepDigestV2("demo-1", 1, "turn-1", kat2Orders(), round)
	step := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "turn-1", Close: 1692805764, ClosedBy: ClosedByDeadline,
		Orders: kat2Orders(), Round: round, OpenLink: mustLink(t, Chain{Root: openRoot, Length: 8}, 1), Digest: d}}
	if err := l.Append(&step); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "r_2", recordHash(TypeStep, step.AppendBody(nil)).bytes(), "8fb62a40c30d1fd2976dcdfc7f69a45de2ec2d1beb6d15d26e6685ed54cb35ff")
	wantHex(t, "h_2", step.Head.bytes(), "4e1b2d91529bc6c71b539492272d3b4abb08d3ea732696d3fc542dfa3beaf1a3")
	r := NewStepRoller(&l, 1, d, step.Step.OpenLink, []string{"cup", "deck"}, func(n string) (Hash, bool) { return StreamKey(sealedRoot, 1, n), true })
	if v := Roll(r, 2, 6, "example roll"); !slices.Equal(v, []int{5, 4}) {
		t.Errorf("2d6 = %v", v)
	}
	r.Draw(Open, spec.DiceFrom(1, 10, 0), "example d10 read 0-9")
	Roll(r, 1, 20, "example d20")
	js := r.Draw("deck", spec.Shuffle(5), "example shuffle of five cards")
	if !slices.Equal(js, []int{1, 1, 1, 0}) {
		t.Errorf("shuffle j = %v, want [1 1 1 0]", js)
	}
	items := []string{"a", "b", "c", "d", "e"}
	spec.ApplyShuffle(items, []int64{1, 1, 1, 0})
	if want := []string{"c", "a", "d", "e", "b"}; !slices.Equal(items, want) {
		t.Errorf("shuffled %v, want %v", items, want)
	}
	r.Draw("cup", spec.DiceFrom(1, 10, 0), "hidden strength chit")
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

func mustLink(t *testing.T, c Chain, i uint64) Hash {
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

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
