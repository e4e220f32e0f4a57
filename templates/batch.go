package templates

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/board"
)

// PictureDigest names a picture by its content: two readers whose reports
// hold the same picture (every seat of a game without hidden units, and its
// game master) get the same digest, and a seat-specific view its own.
func PictureDigest(p *board.Picture) string {
	data, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Batch is the result of RenderBatch: for each report, its rendering (or
// the error that kept it from rendering) and the digest of its picture;
// Drawn holds the pictures it drew, by digest.
type Batch struct {
	Rendered []*Rendered
	Errs     []error
	Pictures []string
	Drawn    map[string]Picture
}

// RenderBatch renders reports with workers goroutines (every core when
// workers <= 0). Each distinct picture is drawn once, as PNG and SVG, and
// not at all when known returns it (drawn for an earlier batch: its PNG
// set); readers who see the same picture share its bytes. It stops early
// when ctx ends.
func (rs *Reports) RenderBatch(ctx context.Context, reports []*adjudicator.Report, known func(digest string) Picture, workers int) (*Batch, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := &Batch{Rendered: make([]*Rendered, len(reports)), Errs: make([]error, len(reports)),
		Pictures: make([]string, len(reports)), Drawn: map[string]Picture{}}
	type picture struct {
		p   *board.Picture
		pic Picture
		err error
	}
	pics := map[string]*picture{}
	var todo []string
	for i, r := range reports {
		if r.Picture == nil {
			continue
		}
		d := PictureDigest(r.Picture)
		b.Pictures[i] = d
		if pics[d] != nil {
			continue
		}
		pics[d] = &picture{p: r.Picture}
		if known != nil {
			pics[d].pic = known(d)
		}
		if pics[d].pic.PNG == nil {
			todo = append(todo, d)
		}
	}
	each(ctx, workers, len(todo), func(i int) {
		pic := pics[todo[i]]
		if pic.pic, pic.err = rs.picture(*pic.p); pic.err == nil {
			rs.drawn.Add(1)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, d := range todo {
		if pics[d].err == nil {
			b.Drawn[d] = pics[d].pic
		}
	}
	each(ctx, workers, len(reports), func(i int) {
		var pic Picture
		var err error
		if d := b.Pictures[i]; d != "" {
			pic, err = pics[d].pic, pics[d].err
		}
		b.Rendered[i], b.Errs[i] = rs.RenderWith(reports[i], pic, err)
	})
	return b, ctx.Err()
}

// Drawn returns how many pictures RenderBatch has drawn.
func (rs *Reports) Drawn() int64 { return rs.drawn.Load() }

// each calls f(0..n-1) on up to workers goroutines.
func each(ctx context.Context, workers, n int, f func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}
