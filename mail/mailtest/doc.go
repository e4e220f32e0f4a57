// Package mailtest runs mail servers for end-to-end tests: a judge reads its
// mail over IMAP and submits replies over SMTP, and players' mail reaches it
// through an MTA.
//
// Two kinds of Stack offer the same harness. Embedded runs devmail in
// process and costs nothing. Real runs Dovecot (IMAP and LMTP) and
// OpenSMTPD on loopback ports, with configuration, users, maildirs and logs
// in a temporary folder; it needs root and the Debian packages dovecot-imapd,
// dovecot-lmtpd and opensmtpd. Without them Real skips the test, or fails it
// when the environment variable CI is "true". Shared is a Real stack that
// the tests of a package take in turn, started once per test binary and
// emptied between tests; its TestMain makes it and closes it.
//
// Both stacks deliver mail for the domains umpire.test and players.test, and
// both can be hurt on purpose: StopSMTP and StartSMTP take the MTA down and
// back on the same address, RestartIMAP drops every IMAP connection.
//
// RealDKIM is a Real stack whose OpenSMTPD also signs, with DKIM
// (filter-dkimsign, Debian package opensmtpd-filter-dkimsign), the mail it
// takes on a port of each signer, as a player's mail provider does; DNS is
// a name server on loopback that publishes their keys.
//
// RealOAuth is a Real stack whose Dovecot also takes OAuth 2.0 access
// tokens (SASL XOAUTH2 and OAUTHBEARER; its oauth2 passdb asks an
// AuthServer, an authorization server the test runs on loopback, to
// introspect each), over IMAP and over Dovecot's submission server, which
// relays to OpenSMTPD (Debian package dovecot-submissiond).
//
// The corpora of mail/testdata are read here too (Corpus, Clients), and
// ClientShapes writes an order file as each mail client players use
// shapes and signs it, for the clients corpus and for the tests that mail
// such messages to a judge.
package mailtest
