package adjudicator

import (
	"context"
	"fmt"
)

// SetAside answers the sender of a message the judge could not process
// and tells the operator: the message is kept as quarantined message id
// (the mail intake sets it aside when the work on it ran out of its budget,
// panicked, or was under way when the judge stopped twice). Nothing in the
// message was acted on. Automatic mail (bounces, auto-replies) gets no
// answer.
func (in *Intake) SetAside(ctx context.Context, tx Tx, env *Envelope, id uint64, reason string) error {
	in.log().ErrorContext(ctx, "message set aside", "quarantined", fmt.Sprintf("q%d", id), "from", env.From,
		"message_id", env.MessageID, "reason", reason)
	if env.Automatic == "" && env.Bounce == nil {
		a := answer{tx: tx, out: tx, env: env}
		if err := a.reply(MailError, "your message could not be processed", fmt.Sprintf(
			"Your message could not be processed: %s.\n\n"+
				"Nothing in it was acted on, and the judge goes on with other mail. The judge's\n"+
				"operator has your message (quarantined as q%d) and can have it processed again or\n"+
				"drop it; you will not be answered again about this one. If it held orders for a\n"+
				"deadline that is near, send them again in a new message, leaving out what the judge\n"+
				"could not read, or ask the game master.\n", reason, id)); err != nil {
			return err
		}
	}
	if in.Judge == nil || in.Judge.Operator == "" {
		return nil
	}
	return tx.Enqueue(Mail{Kind: MailAnnouncement, To: in.Judge.Operator, Subject: fmt.Sprintf("umpire: message q%d set aside", id),
		Text: fmt.Sprintf("The judge could not process a message and set it aside as q%d:\n\n"+
			"  from        %s\n  subject     %s\n  message-id  %s\n  why         %s\n\n"+
			"Its sender was told. 'umpire mail quarantined' lists what is set aside; 'umpire mail\n"+
			"release q%d' has the judge process it again (within the same limits), and 'umpire mail\n"+
			"drop q%d' drops it (docs/operations.md, \"Quarantined mail\").\n"+
			"(You get this as the operator of the judge.)\n",
			id, orNone(env.From), orNone(env.Subject), orNone(env.MessageID), reason, id, id)})
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
