package oauth

import "errors"

var (
	// ErrRefused is a token the mail server refused: expired, revoked, or
	// not meant for it (another audience or scope). The next login
	// refreshes it first.
	ErrRefused = errors.New("the server refused the OAuth 2.0 access token (expired, revoked, or not meant for this server)")
	// ErrNoRefreshToken is a refresh token file that holds none.
	ErrNoRefreshToken = errors.New("no refresh token in the file: run 'umpire mail authorize'")
)
