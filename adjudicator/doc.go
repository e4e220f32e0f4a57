// Package adjudicator is the judge's domain: games, seats, order files,
// receipts and the mail they cause, and the intake rules that turn an
// incoming message into accepted orders and answers. It declares the small
// interfaces it needs (Tx for the store) and knows nothing of IMAP, SMTP or
// bbolt.
package adjudicator
