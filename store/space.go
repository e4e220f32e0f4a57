package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"go.etcd.io/bbolt"
)

// BucketSpace is the room one top-level bucket of the store takes, nested
// buckets included.
type BucketSpace struct {
	Name string `json:"name"`
	// Keys counts the bucket's keys, its nested buckets' keys included.
	Keys int `json:"keys"`
	// Used is how many bytes of its pages hold data, Pages how many bytes
	// its pages take in the file.
	Used  int64 `json:"used"`
	Pages int64 `json:"pages"`
}

// Space says where the file's room goes: the top-level buckets, largest
// first, and the bytes of free pages that later writes fill before the
// file grows. It reads every page of the store, so it is for operators and
// tests, not for every pass.
func (db *DB) Space(ctx context.Context) ([]BucketSpace, int64, error) {
	var out []BucketSpace
	err := db.View(ctx, func(tx *Tx) error {
		return tx.tx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			st := b.Stats()
			out = append(out, BucketSpace{Name: string(name), Keys: st.KeyN,
				Used:  int64(st.BranchInuse + st.LeafInuse + st.InlineBucketInuse),
				Pages: int64(st.BranchAlloc + st.LeafAlloc)})
			return nil
		})
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store space: %w", err)
	}
	slices.SortFunc(out, func(a, b BucketSpace) int {
		return cmp.Or(cmp.Compare(b.Pages, a.Pages), cmp.Compare(a.Name, b.Name))
	})
	return out, int64(db.bolt.Load().Stats().FreeAlloc), nil
}
