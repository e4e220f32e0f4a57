package oauth_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/oauth"
)

// clock is a clock the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newSource(t *testing.T, auth *mailtest.AuthServer, c *clock, rt string) (*oauth.Source, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "refresh.token")
	if err := oauth.WriteRefreshToken(file, rt); err != nil {
		t.Fatal(err)
	}
	src, err := oauth.NewSource(oauth.Config{TokenURL: auth.TokenURL(), ClientID: mailtest.OAuthClientID,
		ClientSecret: mailtest.OAuthClientSecret, RefreshTokenFile: file, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return src, file
}

// TestSourceRefreshesBeforeExpiry: a token of an hour is used for 55
// minutes and refreshed in its last five; a refused one is refreshed at
// once.
func TestSourceRefreshesBeforeExpiry(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	c := &clock{time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	src, _ := newSource(t, auth, c, auth.RefreshToken("judge@umpire.test", mailtest.OAuthAudience))
	ctx := context.Background()
	first, err := src.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.t.Add(55 * time.Minute); !first.Renew.Equal(want) || !first.Expiry.Equal(c.t.Add(time.Hour)) {
		t.Errorf("renew %v, expiry %v: want renewal at %v", first.Renew, first.Expiry, want)
	}
	c.t = c.t.Add(54 * time.Minute)
	if tok, _ := src.Token(ctx); tok.Access != first.Access || src.Refreshes() != 1 {
		t.Errorf("at 54 minutes the token was refreshed (%d refreshes)", src.Refreshes())
	}
	c.t = c.t.Add(time.Minute)
	second, err := src.Token(ctx)
	if err != nil || second.Access == first.Access || src.Refreshes() != 2 {
		t.Errorf("at 55 minutes: %v, %d refreshes", err, src.Refreshes())
	}
	src.Refused(second)
	if third, err := src.Token(ctx); err != nil || third.Access == second.Access {
		t.Errorf("after a refusal: %v, the same token again %v", err, third.Access == second.Access)
	}
	// A short-lived token is refreshed at half its life, not at once.
	auth.SetLifetime(4 * time.Minute)
	src.Refused(Token(src, ctx, t))
	tok := Token(src, ctx, t)
	if want := c.t.Add(2 * time.Minute); !tok.Renew.Equal(want) {
		t.Errorf("a 4-minute token renews at %v, want %v", tok.Renew, want)
	}
}

// Token is src's token, failing the test on an error.
func Token(src *oauth.Source, ctx context.Context, t *testing.T) oauth.Token {
	t.Helper()
	tok, err := src.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestSourceKeepsRotatedRefreshToken: an endpoint that rotates refresh
// tokens gets the new one written back, 0600, before it is used; the log
// says so, naming the file and not the token.
func TestSourceKeepsRotatedRefreshToken(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	auth.SetRotate(true)
	c := &clock{time.Now()}
	rt := auth.RefreshToken("judge@umpire.test", mailtest.OAuthAudience)
	src, file := newSource(t, auth, c, rt)
	var log strings.Builder
	src.SetLogger(slog.New(slog.NewTextHandler(&log, nil)))
	os.Chmod(file, 0o644)
	Token(src, context.Background(), t)
	got, err := oauth.ReadRefreshToken(file)
	fi, _ := os.Stat(file)
	if err != nil || got == rt || fi.Mode().Perm() != 0o600 {
		t.Errorf("after a rotation the file holds the old token %v, mode %v, %v", got == rt, fi.Mode().Perm(), err)
	}
	if want := `msg="oauth2 access token refreshed" token_url=` + auth.TokenURL() + ` refreshes=1 expires_in=1h0m0s renew_in=55m0s refresh_token_rotated_to=` + file; !strings.Contains(log.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, log.String())
	}
	for _, tok := range auth.Tokens() {
		if strings.Contains(log.String(), tok) {
			t.Errorf("the log holds a token:\n%s", log.String())
		}
	}
}

// TestSourceSaysWhyNoToken: the token endpoint's refusals are named with
// what to do, and no token is in them.
func TestSourceSaysWhyNoToken(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	c := &clock{time.Now()}
	rt := auth.RefreshToken("judge@umpire.test", mailtest.OAuthAudience)
	src, _ := newSource(t, auth, c, rt)
	auth.RevokeAll("judge@umpire.test")
	_, err := src.Token(context.Background())
	var re *oauth.RefreshError
	if !errors.As(err, &re) || re.Code != "invalid_grant" || !strings.Contains(err.Error(), "umpire mail authorize") || strings.Contains(err.Error(), rt) {
		t.Errorf("a revoked refresh token: %v", err)
	}
	if _, err := oauth.NewSource(oauth.Config{TokenURL: auth.TokenURL(), ClientID: "x", RefreshTokenFile: filepath.Join(t.TempDir(), "none")}); err == nil {
		t.Error("a missing refresh token file was taken")
	}
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if _, err := oauth.NewSource(oauth.Config{TokenURL: auth.TokenURL(), ClientID: "x", RefreshTokenFile: empty}); !errors.Is(err, oauth.ErrNoRefreshToken) {
		t.Errorf("an empty refresh token file: %v", err)
	}
}
