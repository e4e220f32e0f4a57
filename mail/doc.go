// Package mail is umpire's contact with the world: the IMAP inbox that takes
// players' messages exactly once, the SMTP outbox that delivers receipts and
// reports, the checks of both servers that "umpire check" runs (CheckIMAP,
// CheckSMTP: the same dial, TLS and login), the login by password or by an
// OAuth 2.0 access token (login.go, with mail/oauth), MIME parsing and
// composing, and the verification of OpenPGP and SSH signatures on order
// files. It knows nothing of games.
package mail
