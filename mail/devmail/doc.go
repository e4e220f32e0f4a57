// Package devmail is a small mail system that runs inside the umpire process,
// on loopback, for `umpire serve --dev`, `umpire demo` and tests.
//
// A Server holds an IMAP server (go-imap's imapserver over the in-memory
// imapmemserver backend) and an SMTP server (go-smtp). Mail submitted over
// SMTP, or handed to Deliver, for any address in the configured domains is
// stored byte for byte in that address's IMAP INBOX; accounts are created on
// first delivery with a generated password unless Config.Accounts names them.
// Nothing is written to disk: the mail lives as long as the Server.
//
// The IMAP side offers what a judge uses: LOGIN, SELECT, UID FETCH, UID
// SEARCH, STORE, IDLE (woken by deliveries), MOVE, COPY, UID EXPUNGE
// (UIDPLUS), CREATE and stable UIDVALIDITY values. The SMTP side takes
// unauthenticated mail for the local domains, like an MX, and also offers
// AUTH PLAIN without TLS, since it only listens on loopback.
//
// Both listeners can be stopped and started again on the same address
// (StopSMTP, StartSMTP, StopIMAP, StartIMAP) so that tests can simulate
// outages; the mailboxes survive.
package devmail
