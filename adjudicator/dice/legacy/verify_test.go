package legacy

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/dice/spec"
)

// sampleExport plays three steps of a made-up game through StepRollers and
// exports its log: step 1 rolls open dice, step 2 shuffles a deck and deals
// on its sealed stream (revealed), step 3 draws a hidden chit (not revealed).
func sampleExport(t testing.TB) *Export {
	t.Helper()
	// Fixed roots keep every run the same; production roots come from crypto/rand.
	open := dice.Chain{Prev: PrevLink, Root: sha256.Sum256([]byte("sample open root")), Length: 16}
	sealed := dice.Chain{Prev: PrevLink, Root: sha256.Sum256([]byte("sample sealed root")), Length: 16}
	x := NewExport("club-kosovo-3", 16, open.Commitment(), sealed.Commitment())
	log := NewLog(open.Commitment(), sealed.Commitment())
	play := func(step uint64, phase string, orders []string, revealSealed bool, draw func(r dice.Roller)) {
		var ds []dice.Hash
		for _, o := range orders {
			ds = append(ds, OrderDigest([]byte(o)))
		}
		d := StepDigest(x.Game, step, phase, ds)
		ol, _ := open.Link(step)
		sl, _ := sealed.Link(step)
		r := NewStepRoller(log, step, d, ol, sl)
		draw(r)
		s := ExportStep{Step: step, Phase: phase, Orders: ds, Digest: d, Open: &ol}
		if revealSealed {
			s.Sealed = &sl
		}
		x.Steps = append(x.Steps, s)
		for _, rec := range r.Records() {
			x.AddRecord(rec, rec.Stream == StreamSealed && !revealSealed)
		}
	}
	play(1, "turn-1 NATO combat", []string{"attack 1708", "hold"}, true, func(r dice.Roller) {
		dice.Roll(r, 1, 6, "WbT 11.8 CRT roll, NATO attack on 1708 at 3:1")
		dice.Roll(r, 2, 6, "WbT 13.2 river crossing, US-1AD")
		r.Draw(dice.Open, spec.DiceFrom(1, 10, 0), "B&U 13.3 combat die")
		dice.Roll(r, 1, 20, "Per Rote turn order, Alpha")
	})
	play(2, "round-2", []string{"play card 17"}, true, func(r dice.Roller) {
		dice.Shuffle(r, "deck", 32, "B&U 6.1 shuffle of the draw deck")
		r.Draw("cup", spec.Chit(12), "1995 8.2 chit draw")
		dice.Roll(r, 1, 6, "WbT 16.1 MePPs check")
	})
	play(3, "round-3", nil, false, func(r dice.Roller) {
		r.Draw("cup", spec.Chit(11), "1995 8.2 hidden chit")
		dice.Roll(r, 1, 8, "1995 8.3 attacker die")
		dice.Shuffle(r, "deck", 6, "B&U 6.1 reshuffle")
	})
	return x
}

func clone(t testing.TB, x *Export) *Export {
	t.Helper()
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	y, err := ReadExport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

func TestVerifyGenuineLog(t *testing.T) {
	x := clone(t, sampleExport(t))
	res := Verify(x, nil)
	if !res.OK() {
		t.Fatalf("genuine log failed: %v", res.Problem)
	}
	if res.Entries != 10 || res.Verified != 8 || res.Hidden != 2 || res.Steps != 3 {
		t.Errorf("result = %+v, want 10 entries, 8 verified, 2 hidden, 3 steps", res)
	}
	if res.Head != x.Head {
		t.Errorf("head %s, want %s", res.Head, x.Head)
	}
	for _, e := range x.Entries {
		if e.Hidden && e.Values != nil {
			t.Errorf("entry %d is hidden but shows its values", e.Seq)
		}
	}
}

// TestVerifyTamper changes a genuine log the ways a cheat would and checks
// that each change is caught and the first failing entry or step is named.
func TestVerifyTamper(t *testing.T) {
	cases := []struct {
		name     string
		tamper   func(x *Export)
		seq      uint64 // failing entry named, 0 if a step or header
		step     uint64
		contains string
	}{
		{"change a value", func(x *Export) { x.Entries[1].Values[1] = x.Entries[1].Values[1]%6 + 1 }, 2, 1, "value 2 is"},
		{"change a purpose", func(x *Export) { x.Entries[2].Purpose = "B&U 13.3 combat die, Serb attack" }, 3, 1, "hash"},
		{"change a spec", func(x *Export) { x.Entries[0].Spec = "1d8" }, 1, 1, ""}, // a value or the hash, as the faces fall
		{"change an open link", func(x *Export) { x.Steps[1].Open[0] ^= 1 }, 0, 2, "open link"},
		{"change a sealed link", func(x *Export) { x.Steps[0].Sealed[5] ^= 0x80 }, 0, 1, "sealed link"},
		{"reorder two entries", func(x *Export) { x.Entries[1], x.Entries[2] = x.Entries[2], x.Entries[1] }, 3, 1, "out of order"},
		{"drop an entry", func(x *Export) { x.Entries = slices.Delete(x.Entries, 4, 5) }, 6, 2, "out of order"},
		{"drop the last entry", func(x *Export) { x.Entries = x.Entries[:len(x.Entries)-1] }, 0, 0, "head"},
		{"change an order digest", func(x *Export) { x.Steps[0].Orders[0][0] ^= 1 }, 0, 1, "digest"},
		{"hide an open entry", func(x *Export) { x.Entries[0].Hidden, x.Entries[0].Values = true, nil }, 1, 1, "withheld"},
		{"show values of a hidden entry", func(x *Export) { x.Entries[7].Hidden, x.Entries[7].Values = false, []int64{3} }, 8, 3, "not revealed"},
		{"change the commitment", func(x *Export) { x.Commitments.Open[0] ^= 1 }, 0, 0, "h0"},
		{"move an entry to another step", func(x *Export) { x.Entries[6].Step = 1 }, 7, 1, "out of order"},
		{"step past the chain", func(x *Export) { x.Steps[2].Step = 1 << 40 }, 0, 1 << 40, "past the end"},
		{"absurd chain length", func(x *Export) { x.ChainLength = 1 << 62 }, 0, 0, "chain_length"},
		{"replay a word", func(x *Export) { x.Entries[1].Word = 0 }, 2, 1, "word"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := clone(t, sampleExport(t))
			c.tamper(x)
			res := Verify(clone(t, x), nil)
			if res.OK() {
				t.Fatal("tampered log verified")
			}
			p := res.Problem
			if p.Seq != c.seq || p.Step != c.step || !strings.Contains(p.Error(), c.contains) {
				t.Errorf("problem = {seq %d step %d} %q; want seq %d step %d mentioning %q", p.Seq, p.Step, p.Error(), c.seq, c.step, c.contains)
			}
		})
	}
}

// TestVerifyRechainedForgery: a forger who changes a value and recomputes
// every hash after it still fails, because values are re-derived.
func TestVerifyRechainedForgery(t *testing.T) {
	x := clone(t, sampleExport(t))
	x.Entries[0].Values[0] = x.Entries[0].Values[0]%6 + 1
	prev := x.Start
	for i := range x.Entries {
		e := &x.Entries[i]
		if e.Hidden {
			break
		}
		k, _ := ParseStreamKind(e.Stream)
		en := Entry{Seq: e.Seq, Step: e.Step, Stream: k, Word: e.Word, Spec: e.Spec, Values: e.Values, Purpose: e.Purpose}
		e.Hash = NextHash(prev, &en)
		prev = e.Hash
	}
	res := Verify(x, nil)
	if res.OK() || res.Problem.Seq != 1 {
		t.Fatalf("re-chained forgery: %v", res.Problem)
	}
}

func TestReadExportRejects(t *testing.T) {
	cases := []struct {
		name, input string
		err         error
		contains    string
	}{
		{"not JSON", "hello\n", dice.ErrNotLog, "line 1"},
		{"syntax error on line 3", "{\n \"format\": \"umpire-dice-log\",\n \"version\": ,\n}", dice.ErrNotLog, "line 3"},
		{"another JSON document", `{"name": "package.json"}`, dice.ErrNotLog, "format"},
		{"newer version", `{"format": "umpire-dice-log", "version": 2}`, dice.ErrVersion, "version 2"},
		{"unknown field", `{"format": "umpire-dice-log", "version": 1, "surprise": 1}`, dice.ErrNotLog, "surprise"},
		{"bad hash", `{"format": "umpire-dice-log", "version": 1, "head": "xyz"}`, dice.ErrNotLog, "hash"},
		{"two documents", `{"format": "umpire-dice-log", "version": 1} {}`, dice.ErrNotLog, "after"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadExport(strings.NewReader(c.input))
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.contains) {
				t.Errorf("err = %v, want %v mentioning %q", err, c.err, c.contains)
			}
		})
	}
}

func FuzzReadExport(f *testing.F) {
	var buf bytes.Buffer
	if err := sampleExport(f).Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"umpire-dice-log","version":1,"scheme":"umpire-dice-v1"}`))
	f.Add([]byte(`{"format":"umpire-dice-log","version":1,"entries":[{"seq":1,"spec":"shuffle 65536","values":[]}]}`))
	f.Add([]byte("not a log"))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ReadExport(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, dice.ErrNotLog) && !errors.Is(err, dice.ErrVersion) {
				t.Fatalf("reader error is neither ErrNotLog nor ErrVersion: %v", err)
			}
			return
		}
		res := Verify(x, nil)
		if !res.OK() && res.Problem.Error() == "" {
			t.Fatal("a problem without a description")
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatal(err)
		}
	})
}

func TestStepRollerStreams(t *testing.T) {
	log := NewLog(dice.Hash{1}, dice.Hash{2})
	r := NewStepRoller(log, 4, sha256.Sum256([]byte("d")), dice.Hash{3}, dice.Hash{4})
	dice.Roll(r, 3, 6, "a")
	dice.Shuffle(r, "deck", 10, "b")
	dice.Roll(r, 1, 6, "c")
	recs := r.Records()
	if recs[0].Word != 0 || recs[1].Word != 0 || recs[2].Word != 3 {
		t.Errorf("words = %d, %d, %d; want 0 (open), 0 (sealed), 3 (open)", recs[0].Word, recs[1].Word, recs[2].Word)
	}
	if recs[1].Stream != StreamSealed || recs[1].Spec != "shuffle 10" || len(recs[1].Values) != 9 {
		t.Errorf("shuffle record = %+v", recs[1])
	}
	if recs[2].Seq != 3 || log.Seq() != 3 || log.Head() != recs[2].Hash {
		t.Errorf("seq/head not chained: %+v", recs[2])
	}
}
