package templates

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"
)

// TestEncodePNG checks the parallel encoder against the standard decoder,
// and the zlib stream (with its combined Adler-32) against zlib's reader,
// for pictures of several shapes.
func TestEncodePNG(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []image.Point{{1, 1}, {3, 2}, {17, 5}, {640, 480}} {
		pal := color.Palette{}
		for i := range 200 {
			pal = append(pal, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255})
		}
		img := image.NewPaletted(image.Rect(0, 0, size.X, size.Y), pal)
		for i := range img.Pix {
			if rng.IntN(4) == 0 {
				img.Pix[i] = uint8(rng.IntN(len(pal)))
			} else if i > 0 {
				img.Pix[i] = img.Pix[i-1]
			}
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%v: %v", size, err)
		}
		gp, ok := got.(*image.Paletted)
		if !ok || !bytes.Equal(gp.Pix, img.Pix) || len(gp.Palette) != len(pal) {
			t.Fatalf("%v: decoded picture differs", size)
		}
		// the IDAT payload is a zlib stream whose checksum zlib verifies.
		data := buf.Bytes()[8:]
		var idat []byte
		for len(data) >= 12 {
			n := binary.BigEndian.Uint32(data)
			if string(data[4:8]) == "IDAT" {
				idat = data[8 : 8+n]
			}
			data = data[12+n:]
		}
		zr, err := zlib.NewReader(bytes.NewReader(idat))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%v: zlib: %v", size, err)
		}
		if len(raw) != size.Y*(size.X+1) {
			t.Fatalf("%v: %d raw bytes", size, len(raw))
		}
	}
}

func TestAdler32Combine(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		a := make([]byte, rng.IntN(100000))
		b := make([]byte, rng.IntN(100000))
		for i := range a {
			a[i] = byte(rng.IntN(256))
		}
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		want := adler32.Checksum(append(append([]byte{}, a...), b...))
		if got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), len(b)); got != want {
			t.Fatalf("combine %d+%d bytes: %08x, want %08x", len(a), len(b), got, want)
		}
	}
}
