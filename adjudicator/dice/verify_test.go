package dice

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestExampleExportsScheme3: the spec's v3 example exports verify with the
// verdicts it gives (docs/dice-log.md section 13): the running game and the
// ended one verify; the tampered one, whose step 4 closes before step 3
// with every digest and head recomputed, fails at step 4 (record 14) on
// the close alone.
func TestExampleExportsScheme3(t *testing.T) {
	res := verifyFile(t, "testdata/dice-v3-example.json", VerifyOptions{})
	if !res.OK() {
		t.Fatalf("running example: %v", res.Problem)
	}
	if res.Head.String() != "a0576435caddb7ec33ecf205b8863896998587b90b8821125e90cc7befe1eea6" || res.Records != 14 || res.Ended || res.Version != 3 {
		t.Errorf("running example: %+v", res)
	}
	if res.Sealed != 2 || res.Rederived != 5 || res.Steps != 3 || res.Rollbacks != 1 || res.Reveals != 1 || res.Beacon != "drand quicknet" {
		t.Errorf("running example counts: %+v", res)
	}
	if res.Seats != 2 || res.Joined != 2 || res.StartHead == nil || res.StartHead.String() != "a8a8eb35ef3a3d030c4ce735193cb8c594163161e545a5d501a29607b3f073b9" ||
		res.Delay != 600 || res.Period != 3 || res.DelayUnderFloor {
		t.Errorf("running example's start and beacon: %+v", res)
	}
	res = verifyFile(t, "testdata/dice-v3-example-ended.json", VerifyOptions{})
	if !res.OK() {
		t.Fatalf("ended example: %v", res.Problem)
	}
	if res.Head.String() != "aec4c4ee42033b9f90e633faf01566af96325a0d368794837c38d9f596dc4c64" || !res.Ended || res.Sealed != 0 || res.Rederived != 7 || res.Records != 15 {
		t.Errorf("ended example: %+v", res)
	}
	res = verifyFile(t, "testdata/dice-v3-example-tampered.json", VerifyOptions{})
	if res.OK() {
		t.Fatal("the tampered example verifies")
	}
	if res.Problem.Record != 14 || res.Problem.Type != "step" || res.Problem.Step != 4 || !strings.Contains(res.Problem.Reason, "close") {
		t.Errorf("tampered example fails at %+v, want record 14, step 4, its close", res.Problem)
	}
}

// TestExampleRoundTripScheme3: the export writer writes the v3 examples byte
// for byte, and the ledger, fed their records, gives every head they
// state.
func TestExampleRoundTripScheme3(t *testing.T) {
	for _, name := range []string{"dice-v3-example.json", "dice-v3-example-ended.json", "dice-v3-example-tampered.json"} {
		want, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		recs, root, revealed := readExampleRecords(t, want)
		i := 0
		var got bytes.Buffer
		_, err = WriteExport(&got, root, revealed, func() (*Record, error) {
			if i == len(recs) {
				return nil, nil
			}
			i++
			return &recs[i-1], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s written again differs:\n%s", name, firstDiff(got.String(), string(want)))
		}
	}
	// The ledger, fed the ended example's records (a sealed draw whose
	// values are unknown keeps its count from the spec: the running
	// example's cannot be fed), gives every head it states, and refuses
	// the tampered step 4 in their place.
	recs, _, _ := readExampleRecords(t, mustRead(t, "testdata/dice-v3-example-ended.json"))
	var l Ledger
	for i := range recs[:13] {
		want := recs[i].Head
		if err := l.Append(&recs[i]); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		if recs[i].Head != want {
			t.Errorf("record %d (%s): head %s, want %s", i+1, recs[i].Type, recs[i].Head, want)
		}
	}
	tampered, _, _ := readExampleRecords(t, mustRead(t, "testdata/dice-v3-example-tampered.json"))
	at := l
	if err := at.Append(&tampered[13]); err == nil {
		t.Error("the ledger takes the tampered step 4, whose close goes backwards")
	}
	// The tampered example's head, chained by hand past the ledger's check.
	h := nextHead(recs[12].Head, recordHash(TypeStep, tampered[13].AppendBody(nil)))
	wantHex(t, "tampered example's head", h.bytes(), "33ced3df56fc6dd255db53a740e6775f1ad1f1da9137741ee503714a97ad4e85")
	for i := 13; i < len(recs); i++ {
		want := recs[i].Head
		if err := l.Append(&recs[i]); err != nil || recs[i].Head != want {
			t.Errorf("record %d: %v, head %s, want %s", i+1, err, recs[i].Head, want)
		}
	}
	// A v2 writer refuses a v3 header.
	recs, root, revealed := readExampleRecords(t, mustRead(t, "testdata/dice-v3-example.json"))
	if _, err := writeExport(&bytes.Buffer{}, versionV2, root, revealed, func() (*Record, error) { return &recs[0], nil }); err == nil {
		t.Error("a v3 log written as version 2")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVerifyV3Salts: a seat's salt is checked against the start record and
// lists its order entries; a wrong salt fails at the start record; with
// the sealed root and the order files, every entry is checked against its
// file, and a substituted file fails at its step.
func TestVerifyV3Salts(t *testing.T) {
	_, sealedRoot := kat2Roots()
	tA := OrderSalt(sealedRoot, "A")
	res := verifyFile(t, "testdata/dice-v3-example.json", VerifyOptions{Salts: map[string]Hash{"A": tA}})
	if !res.OK() || len(res.Salts) != 1 || len(res.Salts[0].Entries) != 2 {
		t.Fatalf("A's salt: %v %+v", res.Problem, res.Salts)
	}
	if e := res.Salts[0].Entries[1]; e.Step != 3 || e.ForStep != 3 || e.Digest != OrderDigest(tA, 3, 1, []byte("orders A, step 3")) {
		t.Errorf("A's entry of step 3: %+v", e)
	}
	bad := tA
	bad[0] ^= 1
	res = verifyFile(t, "testdata/dice-v3-example.json", VerifyOptions{Salts: map[string]Hash{"A": bad}})
	if res.OK() || res.Problem.Record != 2 || res.Problem.Type != "start" {
		t.Errorf("a wrong salt: %+v", res.Problem)
	}
	res = verifyFile(t, "testdata/dice-v3-example.json", VerifyOptions{Salts: map[string]Hash{"C": tA}})
	if res.OK() || res.Problem.Record != 2 {
		t.Errorf("a salt for a seat the game lacks: %+v", res.Problem)
	}
	res = verifyFile(t, "testdata/dice-v2-example.json", VerifyOptions{Salts: map[string]Hash{"A": tA}})
	if res.OK() {
		t.Error("a salt checked against a v2 log, which has no start record")
	}
	files := map[string]string{"A 1 1": "orders A", "B 1 2": "orders B", "A 3 1": "orders A, step 3"}
	lookup := func(seat string, forStep, version uint64) ([]byte, bool) {
		f, ok := files[fmt.Sprint(seat, " ", forStep, " ", version)]
		return []byte(f), ok
	}
	res = verifyFile(t, "testdata/dice-v3-example-ended.json", VerifyOptions{OrderFile: lookup})
	if !res.OK() || res.OrdersChecked != 4 {
		t.Errorf("the ended example's orders against their files: %v, %d checked", res.Problem, res.OrdersChecked)
	}
	files["A 3 1"] = "orders A, step 3, changed"
	res = verifyFile(t, "testdata/dice-v3-example-ended.json", VerifyOptions{OrderFile: lookup})
	if res.OK() || res.Problem.Step != 3 || !strings.Contains(res.Problem.Reason, "keyed digest") {
		t.Errorf("a substituted order file: %+v", res.Problem)
	}
}

func verifyFile(t *testing.T, path string, opt VerifyOptions) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := VerifyStream(f, opt)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res
}

// TestExampleExports: the spec's example exports verify with the verdicts
// it gives (docs/dice-log.md section 13).
func TestExampleExports(t *testing.T) {
	res := verifyFile(t, "testdata/dice-v2-example.json", VerifyOptions{})
	if !res.OK() {
		t.Fatalf("running example: %v", res.Problem)
	}
	if res.Head.String() != "942af9fa46fc1064a7981780c2ee20233aeecebefd20be6f8fc13fde08dc1b7b" || res.Records != 13 || res.Ended {
		t.Errorf("running example: %+v", res)
	}
	if res.Sealed != 2 || res.Rederived != 5 || res.Steps != 3 || res.Rollbacks != 1 || res.Reveals != 1 || res.Beacon != "drand quicknet" {
		t.Errorf("running example counts: %+v", res)
	}
	res = verifyFile(t, "testdata/dice-v2-example-ended.json", VerifyOptions{})
	if !res.OK() {
		t.Fatalf("ended example: %v", res.Problem)
	}
	if res.Head.String() != "c3ab1936dbd98ba278fad6fa15b66630a792ea733ed1e1c8bd4748b6c402c890" || !res.Ended || res.Sealed != 0 || res.Rederived != 7 {
		t.Errorf("ended example: %+v", res)
	}
	res = verifyFile(t, "testdata/dice-v2-example-tampered.json", VerifyOptions{})
	if res.OK() {
		t.Fatal("the tampered example verifies")
	}
	// It fails at step 4 (record 13): the phantom entry's D_k was
	// recomputed, so the head of that record is what breaks.
	if res.Problem.Record != 13 || res.Problem.Type != "step" || res.Problem.Step != 4 {
		t.Errorf("tampered example fails at %+v, want record 13, step 4", res.Problem)
	}
}

// TestExampleRoundTrip: reading the example's records and writing them
// again gives the same bytes: the export writer writes the spec's layout.
func TestExampleRoundTrip(t *testing.T) {
	for _, name := range []string{"dice-v2-example.json", "dice-v2-example-ended.json"} {
		want, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		recs, root, revealed := readExampleRecords(t, want)
		i := 0
		var got bytes.Buffer
		_, err = WriteExport(&got, root, revealed, func() (*Record, error) {
			if i == len(recs) {
				return nil, nil
			}
			i++
			return &recs[i-1], nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s written again differs:\n%s", name, firstDiff(got.String(), string(want)))
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "got:  " + al[i] + "\nwant: " + bl[i]
		}
	}
	return "lengths differ"
}

func TestVerifyDispatch(t *testing.T) {
	for _, c := range []struct {
		name, in   string
		v1, notLog bool
	}{
		{"v1", `{"format": "umpire-dice-log", "version": 1, "scheme": "umpire-dice-v1"}`, true, false},
		{"other format", `{"format": "something", "version": 2}`, false, true},
		{"version 4", `{"format": "umpire-dice-log", "version": 4}`, false, true},
		{"not json", `hello`, true, false},
		{"bom", "\xef\xbb\xbf{\"format\": \"umpire-dice-log\", \"version\": 2}", true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := VerifyStream(strings.NewReader(c.in), VerifyOptions{})
			var v1 *LegacyExport
			if got := errors.As(err, &v1); got != c.v1 {
				t.Errorf("v1 = %v (%v), want %v", got, err, c.v1)
			}
			if got := errors.Is(err, ErrNotLog) || errors.Is(err, ErrVersion); got != c.notLog {
				t.Errorf("not a log = %v (%v), want %v", got, err, c.notLog)
			}
		})
	}
}
