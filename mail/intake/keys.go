package intake

import (
	"context"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// keyring loads the keys the judge knows.
func (h *Handler) keyring(ctx context.Context) (*signature.Keyring, error) {
	var keys []Key
	if err := h.db.View(ctx, func(tx Tx) (err error) {
		keys, err = tx.Keys()
		return err
	}); err != nil {
		return nil, err
	}
	r := &signature.Keyring{}
	for _, k := range keys {
		pk, err := signature.ParseKey(k.Public)
		if err != nil {
			h.log.WarnContext(ctx, "stored key does not parse", "fingerprint", k.Fingerprint, "err", err)
			continue
		}
		if err := r.Add(pk); err != nil {
			h.log.WarnContext(ctx, "stored key refused", "fingerprint", k.Fingerprint, "err", err)
		}
	}
	return r, nil
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
