package edit

// This file reads the game master's scan: a PNG or JPEG within bounds,
// measured from its header before anything is decoded.

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // scans are JPEG or PNG
	_ "image/png"
	"io"
	"os"
)

// Scan bounds: a scan is read whole into memory and drawn by the browser.
const (
	MaxScanBytes  = 64 << 20 // 64 MiB on disk
	MaxScanSide   = 16384    // pixels a side (a browser's canvas limit)
	MaxScanPixels = 100 << 20
)

// Scan is the game master's scan of the map.
type Scan struct {
	Data          []byte
	Type          string // image/png or image/jpeg
	Width, Height int
}

// ReadScan reads and checks a scan file.
func ReadScan(path string) (*Scan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("edit: scan: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxScanBytes+1))
	if err != nil {
		return nil, fmt.Errorf("edit: scan %s: %w", path, err)
	}
	if len(data) > MaxScanBytes {
		return nil, fmt.Errorf("edit: scan %s: larger than %d MiB", path, MaxScanBytes>>20)
	}
	return CheckScan(path, data)
}

// CheckScan checks a scan's bytes: a PNG or JPEG of at most MaxScanSide
// pixels a side and MaxScanPixels in all, read from its header only.
func CheckScan(name string, data []byte) (*Scan, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("edit: scan %s is not a PNG or JPEG image: %w", name, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxScanSide || cfg.Height > MaxScanSide || cfg.Width*cfg.Height > MaxScanPixels {
		return nil, fmt.Errorf("edit: scan %s is %d×%d pixels: at most %d a side and %d megapixels", name, cfg.Width, cfg.Height, MaxScanSide, MaxScanPixels>>20)
	}
	return &Scan{Data: data, Type: "image/" + format, Width: cfg.Width, Height: cfg.Height}, nil
}
