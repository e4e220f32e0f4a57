package datafile

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// DefaultCacheEntries is how many parsed files a Cache keeps unless told.
const DefaultCacheEntries = 16

// Cache keeps parsed files by the digest of their texts, the least
// recently used going first when it holds Max. A game's states carry its
// data files' texts and every step reads them, so the parse is kept; the
// bound keeps files that differ only in a comment from filling memory.
// The zero Cache keeps DefaultCacheEntries; it is safe for concurrent use.
type Cache[V any] struct {
	Max int

	mu    sync.Mutex
	order list.List // of *entry[V], most recent first
	byKey map[[32]byte]*list.Element
}

type entry[V any] struct {
	key [32]byte
	v   V
}

// Key is the cache key of texts: their digest, each text's length counted
// so that ("ab", "c") and ("a", "bc") differ.
func Key(texts ...[]byte) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, t := range texts {
		l := uint64(len(t))
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(t)
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// Get returns the value kept for key.
func (c *Cache[V]) Get(key [32]byte) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[V]).v, true
	}
	var zero V
	return zero, false
}

// Put keeps v for key, dropping the least recently used beyond Max.
func (c *Cache[V]) Put(key [32]byte, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[[32]byte]*list.Element{}
	}
	if e, ok := c.byKey[key]; ok {
		e.Value.(*entry[V]).v = v
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&entry[V]{key: key, v: v})
	max := c.Max
	if max <= 0 {
		max = DefaultCacheEntries
	}
	for c.order.Len() > max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*entry[V]).key)
	}
}

// Len is how many values the cache keeps.
func (c *Cache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Load returns the value kept for key, or parses it, keeping what parses:
// an error is not kept, so the file is read again (and refused again) the
// next time it comes.
func (c *Cache[V]) Load(key [32]byte, parse func() (V, error)) (V, error) {
	if v, ok := c.Get(key); ok {
		return v, nil
	}
	v, err := parse()
	if err == nil {
		c.Put(key, v)
	}
	return v, err
}
