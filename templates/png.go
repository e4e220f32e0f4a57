package templates

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
)

// piece is a run of a PNG's filtered rows (each a filter byte and the
// row's palette indices) compressed on its own as deflate blocks ending
// with a sync flush: no back-reference reaches outside the piece, so
// pieces concatenate into one deflate stream in any combination, and a
// piece compressed once (a row band of a static layer) serves every
// picture that holds those rows unchanged.
type piece struct {
	data []byte
	sum  uint32 // Adler-32 of the raw bytes
	n    int    // raw bytes
}

// compress makes a piece of raw at the given flate level.
func compress(raw []byte, level int) (piece, error) {
	var b bytes.Buffer
	fw, err := flate.NewWriter(&b, level)
	if err == nil {
		_, err = fw.Write(raw)
	}
	if err == nil {
		err = fw.Flush()
	}
	if err != nil {
		return piece{}, fmt.Errorf("templates: png: %w", err)
	}
	return piece{data: b.Bytes(), sum: adler32.Checksum(raw), n: len(raw)}, nil
}

// compressAll compresses each of raws with up to GOMAXPROCS goroutines.
func compressAll(raws [][]byte, level int) ([]piece, error) {
	out := make([]piece, len(raws))
	errs := make([]error, len(raws))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, raw := range raws {
		if len(raws) == 1 {
			out[i], errs[i] = compress(raw, level)
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = compress(raw, level)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendRows appends rows y0..y1 of a paletted picture of width w as PNG
// scanlines with filter type None (paletted rows do not gain from the
// others).
func appendRows(raw, pix []byte, w, y0, y1 int) []byte {
	for y := y0; y < y1; y++ {
		raw = append(raw, 0)
		raw = append(raw, pix[y*w:(y+1)*w]...)
	}
	return raw
}

// encodePNG writes an 8-bit paletted PNG, compressing bands of rows in
// parallel (pieces): with two cores this halves the time image/png takes
// at the same compression level; the file is a few per cent larger.
func encodePNG(w io.Writer, img *image.Paletted) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	if width == 0 || height == 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		return fmt.Errorf("templates: png: empty picture or bad palette")
	}
	bands := min(runtime.GOMAXPROCS(0), 4, height)
	raws := make([][]byte, bands)
	for i := range bands {
		y0, y1 := height*i/bands, height*(i+1)/bands
		raws[i] = make([]byte, 0, (y1-y0)*(width+1))
		for y := y0; y < y1; y++ {
			off := img.PixOffset(b.Min.X, b.Min.Y+y)
			raws[i] = append(raws[i], 0)
			raws[i] = append(raws[i], img.Pix[off:off+width]...)
		}
	}
	pieces, err := compressAll(raws, flate.DefaultCompression)
	if err != nil {
		return err
	}
	pal := make([]uint32, len(img.Palette))
	for i, c := range img.Palette {
		r, g, bl, _ := c.RGBA()
		pal[i] = (r>>8)<<16 | (g>>8)<<8 | bl>>8
	}
	return writePNG(w, width, height, pal, pieces)
}

// writePNG writes a PNG of width x height pixels with palette pal
// (0xrrggbb) whose image data is the pieces, in order.
func writePNG(w io.Writer, width, height int, pal []uint32, pieces []piece) error {
	if width == 0 || height == 0 || len(pal) == 0 || len(pal) > 256 {
		return fmt.Errorf("templates: png: empty picture or bad palette")
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3 (palette)
	chunk(&out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(pal))
	for _, c := range pal {
		plte = append(plte, uint8(c>>16), uint8(c>>8), uint8(c))
	}
	chunk(&out, "PLTE", plte)
	n := 2 + 2 + 4
	for _, p := range pieces {
		n += len(p.data)
	}
	idat := make([]byte, 0, n)
	idat = append(idat, 0x78, 0x9c) // zlib: deflate, 32 KiB window, default level
	var sum uint32 = 1
	for i, p := range pieces {
		idat = append(idat, p.data...)
		if i == 0 {
			sum = p.sum
		} else {
			sum = adler32Combine(sum, p.sum, p.n)
		}
	}
	// the final block: empty, fixed Huffman codes.
	idat = append(idat, 0x03, 0x00)
	idat = binary.BigEndian.AppendUint32(idat, sum)
	chunk(&out, "IDAT", idat)
	chunk(&out, "IEND", nil)
	_, err := w.Write(out.Bytes())
	return err
}

func chunk(w *bytes.Buffer, kind string, data []byte) {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
	copy(hdr[4:], kind)
	w.Write(hdr[:])
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(hdr[4:])
	crc.Write(data)
	binary.Write(w, binary.BigEndian, crc.Sum32())
}

// adler32Combine returns the Adler-32 of a||b from the sums of a and b and
// the length of b (as zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	rem := uint64(lenB % mod)
	s1a, s2a := uint64(a&0xffff), uint64(a>>16)
	s1b, s2b := uint64(b&0xffff), uint64(b>>16)
	s1 := (s1a + s1b + mod - 1) % mod
	s2 := (s2a + s2b + rem*s1a + 2*mod - rem) % mod
	return uint32(s2<<16 | s1)
}
