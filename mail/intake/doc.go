// Package intake is the judge's front door on the mail side. It takes each
// message the inbox fetches, reads it into an adjudicator.Envelope — the
// MIME structure, the order file, its signature in whichever form a player
// sent it (PGP/MIME, a file with its detached signature, an inline block,
// a forwarded message), the public keys it brings — and commits what
// adjudicator.Intake decides together with the mailbox checkpoint and the
// record that the message was taken, in one store transaction.
//
// A Handler is the mail.Handler, mail.BatchHandler and mail.Checkpoints of
// the inbox. It declares the storage it needs (Store, Tx); cmd/umpire wires
// the bbolt store into it.
//
// Files:
//
//	handler.go   Handler: checkpoints, batches, one message's commit
//	envelope.go  a raw message read into an adjudicator.Envelope
//	verify.go    finding and checking a message's signature
//	client.go    the mail program a message seems to come from, for the
//	             answers that say how to sign from it
//	keys.go      the keys the judge knows and the keys a message attaches
//	dkim.go      DKIM: a message's DKIM signature, for games without keys
//	limit.go     the hourly limit on answers to one sender
//	quarantine.go messages set aside: budgets, in-flight marks, release
//	store.go     the storage the intake needs
package intake
