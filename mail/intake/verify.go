package intake

import (
	"errors"
	"fmt"
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
		if msg.HTMLOnly {
			return verifyHTML(msg, keys)
		}
		return v, "", nil, false
	}
	// Inline signatures cover the text as sent, before any charset
	// conversion.
	v, err = signature.VerifyInline(msg.RawText, keys)
	if err != nil && msg.Flowed {
		// A mail program that sends format=flowed wrapped the lines of a
		// text signed before it was pasted in: the signature covers the
		// text unflowed (docs/order-file.md).
		if v2, err2 := signature.VerifyInline(message.Unflow(msg.RawText, msg.DelSp), keys); err2 == nil {
			return v2, string(v2.Content), nil, true
		}
	}
	if errors.Is(err, signature.ErrBadSignature) && !msg.Flowed {
		if n := cutLineIn(msg.Text); n > 0 {
			err = fmt.Errorf("%w; line %d of your message looks like the end of line %d, cut off by your mail program, which breaks lines longer than %d characters (Gmail's plain text mode does): that changed the signed text",
				err, n, n-1, adjudicator.WrapLimit)
		}
	}
	return v, string(v.Content), err, true
}

// verifyHTML checks a clear-signed or inline-signed block found in an
// HTML-only body (Mailvelope in Gmail's rich text mode): over the lines the
// HTML displays, which is the text the player signed. found is false when
// the HTML holds no signed block.
func verifyHTML(msg *message.Message, keys signature.Keys) (v signature.Verified, content string, err error, found bool) {
	lines := []byte(msg.HTMLLines)
	if _, ok := signature.Detect(lines); !ok {
		return v, "", nil, false
	}
	v, err = signature.VerifyInline(lines, keys)
	if errors.Is(err, signature.ErrBadSignature) || errors.Is(err, signature.ErrMalformed) {
		err = fmt.Errorf("%w; the signed block is inside an HTML-only message, and the text it shows is not the text that was signed", err)
	}
	return v, string(v.Content), err, true
}

// cutLineIn returns the number of the first line of text that looks like
// the end of the line above it, cut off by a mail program that wraps at
// adjudicator.WrapLimit columns, or 0. Only a line of at least 60
// characters counts as cut, and the armor lines of a signature never
// count as the rest of one.
func cutLineIn(text string) int {
	lines := strings.Split(text, "\n")
	for _, n := range adjudicator.CutLines(text, 60) {
		if !strings.HasPrefix(strings.TrimSpace(lines[n-1]), "-----") {
			return n
		}
	}
	return 0
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
