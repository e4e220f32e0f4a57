package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// TestLegibilityOnMapArt plays 1995's, WbT's and B&U's demos to their end
// with a map image installed and aligned (a hard one: busy grain, lines,
// black, white and mid-grey areas, colours like the sides'), public, and
// checks every picture of every step as each seat, the game master and
// the public view get it, drawn on the image
// (templates.LegibilityOn): no counter covers another place's counter or
// name, every stack readable, each stack's outline 3:1 against every
// image pixel around it, each name on a plate at 4.5:1, the legend
// leaving out what the image shows. With UMPIRE_LEGIBILITY_TABLE set it
// logs the figures of docs/templates.md; UMPIRE_LEGIBILITY_DUMP=dir writes
// the PNGs.
func TestLegibilityOnMapArt(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	rows := map[string]string{}
	games := []struct {
		kind, scenario string
		scale          float64 // the image's pixels a unit of the layout
	}{{"pcs1995", "demo", 40}, {"wbt", "demo", 40}, {"bu", "three", 2}}
	t.Cleanup(func() {
		if os.Getenv("UMPIRE_LEGIBILITY_TABLE") == "" {
			return
		}
		for _, g := range games {
			t.Log(rows[g.kind])
		}
	})
	for _, gm := range games {
		t.Run(gm.kind, func(t *testing.T) {
			t.Parallel()
			scan, align, sw, sh := busyScan(t, startPicture(t, gm.kind, gm.scenario), gm.scale)
			dark, light := scanTones(t, scan)
			if dark < 0.1 || light < 0.1 {
				t.Fatalf("the scan is not hard enough: %.0f%% dark, %.0f%% light", 100*dark, 100*light)
			}
			extra := fmt.Sprintf("map_image = \"a busy test scan\"\nmap_image_align = %q\nmap_image_public = true\n", align)
			w, id := endedDemoWith(t, gm.kind, gm.scenario, extra, func(w *world, id string) {
				// installed as 'umpire game image' installs it.
				sum := sha256.Sum256(scan)
				err := w.db.Update(context.Background(), func(stx *store.Tx) error {
					g, err := stx.Judge(judgeFrom, w.now).Game(id)
					if err != nil {
						return err
					}
					if err := w.j.MapImageFits(g, sw, sh); err != nil {
						return err
					}
					return stx.PutMapImage(store.MapImage{Game: id, Digest: hex.EncodeToString(sum[:]), Format: "jpeg", Width: sw, Height: sh, Installed: w.now}, scan)
				})
				if err != nil {
					t.Fatal(err)
				}
			})
			last := lastPlayed(t, w, id)
			var img *templates.MapImage
			err := w.db.View(context.Background(), func(stx *store.Tx) error {
				m, data, ok, err := stx.MapImage(id)
				if ok {
					img = &templates.MapImage{Digest: m.Digest, Load: func() ([]byte, error) { return data, nil }}
				}
				return err
			})
			if err != nil || img == nil {
				t.Fatalf("the map image is not installed: %v", err)
			}
			images := templates.MapImages(func(string) (*templates.MapImage, error) { return img, nil })
			var sum templates.Legible
			sum.TextContrast, sum.GroundContrast, sum.NameContrast = 21, 21, 21
			pictures, legendMin, legendMax := 0, 1<<30, 0
			eachPicture(t, w, id, last, func(name, file string, p *board.Picture) error {
				if p.Art == nil {
					t.Errorf("%s is not drawn on the map image", name)
					return nil
				}
				pictures++
				got, err := templates.LegibilityOn(*p, images.For(*p))
				if err != nil {
					return err
				}
				if dir := os.Getenv("UMPIRE_LEGIBILITY_DUMP"); dir != "" {
					var buf bytes.Buffer
					if err := templates.RenderPNGOn(*p, images.For(*p), &buf); err != nil {
						return err
					}
					if err := os.WriteFile(filepath.Join(dir, "art-"+file+".png"), buf.Bytes(), 0o644); err != nil {
						return err
					}
				}
				if n := len(got.Problems); n > 0 {
					t.Errorf("%s: %d problems:\n\t%s", name, n, strings.Join(got.Problems, "\n\t"))
				}
				if got.Counters == 0 || got.Labels == 0 {
					t.Errorf("%s: %d counters and %d names checked", name, got.Counters, got.Labels)
				}
				sum.Overlaps += got.Overlaps
				sum.Clipped += got.Clipped
				sum.Marked += got.Marked
				sum.TextContrast = min(sum.TextContrast, got.TextContrast)
				sum.GroundContrast = min(sum.GroundContrast, got.GroundContrast)
				sum.NameContrast = min(sum.NameContrast, got.NameContrast)
				legendMin, legendMax = min(legendMin, got.LegendEntries), max(legendMax, got.LegendEntries)
				return nil
			})
			if pictures < int(last) {
				t.Errorf("%d pictures checked over %d steps", pictures, last)
			}
			mu.Lock()
			defer mu.Unlock()
			rows[gm.kind] = fmt.Sprintf("| %s on map art | %d | %d | %d | %d | %d | %.1f:1 | %.1f:1 (names %.1f:1) | %d–%d |", gm.kind, last, pictures, sum.Overlaps, sum.Clipped,
				sum.Marked, sum.TextContrast, sum.GroundContrast, sum.NameContrast, legendMin, legendMax)
		})
	}
}

// startPicture is the public picture of kind's scenario at its start: the
// map the game master aligns a scan to.
func startPicture(t *testing.T, kind, scenario string) board.Picture {
	t.Helper()
	rules, err := demoGames().Get(kind)
	if err != nil {
		t.Fatal(err)
	}
	state, err := rules.New(scenario, nil)
	if err != nil {
		t.Fatal(err)
	}
	sit, err := rules.(adjudicator.Reporter).Situation(state, adjudicator.Spectator)
	if err != nil || sit.Picture == nil {
		t.Fatalf("%s draws no map: %v", kind, err)
	}
	return *sit.Picture
}

// busyScan is a stand-in for a scan of p's published map at scale pixels
// a unit of its layout, with a margin of 60 pixels, as a JPEG, and its
// alignment (map_image_align) and size. It is a hard ground for counters
// and names: broad areas from black through mid-grey to white, tinted in
// many colours (the sides' reds and blues among them), a grain of noise,
// and thin black and white lines crossing it, as print and hachures do.
func busyScan(t *testing.T, p board.Picture, scale float64) (data []byte, align string, w, h int) {
	t.Helper()
	const pad = 60.0
	var x0, y0, mw, mh float64
	switch {
	case p.Grid != nil:
		lo, hi := p.Grid.Bounds()
		x0, y0, mw, mh = pad-lo.X*scale, pad-lo.Y*scale, (hi.X-lo.X)*scale, (hi.Y-lo.Y)*scale
	default:
		n := p.Network
		nw, nh := n.Width, n.Height
		for _, s := range n.Spaces {
			nw, nh = math.Max(nw, s.X+60), math.Max(nh, s.Y+40)
		}
		x0, y0, mw, mh = pad, pad, nw*scale, nh*scale
	}
	w, h = int(mw+2*pad), int(mh+2*pad)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	clamp := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
	for y := range h {
		for x := range w {
			fx, fy := float64(x), float64(y)
			a := math.Pow(0.5+0.5*math.Sin(fx/61+1.3*math.Sin(fy/97))*math.Cos(fy/47-fx/133), 0.6)
			grain := float64(uint32(x*2654435761^y*40503)%61) - 30
			c := color.RGBA{
				clamp(a*255*(0.7+0.3*math.Sin(fx/211)) + grain),
				clamp(a*255*(0.7+0.3*math.Sin(fy/173+1)) + grain),
				clamp(a*255*(0.7+0.3*math.Cos((fx+fy)/151)) + grain), 255}
			switch {
			case (x+2*y)%53 < 2:
				c = color.RGBA{20, 20, 20, 255}
			case ((3*x-y)%89+89)%89 < 2:
				c = color.RGBA{250, 250, 245, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 88}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), fmt.Sprintf("%g %g %g %g", x0, y0, scale, scale), w, h
}

// scanTones is the share of a scan's pixels that are dark (WCAG relative
// luminance under 0.05: white text stands 7:1 on them, a mid-grey edge
// not 3:1) and light (over 0.5).
func scanTones(t *testing.T, data []byte) (dark, light float64) {
	t.Helper()
	img, err := templates.DecodeMapImage(data)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	n := 0
	lin := func(v uint32) float64 {
		s := float64(v>>8) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(bl)
			n++
			switch {
			case l < 0.05:
				dark++
			case l > 0.5:
				light++
			}
		}
	}
	return dark / float64(n), light / float64(n)
}
