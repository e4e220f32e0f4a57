package adjudicator

import (
	"slices"
	"strings"
	"testing"
)

// TestNearest: the did-you-mean of an unknown name is the closest names,
// closest first, and none that is far from it.
func TestNearest(t *testing.T) {
	names := []string{"attack", "advance", "advancing", "move", "entrench", "retreat"}
	for _, c := range []struct {
		word string
		want []string
	}{
		{"atack", []string{"attack"}},
		{"ADVANCE", []string{"advance", "advancing"}},
		{"mvoe", []string{"move"}},
		{"xyzzy", nil},
		{"", nil},
	} {
		if got := Nearest(c.word, names); !slices.Equal(got, c.want) {
			t.Errorf("Nearest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

// TestWrapList: the topics fill lines of at most 78 characters, and every
// name is on one.
func TestWrapList(t *testing.T) {
	names := strings.Fields(strings.Repeat("losses retreat advancing combat interrupt strike supply ", 4))
	got := wrapList(names)
	for l := range strings.SplitSeq(strings.TrimSuffix(got, "\n"), "\n") {
		if len(l) > 78 || !strings.HasPrefix(l, "  ") {
			t.Errorf("line %q", l)
		}
	}
	if strings.Join(strings.Fields(strings.ReplaceAll(got, ",", " ")), " ") != strings.Join(names, " ") {
		t.Errorf("names lost or reordered:\n%s", got)
	}
}

// FuzzHelpTopic: any topic a mail may name gets an answer or the nearest
// names of the table, never a panic, and the nearest names are topics.
func FuzzHelpTopic(f *testing.F) {
	vs := Verbs{{Name: "move", Form: "move UNIT HEX", Phases: []string{"movement"}, Example: "move A1 0101", Summary: "moves"},
		{Name: "attack", Aliases: []string{"att"}, Form: "attack HEX", Phases: []string{"combat", "movement"}, Example: "attack 0101", Summary: "attacks"}}
	for _, s := range []string{"move", "ATT", "movement", "atack", "", "\x00\xff", strings.Repeat("m", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, topic string) {
		if text, ok := vs.Topic("g", topic); ok && text == "" {
			t.Fatalf("topic %q: empty answer", topic)
		}
		for _, n := range Nearest(topic, vs.Topics()) {
			if !slices.Contains(vs.Topics(), n) {
				t.Fatalf("Nearest(%q) names %q, no topic", topic, n)
			}
		}
	})
}
