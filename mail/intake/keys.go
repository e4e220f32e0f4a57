package intake

import (
	"context"
	"crypto/sha256"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// keyring returns the keys the judge knows. They are kept between batches
// (keyCache) and brought up to date from the store's keyring version: a
// batch reads the keys put since the last one, so its cost does not grow
// with the keys stored.
func (h *Handler) keyring(ctx context.Context) (signature.Keys, error) {
	c := &h.keys
	c.load.Lock()
	defer c.load.Unlock()
	var keys []Key
	full := false
	var version uint64
	if err := h.db.View(ctx, func(tx Tx) error {
		var ok bool
		var err error
		if c.loaded {
			keys, version, ok, err = tx.KeysSince(c.version)
			if err != nil || (ok && len(keys) == 0) {
				return err
			}
			fresh := keys[:0]
			for _, k := range keys {
				sum, known := c.stored[k.Fingerprint]
				switch {
				case !known:
					fresh = append(fresh, k)
				case sum != sha256.Sum256(k.Public):
					ok = false // a known key changed (renewed, revoked): read afresh
				}
			}
			keys = fresh
		}
		if !ok {
			full = true
			version = tx.KeysVersion()
			keys, err = tx.Keys()
		}
		return err
	}); err != nil {
		return nil, err
	}
	if full {
		r, stored := h.parseKeys(ctx, &signature.Keyring{}, keys, map[string][sha256.Size]byte{})
		c.mu.Lock()
		c.ring, c.stored = r, stored
		c.mu.Unlock()
		c.loads.Add(1)
	} else if len(keys) > 0 {
		c.mu.Lock()
		h.parseKeys(ctx, c.ring, keys, c.stored)
		c.mu.Unlock()
	}
	c.loaded, c.version = true, version
	return c, nil
}

// parseKeys adds the stored keys to r, and to stored their fingerprints
// with the SHA-256 of their material.
func (h *Handler) parseKeys(ctx context.Context, r *signature.Keyring, keys []Key, stored map[string][sha256.Size]byte) (*signature.Keyring, map[string][sha256.Size]byte) {
	for _, k := range keys {
		stored[k.Fingerprint] = sha256.Sum256(k.Public)
		if len(k.Public) == 0 {
			continue // a mail address that holds a seat by DKIM: no key
		}
		pk, err := signature.ParseKey(k.Public)
		if err != nil {
			h.log.WarnContext(ctx, "stored key does not parse", "fingerprint", k.Fingerprint, "err", err)
			continue
		}
		if err := r.Add(pk); err != nil {
			h.log.WarnContext(ctx, "stored key refused", "fingerprint", k.Fingerprint, "err", err)
		}
	}
	return r, stored
}

// keyCache is the keyring a Handler keeps between batches, at the store's
// keyring version. Lookups may run while a later batch brings it up to
// date.
type keyCache struct {
	load    sync.Mutex // one update at a time
	loaded  bool
	version uint64

	mu     sync.RWMutex
	ring   *signature.Keyring
	stored map[string][sha256.Size]byte // fingerprints read from the store: their material's SHA-256
	loads  atomic.Int64                 // whole keyrings read (tests)
}

// Lookup implements signature.Keys.
func (c *keyCache) Lookup(kind signature.Kind, id string) (signature.Key, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.ring.Lookup(kind, id)
}

// attached holds the public keys a message carries that the judge does
// not know yet (a new player's join brings the player's key), and the
// updates it carries for keys the judge knows.
type attached struct {
	ring *signature.Keyring
	raw  map[string][]byte // fingerprint -> the attachment as sent
	// updated holds the known keys an attachment updated (a renewed or
	// revoked key sent again, a revocation certificate), merged.
	updated *signature.Keyring
	updates []keyUpdate
}

// keyUpdate is an update of a known key a message brought.
type keyUpdate struct {
	Fingerprint string
	Raw         []byte        // the attachment as sent
	Changed     string        // what it changes, for the key's holder
	Merged      signature.Key // the key with the update merged
}

func attachedKeys(msg *message.Message, known signature.Keys, now time.Time) *attached {
	a := &attached{ring: &signature.Keyring{}, raw: map[string][]byte{}, updated: &signature.Keyring{}}
	for _, att := range msg.Attachments {
		if !isKeyFile(att.Data) {
			continue
		}
		if id, ok := signature.UpdateTarget(att.Data); ok {
			if old, ok := known.Lookup(signature.OpenPGP, id); ok {
				if cur, ok := a.updated.Lookup(signature.OpenPGP, id); ok {
					old = cur // a second update in the same message
				}
				merged, changed, err := signature.MergeKey(old, att.Data, now)
				if err == nil && changed != "" && a.updated.Add(merged) == nil {
					a.updates = append(a.updates, keyUpdate{Fingerprint: old.Fingerprint, Raw: att.Data, Changed: changed, Merged: merged})
				}
				continue
			}
		}
		k, err := signature.ParseKey(att.Data)
		if err != nil {
			continue
		}
		if _, ok := known.Lookup(k.Kind, k.Fingerprint); ok {
			continue
		}
		if a.ring.Add(k) == nil {
			a.raw[k.Fingerprint] = att.Data
		}
	}
	return a
}

// isKeyFile reports whether an attachment looks like a public key rather
// than a signature or an order file.
func isKeyFile(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return strings.Contains(s, "BEGIN PGP PUBLIC KEY BLOCK") ||
		strings.HasPrefix(s, "ssh-ed25519 ") || strings.HasPrefix(s, "ecdsa-sha2-") || strings.HasPrefix(s, "ssh-rsa ")
}

// either looks a key up in a, then in b.
type either struct{ a, b signature.Keys }

func (e either) Lookup(kind signature.Kind, id string) (signature.Key, bool) {
	if k, ok := e.a.Lookup(kind, id); ok {
		return k, true
	}
	return e.b.Lookup(kind, id)
}

// KeyringReads is how many times the handler read the whole keyring from
// the store: at its first batch, and again after the material of a key it
// knew changed (a renewal, a revocation). Keys added, and keys whose
// address changed, are read on their own.
func (h *Handler) KeyringReads() int64 { return h.keys.loads.Load() }
