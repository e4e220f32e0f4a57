package store_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/storetest"
)

// BenchmarkCompact: how long a running judge's writes wait while its store
// is compacted (DB.Compact holds the write lock throughout), by the size
// of what is kept: 200 MB of queued mail, half of it pruned first. Reported
// as MB kept per second.
//
//	go test -run '^$' -bench Compact -benchtime 3x ./store
func BenchmarkCompact(b *testing.B) {
	path := filepath.Join(b.TempDir(), "umpire.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rnd := rand.New(rand.NewPCG(3, 4))
	body := make([]byte, 20000)
	for i := range body {
		body[i] = byte(rnd.Uint32())
	}
	for round := range 200 {
		storetest.MustUpdate(b, db, func(tx *store.Tx) error {
			for i := range 100 {
				id, err := tx.Enqueue(store.Mail{Kind: store.MailReport, Body: body, Queued: t0})
				if err != nil {
					return err
				}
				if (round*100+i)%2 == 0 {
					if err := tx.MarkSent(id, t0); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	if _, err := pruneSent(b, db); err != nil {
		b.Fatal(err)
	}
	var res store.CompactResult
	b.ResetTimer()
	for b.Loop() {
		if res, err = db.Compact(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.After)/(1<<20), "MB-kept")
	b.ReportMetric(float64(res.After)/(1<<20)*float64(b.N)/b.Elapsed().Seconds(), "MB/s")
}

func pruneSent(b *testing.B, db *store.DB) (int, error) {
	var n int
	err := db.Update(b.Context(), func(tx *store.Tx) (err error) {
		n, _, err = tx.Prune(t0.Add(1), t0.Add(1), 0)
		return err
	})
	return n, err
}
