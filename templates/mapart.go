package templates

// This file draws a picture on the game master's map art (board.Art): the
// image of the published map, resampled to the picture's scale, takes the
// place of the drawn terrain in the static layer, and the counters,
// arrows, markers, place names and legend are drawn over it exactly as on
// the drawn map, so that they keep the drawn map's legibility: the names
// the game's data gives are tagged where the drawn map tags them, under
// the stack, never under a counter, and stacks fan out as they do there.

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // map images are PNG, JPEG or GIF
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"sync"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// The bounds of a map image, the same as umpire edit's for a scan
// (vassal.DefaultLimits): a published map scanned at 300 dpi (6,600 ×
// 10,200 pixels) fits, 20,000 × 20,000 does not. Decoding one costs up to
// 4 bytes a pixel (400 MB at the limit), once per map layout while the
// resampled image is kept (artCacheBytes), and one image is decoded at a
// time.
const (
	MaxMapImageBytes  = 64 << 20
	MaxMapImagePixels = 100_000_000
	MaxMapImageSide   = 32_768
	artCacheBytes     = 64 << 20
)

// MapImage is a game's map image as the renderer takes it: Digest (its
// SHA-256) names it, and Load reads its bytes only when a picture's map
// must be resampled anew. ScaleX and ScaleY are its pixels per pixel of
// the image the alignment (board.Art) was made on, across and down, when
// it was shrunk at install (ShrinkMapImage); 0 for 1.
type MapImage struct {
	Digest         string
	Load           func() ([]byte, error)
	ScaleX, ScaleY float64
}

// MapImages finds a game's installed map image: nil, nil when it has none.
type MapImages func(game string) (*MapImage, error)

// WithMapImages makes rs draw pictures that carry board.Art on the images
// images finds; it returns rs. Set it before rs is shared.
func (rs *Reports) WithMapImages(images MapImages) *Reports {
	rs.images = images
	return rs
}

// picturePNG draws p as a PNG, on its map image when it has one that rs
// can find.
func (rs *Reports) picturePNG(p board.Picture, w io.Writer) error {
	return RenderPNGOn(p, rs.images.For(p), w)
}

// For is the image under p, for RenderPNGOn and RenderSVGOn: nil for a
// picture without board.Art; for one whose image cannot be found (images
// nil, none installed, an error), an image whose Load says why, so that
// the picture is drawn on the drawn map with a line saying it.
func (images MapImages) For(p board.Picture) *MapImage {
	if p.Art == nil {
		return nil
	}
	if images == nil {
		return &MapImage{Load: func() ([]byte, error) { return nil, errors.New("this judge keeps no map images here") }}
	}
	img, err := images(p.Art.Game)
	switch {
	case err != nil:
		return &MapImage{Load: func() ([]byte, error) { return nil, err }}
	case img == nil:
		return &MapImage{Load: func() ([]byte, error) {
			return nil, errors.New("the game master's map image is not installed yet ('umpire game image')")
		}}
	}
	return img
}

// RenderPNGOn is RenderPNG on the map image img when m carries board.Art
// (img nil, or m without Art: the drawn map). When the image cannot be
// read the map is drawn as usual, with a line saying why, so the report
// still goes out.
func RenderPNGOn(m board.Picture, img *MapImage, w io.Writer) error {
	var ls *layered
	_, err := renderOn(m, img, func(width, height int) surface {
		ls = newLayered(width, height)
		return ls
	})
	if ls != nil {
		defer ls.release()
	}
	if err != nil {
		return err
	}
	return ls.encode(w)
}

// RenderSVGOn is RenderSVG on the map image img: the image, resampled to
// the picture's scale, is embedded as a JPEG (a data: URL, no external
// reference).
func RenderSVGOn(m board.Picture, img *MapImage, w io.Writer) error {
	var sv *svgSurface
	r, err := renderOn(m, img, func(width, height int) surface {
		sv = newSVG(width, height)
		return sv
	})
	if err != nil {
		return err
	}
	sv.flush()
	r.places(&sv.b)
	return sv.finish(m.Title, w)
}

// mapArt is the map image under the picture being drawn, and where it
// lies: the map area and how the image is resampled onto it (set by
// artLayer).
type mapArt struct {
	art  *board.Art
	img  *MapImage
	area image.Rectangle
	geo  *artGeometry
}

// On map art a stack is ringed with a white halo artHalo pixels wide and
// its counters' edges are dark enough to stand 3:1 against artGrey, the
// lightest grey white stands 3:1 against: wherever the image is darker
// than artGrey the halo shows the counter's outline, wherever it is
// lighter the edge does (docs/templates.md, "Legibility on map art").
const artHalo = 1.5

var artGrey = rgb(0x949494)

// artEdge is the edge of a counter of colour c on map art.
func artEdge(c color.RGBA) color.RGBA { return edgeOn(c, artGrey) }

// namePlate is the white plate, with a thin border, under a name drawn
// over map art: text on it keeps its contrast whatever the image under
// it. b is the name's box.
func (r *renderer) namePlate(b box) {
	r.cv.fill(rgb(0x333333), roundRect(b.x0, b.y0, b.x1, b.y1, 3))
	r.cv.fill(white, roundRect(b.x0+1, b.y0+1, b.x1-1, b.y1-1, 2.5))
}

// inkOn is c, darkened as far as needed to stand 4.5:1 on back (text on a
// plate); textInk when no shade of c does.
func inkOn(c, back color.RGBA) color.RGBA {
	for _, k := range []float64{1, 0.8, 0.6, 0.45, 0.3} {
		if e := darker(c, k); contrast(e, back) >= textContrast {
			return e
		}
	}
	return textInk
}

// artLayer returns the static layer's content and drawing for a map on
// its image: the image over area (the map's pixels on the picture, where
// layout point p is at (ox + k*p.X, oy + k*p.Y)), then over (the place
// names), then the line saying whose image it is. An image that cannot be
// read leaves content and drawn as they were, and adds the line saying
// why.
func (r *renderer) artLayer(content any, drawn func(), area image.Rectangle, k, ox, oy float64, over func()) (any, func()) {
	a := r.art
	if a == nil || a.art == nil || a.img == nil {
		return content, drawn
	}
	// where the image lies in the map area's own pixels: u = s*x + t.
	al := *a.art
	if a.img.ScaleX > 0 && a.img.ScaleY > 0 { // shrunk at install
		al.X0, al.SX, al.Y0, al.SY = al.X0*a.img.ScaleX, al.SX*a.img.ScaleX, al.Y0*a.img.ScaleY, al.SY*a.img.ScaleY
	}
	geo := artGeometry{W: area.Dx(), H: area.Dy(),
		SX: k / al.SX, TX: ox - float64(area.Min.X) - al.X0*k/al.SX,
		SY: k / al.SY, TY: oy - float64(area.Min.Y) - al.Y0*k/al.SY}
	key := struct {
		Content any
		Digest  string
		Art     board.Art
		Geo     artGeometry
	}{content, a.img.Digest, al, geo}
	a.area, a.geo = area, &geo
	return key, func() {
		img, err := scaledArt(a.img, geo)
		if err != nil {
			drawn()
			r.artLine(area, "map image not drawn: "+err.Error())
			return
		}
		r.blit(img, area)
		if over != nil {
			over()
		}
		r.artLine(area, "map art: "+al.Credit)
	}
}

// artLine writes a line at the foot of the map area, over the map.
func (r *renderer) artLine(area image.Rectangle, s string) {
	s = clip(r.fSmall, s, area.Dx()-12)
	x := area.Min.X + 6 + r.fSmall.width(s)/2
	r.cv.haloText(r.fSmall, s, x, area.Max.Y-6, textInk, white)
}

// blit puts img over area of the surface being drawn on.
func (r *renderer) blit(img *image.RGBA, area image.Rectangle) {
	switch s := r.cv.(type) {
	case *canvas:
		draw.Draw(s.img, area, img, image.Point{}, draw.Src)
	case *layered:
		// the layer could not be kept: the image on the picture itself.
		s.promote(area)
		draw.Draw(s.cv.img, area, img, image.Point{}, draw.Src)
	case *svgSurface:
		s.flush()
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
			return
		}
		fmt.Fprintf(&s.b, "<image x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\" href=\"data:image/jpeg;base64,%s\"/>\n",
			area.Min.X, area.Min.Y, area.Dx(), area.Dy(), base64.StdEncoding.EncodeToString(buf.Bytes()))
	}
}

// artGeometry is how a map image is resampled for one map area of W × H
// pixels: image pixel x lands at SX*x + TX of the area, y at SY*y + TY.
type artGeometry struct {
	W, H           int
	SX, TX, SY, TY float64
}

// artEntry is one resampled image, drawn once.
type artEntry struct {
	once sync.Once
	img  *image.RGBA
	err  error
}

// artCache keeps the map images resampled for a map area, by image and
// geometry, up to artCacheBytes: a game's pictures share one. The cache
// starts again empty when full. decode admits one decoding at a time.
type artCache struct {
	mu     sync.Mutex
	byKey  map[string]*artEntry
	size   int
	decode sync.Mutex
}

// arts is the process's cache of resampled map images, as layers is of
// static layers.
var arts = &artCache{byKey: map[string]*artEntry{}}

// scaledArt returns img resampled for geo.
func scaledArt(img *MapImage, geo artGeometry) (*image.RGBA, error) {
	if img.Digest == "" { // no image to find: Load says why
		_, err := img.Load()
		if err == nil {
			err = errors.New("the map image has no digest")
		}
		return nil, err
	}
	key := fmt.Sprintf("%s %+v", img.Digest, geo)
	arts.mu.Lock()
	e, ok := arts.byKey[key]
	if !ok {
		if arts.size+4*geo.W*geo.H > artCacheBytes {
			arts.byKey, arts.size = map[string]*artEntry{}, 0
		}
		e = &artEntry{}
		arts.byKey[key] = e
		arts.size += 4 * geo.W * geo.H
	}
	arts.mu.Unlock()
	e.once.Do(func() {
		arts.decode.Lock()
		defer arts.decode.Unlock()
		e.img, e.err = resampleArt(img, geo)
		if e.err != nil {
			arts.mu.Lock()
			delete(arts.byKey, key)
			arts.mu.Unlock()
		}
	})
	return e.img, e.err
}

// resampleArt decodes img within the bounds and resamples it onto a map
// area (bilinear, averaging what it shrinks); the area outside the image
// is paper. Its colours are rounded to 5 bits a channel, so that the
// static layer keeps them (it keeps up to 65,536).
func resampleArt(img *MapImage, geo artGeometry) (*image.RGBA, error) {
	data, err := img.Load()
	if err != nil {
		return nil, err
	}
	src, err := DecodeMapImage(data)
	if err != nil {
		return nil, err
	}
	dst := image.NewRGBA(image.Rect(0, 0, geo.W, geo.H))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(paper), image.Point{}, draw.Src)
	s2d := f64.Aff3{geo.SX, 0, geo.TX, 0, geo.SY, geo.TY}
	xdraw.BiLinear.Transform(dst, s2d, src, src.Bounds(), xdraw.Src, nil)
	for i := 0; i < len(dst.Pix); i += 4 {
		for c := range 3 {
			v := dst.Pix[i+c] &^ 7
			dst.Pix[i+c] = v | v>>5
		}
		dst.Pix[i+3] = 255
	}
	return dst, nil
}

// DecodeMapImage decodes a map image: a PNG, JPEG or GIF of at most
// MaxMapImageBytes, MaxMapImageSide pixels a side and MaxMapImagePixels,
// measured from its header before anything is decoded.
func DecodeMapImage(data []byte) (image.Image, error) {
	if len(data) > MaxMapImageBytes {
		return nil, fmt.Errorf("templates: map image: %d bytes, over the limit of %d MiB", len(data), MaxMapImageBytes>>20)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("templates: map image: not a PNG, JPEG or GIF image: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxMapImageSide || cfg.Height > MaxMapImageSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxMapImagePixels {
		return nil, fmt.Errorf("templates: map image: a %s image of %d × %d pixels, over the limit of %d pixels (and %d a side)",
			format, cfg.Width, cfg.Height, MaxMapImagePixels, MaxMapImageSide)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("templates: map image: %w", err)
	}
	return img, nil
}

// artKeep is how many of the image's pixels a picture's pixel an image
// keeps when it is shrunk at install: twice the drawn map's, so that the
// renderer still shrinks it (averaging) rather than enlarges it.
const artKeep = 2.0

// MapImageShrink is the factor by which an image on which p's layout lies
// at sx × sy pixels a unit (the alignment's scales) can be shrunk and keep
// artKeep pixels for each of the picture's: 1 when it is no larger.
func MapImageShrink(p board.Picture, sx, sy float64) float64 {
	drawn := hexRadius
	if p.Network != nil {
		drawn = networkScale(p.Network)
	}
	if k := artKeep * drawn / math.Min(sx, sy); k < 1 && k > 0 {
		return k
	}
	return 1
}

// ShrinkMapImage decodes a map image (DecodeMapImage) and shrinks it by
// the factor k (MapImageShrink) with a Catmull-Rom filter, kept as a JPEG
// when it came as one (quality 90), else as a PNG; it returns the image's
// bytes, format and size, and its pixels per pixel of the image given,
// across and down. With k 1 or more it returns data as it is.
func ShrinkMapImage(data []byte, k float64) (out []byte, format string, w, h int, sx, sy float64, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", 0, 0, 0, 0, fmt.Errorf("templates: map image: not a PNG, JPEG or GIF image: %w", err)
	}
	src, err := DecodeMapImage(data)
	if err != nil {
		return nil, "", 0, 0, 0, 0, err
	}
	if k >= 1 {
		return data, format, cfg.Width, cfg.Height, 1, 1, nil
	}
	w = max(1, int(math.Round(float64(cfg.Width)*k)))
	h = max(1, int(math.Round(float64(cfg.Height)*k)))
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), xdraw.Src, nil)
	var buf bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90})
	} else {
		format = "png"
		err = png.Encode(&buf, dst)
	}
	if err != nil {
		return nil, "", 0, 0, 0, 0, fmt.Errorf("templates: map image: %w", err)
	}
	return buf.Bytes(), format, w, h, float64(w) / float64(cfg.Width), float64(h) / float64(cfg.Height), nil
}

// artLegend is the legend of a map on its image: the keys to what the
// image shows instead (terrain, hexsides, roads and links) left out, the
// sides, arrows, key spaces and control rings kept.
func (r *renderer) artLegend(items []board.LegendItem) []board.LegendItem {
	if r.art == nil {
		return items
	}
	var out []board.LegendItem
	for _, it := range items {
		if it.Hexside != "" || it.Road != "" || it.Terrain != "" && it.Terrain != "key" {
			continue
		}
		out = append(out, it)
	}
	return out
}
