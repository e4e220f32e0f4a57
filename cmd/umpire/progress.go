package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar draws one line of progress on a terminal, at most ten times a
// second. A nil *progressBar draws nothing.
type progressBar struct {
	w     io.Writer
	now   func() time.Time
	last  time.Time
	drawn bool
}

func newProgressBar(w io.Writer, now func() time.Time) *progressBar {
	return &progressBar{w: w, now: now}
}

const barWidth = 30

// set shows done of total for the named stage; total <= 0 shows a count.
func (b *progressBar) set(stage string, done, total int64) {
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

// clear erases the bar's line.
func (b *progressBar) clear() {
	if b == nil || !b.drawn {
		return
	}
	fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", barWidth+40))
	b.drawn = false
}
