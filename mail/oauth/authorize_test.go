package oauth_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/oauth"
)

// TestAuthorize plays the operator through both flows against an
// authorization server on loopback: the refresh token lands in the file,
// mode 0600, and grants access tokens; nothing printed holds a token.
func TestAuthorize(t *testing.T) {
	auth := mailtest.NewAuthServer(t)
	const user = "judge@umpire.test"
	for _, flow := range []string{oauth.FlowLoopback, oauth.FlowDevice} {
		t.Run(flow, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "refresh.token")
			var out bytes.Buffer
			opened := ""
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			err := oauth.Authorize(ctx, oauth.AuthorizeOptions{
				Provider: oauth.ProviderFor(auth.TokenURL(), auth.AuthURL(), auth.DeviceURL(), []string{"mail"}),
				ClientID: mailtest.OAuthClientID, ClientSecret: mailtest.OAuthClientSecret, Flow: flow, LoginHint: user,
				RefreshTokenFile: file, Out: &out,
				Ready: func(u string) {
					opened = u
					go func() {
						if flow == oauth.FlowLoopback {
							// The browser: consent, and the redirect back.
							if resp, err := http.Get(u); err == nil {
								resp.Body.Close()
							}
							return
						}
						_, code, _ := strings.Cut(u, "#")
						auth.ApproveDevice(code, user)
					}()
				},
			})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if opened == "" || !strings.Contains(out.String(), strings.SplitN(opened, "#", 2)[0]) {
				t.Errorf("the operator was not told what to open (%q):\n%s", opened, out.String())
			}
			fi, err := os.Stat(file)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("the refresh token file: %v, %v", err, fi)
			}
			src, err := oauth.NewSource(oauth.Config{TokenURL: auth.TokenURL(), ClientID: mailtest.OAuthClientID, ClientSecret: mailtest.OAuthClientSecret, RefreshTokenFile: file})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := src.Token(ctx); err != nil {
				t.Errorf("the refresh token Authorize wrote: %v", err)
			}
			for _, tok := range auth.Tokens() {
				if strings.Contains(out.String(), tok) {
					t.Error("Authorize printed a token")
				}
			}
		})
	}
}

// TestProviderFor: Gmail and Microsoft 365 are known by their token
// endpoints, each with its scopes and flow.
func TestProviderFor(t *testing.T) {
	g := oauth.ProviderFor(oauth.GoogleTokenURL, "", "", nil)
	if g.Flow != oauth.FlowLoopback || g.Scopes[0] != "https://mail.google.com/" || g.AuthURL == "" {
		t.Errorf("Google: %+v", g)
	}
	m := oauth.ProviderFor("https://login.microsoftonline.com/contoso.example/oauth2/v2.0/token", "", "", nil)
	if m.Flow != oauth.FlowDevice || m.DeviceURL != "https://login.microsoftonline.com/contoso.example/oauth2/v2.0/devicecode" || len(m.Scopes) != 3 {
		t.Errorf("Microsoft: %+v", m)
	}
}
