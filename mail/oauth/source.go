package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// DefaultEarly is how long before its expiry an access token is refreshed
// by default: a login, or an IMAP session renewed for it, never uses a
// token in its last minutes.
const DefaultEarly = 5 * time.Minute

// Config is how the judge gets access tokens for one mail account.
type Config struct {
	// TokenURL is the provider's token endpoint.
	TokenURL string
	// ClientID and ClientSecret identify the judge's registration with the
	// provider; ClientSecret may be empty (a public client).
	ClientID     string
	ClientSecret string
	// RefreshTokenFile holds the refresh token (its first line). A token
	// endpoint that rotates refresh tokens gets the new one written back,
	// mode 0600.
	RefreshTokenFile string
	// Scopes, when set, are asked for with each refresh; empty: those the
	// refresh token was granted.
	Scopes []string
	// Early is how long before expiry a token is refreshed; default
	// DefaultEarly.
	Early time.Duration
	// HTTPClient calls the token endpoint; default one with a 30 s timeout.
	HTTPClient *http.Client
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger logs each refresh, and each rotated refresh token written
	// back, never a token; default: discarded.
	Logger *slog.Logger
}

// Source gives the access token to log in with, refreshing it before it
// expires. It is safe for concurrent use: the inbox and the outbox's lanes
// share one per refresh token file.
type Source struct {
	cfg    Config
	oauth2 oauth2.Config

	mu      sync.Mutex
	refresh string    // the refresh token
	access  string    // the access token; "" when none is held
	expiry  time.Time // the access token's; zero when it named none
	renew   time.Time // when it is refreshed: Early before expiry, or half its life if that is less
	// refreshes counts the token endpoint's grants.
	refreshes int
}

// Token is an access token, when it expires, and when it is refreshed
// (both zero when the provider did not say).
type Token struct {
	Access string
	Expiry time.Time
	// Renew is Early before Expiry, or half its life when that is less: a
	// session logged in with the token logs in again from then.
	Renew time.Time
}

// NewSource reads the refresh token file and returns a Source refreshing
// from it. It calls no endpoint.
func NewSource(cfg Config) (*Source, error) {
	if cfg.TokenURL == "" || cfg.ClientID == "" || cfg.RefreshTokenFile == "" {
		return nil, errors.New("oauth2: token_url, client_id and refresh_token_file are needed")
	}
	if cfg.Early <= 0 {
		cfg.Early = DefaultEarly
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rt, err := ReadRefreshToken(cfg.RefreshTokenFile)
	if err != nil {
		return nil, err
	}
	return &Source{cfg: cfg, refresh: rt, oauth2: oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: cfg.TokenURL, AuthStyle: oauth2.AuthStyleInParams}, Scopes: cfg.Scopes}}, nil
}

// ReadRefreshToken reads the refresh token from the first line of path.
func ReadRefreshToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("oauth2: refresh_token_file: %w", err)
	}
	rt := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	if rt == "" {
		return "", fmt.Errorf("oauth2: refresh_token_file %s: %w", path, ErrNoRefreshToken)
	}
	return rt, nil
}

// WriteRefreshToken replaces path with a file of mode 0600 holding rt, by
// a rename: a crash leaves the old token or the new one, never half.
func WriteRefreshToken(path, rt string) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("oauth2: write refresh token: %w", err)
	}
	defer os.Remove(f.Name())
	// CreateTemp makes the file 0600; Chmod says so against any umask.
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.WriteString(rt + "\n")
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("oauth2: write refresh token %s: %w", path, err)
	}
	return nil
}

// Token returns an access token that is not yet due for renewal (Early
// before its expiry, or half its life if that is less), refreshing it
// first when it is.
func (s *Source) Token(ctx context.Context) (Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	if s.access != "" && (s.renew.IsZero() || now.Before(s.renew)) {
		return Token{s.access, s.expiry, s.renew}, nil
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, s.cfg.HTTPClient)
	// A token without an access token is expired: the source refreshes it.
	t, err := s.oauth2.TokenSource(ctx, &oauth2.Token{RefreshToken: s.refresh}).Token()
	if err != nil {
		return Token{}, refreshError(s.cfg.TokenURL, err)
	}
	s.refreshes++
	s.access, s.expiry, s.renew = t.AccessToken, time.Time{}, time.Time{}
	attrs := []any{"token_url", s.cfg.TokenURL, "refreshes", s.refreshes}
	if t.ExpiresIn > 0 {
		life := time.Duration(t.ExpiresIn) * time.Second
		s.expiry = now.Add(life)
		s.renew = s.expiry.Add(-min(s.cfg.Early, life/2))
		attrs = append(attrs, "expires_in", life, "renew_in", s.renew.Sub(now))
	}
	if t.RefreshToken != "" && t.RefreshToken != s.refresh {
		// The endpoint rotated the refresh token: the old one may stop
		// working at once, so the new one is kept before it is used.
		if err := WriteRefreshToken(s.cfg.RefreshTokenFile, t.RefreshToken); err != nil {
			return Token{}, err
		}
		s.refresh = t.RefreshToken
		attrs = append(attrs, "refresh_token_rotated_to", s.cfg.RefreshTokenFile)
	}
	s.cfg.Logger.InfoContext(ctx, "oauth2 access token refreshed", attrs...)
	return Token{s.access, s.expiry, s.renew}, nil
}

// SetLogger has the source log its refreshes to l from now on: the
// judge's log is made after its configuration, and the source, are read.
func (s *Source) SetLogger(l *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Logger = l
}

// Refused forgets the access token the server refused, so that the next
// Token refreshes it.
func (s *Source) Refused(t Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.access == t.Access {
		s.access, s.expiry, s.renew = "", time.Time{}, time.Time{}
	}
}

// Refreshes is how many access tokens the token endpoint granted.
func (s *Source) Refreshes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshes
}

// refreshError says what the token endpoint answered, with what to do; it
// quotes the endpoint's error code and description, never a token.
func refreshError(url string, err error) error {
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return fmt.Errorf("oauth2: refreshing the access token at %s: %w", url, err)
	}
	what := re.ErrorCode
	if re.ErrorDescription != "" {
		what += ": " + re.ErrorDescription
	}
	if what == "" {
		what = re.Response.Status
	}
	hint := ""
	switch {
	case re.ErrorCode == "invalid_grant":
		hint = " (the refresh token was revoked or has expired: run 'umpire mail authorize' again)"
	case re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized_client":
		hint = " (check client_id and client_secret_file)"
	case re.Response != nil && re.Response.StatusCode == http.StatusTooManyRequests:
		hint = " (the provider throttles: the judge backs off)"
	}
	return &RefreshError{Status: statusOf(re), Code: re.ErrorCode, msg: fmt.Sprintf("oauth2: refreshing the access token at %s: %s%s", url, what, hint)}
}

func statusOf(re *oauth2.RetrieveError) int {
	if re.Response == nil {
		return 0
	}
	return re.Response.StatusCode
}

// RefreshError is the token endpoint's refusal to refresh the access
// token.
type RefreshError struct {
	Status int    // the HTTP status
	Code   string // the OAuth error code, such as invalid_grant
	msg    string
}

func (e *RefreshError) Error() string { return e.msg }
