package kit

import (
	"errors"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/datafile"
)

type toyFile struct {
	Preamble
	Unit []struct {
		ID   string `toml:"id"`
		Move int    `toml:"move"`
	} `toml:"unit"`
	Repl map[string]int `toml:"repl"`
}

const toyText = `title = "toy"
stand_in = true
notice = "made up"

repl = { AH = 1 }

[[unit]]
id = "A"
move = 4

[[unit]]
id = "B"
`

func TestDecodeReadsThePreamble(t *testing.T) {
	var v toyFile
	f := File{Name: "toy.toml", Data: []byte(toyText)}
	if err := f.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Title != "toy" || !v.StandIn || v.Notice != "made up" || len(v.Unit) != 2 || v.Unit[0].Move != 4 {
		t.Errorf("decoded %+v", v)
	}
	if err := v.Check(f, "a stand-in toy"); err != nil {
		t.Errorf("a stand-in with a notice: %v", err)
	}
	v.Notice = ""
	if err := v.Check(f, "a stand-in toy"); err == nil || err.Error() != "toy.toml:3: field notice: a stand-in toy must say so in a notice every report carries" {
		t.Errorf("a stand-in without a notice: %v", err)
	}
}

func TestDecodeIsStrict(t *testing.T) {
	var v toyFile
	err := File{Name: "toy.toml", Data: []byte(toyText + "speed = 3\n")}.Decode(&v)
	var fe *datafile.FileError
	if !errors.As(err, &fe) || fe.Line != 13 || fe.Field != "unit.speed" {
		t.Errorf("an unknown key: %v", err)
	}
}

func TestErrorfNamesLineAndField(t *testing.T) {
	f := File{Name: "toy.toml", Data: []byte(toyText)}
	for _, tt := range []struct {
		table string
		index int
		key   string
		want  string
	}{
		{"unit", 0, "move", "toy.toml:9: field unit[0].move: wrong"},
		{"unit", 1, "move", "toy.toml:11: field unit[1].move: wrong"}, // left out: the entry's line
		{"", -1, "title", "toy.toml:1: field title: wrong"},
		{"repl", -1, "AH", "toy.toml:5: field repl.AH: wrong"}, // inline: its key's line
		{"", -1, "absent", "toy.toml: field absent: wrong"},
	} {
		if got := f.Errorf(tt.table, tt.index, tt.key, "wrong").Error(); got != tt.want {
			t.Errorf("Errorf(%q, %d, %q) = %q, want %q", tt.table, tt.index, tt.key, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	var got []string
	var at []int
	for n, text := range Lines([]adjudicator.OrderLine{{Line: 3, Text: "  move A 0102  # forecast"}, {Line: 4, Text: "# a comment"}, {Line: 6, Text: "pass"}}) {
		got, at = append(got, text), append(at, n)
	}
	if !slices.Equal(got, []string{"move A 0102", "pass"}) || !slices.Equal(at, []int{3, 6}) {
		t.Errorf("Lines: %q at %v", got, at)
	}
	if f := Fields(" attack 0102 with A+B,C # 3:1"); !slices.Equal(f, []string{"attack", "0102", "with", "A+B,C"}) {
		t.Errorf("Fields: %q", f)
	}
}
