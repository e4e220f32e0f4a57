package templates

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"slices"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// layerSteps are pictures of a game over several steps: the same map with
// counters moved, arrows changed, a counter gone and one added, the
// subtitle and tracks changed, on a hex map (whole and cropped) and on
// point-to-point maps.
func layerSteps(t *testing.T) map[string][]board.Picture {
	t.Helper()
	out := map[string][]board.Picture{}
	for name, m := range map[string]board.Picture{
		"hex": testMap(), "cropped": testCropped(), "stacks-hex": stacksHex(),
		"network": testNetwork(), "stacks-network": stacksNetwork(),
	} {
		var spaces []string
		if m.Network != nil {
			for _, s := range m.Network.Spaces {
				spaces = append(spaces, s.ID)
			}
		}
		for step := range 4 {
			p := m
			p.Subtitle = fmt.Sprintf("after step %d", step)
			p.Counters = slices.Clone(m.Counters)
			p.Arrows = slices.Clone(m.Arrows)
			p.Tracks = slices.Clone(m.Tracks)
			for i := range p.Counters {
				if i%3 != step%3 {
					continue
				}
				c := &p.Counters[i]
				if m.Grid != nil {
					// a hex north, or south at the top row.
					if c.Hex.Row > m.Grid.FirstRow {
						c.Hex.Row--
					} else {
						c.Hex.Row++
					}
				} else if len(spaces) > 0 {
					c.Space = spaces[(slices.Index(spaces, c.Space)+step*7)%len(spaces)]
				}
			}
			if step == 2 && len(p.Counters) > 1 {
				p.Counters = p.Counters[1:]
			}
			if step == 3 && len(p.Counters) > 0 {
				p.Counters = append(p.Counters, p.Counters[0])
			}
			if step%2 == 1 && len(p.Arrows) > 0 {
				p.Arrows = p.Arrows[:len(p.Arrows)-1]
			}
			for i := range p.Tracks {
				p.Tracks[i].Value += step
			}
			out[name] = append(out[name], p)
		}
	}
	return out
}

// wholeRGBA draws m whole on one canvas, the truth a picture must show.
func wholeRGBA(t *testing.T, m board.Picture) *image.RGBA {
	t.Helper()
	r, err := render(m, pixels)
	if err != nil {
		t.Fatal(err)
	}
	return r.cv.(*canvas).img
}

// TestLayeredDrawsWhatWholeDraws checks that a picture drawn over the
// cached static layer holds, before it is turned into a PNG, exactly the
// pixels of the picture drawn whole, at every step of a game, and that the
// layer is drawn once per map, not per step.
func TestLayeredDrawsWhatWholeDraws(t *testing.T) {
	layers.reset()
	for name, steps := range layerSteps(t) {
		d0 := layers.drawn.Load()
		for i, m := range steps {
			want := wholeRGBA(t, m)
			var ls *layered
			if _, err := render(m, func(w, h int) surface { ls = newLayered(w, h); return ls }); err != nil {
				t.Fatal(err)
			}
			if ls.base == nil {
				t.Fatalf("%s step %d: no static layer laid", name, i)
			}
			b := want.Bounds()
			if ls.w != b.Dx() || ls.h != b.Dy() {
				t.Fatalf("%s step %d: %dx%d, whole %v", name, i, ls.w, ls.h, b.Size())
			}
			differ, first := 0, image.Point{-1, -1}
			for y := range ls.h {
				for x := range ls.w {
					var got [3]uint8
					switch {
					case ls.live[(y/tileH)*ls.tx+x/tileW]:
						o := ls.cv.img.PixOffset(x, y)
						got = [3]uint8{ls.cv.img.Pix[o], ls.cv.img.Pix[o+1], ls.cv.img.Pix[o+2]}
					case ls.inBase(y):
						c := ls.base.colours[ls.base.exact[(y-ls.top)*ls.base.w+x]]
						got = [3]uint8{uint8(c >> 16), uint8(c >> 8), uint8(c)}
					default:
						got = [3]uint8{ls.bg.R, ls.bg.G, ls.bg.B}
					}
					o := want.PixOffset(x, y)
					if got != [3]uint8(want.Pix[o:o+3]) {
						if differ == 0 {
							first = image.Pt(x, y)
						}
						differ++
					}
				}
			}
			if differ > 0 {
				t.Errorf("%s step %d: %d pixels differ from the picture drawn whole, the first at %v", name, i, differ, first)
			}
			if ls.nLive == len(ls.live) {
				t.Errorf("%s step %d: every tile drawn over: the layer saved nothing", name, i)
			}
			ls.release()
			putPix(want.Pix)
		}
		if n := layers.drawn.Load() - d0; n != 1 {
			t.Errorf("%s: static layer drawn %d times over %d steps, want once", name, n, len(steps))
		}
	}
}

// TestLayeredPNG decodes the PNG of each step and checks each pixel
// against the picture drawn whole: a PNG holds at most 256 colours, so
// every pixel shows the drawn colour or one at most as far from it as the
// nearest colour of the static layer's palette, and the flat colours drawn
// over the layer (counters, text, arrows) exactly. It also compares the
// pixels that are visibly off (by more than 16 in a channel) with those of
// the picture drawn whole and quantised by frequency (the way before the
// layer): at every step of every test picture, no more.
func TestLayeredPNG(t *testing.T) {
	layers.reset()
	for name, steps := range layerSteps(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // the maps share the layer cache, as the judge's reports do
			for i, m := range steps {
				var buf bytes.Buffer
				if err := RenderPNG(m, &buf); err != nil {
					t.Fatal(err)
				}
				if buf.Len() >= 400<<10 {
					t.Errorf("%s step %d: png is %d bytes, want under 400 KiB", name, i, buf.Len())
				}
				got, err := png.Decode(bytes.NewReader(buf.Bytes()))
				if err != nil {
					t.Fatalf("%s step %d: %v", name, i, err)
				}
				var old bytes.Buffer
				if err := renderPNGWhole(m, &old); err != nil {
					t.Fatal(err)
				}
				oldImg, err := png.Decode(bytes.NewReader(old.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				r, err := render(m, pixels)
				if err != nil {
					t.Fatal(err)
				}
				cv := r.cv.(*canvas)
				want := cv.img
				flat := map[uint32]bool{}
				for _, c := range usedColours(cv) {
					flat[uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)] = true
				}
				key := func(x, y int, img image.Image) uint32 {
					r, g, b, _ := img.At(x, y).RGBA()
					return (r>>8)<<16 | (g>>8)<<8 | b>>8
				}
				// the static layer of this map: its palette.
				var ls *layered
				if _, err := render(m, func(w, h int) surface { ls = newLayered(w, h); return ls }); err != nil {
					t.Fatal(err)
				}
				basePal := ls.base.pal
				dist := func(a, b uint32) int {
					dr, dg, db := int(a>>16)-int(b>>16), int(a>>8&0xff)-int(b>>8&0xff), int(a&0xff)-int(b&0xff)
					return 3*dr*dr + 4*dg*dg + 2*db*db
				}
				bounded := map[uint32]int{}
				bad, farNew, farOld := 0, 0, 0
				for y := range want.Bounds().Dy() {
					for x := range want.Bounds().Dx() {
						o := want.PixOffset(x, y)
						w := uint32(want.Pix[o])<<16 | uint32(want.Pix[o+1])<<8 | uint32(want.Pix[o+2])
						g := key(x, y, got)
						if far(got.At(x, y), want.At(x, y)) {
							farNew++
						}
						if far(oldImg.At(x, y), want.At(x, y)) {
							farOld++
						}
						if flat[w] && ls.live[(y/tileH)*ls.tx+x/tileW] {
							if g != w {
								if bad < 5 {
									t.Logf("flat (%d,%d) got %06x want %06x", x, y, g, w)
								}
								bad++
							}
							continue
						}
						lim, ok := bounded[w]
						if !ok {
							lim = dist(w, basePal[nearest(basePal, w)])
							bounded[w] = lim
						}
						if dist(g, w) > lim {
							if bad < 5 {
								t.Logf("(%d,%d) got %06x want %06x lim %d", x, y, g, w, lim)
							}
							bad++
						}
					}
				}
				putPix(want.Pix)
				ls.release()
				if bad > 0 {
					t.Errorf("%s step %d: %d pixels farther from the drawing than the palette allows", name, i, bad)
				}
				n := want.Bounds().Dx() * want.Bounds().Dy()
				t.Logf("%s step %d: %d bytes (whole %d); pixels off by more than 16: %d (%.2f%%), whole %d (%.2f%%)",
					name, i, buf.Len(), old.Len(), farNew, 100*float64(farNew)/float64(n), farOld, 100*float64(farOld)/float64(n))
				// no tolerance: the layered picture must not show more
				// pixels visibly off than the one quantised whole.
				if farNew > farOld {
					t.Errorf("%s step %d: %d pixels (%.2f%%) off by more than 16, drawn whole %d (%.2f%%)",
						name, i, farNew, 100*float64(farNew)/float64(n), farOld, 100*float64(farOld)/float64(n))
				}
			}
		})
	}
}
