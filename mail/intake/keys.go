package intake

import (
	"context"
	"strings"

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
// not know yet: a new player's join brings the player's key.
type attached struct {
	ring *signature.Keyring
	raw  map[string][]byte // fingerprint -> the attachment as sent
}

func attachedKeys(msg *message.Message, known signature.Keys) *attached {
	var a *attached
	for _, att := range msg.Attachments {
		if !isKeyFile(att.Data) {
			continue
		}
		k, err := signature.ParseKey(att.Data)
		if err != nil {
			continue
		}
		if _, ok := known.Lookup(k.Kind, k.Fingerprint); ok {
			continue
		}
		if a == nil {
			a = &attached{ring: &signature.Keyring{}, raw: map[string][]byte{}}
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
