package dice

import (
	"crypto/sha256"
	"slices"
	"strings"
	"testing"
)

// The known-answer vectors of docs/dice-log.md section 13, umpire-dice-v3
// (the inputs of v2's, with seats A and B joined by the signed bytes
// "join demo-1 A" and "join demo-1 B").

func kat3Header() *Header {
	h := kat2Header()
	h.Scheme = SchemeV3
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
		{Seat: "A", ForStep: 1, Version: 1, Digest: OrderDigestV3(OrderSalt(sealedRoot, "A"), 1, 1, []byte("orders A"))},
		{Seat: "B", ForStep: 1, Version: 2, Digest: OrderDigestV3(OrderSalt(sealedRoot, "B"), 1, 2, []byte("orders B"))},
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
	wantHex(t, "T(A)", SaltCommitment(tA).bytes(), "c6233daed2d8730cd2efc2c1a0a02caee709bd1194cd32e1db6c4191db16f73c")
	wantHex(t, "T(B)", SaltCommitment(tB).bytes(), "5bed52c2e781c4a8707470a122ecc4e524d9167ff297c83c5954c9bdfb81f086")
	orders := kat3Orders()
	wantHex(t, "digest A", orders[0].Digest.bytes(), "0d078d7f70e1158aa8eade39b5217649953f56f5d2b7a98f3f11f9a85f319512")
	wantHex(t, "digest B", orders[1].Digest.bytes(), "9a2b6c0ed8d3e7aab5a74375e1b4d8d71a3c29f9e3e9bf124ac77465e45a0665")
	wantHex(t, "digest A (step 3)", OrderDigestV3(tA, 3, 1, []byte("orders A, step 3")).bytes(),
		"44beb807f63682dda63e2b701457b272f807c6ca8118542c441cea1a6cdd1dc4")
	// The same text for another step, or as another version, has an
	// unrelated digest; and no digest is the unkeyed hash of the text.
	if OrderDigestV3(tA, 2, 1, []byte("orders A")) == orders[0].Digest || OrderDigestV3(tA, 1, 2, []byte("orders A")) == orders[0].Digest {
		t.Error("for_step or version does not enter the digest")
	}
	if orders[0].Digest == sha256.Sum256([]byte("orders A")) || OrderDigestV3(tB, 1, 1, []byte("orders A")) == orders[0].Digest {
		t.Error("the digest does not depend on the seat's salt")
	}
	// A salt is not another derivation of the root: no stream key, and
	// none of the domain strings is a prefix of another.
	if tA == StreamKey(sealedRoot, 0, "A") {
		t.Error("t(A) is a stream key")
	}
	tags := []string{chainTagV2, tagSealed, tagKey, tagStep, tagStream, tagHide, tagRecord, tagLog, tagSalt, tagSaltC, tagOrder, tagStepV3}
	for i, a := range tags {
		for j, b := range tags {
			if i != j && strings.HasPrefix(b, a) {
				t.Errorf("domain string %q is a prefix of %q", a, b)
			}
		}
	}
	if MinBeaconDelay(3) != 60 || MinBeaconDelay(30) != 300 || MinBeaconDelay(1) != 60 {
		t.Errorf("beacon delay floors %d %d %d, want 60 300 60", MinBeaconDelay(3), MinBeaconDelay(30), MinBeaconDelay(1))
	}
}

func TestKnownAnswerV3Records(t *testing.T) {
	l, hdr, start := kat3Log(t)
	wantHex(t, "open[0]", hdr.Header.OpenCommitment.bytes(), "cdbb73518de3ddccd3d39a7a789786d5b4563e9e1f03e36a7efdd62f20a0e57b")
	wantHex(t, "S", hdr.Header.SealedCommitment.bytes(), "a717413a114e8b0a4b21de10097e2caa7a888e2bc948574e11a325d777e5c673")
	wantHex(t, "r_1", RecordHash(TypeHeader, hdr.AppendBody(nil)).bytes(), "140cc8214a8b7d9fea105545e92fb05c2dacd00b595ec7b70debb5b10f0732db")
	wantHex(t, "h_1", hdr.Head.bytes(), "42d28402316a63b50b39ca1f91ec1a55502fc7797b14d4a59b7f0a4e9c5b092b")
	wantHex(t, "join A", start.Start.Seats[0].Join.bytes(), "2362d1c23248a8b100bb5e9be88f25b89659f083192cf46fa61063f08523de2a")
	wantHex(t, "join B", start.Start.Seats[1].Join.bytes(), "11d92547eae5e8fddcbaf4e453f09c952e0c31e8778fd62b547cf850fd7a9a61")
	wantHex(t, "start body", start.AppendBody(nil), strings.Join(strings.Fields(`00000002
		00000001 41 2362d1c23248a8b100bb5e9be88f25b89659f083192cf46fa61063f08523de2a
		c6233daed2d8730cd2efc2c1a0a02caee709bd1194cd32e1db6c4191db16f73c
		00000001 42 11d92547eae5e8fddcbaf4e453f09c952e0c31e8778fd62b547cf850fd7a9a61
		5bed52c2e781c4a8707470a122ecc4e524d9167ff297c83c5954c9bdfb81f086`), ""))
	wantHex(t, "r_2", RecordHash(TypeStart, start.AppendBody(nil)).bytes(), "675640b91b7947e36d17520db73d1b462d03e1be1245c141a1c22dff51b5e3cd")
	wantHex(t, "h_2", start.Head.bytes(), "a8a8eb35ef3a3d030c4ce735193cb8c594163161e545a5d501a29607b3f073b9")
	if !l.Started || l.StartHead != start.Head || !slices.Equal(l.Seats, []string{"A", "B"}) {
		t.Errorf("the ledger after the start record: %+v", l)
	}
	// The same header under v2 is another record: the scheme is in it.
	if RecordHash(TypeHeader, (&Record{Type: TypeHeader, Header: kat2Header()}).AppendBody(nil)) == RecordHash(TypeHeader, hdr.AppendBody(nil)) {
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
	wantHex(t, "round 1000 randomness", round.Randomness.bytes(), "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd")
	h2 := start.Head
	d := StepDigestV3(h2, "demo-1", 1, "turn-1", kat3Orders(), round)
	wantHex(t, "D_1", d.bytes(), "5c504c0873317b2ec49166448e092d776f327c208b031f65a27711a60ddf02aa")
	wantHex(t, "D_1 without a beacon", StepDigestV3(h2, "demo-1", 1, "turn-1", kat3Orders(), nil).bytes(),
		"00b514fa8942682eb2be73971401735715c21a9bd23d5588c610ac2e2291a105")
	if StepDigestV3(Hash{}, "demo-1", 1, "turn-1", kat3Orders(), round) == d {
		t.Error("D_k does not depend on h_2")
	}
	link := mustLink(t, Chain{Root: openRoot, Length: 8, V2: true}, 1)
	s := NewStreamV2(link, d)
	wantHex(t, "open block 0", s.Block(0).bytes(), "0a24c299c43907ebb563a9194ec14f50874db2601f97b8d7a85ee9678940283d")
	step := Record{Type: TypeStep, Step: &Step{K: 1, Phase: "turn-1", Close: 1692805764, ClosedBy: ClosedByDeadline,
		Orders: kat3Orders(), Round: round, OpenLink: link, Digest: d}}
	if err := l.Append(&step); err != nil {
		t.Fatal(err)
	}
	wantHex(t, "r_3", RecordHash(TypeStep, step.AppendBody(nil)).bytes(), "06c0cc501e8cdc718ffbbb6d9876647f0ce84ff81a6afd0c6291b3e7d5c06b1b")
	wantHex(t, "h_3", step.Head.bytes(), "0f460b597416b2dcf99f8e34a5cd20c8ccba06ab180d869edd27f9a7f6efc5c4")
	r := NewStepRollerV2(l, 1, d, link, []string{"cup", "deck"}, func(n string) (Hash, bool) { return StreamKey(sealedRoot, 1, n), true })
	var got []int
	got = append(got, Roll(r, 2, 6, "example roll")...)
	got = append(got, RollFrom(r, 1, 10, 0, "example d10 read 0-9")...)
	got = append(got, Roll(r, 1, 20, "example d20")...)
	if want := []int{4, 4, 9, 1}; !slices.Equal(got, want) {
		t.Errorf("first draws = %v, want %v", got, want)
	}
	if r.open.Word() != 4 {
		t.Errorf("next open word %d, want 4", r.open.Word())
	}
	js := r.Draw("deck", ShuffleOf(5), "example shuffle of five cards")
	if !slices.Equal(js, []int{3, 1, 0, 1}) {
		t.Errorf("shuffle j = %v, want [3 1 0 1]", js)
	}
	items := []string{"a", "b", "c", "d", "e"}
	ApplyShuffle(items, []int64{3, 1, 0, 1})
	if want := []string{"c", "e", "a", "b", "d"}; !slices.Equal(items, want) {
		t.Errorf("shuffled %v, want %v", items, want)
	}
	r.Draw("cup", DiceFrom(1, 10, 0), "hidden strength chit")
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
	link := mustLink(t, Chain{Root: openRoot, Length: 8, V2: true}, 1)
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
