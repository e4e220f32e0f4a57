package templates

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

const (
	serbCol    = "#c8553d"
	croatCol   = "#4f7fc4"
	bosniakCol = "#3e8e4e"
)

// balkanNames are the 60 spaces of the test network, north to south in
// rows of ten, west to east.
var balkanNames = [6][10]string{
	{"Velika Kladuša", "Bosanski Novi", "Prijedor", "Banja Luka", "Prnjavor", "Derventa", "Modriča", "Brčko", "Bijeljina", "Loznica"},
	{"Cazin", "Bosanska Krupa", "Sanski Most", "Kotor Varoš", "Teslić", "Doboj", "Gradačac", "Srebrenik", "Tuzla", "Zvornik"},
	{"Bihać", "Ključ", "Mrkonjić Grad", "Jajce", "Travnik", "Zenica", "Zavidovići", "Kladanj", "Vlasenica", "Srebrenica"},
	{"Drvar", "Glamoč", "Šipovo", "Kupres", "Vitez", "Kiseljak", "Visoko", "Vareš", "Sokolac", "Višegrad"},
	{"Knin", "Livno", "Tomislavgrad", "Prozor", "Konjic", "Sarajevo", "Pale", "Trnovo", "Goražde", "Priboj"},
	{"Sinj", "Imotski", "Posušje", "Široki Brijeg", "Mostar", "Nevesinje", "Gacko", "Foča", "Čajniče", "Trebinje"},
}

// balkanOwners are the sides in control: Serb, Croat, Bosniak.
var balkanOwners = [6]string{
	"BSSSSSSSSS",
	"BBSSSSBBBS",
	"BSSCBBBBSB",
	"SSSCCCBCSS",
	"SCCCBBSSBS",
	"CCCCCSSSSS",
}

// balkanRegions maps the spaces to regions ('.' for a foreign space).
var balkanRegions = [6]string{
	"KBBBPPPSS.",
	"KKBBPPPUUO",
	"KBBBDDDUOO",
	"TTTTDDDDOO",
	".TTHHAAAO.",
	"..HHHEEOOO",
}

var regionNames = map[byte][2]string{
	'K': {"cazin", "Cazinska Krajina"}, 'B': {"bk", "Bosanska Krajina"},
	'P': {"pos", "Posavina"}, 'S': {"sem", "Semberija"},
	'D': {"sb", "Srednja Bosna"}, 'O': {"pod", "Podrinje"},
	'T': {"tro", "Tropolje"}, 'H': {"her", "Hercegovina"}, 'A': {"sar", "Sarajevo"},
	'U': {"tuz", "Tuzla"}, 'E': {"ih", "Istočna Hercegovina"},
}

// testNetwork is a fixed synthetic point-to-point map of 60 spaces in the
// manner of Brotherhood & Unity: regions, key spaces, roads, railroads,
// mountain roads, a stack of six, arrows and tracks.
func testNetwork() board.Picture {
	n := &board.Network{Width: 1290, Height: 770}
	sideCol := map[byte]string{'S': serbCol, 'C': croatCol, 'B': bosniakCol}
	sideName := map[byte]string{'S': "Serb", 'C': "Croat", 'B': "Bosniak"}
	key := map[string]bool{
		"Bihać": true, "Banja Luka": true, "Doboj": true, "Brčko": true, "Bijeljina": true, "Tuzla": true,
		"Zenica": true, "Sarajevo": true, "Mostar": true, "Goražde": true, "Srebrenica": true, "Livno": true,
	}
	terrain := map[string]string{
		"Banja Luka": "city", "Tuzla": "city", "Zenica": "city", "Sarajevo": "city", "Mostar": "city", "Bijeljina": "city",
		"Glamoč": "mountain", "Šipovo": "mountain", "Kupres": "mountain", "Drvar": "mountain", "Trnovo": "mountain",
		"Gacko": "mountain", "Kladanj": "mountain", "Vlasenica": "mountain", "Kotor Varoš": "mountain", "Prozor": "mountain",
		"Modriča": "swamp", "Bosanski Novi": "river", "Brčko": "river", "Zvornik": "river", "Višegrad": "river", "Derventa": "swamp",
	}
	id := func(c, r int) string {
		s := strings.ToLower(balkanNames[r][c])
		return strings.Fields(s)[0][:min(4, len(strings.Fields(s)[0]))] + string(rune('0'+r)) + string(rune('0'+c))
	}
	seen := map[string]bool{}
	for _, code := range balkanRegions {
		for i := range len(code) {
			if code[i] != '.' && !seen[regionNames[code[i]][0]] {
				seen[regionNames[code[i]][0]] = true
				n.Regions = append(n.Regions, board.Region{ID: regionNames[code[i]][0], Name: regionNames[code[i]][1]})
			}
		}
	}
	for r := range 6 {
		for c := range 10 {
			name := balkanNames[r][c]
			fc, fr := float64(c), float64(r)
			s := board.Space{
				ID:   id(c, r),
				Name: name,
				X:    math.Round(64 + fc*126 + 14*math.Sin(fc*1.7+fr*2.3)),
				Y:    math.Round(56 + fr*126 + 12*math.Cos(fc*2.1+fr*1.3) + float64(c%2)*18),
				Key:  key[name], Terrain: terrain[name],
				Owner: sideName[balkanOwners[r][c]], OwnerColor: sideCol[balkanOwners[r][c]],
			}
			if code := balkanRegions[r][c]; code != '.' {
				s.Region = regionNames[code][0]
			}
			n.Spaces = append(n.Spaces, s)
		}
	}
	kindOf := func(a, b board.Space) string {
		if a.Terrain == "mountain" || b.Terrain == "mountain" {
			return mountainLink
		}
		return board.RoadKind
	}
	sp := func(c, r int) board.Space { return n.Spaces[r*10+c] }
	for r := range 6 {
		for c := range 10 {
			if c < 9 && (c*7+r*3)%11 != 5 {
				k := kindOf(sp(c, r), sp(c+1, r))
				if r == 1 && c >= 4 && c < 8 {
					k = board.Railroad
				}
				n.Links = append(n.Links, board.Link{A: id(c, r), B: id(c+1, r), Kind: k})
			}
			if r < 5 && (c*5+r*2)%9 != 4 {
				k := kindOf(sp(c, r), sp(c, r+1))
				if c == 5 && r >= 1 && r < 4 {
					k = board.Railroad
				}
				n.Links = append(n.Links, board.Link{A: id(c, r), B: id(c, r+1), Kind: k})
			}
			if r < 5 && c < 9 && (c+r)%3 == 0 {
				n.Links = append(n.Links, board.Link{A: id(c, r), B: id(c+1, r+1), Kind: kindOf(sp(c, r), sp(c+1, r+1))})
			}
		}
	}
	n.Links = append(n.Links, board.Link{A: id(5, 4), B: id(4, 5), Kind: board.Railroad})

	unit := func(c, r int, side byte, uid, typ, str string, markers ...string) board.Counter {
		return board.Counter{Space: id(c, r), Side: sideName[side], Color: sideCol[side], ID: uid, Type: typ, Strength: str, Markers: markers}
	}
	m := board.Picture{
		Title:    "Brotherhood & Unity",
		Subtitle: "Turn 2 (1993), action round 3, Serb player - situation after step 7",
		Notice:   "stand-in map: a synthetic layout, not the published one",
		Network:  n,
		Counters: []board.Counter{
			// a stack of six in Sarajevo.
			unit(5, 4, 'B', "101", "ARB", "3-6-2"),
			unit(5, 4, 'B', "105", "ARB", "3-6-2"),
			unit(5, 4, 'B', "1K", "ARB", "5-7-4"),
			unit(5, 4, 'B', "12D", "ARB", "3-6-2", "LOW"),
			unit(5, 4, 'B', "MUJ", "MUJ", "5-6-2"),
			unit(5, 4, 'B', "115", "ARB", "2-6-2", "OOS"),
			unit(6, 4, 'S', "SRK", "VRS", "5-7-6"),
			unit(6, 4, 'S', "1Sa", "VRS", "4-6-4"),
			unit(3, 0, 'S', "1KK", "VRS", "5-7-6"),
			unit(3, 0, 'S', "16", "VRS", "4-6-4"),
			unit(3, 0, 'S', "43", "VRS", "4-6-4"),
			unit(5, 1, 'S', "27", "VRS", "4-6-4", "ENT"),
			unit(8, 1, 'B', "2K", "ARB", "5-7-4"),
			unit(8, 1, 'B', "121", "ARB", "3-6-2"),
			unit(7, 1, 'B', "108", "ARB", "3-6-2"),
			unit(5, 2, 'B', "3K", "ARB", "5-7-4"),
			unit(4, 5, 'C', "Mo", "HVO", "3-6-4"),
			unit(4, 5, 'C', "4G", "HV", "5-7-6"),
			unit(1, 4, 'C', "Li", "HVO", "3-6-4"),
			unit(3, 3, 'B', "Ku", "ARB", "2-6-2", "LOW"),
			unit(0, 2, 'B', "5K", "ARB", "5-7-4"),
			unit(0, 2, 'B', "505", "ARB", "3-6-2"),
			unit(0, 0, 'S', "NOZB", "NOZB", "3-6-2"),
			unit(9, 0, 'S', "SDG", "SDG", "5-7-6"),
			unit(8, 0, 'S', "EBK", "VRS", "4-6-4"),
			unit(7, 0, 'S', "3Po", "VRS", "4-6-4"),
			unit(8, 4, 'B', "81", "ARB", "3-6-2", "OOS"),
			unit(7, 5, 'S', "Fo", "VRS", "2-6-4"),
			unit(9, 2, 'B', "28", "ARB", "3-6-2"),
			unit(3, 2, 'C', "Ja", "HVO", "3-6-4"),
			unit(4, 3, 'C', "Vi", "HVO", "3-6-4"),
			unit(0, 4, 'S', "SVK", "SVK", "4-6-4"),
		},
		Arrows: []board.Arrow{
			{FromSpace: id(6, 4), ToSpace: id(5, 4), Kind: board.Attack},
			{FromSpace: id(9, 0), ToSpace: id(8, 0), Kind: board.Move},
			{FromSpace: id(7, 1), ToSpace: id(7, 0), Kind: board.Attack},
			{FromSpace: id(5, 2), ToSpace: id(4, 2), Kind: board.Move},
			{FromSpace: id(5, 1), ToSpace: id(6, 1), Kind: board.Attack},
			{FromSpace: id(7, 5), ToSpace: id(8, 4), Kind: board.Move},
		},
		Tracks: []board.Track{
			{Name: "Turn", Value: 2, Min: 1, Max: 4},
			{Name: "Period", Text: "Early War"},
			{Name: "SW Serb", Value: 38, Min: 0, Max: 80},
			{Name: "SW Croat", Value: 24, Min: 0, Max: 80},
			{Name: "SW Bosniak", Value: 27, Min: 0, Max: 80},
			{Name: "FA Serb", Value: -2, Min: -7, Max: 7},
			{Name: "Intervention", Text: "level 1"},
		},
	}
	return m
}

// stacksNetwork has stacks of 1 to 6 and of 8 beside plain and key spaces.
func stacksNetwork() board.Picture {
	n := &board.Network{Width: 940, Height: 170}
	sizes := []int{1, 2, 3, 4, 5, 6, 8}
	var cs []board.Counter
	for i, k := range sizes {
		s := board.Space{ID: string(rune('a' + i)), Name: []string{"Bihać", "Doboj", "Banja Luka", "Tuzla", "Kupres", "Sarajevo", "Goražde"}[i],
			X: 50 + float64(i)*132, Y: 120, Region: "r", Key: i%2 == 1, Terrain: []string{"", "city", "", "mountain", "", "city", "river"}[i]}
		if i%3 != 2 {
			s.Owner, s.OwnerColor = "Serb", serbCol
		}
		n.Spaces = append(n.Spaces, s)
		if i > 0 {
			n.Links = append(n.Links, board.Link{A: n.Spaces[i-1].ID, B: s.ID, Kind: []string{"", board.RoadKind, board.Railroad, mountainLink}[i%4]})
		}
		for j := range k {
			c := board.Counter{Space: s.ID, Side: "Serb", Color: serbCol, ID: []string{"1KK", "16", "43", "27", "SRK", "1Sa", "EBK", "3Po"}[j],
				Type: "VRS", Strength: "4-6-4"}
			if j == 1 {
				c.Side, c.Color, c.Type = "Croat", croatCol, "HVO"
			}
			if j == 2 {
				c.Markers = []string{"OOS"}
			}
			cs = append(cs, c)
		}
	}
	n.Regions = []board.Region{{ID: "r", Name: "Krajina", Color: "#e8dcc0"}}
	return board.Picture{Title: "Stacks", Subtitle: "1 to 6 counters, and 8 (the top six drawn)", Network: n, Counters: cs}
}

// stacksHex is the same stacks on a hex map.
func stacksHex() board.Picture {
	g := board.Grid{Cols: 16, Rows: 5, Orientation: board.FlatTop, IDStyle: board.FourDigit, FirstCol: 1, FirstRow: 1}
	var cs []board.Counter
	for i, k := range []int{1, 2, 3, 4, 5, 6, 8} {
		for j := range k {
			c := board.Counter{Hex: hx(2+2*i, 4), Side: "Serbia", Color: serbCol, ID: []string{"15", "125", "211", "37", "52", "549", "PJP", "SAJ"}[j],
				Type: "M", Strength: "4-5"}
			if j == 1 {
				c.Side, c.Color = "NATO", "#5b9bd5"
			}
			if j == 2 {
				c.Markers = []string{"D"}
			}
			cs = append(cs, c)
		}
	}
	return board.Picture{Title: "Stacks", Subtitle: "1 to 6 counters, and 8 (the top six drawn)", Grid: &g, Counters: cs,
		Terrain: map[board.ID]string{hx(8, 4): "forest", hx(10, 4): "urban"}, Labels: map[board.ID]string{hx(10, 4): "Pristina"}}
}

// testCropped is the hex test map cropped to the fighting near Skopje.
func testCropped() board.Picture {
	m := testMap()
	m.Crop = []board.ID{hx(44, 29), hx(43, 31), hx(41, 26), hx(45, 31)}
	m.Notice = "cropped to the area of action"
	m.Legend = nil // derived from what the map shows
	return m
}

func TestGoldenNetwork(t *testing.T) {
	t.Parallel()
	checkGolden(t, "testdata/network-60.png", testNetwork())
}
func TestGoldenStacksNetwork(t *testing.T) {
	checkGolden(t, "testdata/stacks-network.png", stacksNetwork())
}
func TestGoldenStacksHex(t *testing.T)  { checkGolden(t, "testdata/stacks-hex.png", stacksHex()) }
func TestGoldenCroppedHex(t *testing.T) { checkGolden(t, "testdata/hexmap-cropped.png", testCropped()) }
func TestTestNetworkHas60(t *testing.T) {
	if n := len(testNetwork().Network.Spaces); n != 60 {
		t.Fatalf("%d spaces", n)
	}
}

// TestHexStacksListed checks the stacks of the hex and point-to-point test
// maps as a player reads them: every stack fits its hex or stands beside
// its space (no stack covers another, a space or a place name, no name is
// cut or covers another), and every stack that does not show all of
// itself carries a numbered marker whose entry under the map lists its
// units, top first.
func TestHexStacksListed(t *testing.T) {
	t.Parallel()
	for _, m := range []board.Picture{stacksHex(), testMap(), testCropped(), stacksNetwork(), testNetwork()} {
		got, err := Legibility(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range got.Problems {
			if strings.HasPrefix(p, "the stack") || strings.HasPrefix(p, "the name") {
				t.Errorf("%s: %s", m.Title, p)
			}
		}
		if got.Marked == 0 || got.Stacks == 0 {
			t.Errorf("%s: %d stacks, %d marked: nothing checked", m.Title, got.Stacks, got.Marked)
		}
	}
}

// TestTextSizes checks that no text is smaller than minFont pixels: every
// face's size, and the height of a capital drawn with it.
func TestTextSizes(t *testing.T) {
	r, err := newRenderer(board.Picture{}, pixels)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.sizes() {
		if f.size < minFont {
			t.Errorf("a face of %g px", f.size)
		}
		// a capital is about 0.7 of the size in the Go fonts.
		if h := (*f.dst).glyph('H').mask.Bounds().Dy(); float64(h) < 0.68*minFont {
			t.Errorf("face of %g px: H is %d px high", f.size, h)
		}
	}
}

func TestNetworkRejectsBadInput(t *testing.T) {
	net := func(f func(n *board.Network, m *board.Picture)) board.Picture {
		n := &board.Network{Width: 200, Height: 200,
			Spaces:  []board.Space{{ID: "a", X: 10, Y: 10, Region: "r"}, {ID: "b", X: 100, Y: 100}},
			Links:   []board.Link{{A: "a", B: "b"}},
			Regions: []board.Region{{ID: "r", Name: "R"}}}
		m := board.Picture{Network: n}
		f(n, &m)
		return m
	}
	tests := []struct {
		name string
		m    board.Picture
		want string
	}{
		{"both", board.Picture{Grid: &board.Grid{Cols: 1, Rows: 1}, Network: &board.Network{}}, "both a hex grid and a network"},
		{"link", net(func(n *board.Network, _ *board.Picture) { n.Links = append(n.Links, board.Link{A: "a", B: "zz"}) }), `link a-zz: unknown space "zz"`},
		{"dup", net(func(n *board.Network, _ *board.Picture) { n.Spaces = append(n.Spaces, board.Space{ID: "a"}) }), `duplicate space id "a"`},
		{"region", net(func(n *board.Network, _ *board.Picture) { n.Spaces[1].Region = "q" }), `space b: unknown region "q"`},
		{"kind", net(func(n *board.Network, _ *board.Picture) { n.Links[0].Kind = "canal" }), `unknown link kind "canal"`},
		{"outside", net(func(n *board.Network, _ *board.Picture) { n.Spaces[1].X = 300 }), "space b at (300, 100) is outside the 200x200 map"},
		{"counter", net(func(_ *board.Network, m *board.Picture) {
			m.Counters = []board.Counter{{Space: "x", ID: "1K"}}
		}), `counter 1K: unknown space "x"`},
		{"arrow", net(func(_ *board.Network, m *board.Picture) {
			m.Arrows = []board.Arrow{{FromSpace: "a", ToSpace: "y", Kind: board.Attack}}
		}), `attack arrow: unknown space "y"`},
		{"path", net(func(_ *board.Network, m *board.Picture) {
			m.Arrows = []board.Arrow{{FromSpace: "a", ToSpace: "b", Kind: board.Move, SpacePath: []string{"a", "q", "b"}}}
		}), `move arrow's path: unknown space "q"`},
		{"path ends", net(func(_ *board.Network, m *board.Picture) {
			m.Arrows = []board.Arrow{{FromSpace: "a", ToSpace: "b", Kind: board.Move, SpacePath: []string{"b", "a"}}}
		}), `move arrow a-b: its path does not run from a to b`},
	}
	for _, tt := range tests {
		_, err := Render(tt.m)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Render(net(func(*board.Network, *board.Picture) {})); err != nil {
		t.Errorf("good network: %v", err)
	}
}

func BenchmarkRenderNetworkPNG(b *testing.B) {
	m := testNetwork()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := RenderPNG(m, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}

func TestCropShowsHexesNearAction(t *testing.T) {
	m := testCropped()
	r, err := render(m, pixels)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.shown) == 0 || len(r.shown) >= len(m.Grid.All())/10 {
		t.Fatalf("%d hexes shown", len(r.shown))
	}
	for id := range r.shown {
		near := false
		for _, c := range m.Crop {
			near = near || m.Grid.Distance(c, id) <= cropReach
		}
		if !near {
			t.Errorf("hex %s is shown but not near the action", m.Grid.Format(id))
		}
	}
	for _, c := range m.Crop {
		if !r.shown[c] {
			t.Errorf("crop hex %s not shown", m.Grid.Format(c))
		}
	}
}
