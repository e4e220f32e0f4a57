package vassal

import (
	"archive/zip"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
)

// Limits bounds the time and memory one module or scan may cost. Read
// reads only the entries it needs (moduledata, the buildFile, the boards'
// images), each through a reader that stops at its bound, so a zip bomb
// costs at most TotalBytes of inflation, whatever its entries claim.
type Limits struct {
	ModuleBytes    int64 // the module file
	DirectoryBytes int64 // the zip's central directory (the list of entries held in memory)
	Entries        int   // entries in the zip
	BuildFileBytes int64 // the buildFile (and moduledata), uncompressed
	EntryBytes     int64 // one board image, uncompressed
	TotalBytes     int64 // every entry read, uncompressed, together
	Depth          int   // nesting of the buildFile's elements
	Pixels         int64 // an image's width × height
	Side           int   // an image's width or height
	Hexes          int   // hexes of one grid over its board or zone
}

// DefaultLimits returns the bounds umpire edit uses. A published map
// scanned at 300 dpi (22 × 34 inches: 6,600 × 10,200 pixels, 67 million)
// fits; an image of 20,000 × 20,000 (400 million pixels, 1.6 GB once
// decoded) does not. The largest VASSAL modules (a few hundred MB, some
// tens of thousands of entries, buildFiles of 20 MB) fit.
func DefaultLimits() Limits {
	return Limits{
		ModuleBytes:    2 << 30,
		DirectoryBytes: 16 << 20,
		Entries:        100_000,
		BuildFileBytes: 64 << 20,
		EntryBytes:     256 << 20,
		TotalBytes:     512 << 20,
		Depth:          100,
		Pixels:         100_000_000,
		Side:           32_768,
		Hexes:          200_000,
	}
}

// budget is what is left of Limits.TotalBytes while one module is read.
type budget struct {
	total, left int64
}

// boundedReader reads an entry, refusing once it passes its own limit or
// the module's budget, and stops when ctx is done: every Read costs at
// most the bytes it returns, so time and memory stay within the bounds.
type boundedReader struct {
	ctx    context.Context
	r      io.Reader
	name   string
	limit  int64  // the entry's bound
	claim  uint64 // the size its zip header claims
	read   int64
	budget *budget
}

// Read reads from the entry, counting against both bounds.
func (b *boundedReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	// Ask for one byte past the bound so that passing it is seen.
	if room := b.limit - b.read + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = entryError(b.name, b.claim, err)
	}
	b.read += int64(n)
	b.budget.left -= int64(n)
	if b.read > b.limit {
		return n, refuse(ErrTooLarge, "the module's entry %s inflates to more than %s (a zip bomb, or an image too large to import)", b.name, bytesText(b.limit))
	}
	if b.budget.left < 0 {
		return n, refuse(ErrTooLarge, "the module's entries inflate to more than %s in all (a zip bomb?)", bytesText(b.budget.total))
	}
	return n, err
}

// bytesText writes a size for a message: "256 MiB", "1,000 bytes".
func bytesText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// entryError says why an entry could not be inflated. archive/zip stops
// an entry that inflates past the size its header claims (ErrFormat),
// which is how a zip bomb with a lying header ends.
func entryError(name string, claim uint64, err error) error {
	var e *Error
	var corrupt flate.CorruptInputError
	switch {
	case errors.As(err, &e):
		return err
	case errors.Is(err, zip.ErrFormat):
		return refuse(ErrTooLarge, "the module's entry %s inflates to more than the %s its zip header says (a zip bomb, or a damaged module)", name, bytesText(int64(min(claim, 1<<62))))
	case errors.Is(err, zip.ErrChecksum), errors.As(err, &corrupt):
		return refuseWrap(ErrNotModule, err, "the module's entry %s is damaged", name)
	}
	return err
}
