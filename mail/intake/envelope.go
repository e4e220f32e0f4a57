package intake

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/mail"
	"github.com/umpire-pbem/umpire/mail/message"
	"github.com/umpire-pbem/umpire/mail/signature"
)

// envelope reads m into what intake needs, and the updates of known keys
// it brings. It never fails: what cannot be read becomes a reason the
// player is told.
func (h *Handler) envelope(m mail.Message, keys signature.Keys, now time.Time) (*adjudicator.Envelope, []keyUpdate) {
	env := &adjudicator.Envelope{Received: now, Size: m.Size, Limit: h.limits.MaxMessage}
	msg, err := message.Parse(m.Raw, h.limits)
	if msg != nil {
		env.MessageID, env.Subject = msg.MessageID, msg.Subject
		env.From = msg.From.Addr
		if len(msg.ReplyTo) > 0 && msg.ReplyTo[0].Addr != "" {
			env.From = msg.ReplyTo[0].Addr
		}
		if rp := strings.Trim(msg.ReturnPath, "<> "); env.From == "" && rp != "" {
			// No readable From: the envelope sender the delivering server
			// recorded is where an answer can still go.
			env.From = rp
		}
		env.References = append(append([]string(nil), msg.References...), msg.InReplyTo)
		// Only ids that can be written into a reply's References are kept
		// (a control character in a Message-ID must not spoil the answer).
		env.References = slices.DeleteFunc(env.References, func(r string) bool { return !message.MsgIDOK(r) })
		if reason, auto := message.Automatic(msg, []string{h.address}); auto {
			env.Automatic = reason
			if r := msg.Report; r != nil && r.OriginalMessageID != "" {
				env.Bounce = &adjudicator.Bounce{OriginalMessageID: r.OriginalMessageID, Recipient: r.FinalRecipient,
					Action: r.Action, Status: r.Status, Diagnostic: r.DiagnosticCode, At: now}
			}
			return env, nil
		}
	}
	switch {
	case m.Truncated:
		env.TooLarge = true
		return env, nil
	case errors.Is(err, message.ErrTooLarge):
		env.TooLarge = true
		var le *message.LimitError
		if errors.As(err, &le) && le.Limit != message.LimitMessage {
			env.TooLargeWhy = strings.TrimSuffix(le.Error(), ".")
		}
		return env, nil
	case err != nil:
		env.Unreadable = err.Error()
		return env, nil
	}
	env.Text, env.HTMLOnly = msg.Text, msg.HTMLOnly
	client := message.GuessClient(msg)
	env.Client, env.PlainTextFix, env.SignedTextFix = client.Name, client.PlainText, client.KeepText
	if msg.Encrypted {
		env.SignatureProblem = "the message is encrypted, and the judge reads no encrypted mail: " +
			"sign your order file without encrypting it (gpg --clearsign orders.txt)"
		return env, nil
	}
	return env, verify(msg, env, keys)
}
