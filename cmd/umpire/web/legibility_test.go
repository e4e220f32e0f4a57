package web

import (
	"bytes"
	"context"
	"fmt"
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

// TestLegibility plays each game's demo to its end between the rules' bots
// and checks every picture of every step, as each seat, the game master
// and the public view get it (templates.Legibility): no counter covers
// another place's counter or name, every stack readable, every name whole,
// contrast, the legend complete and only what is drawn, arrows along the
// path. A failure names the picture and the items at fault. With
// UMPIRE_LEGIBILITY_TABLE set it logs the figures of docs/templates.md.
func TestLegibility(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	rows := map[string]string{}
	t.Cleanup(func() {
		if os.Getenv("UMPIRE_LEGIBILITY_TABLE") == "" {
			return
		}
		for _, d := range demoScenarios {
			t.Log(rows[d.kind])
		}
	})
	for _, d := range demoScenarios {
		t.Run(d.kind, func(t *testing.T) {
			t.Parallel()
			w, id := endedDemo(t, d.kind, d.scenario)
			last := lastPlayed(t, w, id)
			var sum templates.Legible
			sum.TextContrast, sum.GroundContrast = 21, 21
			pictures, legendMin, legendMax := 0, 1<<30, 0
			eachPicture(t, w, id, last, func(name, file string, p *board.Picture) error {
				pictures++
				got, err := templates.Legibility(*p)
				if err != nil {
					return err
				}
				if dir := os.Getenv("UMPIRE_LEGIBILITY_DUMP"); dir != "" {
					var buf bytes.Buffer
					if err := templates.RenderPNG(*p, &buf); err != nil {
						return err
					}
					if err := os.WriteFile(filepath.Join(dir, file+".png"), buf.Bytes(), 0o644); err != nil {
						return err
					}
				}
				if n := len(got.Problems); n > 0 {
					t.Errorf("%s: %d problems:\n\t%s", name, n, strings.Join(got.Problems, "\n\t"))
				}
				sum.Counters += got.Counters
				sum.Overlaps += got.Overlaps
				sum.Clipped += got.Clipped
				sum.Marked += got.Marked
				if got.Counters > 0 {
					sum.TextContrast = min(sum.TextContrast, got.TextContrast)
					sum.GroundContrast = min(sum.GroundContrast, got.GroundContrast)
				}
				legendMin, legendMax = min(legendMin, got.LegendEntries), max(legendMax, got.LegendEntries)
				return nil
			})
			mu.Lock()
			defer mu.Unlock()
			rows[d.kind] = fmt.Sprintf("| %s | %d | %d | %d | %d | %d | %.1f:1 | %.1f:1 | %d–%d |", d.kind, last, pictures, sum.Overlaps, sum.Clipped,
				sum.Marked, sum.TextContrast, sum.GroundContrast, legendMin, legendMax)
		})
	}
}

// readersOf is everyone a game's reports are drawn for: the game master
// (""), the public view (Spectator) and each seat.
func readersOf(tx adjudicator.Tx, id string) ([]string, error) {
	seats, err := tx.Seats(id)
	if err != nil {
		return nil, err
	}
	readers := []string{"", adjudicator.Spectator}
	for _, s := range seats {
		readers = append(readers, s.Name)
	}
	return readers, nil
}

// eachPicture calls check with each distinct picture of game id's steps
// 1 to last, as the game master, the public view and each seat get it,
// with the picture's name for a failure and a file name for a dump; an
// error from check or from building a report fails the test.
func eachPicture(t *testing.T, w *world, id string, last uint64, check func(name, file string, p *board.Picture) error) {
	t.Helper()
	seen := map[string]bool{}
	err := w.db.View(context.Background(), func(stx *store.Tx) error {
		tx := stx.Judge(judgeFrom, w.now)
		readers, err := readersOf(tx, id)
		if err != nil {
			return err
		}
		for k := uint64(1); k <= last; k++ {
			for _, reader := range readers {
				r, err := w.j.BuildReport(tx, id, k, reader)
				if err != nil {
					return err
				}
				if r.Picture == nil {
					continue
				}
				if dg := templates.PictureDigest(r.Picture); seen[dg] {
					continue
				} else {
					seen[dg] = true
				}
				name := fmt.Sprintf("%s step %d, %s's picture", id, k, cmpOr(reader, "the game master"))
				if err := check(name, fmt.Sprintf("%s-%02d-%s", id, k, cmpOr(reader, "gm")), r.Picture); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
