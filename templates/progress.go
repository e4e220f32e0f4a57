package templates

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress draws one line of progress on a terminal (umpire verify's), at
// most ten times a second. A nil *Progress draws nothing.
type Progress struct {
	w     io.Writer
	now   func() time.Time
	last  time.Time
	drawn bool
}

// NewProgress returns a Progress that draws on w, with the time from now.
func NewProgress(w io.Writer, now func() time.Time) *Progress {
	return &Progress{w: w, now: now}
}

const barWidth = 30

// Set shows done of total for the named stage; total <= 0 shows a count.
func (b *Progress) Set(stage string, done, total int64) {
	if b == nil {
		return
	}
	t := b.now()
	if b.drawn && t.Sub(b.last) < 100*time.Millisecond && done != total {
		return
	}
	b.last, b.drawn = t, true
	if total <= 0 {
		fmt.Fprintf(b.w, "\r%-9s %d", stage, done)
		return
	}
	filled := int(int64(barWidth) * min(done, total) / total)
	fmt.Fprintf(b.w, "\r%-9s [%s%s] %3d%% %d/%d", stage,
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), 100*min(done, total)/total, done, total)
}

// Clear erases the bar's line.
func (b *Progress) Clear() {
	if b == nil || !b.drawn {
		return
	}
	fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", barWidth+40))
	b.drawn = false
}

// Reader returns r, showing the bytes read from it as stage's progress
// towards total.
func (b *Progress) Reader(r io.Reader, stage string, total int64) io.Reader {
	return &countingReader{r: r, fn: func(n int64) { b.Set(stage, n, total) }}
}

// countingReader reports the bytes read so far.
type countingReader struct {
	r  io.Reader
	n  int64
	fn func(n int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	c.fn(c.n)
	return n, err
}
