package dice

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestStrictFormat: every form docs/dice-log.md section 9 refuses, made
// from the running example by one change, fails with a problem that says
// what is wrong; the example itself passes.
func TestStrictFormat(t *testing.T) {
	base, err := os.ReadFile("testdata/dice-v2-example.json")
	if err != nil {
		t.Fatal(err)
	}
	sub := func(old, new string) func([]byte) []byte {
		return func(b []byte) []byte {
			if !bytes.Contains(b, []byte(old)) {
				t.Fatalf("the example has no %q", old)
			}
			return bytes.Replace(b, []byte(old), []byte(new), 1)
		}
	}
	for _, c := range []struct {
		name, want string
		edit       func([]byte) []byte
	}{
		{"duplicate member", "member \"seat\" where \"for_step\" should be", sub(`"for_step": 1, "version": 1,`, `"seat": "A", "for_step": 1, "version": 1,`)},
		{"member in other case", "only in letter case", sub(`"purpose": "example roll"`, `"Purpose": "example roll"`)},
		{"unknown member", "where \"head\" should be", sub(`"purpose": "example roll", `, `"purpose": "example roll", "note": "x", `)},
		{"members in another order", "where \"seq\" should be", sub(`"seq": 1, "step": 1,`, `"step": 1, "seq": 1,`)},
		{"missing member", "where \"word\" should be", sub(`"stream": "open", "word": 0, `, `"stream": "open", `)},
		{"uppercase hex", "not lowercase hex", sub(`"open_link": "4bfcdea9`, `"open_link": "4BFCDEA9`)},
		{"short hex", "not 64 hex digits", sub(`"open_link": "4bfcdea9`, `"open_link": "4bfcdea`)},
		{"fraction", "fraction or an exponent", sub(`"word": 2,`, `"word": 2.0,`)},
		{"exponent", "fraction or an exponent", sub(`"word": 2,`, `"word": 2e0,`)},
		{"minus zero", "is -0", sub(`"values": [3]`, `"values": [-0]`)},
		{"leading zero", "leading zero", sub(`"word": 2,`, `"word": 02,`)},
		{"out of range", "out of range", sub(`"word": 2,`, `"word": 9223372036854775808,`)},
		{"negative word", "out of range", sub(`"word": 2,`, `"word": -2,`)},
		{"string for a number", "not a number", sub(`"word": 2,`, `"word": "2",`)},
		{"null where not allowed", "not a number", sub(`"word": 2,`, `"word": null,`)},
		{"invalid UTF-8", "not UTF-8", sub(`"example roll"`, "\"example \xff roll\"")},
		{"lone surrogate", "lone high surrogate", sub(`"example roll"`, `"example \ud800 roll"`)},
		{"lone low surrogate", "lone low surrogate", sub(`"example roll"`, `"example \udc00 roll"`)},
		{"raw control character", "control character", sub(`"example roll"`, "\"example\troll\"")},
		{"data after the object", "after the log object", func(b []byte) []byte { return append(b, []byte("{}")...) }},
		{"a NaN", "where word (a whole number) should be", sub(`"word": 2,`, `"word": NaN,`)},
		{"a record over 1 MiB", "longer than", sub(`"purpose": "example roll"`, `"purpose": "`+strings.Repeat("x", 1<<20)+`"`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := VerifyStream(bytes.NewReader(c.edit(bytes.Clone(base))), VerifyOptions{})
			if err != nil {
				t.Fatalf("not read as a v2 log: %v", err)
			}
			if res.OK() {
				t.Fatal("accepted")
			}
			if !strings.Contains(res.Problem.Error(), c.want) {
				t.Errorf("problem %q, want it to say %q", res.Problem.Error(), c.want)
			}
		})
	}
	// An escaped name that decodes to the expected one is that name, and
	// an escaped string is hashed as its decoded value.
	ok := bytes.Replace(base, []byte(`"purpose": "example roll"`), []byte(`"purp\u006fse": "ex\u0061mple roll"`), 1)
	if res, err := VerifyStream(bytes.NewReader(ok), VerifyOptions{}); err != nil || !res.OK() {
		t.Errorf("escapes: %v %v", err, res.Problem)
	}
}

// FuzzVerifyStream: no input makes the verifier panic or accept a log that
// is not the example (a mutation that still verifies must keep the head).
func FuzzVerifyStream(f *testing.F) {
	base, err := os.ReadFile("testdata/dice-v2-example.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(base)
	f.Add([]byte(`{"format": "umpire-dice-log", "version": 2, "sealed_root": null, "revealed": [], "records": [], "head": "00"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := VerifyStream(bytes.NewReader(data), VerifyOptions{})
		if err != nil || !res.OK() {
			return
		}
		if res.Records > 0 && res.Game == "" {
			t.Errorf("a log verified without a game: %+v", res)
		}
	})
}
