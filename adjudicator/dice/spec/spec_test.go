package spec

import "testing"

func TestSpecText(t *testing.T) {
	for _, text := range []string{"1d6", "2d6", "1d20", "3d10(0-9)", "1d8(0-7)", "chit 12", "shuffle 32", "shuffle 1"} {
		s, err := Parse(text)
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if s.String() != text {
			t.Errorf("Parse(%q).String() = %q", text, s.String())
		}
	}
	for _, text := range []string{"", "d6", "0d6", "02d6", "2D6", "2d6 ", "1d10(1-10)", "1d10(0-8)", "1d10(0-9", "chit", "chit 0",
		"shuffle 0", "shuffle 01", "1d0", "-1d6", "1d6(-1-4)", "99999999999d6", "70000d6"} {
		if s, err := Parse(text); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", text, s)
		}
	}
}
