// Package oauth is the judge's OAuth 2.0 for its mail servers (RFC 6749):
// the access tokens it logs in to IMAP and SMTP with, refreshed from a
// refresh token kept in a file of the operator's, and the SASL mechanisms
// that carry them (XOAUTH2, OAUTHBEARER of RFC 7628). Authorize is "umpire
// mail authorize": it walks the operator through getting the refresh token,
// by the device code flow (RFC 8628) or a redirect to loopback (RFC 8252,
// with PKCE).
//
// No token is ever logged or written anywhere but the refresh token file
// (mode 0600); access tokens live in memory only.
//
// Where each part lives:
//
//	source.go    Source: the access token, refreshed before it expires; the refresh token file
//	sasl.go      SASL clients for XOAUTH2 and OAUTHBEARER, and the server's refusal
//	authorize.go Authorize: the device code flow and the loopback redirect
//	provider.go  the settings of Gmail and Microsoft 365
//	errors.go    the errors the package names
package oauth
