package adjudicator_test

import (
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestMapImageSettings: the game file's map_image settings are read and
// checked at create, the alignment taken from map_image_align, or from
// umpire edit's line at the top of the map option.
func TestMapImageSettings(t *testing.T) {
	reg := adjudicator.NewRegistry(fakeGame())
	with := func(s string) string { return strings.Replace(duel, "[schedule]", s+"\n[schedule]", 1) }
	for _, tt := range []struct{ settings, want, align string }{
		{`map_image = "Grace's scan"` + "\n" + `map_image_align = "40 38.5 24 24.5"`, "", "40 38.5 24 24.5"},
		{`map_image = "Grace's scan"` + "\n[options]\nmap = '''\n# a map\n# umpire edit: scan x0=12 y0=-3 sx=30 sy=29.5\ntitle = \"m\"\n'''", "", "12 -3 30 29.5"},
		{`map_image = "Grace's scan"`, "", "0 0 1 1"},
		{`map_image_align = "1 2 3 4"`, "map_image_align and map_image_public need map_image", ""},
		{`map_image_public = true`, "need map_image", ""},
		{`map_image = "Grace's scan"` + "\n" + `map_image_align = "1 2 3"`, "write four numbers, x0 y0 sx sy", ""},
		{`map_image = "Grace's scan"` + "\n" + `map_image_align = "1 2 0 4"`, "the scales sx and sy must be more than 0", ""},
		{`map_image = "Grace's scan"` + "\n" + `map_image_align = "1 2 NaN 4"`, `sx "NaN" is not a number of pixels`, ""},
		{`map_image = "Grace's scan"` + "\n" + `map_image_align = "1 2 3 1e9"`, `sy "1e9" is not a number of pixels`, ""},
		{`map_image = "Grace's scan"` + "\n[options]\nmap = '''\n# umpire edit: scan x0=12 y0=-3 sx=-1 sy=2\n'''", "options.map: the line", ""},
		{`map_image = "` + strings.Repeat("x", 201) + `"`, "one line of at most 200 characters", ""},
	} {
		f, err := adjudicator.ParseGameFile([]byte(with(tt.settings)), reg)
		switch {
		case tt.want != "":
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: %v, want %q", tt.settings, err, tt.want)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.settings, err)
		case f.Align().String() != tt.align:
			t.Errorf("%s: aligned %s, want %s", tt.settings, f.Align(), tt.align)
		}
	}
}

// TestParseMapAlign: both spellings, and the same numbers back.
func TestParseMapAlign(t *testing.T) {
	for _, s := range []string{"40 38.5 24 24.5", "x0=40 y0=38.5 sx=24 sy=24.5"} {
		a, err := adjudicator.ParseMapAlign(s)
		if err != nil || a != (adjudicator.MapAlign{X0: 40, Y0: 38.5, SX: 24, SY: 24.5}) || a.String() != "40 38.5 24 24.5" {
			t.Errorf("%q: %+v %v", s, a, err)
		}
	}
	if _, err := adjudicator.ParseMapAlign("y0=1 x0=2 sx=3 sy=4"); err == nil || !strings.Contains(err.Error(), "want x0= in place 1") {
		t.Errorf("x0 and y0 swapped: %v", err)
	}
}
