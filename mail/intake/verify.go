package intake

import (
	"errors"
	"path"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// verify finds the signature of msg, in any of the forms players use, and
// checks it against the keys the judge knows. A message without one of its
// own may carry a forwarded message that has one.
func verify(msg *message.Message, env *adjudicator.Envelope, keys signature.Keys) []keyUpdate {
	attached := attachedKeys(msg, keys, env.Received)
	// A key's update counts before the copy the judge had: a revocation
	// holds at once for the message that brings it.
	keys = either{attached.updated, either{keys, attached.ring}}
	var notes []string
	for _, u := range attached.updates {
		notes = append(notes, "The judge took the update of your key: "+u.Changed+".")
	}
	env.KeyNote = strings.Join(notes, "\n")
	v, content, err, found := verifyMessage(msg, keys)
	for _, fwd := range msg.Forwarded {
		if found {
			break
		}
		v, content, err, found = verifyMessage(fwd, keys)
	}
	if !found {
		return attached.updates // unsigned
	}
	var unknown *signature.UnknownKeyError
	switch {
	case errors.As(err, &unknown):
		env.UnknownKey = unknown.Fingerprint
	case errors.Is(err, signature.ErrNoSignature):
		// nothing usable: treated as unsigned
	case errors.Is(err, signature.ErrWeak), errors.Is(err, signature.ErrExpiredOrRevoked):
		env.KeyProblem = err.Error()
	case err != nil:
		env.SignatureProblem = err.Error()
	default:
		env.Signed = &adjudicator.Signature{Kind: string(v.Kind), Fingerprint: v.Fingerprint, Content: content, Signed: v.Signed}
		if raw, ok := attached.raw[v.Fingerprint]; ok {
			env.NewKey = &adjudicator.NewKey{Fingerprint: v.Fingerprint, Kind: string(v.Kind), Public: raw}
		}
	}
	return attached.updates
}

// verifyMessage checks the signature of one message: PGP/MIME, a file with
// its detached signature, or an inline block. found is false when the
// message has none.
func verifyMessage(msg *message.Message, keys signature.Keys) (v signature.Verified, content string, err error, found bool) {
	switch {
	case msg.Signed != nil: // PGP/MIME
		v, err = signature.VerifyDetached(msg.Signed.Part, msg.Signed.Signature, keys)
		if in := msg.Signed.Inner; in != nil {
			content = in.Text
			// Some mail programs attach the order file inside the signed
			// part instead of writing it in the body.
			if !strings.Contains(content, "game:") {
				for _, a := range in.Attachments {
					if strings.HasPrefix(a.ContentType, "text/") && strings.Contains(a.Text(), "game:") {
						content = a.Text()
						break
					}
				}
			}
		}
		return v, content, err, true
	case detachedPair(msg) != nil:
		pair := detachedPair(msg)
		v, err = signature.VerifyDetached(pair[0].Data, pair[1].Data, keys)
		return v, string(pair[0].Data), err, true
	}
	if _, ok := signature.Detect(msg.RawText); !ok {
		return v, "", nil, false
	}
	// Inline signatures cover the text as sent, before any charset
	// conversion.
	v, err = signature.VerifyInline(msg.RawText, keys)
	return v, string(v.Content), err, true
}

// detachedPair returns an attached file and its detached signature
// (NAME and NAME.asc or NAME.sig), or nil.
func detachedPair(msg *message.Message) []message.Attachment {
	var files []message.Attachment
	for _, a := range msg.Attachments {
		if !isKeyFile(a.Data) {
			files = append(files, a)
		}
	}
	for _, sig := range files {
		ext := strings.ToLower(path.Ext(sig.Filename))
		if ext != ".asc" && ext != ".sig" {
			continue
		}
		base := strings.TrimSuffix(sig.Filename, path.Ext(sig.Filename))
		for _, f := range files {
			if f.Filename == base {
				return []message.Attachment{f, sig}
			}
		}
		// A lone file and a lone signature go together too.
		if len(files) == 2 {
			other := files[0]
			if other.Filename == sig.Filename {
				other = files[1]
			}
			return []message.Attachment{other, sig}
		}
	}
	return nil
}
